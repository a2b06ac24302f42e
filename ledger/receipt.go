package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// ReceiptVersion is the receipt format this tapis writes.
const ReceiptVersion = 1

// Receipt is what a player keeps of a purchase: the purchase as the house
// recorded it, its place in the account's chain (Seq, after the record
// whose hash is Prev), its hash and the house's signature. Anyone holding
// it and the house's public key checks it offline (Check); given to
// verify --heads, it shows a purchase later rolled back or rewritten.
type Receipt struct {
	Version int             `json:"receipt"`
	Account string          `json:"account"`
	Seq     int64           `json:"seq"`
	Number  int             `json:"purchase"`
	Unit    string          `json:"unit"`
	Block   int64           `json:"block,omitempty"`
	Serial  int64           `json:"serial"`
	Label   string          `json:"label,omitempty"`
	Tier    int             `json:"tier"`
	Stake   decimal.Decimal `json:"stake"`
	Prize   decimal.Decimal `json:"prize"`
	Before  decimal.Decimal `json:"before"`
	After   decimal.Decimal `json:"after"`
	At      time.Time       `json:"at"`
	Layout  json.RawMessage `json:"layout"`
	Seal    Hash            `json:"seal"`
	Prev    Hash            `json:"prev"`
	Hash    Hash            `json:"hash"`
	Sig     Sig             `json:"sig"`
	Key     string          `json:"key"`
}

// NewReceipt returns the receipt of a purchase recorded at place seq of its
// account's chain.
func NewReceipt(p Purchase, seq int64, seal, prev, hash Hash, sig Sig, key PublicKey) Receipt {
	return Receipt{
		Version: ReceiptVersion, Account: p.Account, Seq: seq, Number: p.Number, Unit: p.Unit,
		Block: p.Block, Serial: p.Serial, Label: p.Label, Tier: p.Tier,
		Stake: p.Stake.Decimal(), Prize: p.Prize.Decimal(), Before: p.Before.Decimal(), After: p.After.Decimal(),
		At: time.Unix(0, p.At).UTC(), Layout: json.RawMessage(p.Layout),
		Seal: seal, Prev: prev, Hash: hash, Sig: sig, Key: key.String(),
	}
}

// Purchase returns the purchase the receipt records.
func (r Receipt) Purchase() (Purchase, error) {
	p := Purchase{Account: r.Account, Number: r.Number, Unit: r.Unit, Block: r.Block, Serial: r.Serial,
		Label: r.Label, Tier: r.Tier, Layout: string(r.Layout), At: r.At.UnixNano()}
	for _, f := range []struct {
		name string
		d    decimal.Decimal
		to   *game.Cents
	}{{"stake", r.Stake, &p.Stake}, {"prize", r.Prize, &p.Prize}, {"before", r.Before, &p.Before}, {"after", r.After, &p.After}} {
		c, ok := game.CentsOf(f.d)
		if !ok {
			return p, fmt.Errorf("%s %s is not a whole number of cents", f.name, f.d)
		}
		*f.to = c
	}
	return p, nil
}

// Check checks the receipt offline against the house's public key: its
// hash is its purchase's, after Prev at place Seq, and the key signed it.
func (r Receipt) Check(key PublicKey) error {
	if r.Version != ReceiptVersion {
		return fmt.Errorf("a receipt of format %d, this tapis reads %d", r.Version, ReceiptVersion)
	}
	p, err := r.Purchase()
	if err != nil {
		return err
	}
	if r.Seq < 1 || r.Number < 1 {
		return fmt.Errorf("place %d, purchase %d: they count from 1", r.Seq, r.Number)
	}
	if r.Seq == 1 && r.Prev != Genesis(r.Seal, r.Account) {
		return errors.New("the account's first record does not start from its emission")
	}
	if Link(r.Prev, r.Seq, p) != r.Hash {
		return errors.New("its hash is not the one its purchase gives: the receipt was changed")
	}
	if !key.Verify(r.Hash, r.Sig) {
		return errors.New("its signature is not the house key's")
	}
	return nil
}

// String writes the receipt as one line of JSON.
func (r Receipt) String() string {
	b, err := json.Marshal(r)
	if err != nil {
		return ""
	}
	return string(b)
}

// MaxLine is the longest line Read takes: a receipt with its layout is
// well under it.
const MaxLine = 64 << 10

// MaxTokens is how many receipts and heads Read takes from one file.
const MaxTokens = 1 << 20

// Tokens are receipts and heads read from a file.
type Tokens struct {
	Receipts []Receipt
	Heads    []HeadToken
}

// Read reads receipts and heads, one a line, as tapis receipt prints them
// and as a seller's log writes heads (a line holding {"head":…}). Blank
// lines and lines holding neither are skipped; a line that starts one and
// does not read is an error naming it.
func Read(r io.Reader) (Tokens, error) {
	var out Tokens
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		switch i := bytes.Index(line, []byte(`{"receipt":`)); {
		case i >= 0:
			var rc Receipt
			if err := decodeOne(line[i:], &rc); err != nil {
				return out, fmt.Errorf("line %d: a receipt that does not read: %v", n, err)
			}
			out.Receipts = append(out.Receipts, rc)
		default:
			i := bytes.Index(line, []byte(`{"head":`))
			if i < 0 {
				continue
			}
			var h HeadToken
			if err := decodeOne(line[i:], &h); err != nil {
				return out, fmt.Errorf("line %d: a head that does not read: %v", n, err)
			}
			out.Heads = append(out.Heads, h)
		}
		if len(out.Receipts)+len(out.Heads) > MaxTokens {
			return out, fmt.Errorf("line %d: more than %d receipts and heads in one file", n, MaxTokens)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return out, fmt.Errorf("line %d: longer than %d bytes", n+1, MaxLine)
		}
		return out, err
	}
	return out, nil
}

// decodeOne decodes the first JSON value of b into v, its layout compacted
// as the store recorded it.
func decodeOne(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(v); err != nil {
		return err
	}
	if rc, ok := v.(*Receipt); ok && len(rc.Layout) > 0 {
		var c bytes.Buffer
		if err := json.Compact(&c, rc.Layout); err != nil {
			return err
		}
		rc.Layout = c.Bytes()
	}
	return nil
}
