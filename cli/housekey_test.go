package cli

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tapis/ledger"
	"tapis/store"
)

// testKeyFile writes the tests' house key (ledger.PublicTestKey, which
// the tests' stores are sealed with) to a file of a new directory, mode
// 0600, and returns its path: no test writes .tapis/ in the package's
// directory.
func testKeyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "house_ed25519")
	if err := ledger.PublicTestKey().Write(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// otherKeyFile writes another house key than the tests' to a new file.
func otherKeyFile(t *testing.T) (string, ledger.PublicKey) {
	t.Helper()
	k, err := ledger.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "other_ed25519")
	if err := k.Write(path); err != nil {
		t.Fatal(err)
	}
	return path, k.Public()
}

// TestHouseKeyFlag: the game and simulate take --house-key with a store
// or a journal (.tapis/house_ed25519 unless told), and refuse it without
// either, or empty; serve's is beside its host key unless told, and never
// the host key itself.
func TestHouseKeyFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", "sqlite:x.db"}, ledger.DefaultKeyPath},
		{[]string{"--journal", "j.jsonl"}, ledger.DefaultKeyPath},
		{[]string{"--store", "x.db", "--house-key", "/keys/house"}, "/keys/house"},
		{nil, ""}, // in memory: nothing is recorded, nothing signed
	} {
		o, err := GameArgs(c.args, env(nil), io.Discard)
		if err != nil || o.Session.KeyFile != c.want {
			t.Errorf("game %q: key file %q, %v; want %q", c.args, o.Session.KeyFile, err, c.want)
		}
		s, err := simulateArgs(Env{}, c.args)
		if err != nil || s.houseKey != c.want {
			t.Errorf("simulate %q: key file %q, %v; want %q", c.args, s.houseKey, err, c.want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--house-key", "k"}, "--house-key goes with --store or --journal"},
		{[]string{"--store", "x.db", "--house-key", ""}, "--house-key is empty: want a file"},
	} {
		if _, err := GameArgs(c.args, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("game %q: %v, want %q", c.args, err, c.want)
		}
		usageErrors(t, "simulate", []usageCase{{c.args, c.want}})
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, filepath.Join(".tapis", "house_ed25519")},
		{[]string{"--host-key", "/etc/tapis/host"}, "/etc/tapis/house_ed25519"},
		{[]string{"--host-key", "/etc/tapis/host", "--house-key", "/backup/house"}, "/backup/house"},
	} {
		f, err := serveArgs(Env{}, c.args)
		if err != nil || f.houseKey != c.want {
			t.Errorf("serve %q: house key %q, %v; want %q", c.args, f.houseKey, err, c.want)
		}
	}
	usageErrors(t, "serve", []usageCase{
		{[]string{"--house-key", ""}, "--house-key is empty: want a file"},
		{[]string{"--host-key", "k", "--house-key", "./k"}, "--house-key and --host-key are the same file k"},
	})
}

// TestNewStoreMakesTheHouseKey: a seller creating a store makes the house's
// key where --house-key says, mode 0600 in a directory made 0700, its
// public half beside it: the key the emission is sealed with.
func TestNewStoreMakesTheHouseKey(t *testing.T) {
	dir := t.TempDir()
	key, url := filepath.Join(dir, "keys", "house_ed25519"), "sqlite:"+filepath.Join(dir, "new.db")
	if code, _, errOut := run(t, "", "simulate", "--store", url, "--house-key", key, "--count", "3"); code != ExitOK {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
	for path, want := range map[string]os.FileMode{key: 0o600, filepath.Dir(key): 0o700} {
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want mode %04o", path, info.Mode(), err, want)
		}
	}
	pub, err := ledger.ReadPublicKey(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), url, store.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if !st.Emission().Key().Equal(pub) {
		t.Errorf("the store is sealed by %s, the key made is %s", st.Emission().Key().Fingerprint(), pub.Fingerprint())
	}
}

// TestSellersRefuseAHouseKey: serve, simulate and the game refuse, in one
// line with exit status 2 (the game's is main's), a house key others may
// read, a store sealed by another key than theirs, and a store whose key
// file is missing: never a new key for an existing store, nor a host key
// for a serve refused.
func TestSellersRefuseAHouseKey(t *testing.T) {
	dir, house := houseStore(t)
	readable := filepath.Join(dir, "readable_ed25519")
	if err := ledger.PublicTestKey().Write(readable); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(readable, 0o644); err != nil {
		t.Fatal(err)
	}
	other, otherPub := otherKeyFile(t)
	missing := filepath.Join(dir, "missing_ed25519")
	url := "sqlite:" + house
	cases := []usageCase{
		{[]string{"--house-key", readable}, "house key " + readable + " can be read by others (mode 0644): chmod 600 " + readable},
		{[]string{"--house-key", other}, "the emission was sealed by the key " + ledger.PublicTestKey().Public().Fingerprint() +
			", not the house's " + otherPub.Fingerprint()},
		{[]string{"--house-key", missing}, "house key " + missing + ": no such file"},
	}
	for _, c := range cases {
		args := append([]string{"--store", url}, c.args...)
		usageErrors(t, "simulate", []usageCase{{args, c.want}})
		usageErrors(t, "serve", []usageCase{{append(args, "--host-key", filepath.Join(dir, "host"), "--listen", "127.0.0.1:0"), c.want}})
		o, err := GameArgs(args, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := o.Open(); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			if m != nil {
				m.Close()
			}
			t.Errorf("game %q: %v, want one line with %q", args, err, c.want)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("a seller made a key %s for an existing store", missing)
	}
	if _, err := os.Stat(filepath.Join(dir, "host")); err == nil {
		t.Errorf("serve, refused its store, made a host key all the same")
	}
}

// TestSimulateStopsOnAStoreChangedUnderIt: simulate --store stops at the
// first purchase its store refuses, once it found the store changed under
// it (emission.qa set to 1 with SQL while it sells): one line on standard
// error, exit status 1.
func TestSimulateStopsOnAStoreChangedUnderIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.db")
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := run(t, "", "simulate", "--store", "sqlite:"+path, "--house-key", testKeyFile(t), "--count", "5000000")
		done <- result{code, out, errOut}
	}()
	// mode=rw: the test's reads never create the store's file before
	// simulate does.
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var n int
		if db.QueryRow(`SELECT COUNT(*) FROM purchases`).Scan(&n) == nil && n >= 10 {
			break
		}
		select {
		case r := <-done:
			t.Fatalf("simulate ended before the store was changed: exit %d, %s%s", r.code, r.out, r.errOut)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("simulate sold nothing in 30 s")
		}
	}
	if _, err := db.Exec(`UPDATE emission SET qa = 1`); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.code != ExitInvalid || !strings.HasPrefix(r.errOut, "tapis simulate: buying unit ") || strings.Count(r.errOut, "\n") != 1 ||
			!strings.Contains(r.errOut, "store changed under its seller: the emission's QA flag is 1, sealed as 0") {
			t.Errorf("simulate: exit %d, stderr %q", r.code, r.errOut)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("simulate sold on for a minute on a store changed under it")
	}
}
