package ledger

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tapis/game"
)

// Format is the emission format this tapis writes and sells: 256-bit seeds
// derived by HMAC-SHA256, commitments bound to their block, a sealed
// emission and a signed, chained history. Format 1 (tapis before it, 64-bit
// seeds) is read by no seller.
const Format = 2

// Hash is a SHA-256: of a record and the chain before it, of a seal, a
// mark or a head.
type Hash [32]byte

// String returns the hash in hexadecimal.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is the zero hash (none).
func (h Hash) IsZero() bool { return h == Hash{} }

// ParseHash reads a hash as String writes it.
func ParseHash(s string) (Hash, error) {
	var h Hash
	raw, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != len(h) {
		return h, errors.New("a hash is 64 hexadecimal digits")
	}
	copy(h[:], raw)
	return h, nil
}

// ParseSig reads a signature as Sig.String writes it.
func ParseSig(s string) (Sig, error) {
	var sig Sig
	raw, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != len(sig) {
		return sig, errors.New("a signature is 128 hexadecimal digits")
	}
	copy(sig[:], raw)
	return sig, nil
}

// enc writes fields unambiguously, then hashes them: each string with its
// length before it, each number on eight bytes. Two different records
// never give the same bytes. The fields are gathered in one buffer and
// hashed at once: a record's hash costs one allocation.
type enc struct{ b []byte }

func newEnc(domain string) *enc {
	e := &enc{b: make([]byte, 0, 512)}
	e.str("tapis/" + domain)
	return e
}

func (e *enc) str(s string) {
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *enc) num(n int64) { e.b = binary.BigEndian.AppendUint64(e.b, uint64(n)) }

func (e *enc) bytes(b []byte) {
	e.b = binary.AppendUvarint(e.b, uint64(len(b)))
	e.b = append(e.b, b...)
}

func (e *enc) sum() Hash { return sha256.Sum256(e.b) }

// Seal is what fixes an emission, recorded once when it is created and
// signed: its format, the commitment of its master seed, its lot tables,
// whether it is a QA emission, how many blocks it sells side by side, when
// it was made, and the house's public key. Any later change of one of them
// is seen by its hash.
type Seal struct {
	Format     int
	Commitment [32]byte // game.Seed.Commitment of the emission's master seed
	Tables     string   // the lot tables, as the emission records them
	QA         bool
	OpenBlocks int
	Created    int64 // nanoseconds since 1970
	Key        PublicKey
}

// Hash returns the seal's hash: what its signature signs, and what every
// chain and head of the emission starts from.
func (s Seal) Hash() Hash {
	e := newEnc("seal")
	e.num(int64(s.Format))
	e.bytes(s.Commitment[:])
	e.str(s.Tables)
	qa := int64(0)
	if s.QA {
		qa = 1
	}
	e.num(qa)
	e.num(int64(s.OpenBlocks))
	e.num(s.Created)
	e.bytes(s.Key.key)
	return e.sum()
}

// Genesis is the hash an account's chain starts from: bound to the
// emission and the account, so that no record moves to another.
func Genesis(seal Hash, account string) Hash {
	e := newEnc("genesis")
	e.bytes(seal[:])
	e.str(account)
	return e.sum()
}

// Record is a record of an account's chain: a deposit or a purchase.
type Record interface {
	write(e *enc)
}

// Link returns the hash of the record at place seq of an account's chain
// (from 1) of the emission sealed by seal, after the record whose hash is
// prev (the genesis for the first). Editing, inserting or deleting any
// record changes the hash of every record after it; the seal binds each
// record, and so its receipt, to its emission alone.
func Link(seal, prev Hash, seq int64, r Record) Hash {
	e := newEnc("record")
	e.bytes(seal[:])
	e.bytes(prev[:])
	e.num(seq)
	r.write(e)
	return e.sum()
}

// Deposit is money added to an account (its n-th deposit, after its
// purchase number After).
type Deposit struct {
	Account string
	N       int
	Amount  game.Cents
	After   int
	At      int64
}

func (d Deposit) write(e *enc) {
	e.str("deposit")
	e.str(d.Account)
	e.num(int64(d.N))
	e.num(int64(d.Amount))
	e.num(int64(d.After))
	e.num(d.At)
}

