package server

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"

	"tapis/store"
)

// HostKey returns the server's host key kept in the file at path, in PEM,
// and its fingerprint (SHA256:…, what players' ssh shows the first time).
// With no file there, it creates one: an ed25519 key, mode 0600, in a
// directory created with mode 0700 if missing (an existing directory is
// left as it is). A key that others may read is refused, as ssh refuses
// one.
func HostKey(path string) (key []byte, fingerprint string, err error) {
	key, fingerprint, _, err = OpenHostKey(path)
	return key, fingerprint, err
}

// OpenHostKey is HostKey, and reports whether it created the key: a host
// key just made where one was expected (the server run from another
// folder) makes every player's ssh warn of a changed key, which the
// server's first lines say.
func OpenHostKey(path string) (key []byte, fingerprint string, created bool, err error) {
	key, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = newHostKey(path)
		created = err == nil
	} else if err == nil {
		err = store.Private("host key", path)
	}
	if err != nil {
		return nil, "", false, err
	}
	signer, err := gossh.ParsePrivateKey(key)
	if err != nil {
		return nil, "", false, fmt.Errorf("host key %s: %w", path, err)
	}
	return key, gossh.FingerprintSHA256(signer.PublicKey()), created, nil
}

// newHostKey creates an ed25519 host key in a new file at path.
func newHostKey(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "tapis serve")
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	key := pem.EncodeToMemory(block)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	return key, nil
}
