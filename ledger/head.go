package ledger

import (
	"encoding/json"
	"fmt"
)

// MarshalText writes the hash in hexadecimal, in JSON.
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads a hash in hexadecimal.
func (h *Hash) UnmarshalText(b []byte) error {
	v, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// MarshalText writes the signature in hexadecimal, in JSON.
func (s Sig) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a signature in hexadecimal.
func (s *Sig) UnmarshalText(b []byte) error {
	v, err := ParseSig(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// AccountHead is where an account's chain stood when a head was signed:
// its record at place Seq had hash Hash.
type AccountHead struct {
	Account string `json:"account"`
	Seq     int64  `json:"seq"`
	Hash    Hash   `json:"hash"`
}

// Head is a signed head: what one seller recorded since its head before
// (the accounts whose chains it extended, the units it marked), chained to
// the store's previous head. Blocks opened and closed are signed each on
// its own (BlockOpened, BlockClosed): a store has few of them. A seller
// signs one every few seconds while it records, and one as it closes.
// Whoever holds a head can show any later rewrite of what it covers, even
// by an insider holding the key: the store's head N must keep its hash.
type Head struct {
	N      int64
	Prev   Hash // the hash of head N-1; the seal's for head 1
	Seal   Hash
	Seller string // the seller's identity (host, pid)
	At     int64  // nanoseconds since 1970
	Body   HeadBody
}

// HeadBody is what a head covers.
type HeadBody struct {
	Accounts []AccountHead `json:"accounts,omitempty"`
	Marks    []Mark        `json:"marks,omitempty"`
}

// Empty reports whether the body covers nothing.
func (b HeadBody) Empty() bool {
	return len(b.Accounts) == 0 && len(b.Marks) == 0
}

// Hash returns the head's hash, what its signature signs.
func (h Head) Hash() Hash {
	e := newEnc("head")
	e.num(h.N)
	e.bytes(h.Prev[:])
	e.bytes(h.Seal[:])
	e.str(h.Seller)
	e.num(h.At)
	e.num(int64(len(h.Body.Accounts)))
	for _, a := range h.Body.Accounts {
		e.str(a.Account)
		e.num(a.Seq)
		e.bytes(a.Hash[:])
	}
	e.num(int64(len(h.Body.Marks)))
	for _, m := range h.Body.Marks {
		e.str(m.Account)
		e.str(m.Unit)
		e.num(int64(m.Value))
	}
	return e.sum()
}

// EncodeBody writes a head's body as the store records it.
func EncodeBody(b HeadBody) (string, error) {
	out, err := json.Marshal(b)
	if err != nil {
		return "", fmt.Errorf("a head's body: %w", err)
	}
	return string(out), nil
}

// DecodeBody reads a head's body as the store records it.
func DecodeBody(s string) (HeadBody, error) {
	var b HeadBody
	if err := json.Unmarshal([]byte(s), &b); err != nil {
		return b, fmt.Errorf("a head's body does not read: %w", err)
	}
	return b, nil
}

// HeadToken is a head as sellers publish it (in their log and on the
// board) and auditors keep it: its number, hash and signature. With the
// house's public key anyone checks it offline; given to verify --heads, it
// shows any later rewrite of the store's history up to it.
type HeadToken struct {
	N    int64 `json:"head"`
	Seal Hash  `json:"seal"`
	Hash Hash  `json:"hash"`
	Sig  Sig   `json:"sig"`
}

// Token returns the head's token, signed by sig.
func (h Head) Token(sig Sig) HeadToken {
	return HeadToken{N: h.N, Seal: h.Seal, Hash: h.Hash(), Sig: sig}
}

// Statement returns what a head's signature signs: its number, its
// emission's seal and its hash, under a domain of their own, so that no
// other signature of the house (a record's, a mark's) can be shown as a
// head's, and a head of one emission as another's.
func (t HeadToken) Statement() Hash {
	e := newEnc("head-token")
	e.bytes(t.Seal[:])
	e.num(t.N)
	e.bytes(t.Hash[:])
	return e.sum()
}

// Statement returns what the head's signature signs (HeadToken.Statement).
func (h Head) Statement() Hash { return h.Token(Sig{}).Statement() }

// Check reports whether the token is signed by key.
func (t HeadToken) Check(key PublicKey) error {
	if !key.Verify(t.Statement(), t.Sig) {
		return fmt.Errorf("head %d: its signature is not the house key's", t.N)
	}
	return nil
}

// String writes the token as one line of JSON.
func (t HeadToken) String() string {
	b, _ := json.Marshal(t) // hashes and numbers always marshal
	return string(b)
}