// Purchase is a unit sold to an account: every field the store records of
// it but whether it was shown (a Mark).
type Purchase struct {
	Account string
	Number  int    // the account's purchase number, from 1
	Unit    string // the unit's name: GAME:STAKE:BLOCK:SERIAL, or a forced unit's
	Block   int64  // 0 for a forced unit
	Serial  int64
	Label   string // a forced unit's label, "" for a unit of a block
	Tier    int
	Stake   game.Cents
	Prize   game.Cents
	Before  game.Cents
	After   game.Cents
	Layout  string // the layout as recorded (JSON)
	At      int64  // nanoseconds since 1970
}

func (p Purchase) write(e *enc) {
	e.str("purchase")
	e.str(p.Account)
	e.num(int64(p.Number))
	e.str(p.Unit)
	e.num(p.Block)
	e.num(p.Serial)
	e.str(p.Label)
	e.num(int64(p.Tier))
	e.num(int64(p.Stake))
	e.num(int64(p.Prize))
	e.num(int64(p.Before))
	e.num(int64(p.After))
	layout := sha256.Sum256([]byte(p.Layout))
	e.bytes(layout[:])
	e.num(p.At)
}

// Mark values: a unit shown to its player, or left unshown when its
// session ended.
const (
	Shown = 1
	Left  = 2
)

// Mark is a unit's state once its reveal is over: shown or left.
type Mark struct {
	Account string `json:"account"`
	Unit    string `json:"unit"`
	Value   int    `json:"shown"`
}

// Hash returns what the mark's signature signs.
func (m Mark) Hash(seal Hash) Hash {
	e := newEnc("mark")
	e.bytes(seal[:])
	e.str(m.Account)
	e.str(m.Unit)
	e.num(int64(m.Value))
	return e.sum()
}

// BlockOpened is a block put on sale, its commitment published.
type BlockOpened struct {
	Block      string // GAME:STAKE:N
	Units      int64
	Commitment string
	At         int64
}

// Hash returns what the opening's signature signs.
func (b BlockOpened) Hash(seal Hash) Hash {
	e := newEnc("block-opened")
	e.bytes(seal[:])
	e.str(b.Block)
	e.num(b.Units)
	e.str(b.Commitment)
	e.num(b.At)
	return e.sum()
}

// BlockClosed is a block sold out, its seed revealed.
type BlockClosed struct {
	Block string
	Seed  string
	At    int64
}

// Hash returns what the closing's signature signs.
func (b BlockClosed) Hash(seal Hash) Hash {
	e := newEnc("block-closed")
	e.bytes(seal[:])
	e.str(b.Block)
	e.str(b.Seed)
	e.num(b.At)
	return e.sum()
}

// sealJSON is a seal as the emission keeps its signed copy: the columns
// verify compares with it, one by one, to name the one changed.
type sealJSON struct {
	Format     int    `json:"format"`
	Commitment string `json:"commitment"`
	Tables     string `json:"tables"`
	QA         bool   `json:"qa"`
	OpenBlocks int    `json:"open_blocks"`
	Created    int64  `json:"created"`
	Key        string `json:"key"`
}

// MarshalJSON writes the seal's signed copy.
func (s Seal) MarshalJSON() ([]byte, error) {
	return json.Marshal(sealJSON{Format: s.Format, Commitment: hex.EncodeToString(s.Commitment[:]), Tables: s.Tables,
		QA: s.QA, OpenBlocks: s.OpenBlocks, Created: s.Created, Key: s.Key.String()})
}

// UnmarshalJSON reads the seal's signed copy.
func (s *Seal) UnmarshalJSON(b []byte) error {
	var j sealJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	c, err := ParseHash(j.Commitment)
	if err != nil {
		return fmt.Errorf("the seal's commitment: %w", err)
	}
	k, err := ParsePublicKey(j.Key)
	if err != nil {
		return fmt.Errorf("the seal's key: %w", err)
	}
	*s = Seal{Format: j.Format, Commitment: c, Tables: j.Tables, QA: j.QA, OpenBlocks: j.OpenBlocks, Created: j.Created, Key: k}
	return nil
}
