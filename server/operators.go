package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	gossh "golang.org/x/crypto/ssh"

	"tapis/text"
)

// maxOperatorKeys bounds an --operator-keys file: a stand's few hosts,
// each key a line of at most a few kilobytes.
const maxOperatorKeys = 1 << 20

// Operators are the public keys that may run the stand's commands
// (ssh HOST pause, players, topup…), read from an authorized_keys file;
// every other key, and every guest, is refused them. The zero value
// holds none.
type Operators struct {
	keys map[string]bool // by SHA-256 fingerprint, as the accounts are named
}

// ReadOperators reads an --operator-keys file in OpenSSH's
// authorized_keys format: one public key a line, its options and comment
// allowed, blank lines and # comments skipped. A file that cannot be
// read, holds no key, or has a line that is no key is refused, naming
// the line.
func ReadOperators(path string) (Operators, error) {
	f, err := os.Open(path)
	if err != nil {
		return Operators{}, fmt.Errorf("--operator-keys: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOperatorKeys+1))
	if err != nil {
		return Operators{}, fmt.Errorf("--operator-keys %s: %w", text.Printable(path), err)
	}
	if len(data) > maxOperatorKeys {
		return Operators{}, fmt.Errorf("--operator-keys %s: larger than %d bytes: not an authorized_keys file", text.Printable(path), maxOperatorKeys)
	}
	o, err := ParseOperators(data)
	if err != nil {
		return Operators{}, fmt.Errorf("--operator-keys %s: %w", text.Printable(path), err)
	}
	return o, nil
}

// ParseOperators reads authorized_keys lines (ReadOperators).
func ParseOperators(data []byte) (Operators, error) {
	o := Operators{keys: map[string]bool{}}
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, _, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return Operators{}, fmt.Errorf("line %d: not a public key (want authorized_keys lines: ssh-ed25519 AAAA… comment)", n+1)
		}
		o.keys[gossh.FingerprintSHA256(key)] = true
	}
	if len(o.keys) == 0 {
		return Operators{}, errors.New("no public key in it")
	}
	return o, nil
}

// Len returns how many keys are operators'.
func (o Operators) Len() int { return len(o.keys) }

// has reports whether the key of that fingerprint is an operator's.
func (o Operators) has(fingerprint string) bool { return o.keys[fingerprint] }
