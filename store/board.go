package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
)

// BigWinFactor makes a big win, on the board: a unit of a block that pays
// at least this many times its stake (with the regulations' tables, 5 €
// and more at Yam's for 0,50 €, 50 € and more at Vegas for 3 €: about one
// unit in 40 at Yam's, one in 110 at Vegas).
const BigWinFactor = 10

// The board's sales history: units sold per SalesStep, for SalesHistory
// steps (an hour).
const (
	SalesStep    = 10 * time.Second
	SalesHistory = 360
)

// closeSlack is how far before the last poll a block's closing is looked
// for: a sale's time is taken before its transaction commits, so a block
// may show closed, at a time before the last poll, only after it.
const closeSlack = time.Minute

// Win is a big win: the unit, what it paid, when it was bought. Never who.
type Win struct {
	Unit  game.UnitID
	Prize decimal.Decimal
	At    time.Time
}

// OpenBlock is a block on sale.
type OpenBlock struct {
	Number, Units, Sold int64
	Commitment          [32]byte // published before its first sale
	Left                []int64  // its units left by tier, as players have seen them
}

// Sequence is a game and stake as the board shows it: its blocks on sale
// and the lots left in them.
type Sequence struct {
	Seq     game.SeqKey
	Blocks  []OpenBlock       // on sale now, by number
	Prizes  []decimal.Decimal // by tier; the losing tier's is zero
	Initial []int64           // units by tier in the blocks on sale, when they opened
	Left    []int64           // units by tier left in them
	Losing  int               // the losing tier
}

// Board is the emission as the big screen shows it, at one poll.
type Board struct {
	At        time.Time  // the poll's time, by the store's clock
	Since     time.Time  // the first poll's: the sales history starts there
	Sequences []Sequence // in the emission's order
	Wins      []Win      // the latest big wins, newest first
	// Top are the biggest wins of the last TopWindow, highest prize
	// first: those seen before the first poll (from any block) and since.
	Top       []Win
	Players   int       // players connected to the servers on the store
	Sales     []int     // units sold by SalesStep, oldest first; the last step is under way
	SalesFrom time.Time // when Sales[0] starts
	PerMinute int       // units sold over the last minute (at that rate, before a minute has passed)
	// HouseKey is the key the emission is sealed with, whose fingerprint
	// the room can compare with the one the house publishes.
	HouseKey ledger.PublicKey
	// Head is the store's last signed head, as its row says (the board
	// checks nothing of it: verify --heads does); nil before the first.
	Head *BoardHead
}

// BoardHead is a signed head as the board shows it: its number, its hash
// and when it was signed, by the seller's store clock.
type BoardHead struct {
	N    int64
	Hash ledger.Hash
	At   time.Time
}

// Poller reads the board from a store, once a poll, without reading the
// purchases: a block's row says how many of its units are sold, and its
// draw order which lots they were; the poller remembers what each block
// had sold at the last poll, so the units sold since are known, and only
// the big wins among them are read from the purchases, by their serial.
// A Poller is used by one goroutine at a time.
type Poller struct {
	s       *SQL
	keep    int
	blocks  map[string]*tracked // by game.BlockID's String
	wins    []Win
	top     []Win // the biggest wins of the last TopWindow
	polled  bool
	since   time.Time
	at      time.Time // the last poll's
	from    time.Time // when sales[0] starts
	sales   []int
	total   int64
	samples []sample // the total sold at the polls of the last minute
}

// tracked is a block the poller follows: on sale, or closed recently.
type tracked struct {
	id         game.BlockID
	table      *game.Table
	units      int64
	sold       int64 // as of the last poll
	order      []uint8
	left       []int64         // by tier, of the units the board counts
	waiting    map[int64]uint8 // sold, their players revealing them: serial → tier
	commitment [32]byte
	closed     bool
}

// soldUnit is a unit sold: its serial and its lot.
type soldUnit struct {
	serial int64
	tier   uint8
}

// unitKey is a unit of a block, by the block's identity as written.
type unitKey struct {
	block  string
	serial int64
}

