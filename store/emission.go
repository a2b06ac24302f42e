package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

// Tables gives the lot table of a game at a stake: the regulation's, or
// smaller blocks in tests. Its lots must be the regulation's, in its
// order: a unit's layout is dealt from its lot's rank.
type Tables func(g lottery.Game, stake decimal.Decimal) (*game.Table, error)

// DefaultOpenBlocks is how many blocks of each game and stake a new
// emission puts on sale side by side when Options.OpenBlocks is 0: enough
// for a handful of sellers buying at once each to take a serial from a
// block of its own instead of queueing on one block's counter (issue 22),
// as a lottery's retailers each sell their own books (ruling G2). Each
// block on sale a seller sells from costs it its draw order, one byte a
// unit.
const DefaultOpenBlocks = 8

// Options opens a store. Seed, OpenBlocks and Tables only count when the
// store's emission is created, on its first use; afterwards the emission
// keeps what it was created with.
type Options struct {
	Seed       game.Seed // the house's master seed of a new emission
	SeedSet    bool      // Seed was given; otherwise a new emission draws one from the system
	OpenBlocks int       // blocks each game and stake sells side by side; DefaultOpenBlocks when 0
	Tables     Tables    // lot tables of a new emission; nil for the regulations'
	Now        func() time.Time
	Existing   bool // open only a store that holds an emission already: create nothing (verify)
	// QA creates a QA emission, which sells forced units, and, for an
	// existing store, asks for one: the house's emission sells none.
	QA bool
	// Key is the house's signing key: a seller signs every record with
	// it. When it is not given, KeyFile is read (and made for a new
	// emission). A reader (Existing) needs neither.
	Key     ledger.Key
	KeyFile string
	// HouseKey, when valid, is the house's public key as the reader knows
	// it (verify --key): a store sealed by another is refused.
	HouseKey ledger.PublicKey
	// Audit opens an existing store (Existing) whose emission's seal is
	// broken, or sealed by another key than HouseKey, instead of refusing
	// it: verify opens it so as to name what broke the seal. It reads the
	// emission as sealed while its sealed copy is intact. Nothing sells
	// from a store opened Existing.
	Audit bool
	// OnHead is told each head the seller signs (serve logs it); OnTamper
	// once, when the seller finds the store changed under it.
	OnHead   func(ledger.HeadToken)
	OnTamper func(error)
}

// Emission is what a store sells: the house's seed, from which every block
// derives, its lot tables, and how many blocks of each game and stake are
// on sale at once.
type Emission struct {
	seed       game.Seed
	QA         bool // forced (QA, demo) units may be sold: a staging emission, not the house's
	OpenBlocks int
	Created    time.Time
	tables     map[string]*game.Table // by sequence key (game.SeqKey)
	// Seal is what fixes the emission, signed when it was made; SealHash
	// its hash, which every chain and head of the emission starts from.
	Seal     ledger.Seal
	SealHash ledger.Hash
}

// Key returns the house's public key, the one the emission is sealed with.
func (e *Emission) Key() ledger.PublicKey { return e.Seal.Key }

// Table returns the emission's lot table of a game and stake.
func (e *Emission) Table(seq game.SeqKey) (*game.Table, error) {
	t, ok := e.tables[seq.String()]
	if !ok {
		return nil, fmt.Errorf("the emission sells no %s", seq)
	}
	return t, nil
}

// Sequences returns the keys of every game and stake the emission sells.
func (e *Emission) Sequences() []game.SeqKey {
	var keys []game.SeqKey
	for _, g := range lottery.Games() {
		for _, s := range g.Stakes {
			keys = append(keys, g.Seq(s))
		}
	}
	return keys
}

// leastStake returns the smallest stake of every game the emission sells:
// when a loss limit refuses it, it refuses every purchase.
func (e *Emission) leastStake() decimal.Decimal {
	keys := e.Sequences()
	least := keys[0].Stake
	for _, k := range keys[1:] {
		if k.Stake.LessThan(least) {
			least = k.Stake
		}
	}
	return least
}

