// Package ledger is what makes the house's history tamper-evident: the
// house's signing key, the canonical bytes and hashes of every record that
// moves money or units (a deposit, a purchase, a unit shown, a block opened
// or closed), the chains that link them, the signed heads that cover them,
// and the receipts players keep. It knows nothing of where records are
// stored: the store and the journal write them, verify and receipt read
// them back.
package ledger

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/crypto/ssh"

	"tapis/text"
)

// Key is the house's signing key (ed25519). It lives in a file of its own,
// mode 0600, beside the SSH host key and never in the store: whoever edits
// the store without it cannot sign what they wrote.
type Key struct {
	private ed25519.PrivateKey
	public  PublicKey
}

// keyOf returns the Key of a private key, its public half made once.
func keyOf(priv ed25519.PrivateKey) Key {
	return Key{private: priv, public: publicKey(priv.Public().(ed25519.PublicKey))}
}

// PublicKey is the house's public key: what players and auditors check
// signatures against. The log's first lines and the board print it.
type PublicKey struct {
	key ed25519.PublicKey
	// line is its authorized_keys line, written once by publicKey (every
	// receipt carries it); String writes it of a key made otherwise.
	line string
}

// publicKey returns k as a PublicKey, its line written.
func publicKey(k ed25519.PublicKey) PublicKey {
	p := PublicKey{key: k}
	p.line = p.authorizedLine()
	return p
}

// authorizedLine writes the key as an authorized_keys line, "" when it
// holds none.
func (p PublicKey) authorizedLine() string {
	if !p.Valid() {
		return ""
	}
	pk, err := ssh.NewPublicKey(p.key)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pk)))
}

// DefaultKeyPath is where sellers keep the house's key unless told: beside
// serve's host key.
const DefaultKeyPath = ".tapis/house_ed25519"

// NewKey draws a new key from the system's secure source.
func NewKey() (Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Key{}, fmt.Errorf("drawing the house's key: %w", err)
	}
	return keyOf(priv), nil
}

// KeyFromSeed makes the key of a 32-byte seed: tests' keys, the same at
// every run.
func KeyFromSeed(seed [32]byte) Key { return keyOf(ed25519.NewKeyFromSeed(seed[:])) }

