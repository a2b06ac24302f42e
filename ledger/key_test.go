package ledger

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// TestOpenKeyCreatesThenLoads: a key made where there was none is written
// mode 0600 with its public half beside it, and read back the same.
func TestOpenKeyCreatesThenLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "house_ed25519")
	if _, err := OpenKey(path, false); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("no key, not to be made: %v", err)
	}
	made, err := OpenKey(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if !made.Valid() {
		t.Fatal("the key made is not valid")
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("key file mode %04o, want 0600", perm)
	}
	if dir, err := os.Stat(filepath.Dir(path)); err != nil || dir.Mode().Perm() != 0o700 {
		t.Errorf("key directory: %v, mode %v", err, dir.Mode())
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(pub)); got != made.Public().String() || !strings.HasPrefix(got, "ssh-ed25519 AAAA") {
		t.Errorf("%s.pub holds %q, want %q", path, got, made.Public().String())
	}
	again, err := OpenKey(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Public().Equal(made.Public()) {
		t.Error("the key read back is another")
	}
	// The file is OpenSSH's, as ssh-keygen reads it.
	raw, _ := os.ReadFile(path)
	if _, err := ssh.ParseRawPrivateKey(raw); err != nil {
		t.Errorf("ssh cannot read the key written: %v", err)
	}
	var h Hash
	h[0] = 7
	if !again.Public().Verify(h, made.Sign(h)) {
		t.Error("the key read back does not verify what the one made signed")
	}
}

// TestLoadKeyRefuses: a key others may read, a file that is no key, an
// RSA key, each refused in one line naming the file, and no key made over
// them.
func TestLoadKeyRefuses(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := PublicTestKey().Write(good); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(dir, "open")
	if err := PublicTestKey().Write(open); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o640); err != nil {
		t.Fatal(err)
	}
	notKey := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notKey, []byte("not a key at all\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rsaKey := filepath.Join(dir, "id_rsa")
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(k, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rsaKey, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 20<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKey(good); err != nil {
		t.Fatalf("the good key: %v", err)
	}
	for _, c := range []struct{ path, want string }{
		{open, "can be read by others (mode 0640): chmod 600 " + open},
		{notKey, "is not an OpenSSH private key without a passphrase"},
		{rsaKey, "is not an ed25519 key"},
		{big, "not a key"},
		{filepath.Join(dir, "none"), "no such file"},
	} {
		_, err := LoadKey(c.path)
		if err == nil {
			t.Errorf("%s: read as a key", c.path)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || !strings.Contains(msg, c.path) || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q, want one line naming it with %q", c.path, msg, c.want)
		}
		if c.path != filepath.Join(dir, "none") {
			if _, err := OpenKey(c.path, true); err == nil {
				t.Errorf("%s: OpenKey made a key over it", c.path)
			}
		}
	}
	// Write makes no key over one that exists.
	if err := PublicTestKey().Write(good); err == nil {
		t.Error("Write wrote over a key")
	}
}

// TestParsePublicKey: the key as an authorized line (a comment allowed),
// in hexadecimal, or in a file; anything else refused in one line.
func TestParsePublicKey(t *testing.T) {
	want := PublicTestKey().Public()
	line := want.String()
	if !strings.HasPrefix(line, "ssh-ed25519 AAAA") {
		t.Fatalf("String %q", line)
	}
	raw := PublicTestKey().private.Public().(ed25519.PublicKey)
	dir := t.TempDir()
	file := filepath.Join(dir, "house.pub")
	if err := os.WriteFile(file, []byte(line+" tapis house\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{line, line + " tapis house", "  " + line + "\n", hex.EncodeToString(raw), strings.ToUpper(hex.EncodeToString(raw))} {
		got, err := ParsePublicKey(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParsePublicKey(%q): %v, %v", s, got, err)
		}
		if got, err := ReadPublicKey(s); err != nil || !got.Equal(want) {
			t.Errorf("ReadPublicKey(%q): %v, %v", s, got, err)
		}
	}
	if got, err := ReadPublicKey(file); err != nil || !got.Equal(want) {
		t.Errorf("ReadPublicKey(file): %v, %v", got, err)
	}
	if fp, err := ssh.ParsePublicKey(want.wire()); err != nil || ssh.FingerprintSHA256(fp) != want.Fingerprint() {
		t.Errorf("fingerprint %s, ssh's %v (%v)", want.Fingerprint(), fp, err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rsaPub, err := ssh.NewPublicKey(&rsaKey.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	rsaLine := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(rsaPub)))
	notKey := filepath.Join(dir, "notes")
	if err := os.WriteFile(notKey, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ arg, want string }{
		{rsaLine, "neither a public key nor a file"},
		{"ssh-ed25519 AAAAnot-base64", "neither a public key nor a file"},
		{hex.EncodeToString(raw[:31]), "neither a public key nor a file"},
		{filepath.Join(dir, "none.pub"), "neither a public key nor a file"},
		{strings.Repeat("A", 300), "neither a public key nor a file"}, // longer than a file name: an RSA key's base64 may be
		{notKey, "not a public key: want ssh-ed25519 AAAA… or 64 hexadecimal digits"},
	} {
		_, err := ReadPublicKey(c.arg)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ReadPublicKey(%.40q): %v, want one line with %q", c.arg, err, c.want)
		}
	}
	if _, err := ParsePublicKey(rsaLine); err == nil || !strings.Contains(err.Error(), "a ssh-rsa key, not an ed25519 one") {
		t.Errorf("an RSA key: %v", err)
	}
}