// tableJSON is a lot table as the emission records it.
type tableJSON struct {
	Units int64     `json:"units"`
	Lots  []lotJSON `json:"lots"`
}

type lotJSON struct {
	Prize string `json:"prize"`
	Count int64  `json:"count"`
}

// newTables asks tables for the lot table of every game and stake, and
// checks each against the regulation's.
func newTables(tables Tables) (map[string]*game.Table, error) {
	if tables == nil {
		tables = func(g lottery.Game, stake decimal.Decimal) (*game.Table, error) { return g.Table(stake) }
	}
	out := map[string]*game.Table{}
	for _, g := range lottery.Games() {
		for _, s := range g.Stakes {
			t, err := tables(g, s)
			if err != nil {
				return nil, fmt.Errorf("lot table of %s: %w", g.Seq(s), err)
			}
			if err := checkTable(g, s, t); err != nil {
				return nil, err
			}
			out[g.Seq(s).String()] = t
		}
	}
	return out, nil
}

// checkTable checks a table is well formed and has the regulation's lots,
// in its order.
func checkTable(g lottery.Game, stake decimal.Decimal, t *game.Table) error {
	key := g.Seq(stake)
	if err := t.Validate(); err != nil {
		return fmt.Errorf("lot table of %s: %w", key, err)
	}
	reg, err := g.Table(stake)
	if err != nil {
		return fmt.Errorf("lot table of %s: %w", key, err)
	}
	if len(t.Lots) != len(reg.Lots) {
		return fmt.Errorf("lot table of %s: %d lots, the regulation has %d", key, len(t.Lots), len(reg.Lots))
	}
	for i, l := range t.Lots {
		if !l.Prize.Equal(reg.Lots[i].Prize) {
			return fmt.Errorf("lot table of %s: lot %d pays %s, the regulation's %s", key, i+1, l.Prize, reg.Lots[i].Prize)
		}
	}
	return nil
}

// encodeTables writes the tables as the emission records them.
func encodeTables(tables map[string]*game.Table) (string, error) {
	out := map[string]tableJSON{}
	for k, t := range tables {
		j := tableJSON{Units: t.Units, Lots: []lotJSON{}}
		for _, l := range t.Lots {
			j.Lots = append(j.Lots, lotJSON{Prize: l.Prize.String(), Count: l.Count})
		}
		out[k] = j
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// decodeTables reads the tables an emission recorded, and checks them.
func decodeTables(s string) (map[string]*game.Table, error) {
	var in map[string]tableJSON
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, fmt.Errorf("the emission's lot tables do not read: %w", err)
	}
	out := map[string]*game.Table{}
	for k, j := range in {
		key, err := game.ParseSeqKey(k)
		if err != nil {
			return nil, fmt.Errorf("the emission's lot tables: %w", err)
		}
		g, err := lottery.FindSeq(key)
		if err != nil {
			return nil, fmt.Errorf("the emission's lot tables: %w", err)
		}
		t := &game.Table{Units: j.Units}
		for _, l := range j.Lots {
			p, err := decimal.NewFromString(l.Prize)
			if err != nil {
				return nil, fmt.Errorf("the emission's lot table of %s: prize %q", key, l.Prize)
			}
			t.Lots = append(t.Lots, game.Lot{Prize: p, Count: l.Count})
		}
		if err := checkTable(g, key.Stake, t); err != nil {
			return nil, fmt.Errorf("the emission's %w", err)
		}
		out[key.String()] = t
	}
	for _, g := range lottery.Games() {
		for _, s := range g.Stakes {
			if out[g.Seq(s).String()] == nil {
				return nil, fmt.Errorf("the emission has no lot table of %s", g.Seq(s))
			}
		}
	}
	return out, nil
}