// revealing reads the units of blocks whose players are revealing them
// (shown.go): the board counts none of them yet.
func (p *Poller) revealing(ctx context.Context) (map[unitKey]bool, error) {
	rows, err := p.s.db.QueryContext(ctx, `SELECT game, stake, block, serial FROM purchases WHERE shown = 0 AND block IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("store %s: reading the units being revealed: %w", p.s.where, oneLine{err})
	}
	defer rows.Close()
	out := map[unitKey]bool{}
	for rows.Next() {
		var g, stake string
		var block, serial int64
		if err := rows.Scan(&g, &stake, &block, &serial); err != nil {
			return nil, fmt.Errorf("store %s: reading the units being revealed: %w", p.s.where, err)
		}
		seq, err := game.ReadSeqKey(g, stake)
		if err != nil {
			return nil, fmt.Errorf("store %s: a unit of %s:%s: %w", p.s.where, g, stake, err)
		}
		out[unitKey{seq.Block(block).String(), serial}] = true
	}
	return out, rows.Err()
}

type sample struct {
	at    time.Time
	total int64
}

// NewPoller returns a poller of the store that keeps the latest keep big
// wins.
func (s *SQL) NewPoller(keep int) *Poller {
	return &Poller{s: s, keep: max(keep, 1), blocks: map[string]*tracked{}}
}

// boardRow is a row of the blocks table.
type boardRow struct {
	game, stake   string
	number, units int64
	sold          int64
	commitment    string
	closed        sql.NullInt64
	seq           game.SeqKey
	table         *game.Table
}

// Poll reads the board as it stands now.
func (p *Poller) Poll(ctx context.Context) (Board, error) {
	now, err := p.s.dbNow(ctx)
	if err != nil {
		return Board{}, err
	}
	cut := now.Add(-closeSlack)
	if p.polled {
		cut = p.at.Add(-closeSlack)
	}
	rows, err := p.blockRows(ctx, cut)
	if err != nil {
		return Board{}, err
	}
	// What sold since the last poll is worked out first, and applied only
	// once every reading succeeded: a poll that fails loses no sale and no
	// big win, the next one sees them.
	type step struct {
		t       *tracked
		reset   bool       // not the block it was: counted again from its start
		fresh   []soldUnit // the units the board counts from now: sold since, or seen since
		waiting map[int64]uint8
		sold    int64
		closed  bool
	}
	var steps []step
	var sold int64
	var found []Win
	seen := map[string]bool{}
	revealing, err := p.revealing(ctx)
	if err != nil {
		return Board{}, err
	}
	for _, r := range rows {
		id := r.seq.Block(r.number)
		key := id.String()
		seen[key] = true
		t := p.blocks[key]
		if t == nil {
			if t, err = p.track(ctx, r, id); err != nil {
				return Board{}, err
			}
			p.blocks[key] = t
		}
		from, reset := t.sold, r.sold < t.sold || r.sold > t.units
		if reset {
			from = 0
		}
		// The units sold since, and those that waited, count once their
		// players have seen them (or left them): never while revealed.
		st := step{t: t, reset: reset, sold: r.sold, closed: r.closed.Valid, waiting: map[int64]uint8{}}
		consider := func(serial int64, tier uint8) {
			if revealing[unitKey{key, serial}] {
				st.waiting[serial] = tier
			} else {
				st.fresh = append(st.fresh, soldUnit{serial, tier})
			}
		}
		if !reset {
			for _, serial := range slices.Sorted(maps.Keys(t.waiting)) {
				consider(serial, t.waiting[serial])
			}
		}
		for i, tier := range t.order[from:r.sold] {
			consider(from+int64(i)+1, tier)
		}
		if p.polled || t.sold > 0 {
			sold += int64(len(st.fresh))
		}
		found = append(found, p.bigWins(t, st.fresh)...)
		steps = append(steps, st)
	}
	// A block closed with units still being revealed is followed until
	// they are seen: they count then.
	for key, t := range p.blocks {
		if seen[key] || len(t.waiting) == 0 {
			continue
		}
		st := step{t: t, sold: t.sold, closed: true, waiting: map[int64]uint8{}}
		for _, serial := range slices.Sorted(maps.Keys(t.waiting)) {
			if tier := t.waiting[serial]; revealing[unitKey{key, serial}] {
				st.waiting[serial] = tier
			} else {
				st.fresh = append(st.fresh, soldUnit{serial, tier})
			}
		}
		sold += int64(len(st.fresh))
		found = append(found, p.bigWins(t, st.fresh)...)
		steps = append(steps, st)
		seen[key] = true
	}
	var before []Win
	if !p.polled {
		if before, err = p.topWins(ctx, now); err != nil {
			return Board{}, err
		}
	}
	if err := p.timeWins(ctx, found); err != nil {
		return Board{}, err
	}
	players, err := p.s.Players(ctx, now)
	if err != nil {
		return Board{}, err
	}
	head, err := p.lastHead(ctx)
	if err != nil {
		return Board{}, err
	}
	for _, st := range steps {
		t := st.t
		if st.reset {
			t.left = counts(t.table)
		}
		for _, u := range st.fresh {
			t.left[u.tier]--
		}
		t.sold, t.closed, t.waiting = st.sold, st.closed, st.waiting
	}
	for key := range p.blocks {
		if !seen[key] {
			delete(p.blocks, key) // closed before the cut: nothing more to see
		}
	}
	p.count(now, sold)
	p.addTop(now, append(before, found...))
	p.at, p.polled = now, true
	b := p.board(now, players)
	b.Head = head
	return b, nil
}

// lastHead reads the store's last signed head, nil when none was signed.
func (p *Poller) lastHead(ctx context.Context) (*BoardHead, error) {
	var n, at int64
	var hash []byte
	err := p.s.db.QueryRowContext(ctx, `SELECT n, hash, at FROM heads ORDER BY n DESC LIMIT 1`).Scan(&n, &hash, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store %s: reading its last head: %w", p.s.where, oneLine{err})
	}
	h := &BoardHead{N: n, At: time.Unix(0, at).UTC()}
	if len(hash) != len(h.Hash) {
		return nil, fmt.Errorf("store %s: head %d's hash is %d bytes, not %d", p.s.where, n, len(hash), len(h.Hash))
	}
	copy(h.Hash[:], hash)
	return h, nil
}

// blockRows reads the blocks on sale, and those closed since cut.
func (p *Poller) blockRows(ctx context.Context, cut time.Time) ([]boardRow, error) {
	rows, err := p.s.db.QueryContext(ctx, p.s.engine.q(`SELECT game, stake, number, units, sold, commitment, closed FROM blocks
		WHERE closed IS NULL OR closed >= $1 ORDER BY game, stake, number`), cut.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("store %s: reading the blocks on sale: %w", p.s.where, oneLine{err})
	}
	defer rows.Close()
	var out []boardRow
	for rows.Next() {
		var r boardRow
		if err := rows.Scan(&r.game, &r.stake, &r.number, &r.units, &r.sold, &r.commitment, &r.closed); err != nil {
			return nil, fmt.Errorf("store %s: reading the blocks on sale: %w", p.s.where, err)
		}
		if r.seq, err = game.ReadSeqKey(r.game, r.stake); err != nil {
			return nil, fmt.Errorf("store %s: block %s:%d: %w", p.s.where, r.game, r.number, err)
		}
		if r.table, err = p.s.emission.Table(r.seq); err != nil {
			return nil, fmt.Errorf("store %s: block %s: %w", p.s.where, r.seq.Block(r.number), err)
		}
		if r.units != r.table.Units || r.sold < 0 || r.sold > r.units {
			return nil, fmt.Errorf("store %s: block %s sold %d of %d units, its table has %d", p.s.where, r.seq.Block(r.number), r.sold, r.units, r.table.Units)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// track starts following a block: its draw order (the one the sellers
// share while it is on sale) and its commitment, checked against its seed.
func (p *Poller) track(ctx context.Context, r boardRow, id game.BlockID) (*tracked, error) {
	bs := p.s.emission.seed.Block(id.Game, id.Stake, id.Block)
	if r.commitment != bs.CommitmentHex(id) {
		return nil, fmt.Errorf("store: block %s: its recorded commitment is not its seed's", id)
	}
	var order []uint8
	var err error
	if r.closed.Valid {
		order, err = game.DrawOrder(r.table, bs) // sold out: the sellers have let it go
	} else {
		order, err = p.s.orders.get(id, r.table, bs)
	}
	if err != nil {
		return nil, fmt.Errorf("store: block %s's draw order: %w", id, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &tracked{id: id, table: r.table, units: r.units, order: order, left: counts(r.table), commitment: bs.Commitment(id)}, nil
}

// counts returns a table's units by tier.
func counts(t *game.Table) []int64 {
	out := make([]int64, t.Tiers())
	for i := range out {
		out[i] = t.Count(i)
	}
	return out
}

// bigWins returns the big wins among a block's units the board counts
// from now, the latest keep at most.
func (p *Poller) bigWins(t *tracked, fresh []soldUnit) []Win {
	least := t.id.Stake.Mul(decimal.NewFromInt(BigWinFactor))
	var out []Win
	for i := len(fresh) - 1; i >= 0 && len(out) < p.keep; i-- {
		u := fresh[i]
		tier := int(u.tier)
		if tier == t.table.Losing() || t.table.Prize(tier).LessThan(least) {
			continue
		}
		unit := game.UnitID{Game: t.id.Game, Stake: t.id.Stake, Block: t.id.Block, Serial: u.serial}
		out = append(out, Win{Unit: unit, Prize: t.table.Prize(tier)})
	}
	return out
}

// timeWins reads when each big win found was bought, by its serial (the
// purchases' unique index), and keeps the latest.
func (p *Poller) timeWins(ctx context.Context, found []Win) error {
	for i, w := range found {
		var at int64
		err := p.s.db.QueryRowContext(ctx, p.s.engine.q(`SELECT at FROM purchases WHERE game = $1 AND stake = $2 AND block = $3 AND serial = $4`),
			w.Unit.Game, w.Unit.Stake.String(), w.Unit.Block, w.Unit.Serial).Scan(&at)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store %s: unit %s is sold, and no purchase holds it", p.s.where, w.Unit)
		}
		if err != nil {
			return fmt.Errorf("store %s: reading the purchase of %s: %w", p.s.where, w.Unit, oneLine{err})
		}
		found[i].At = time.Unix(0, at).UTC()
	}
	p.wins = append(p.wins, found...)
	slices.SortFunc(p.wins, func(a, b Win) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return cmp.Compare(b.Unit.String(), a.Unit.String())
	})
	p.wins = slices.CompactFunc(p.wins, func(a, b Win) bool { return a.Unit.String() == b.Unit.String() })
	if len(p.wins) > p.keep {
		p.wins = p.wins[:p.keep]
	}
	return nil
}

// count adds the units sold since the last poll to the sales history.
func (p *Poller) count(now time.Time, sold int64) {
	if !p.polled {
		p.since, p.from = now, now
	}
	p.total += sold
	step := max(int(now.Sub(p.from)/SalesStep), len(p.sales)-1, 0)
	for len(p.sales) <= step {
		p.sales = append(p.sales, 0)
	}
	p.sales[step] += int(sold)
	if drop := len(p.sales) - SalesHistory; drop > 0 {
		p.sales = slices.Delete(p.sales, 0, drop)
		p.from = p.from.Add(time.Duration(drop) * SalesStep)
	}
	p.samples = append(p.samples, sample{now, p.total})
	for len(p.samples) > 1 && !p.samples[1].at.After(now.Add(-time.Minute)) {
		p.samples = p.samples[1:]
	}
}

// perMinute is the rate of sales over the last minute, in units a minute.
func (p *Poller) perMinute(now time.Time) int {
	first := p.samples[0]
	span := now.Sub(first.at)
	if span <= 0 {
		return 0
	}
	return int(math.Round(float64(p.total-first.total) * float64(time.Minute) / float64(span)))
}

// board writes the board as the poll left it.
func (p *Poller) board(now time.Time, players int) Board {
	b := Board{At: now, Since: p.since, Wins: slices.Clone(p.wins), Top: slices.Clone(p.top), Players: players,
		Sales: slices.Clone(p.sales), SalesFrom: p.from, PerMinute: p.perMinute(now), HouseKey: p.s.emission.Key()}
	for _, seq := range p.s.emission.Sequences() {
		table, err := p.s.emission.Table(seq)
		if err != nil {
			continue // every sequence has its table (decodeTables)
		}
		sq := Sequence{Seq: seq, Losing: table.Losing(), Initial: make([]int64, table.Tiers()), Left: make([]int64, table.Tiers())}
		for tier := range sq.Initial {
			sq.Prizes = append(sq.Prizes, table.Prize(tier))
		}
		for _, t := range p.blocks {
			if t.closed || t.id.Seq().String() != seq.String() {
				continue
			}
			sq.Blocks = append(sq.Blocks, OpenBlock{Number: t.id.Block, Units: t.units, Sold: t.sold - int64(len(t.waiting)), Commitment: t.commitment, Left: slices.Clone(t.left)})
			for tier := range sq.Left {
				sq.Initial[tier] += table.Count(tier)
				sq.Left[tier] += t.left[tier]
			}
		}
		slices.SortFunc(sq.Blocks, func(a, b OpenBlock) int { return cmp.Compare(a.Number, b.Number) })
		b.Sequences = append(b.Sequences, sq)
	}
	return b
}
