package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
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
		c, ok := cents(f.d)
		if !ok {
			return p, fmt.Errorf("its %s is not a whole number of cents", f.name)
		}
		*f.to = c
	}
	return p, nil
}

// cents returns an amount in cents, as game.CentsOf does, refusing at
// once an amount no receipt holds (a coefficient or an exponent too large),
// whose arithmetic would cost without bound.
func cents(d decimal.Decimal) (game.Cents, bool) {
	if e := d.Exponent(); e < -18 || e > 18 || d.Coefficient().BitLen() > 63 {
		return 0, false
	}
	return game.CentsOf(d)
}

// Check checks the receipt offline against the house's public key: its
// hash is its purchase's, after Prev at place Seq, and the key signed it.
// A receipt naming another key than key is refused as such. Its seal is
// checked for an account's first record alone, the one whose chain starts
// from it: later ones are bound to it through the chain, which verify
// --store checks.
func (r Receipt) Check(key PublicKey) error {
	if r.Version != ReceiptVersion {
		return fmt.Errorf("a receipt of format %d, this tapis reads %d", r.Version, ReceiptVersion)
	}
	if r.Key != "" {
		named, err := ParsePublicKey(r.Key)
		if err != nil {
			return fmt.Errorf("the key it names: %w", err)
		}
		if !named.Equal(key) {
			return fmt.Errorf("it names the house key %s, not the one given (%s)", named.Fingerprint(), key.Fingerprint())
		}
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
	if Link(r.Seal, r.Prev, r.Seq, p) != r.Hash {
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