// LoadKey reads the house's key from its file (OpenSSH's format, as
// ssh-keygen -t ed25519 writes it), refusing a file others may read.
func LoadKey(path string) (Key, error) {
	p := text.Printable(path)
	raw, info, err := readSmall(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Key{}, fmt.Errorf("house key %s: no such file", p)
	}
	if err != nil {
		return Key{}, fmt.Errorf("house key %s: %w", p, err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return Key{}, fmt.Errorf("house key %s can be read by others (mode %04o): chmod 600 %s", p, perm, p)
	}
	k, err := ssh.ParseRawPrivateKey(raw)
	if err != nil {
		return Key{}, fmt.Errorf("house key %s is not an OpenSSH private key without a passphrase", p)
	}
	priv, ok := k.(*ed25519.PrivateKey)
	if !ok {
		return Key{}, fmt.Errorf("house key %s is not an ed25519 key", p)
	}
	return keyOf(*priv), nil
}

// OpenKey reads the house's key at path, or, when there is none and create
// is set, draws one and writes it there (mode 0600, in a directory made
// 0700), with its public half beside it (PATH.pub). Sellers starting a new
// store at once each find the one key the first of them wrote.
func OpenKey(path string, create bool) (Key, error) {
	k, err := LoadKey(path)
	if err == nil || !create {
		return k, err
	}
	if _, serr := os.Stat(path); !errors.Is(serr, fs.ErrNotExist) {
		return k, err
	}
	if k, err = NewKey(); err != nil {
		return k, err
	}
	switch err := k.Write(path); {
	case errors.Is(err, fs.ErrExist):
		return LoadKey(path) // another seller wrote it first
	case err != nil:
		return Key{}, err
	}
	return k, nil
}

// Write writes the key to a new file at path, mode 0600, whole or not at
// all (written aside, then linked in place), and its public half to
// PATH.pub. A file already at path is left alone: fs.ErrExist.
func (k Key) Write(path string) error {
	p := text.Printable(path)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("house key %s: %w", p, err)
	}
	block, err := ssh.MarshalPrivateKey(k.private, "tapis house")
	if err != nil {
		return fmt.Errorf("house key %s: %w", p, err)
	}
	f, err := os.CreateTemp(dir, ".house-key-*")
	if err != nil {
		return fmt.Errorf("house key %s: %w", p, err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(pem.EncodeToMemory(block)); err != nil {
		f.Close()
		return fmt.Errorf("house key %s: %w", p, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("house key %s: %w", p, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("house key %s: %w", p, err)
	}
	if err := os.Link(f.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("house key %s: %w", p, fs.ErrExist)
		}
		return fmt.Errorf("house key %s: %w", p, err)
	}
	if err := os.WriteFile(path+".pub", []byte(k.Public().String()+"\n"), 0o644); err != nil {
		return fmt.Errorf("house key %s.pub: %w", p, err)
	}
	return nil
}

// Public returns the key's public half; the zero Key has none.
func (k Key) Public() PublicKey {
	if !k.Valid() {
		return PublicKey{}
	}
	return k.public
}

// Valid reports whether the key was loaded or made: the zero Key signs
// nothing.
func (k Key) Valid() bool { return len(k.private) == ed25519.PrivateKeySize }

// Sign signs a hash. The zero Key signs nothing: its signature is zero,
// which no key verifies.
func (k Key) Sign(h Hash) Sig {
	var s Sig
	if !k.Valid() {
		return s
	}
	copy(s[:], ed25519.Sign(k.private, h[:]))
	return s
}

// Sig is an ed25519 signature of a Hash.
type Sig [ed25519.SignatureSize]byte

// String returns the signature in hexadecimal.
func (s Sig) String() string { return hex.EncodeToString(s[:]) }

// Verify reports whether sig is the key's signature of h.
func (p PublicKey) Verify(h Hash, sig Sig) bool {
	return len(p.key) == ed25519.PublicKeySize && ed25519.Verify(p.key, h[:], sig[:])
}

// Valid reports whether the key holds a key.
func (p PublicKey) Valid() bool { return len(p.key) == ed25519.PublicKeySize }

// Equal reports whether two public keys are the same.
func (p PublicKey) Equal(q PublicKey) bool { return p.key.Equal(q.key) }

// String returns the key as an authorized_keys line: ssh-ed25519 AAAA….
func (p PublicKey) String() string {
	if p.line == "" {
		return p.authorizedLine()
	}
	return p.line
}

// Fingerprint returns the key's SHA256: fingerprint, as ssh-keygen -l
// prints it.
func (p PublicKey) Fingerprint() string {
	sum := sha256.Sum256(p.wire())
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// wire is the key in SSH's wire format.
func (p PublicKey) wire() []byte {
	pk, err := ssh.NewPublicKey(p.key)
	if err != nil {
		return nil
	}
	return pk.Marshal()
}

// ParsePublicKey reads a public key as String writes it (ssh-ed25519
// BASE64, a comment allowed), or 64 hexadecimal digits.
func ParsePublicKey(s string) (PublicKey, error) {
	s = strings.TrimSpace(s)
	if raw, err := hex.DecodeString(s); err == nil && len(raw) == ed25519.PublicKeySize {
		return publicKey(ed25519.PublicKey(raw)), nil
	}
	pk, _, _, _, err := ssh.ParseAuthorizedKey([]byte(s))
	if err != nil {
		return PublicKey{}, errors.New("not a public key: want ssh-ed25519 AAAA… or 64 hexadecimal digits")
	}
	cpk, ok := pk.(ssh.CryptoPublicKey)
	if !ok {
		return PublicKey{}, errors.New("not an ed25519 public key")
	}
	ek, ok := cpk.CryptoPublicKey().(ed25519.PublicKey)
	if !ok {
		return PublicKey{}, fmt.Errorf("a %s key, not an ed25519 one", pk.Type())
	}
	return publicKey(ek), nil
}

// ReadPublicKey reads a public key given on a command line: the key itself,
// or the path of a file holding it (a .pub file).
func ReadPublicKey(arg string) (PublicKey, error) {
	if k, err := ParsePublicKey(arg); err == nil {
		return k, nil
	}
	raw, _, err := readSmall(arg)
	// A key of another kind, or a long line, is no path either: its base64
	// may run past a file name's 255 bytes between two slashes.
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENAMETOOLONG) {
		return PublicKey{}, fmt.Errorf("--key %s: neither a public key nor a file", text.Printable(arg))
	}
	if err != nil {
		return PublicKey{}, fmt.Errorf("--key %s: %w", text.Printable(arg), err)
	}
	k, err := ParsePublicKey(string(raw))
	if err != nil {
		return PublicKey{}, fmt.Errorf("--key %s: %v", text.Printable(arg), err)
	}
	return k, nil
}

// PublicTestKey returns a key whose private half anyone can make: tests'
// stores sign with it. No seller signs with it unless told to.
func PublicTestKey() Key { return KeyFromSeed(sha256.Sum256([]byte("tapis/test key: known to all"))) }

// ErrNoKey is returned by Resolve when neither a key nor its file is given.
var ErrNoKey = errors.New("no house key given")

// Resolve returns the key a seller signs with: key when it is valid, else
// the one in file (made there when create is set: a new store or journal).
func Resolve(key Key, file string, create bool) (Key, error) {
	if key.Valid() {
		return key, nil
	}
	if file == "" {
		return Key{}, ErrNoKey
	}
	return OpenKey(file, create)
}

// maxKeyFile is the largest key file read: an ed25519 key's is under 500
// bytes.
const maxKeyFile = 16 << 10

// readSmall reads a key file, a regular file of at most maxKeyFile bytes,
// from the file it opened (its mode is the open file's): never a device,
// a pipe or a directory, and never more than that.
func readSmall(path string) ([]byte, fs.FileInfo, error) {
	if info, err := os.Stat(path); err != nil {
		return nil, nil, err
	} else if !info.Mode().IsRegular() { // a pipe would block the open itself
		return nil, info, errors.New("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, info, errors.New("not a regular file")
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, info, err
	}
	if len(raw) > maxKeyFile {
		return nil, info, fmt.Errorf("more than %d bytes: not a key", maxKeyFile)
	}
	return raw, info, nil
}
