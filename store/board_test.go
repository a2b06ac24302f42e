package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

// fakeClock is a store's clock that tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time            { return c.t }
func (c *fakeClock) advance(d time.Duration)   { c.t = c.t.Add(d) }
func newFakeClock() *fakeClock                 { return &fakeClock{time.Date(2026, 12, 1, 14, 2, 0, 0, time.UTC)} }
func (c *fakeClock) options(o Options) Options { o.Now = c.now; return o }
func sequenceOf(b Board, seq game.SeqKey) Sequence {
	return b.Sequences[slices.IndexFunc(b.Sequences, sameSeq(seq))]
}

func sameSeq(seq game.SeqKey) func(Sequence) bool {
	return func(s Sequence) bool { return s.Seq.String() == seq.String() }
}

// TestPollerSeesSalesAndBigWins: the poller counts the units sold between
// polls, finds the big wins among them with their identity, prize and
// time, follows a block through its closing to the next, and adds up the
// servers' players. One block is on sale at a time (TestPollerSeesSeveralOpenBlocks
// sells from several).
func TestPollerSeesSalesAndBigWins(t *testing.T) {
	clock := newFakeClock()
	s, _ := openSQLite(t, clock.options(Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(21), SeedSet: true, Tables: SmallTables, OpenBlocks: 1}))
	pollerSeesSalesAndBigWins(t, s, clock.advance)
}

// pollerSeesSalesAndBigWins runs the test on a store whose clock advance
// moves; nil for a store on the real clock (PostgreSQL's), where what
// depends on the time is not checked.
func pollerSeesSalesAndBigWins(t *testing.T, s *SQL, advance func(time.Duration)) {
	fake := advance != nil
	if !fake {
		advance = func(time.Duration) {}
	}
	ctx := context.Background()
	g, stake := lottery.Yams(), decimal.NewFromInt(1)
	seq := g.Seq(stake)
	table, _ := s.Emission().Table(seq)
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(10_000)); err != nil {
		t.Fatal(err)
	}
	const keep = 5
	p := s.NewPoller(keep)
	first, err := p.Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Sequences) != len(s.Emission().Sequences()) || len(first.Wins) != 0 || first.PerMinute != 0 {
		t.Fatalf("a store with nothing sold: %+v", first)
	}
	var bought []Receipt
	buy := func(n int) {
		for range n {
			advance(time.Second)
			r, err := s.Sell(ctx, Purchase{Account: "ann", Number: len(bought) + 1, Game: g, Stake: stake})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Shown(ctx, "ann", r.Sold.Ref()); err != nil { // seen: the board counts it
				t.Fatal(err)
			}
			bought = append(bought, r)
		}
	}
	check := func(b Board, block int64) {
		t.Helper()
		sq := sequenceOf(b, seq)
		if len(sq.Blocks) != 1 || sq.Blocks[0].Number != block {
			t.Fatalf("blocks on sale %+v, want block %d alone", sq.Blocks, block)
		}
		left := counts(table)
		var sold int64
		for _, r := range bought {
			if r.Sold.Unit.ID.Block == block {
				left[r.Sold.Unit.Tier]--
				sold++
			}
		}
		if sq.Blocks[0].Sold != sold || !slices.Equal(sq.Left, left) || !slices.Equal(sq.Initial, counts(table)) {
			t.Errorf("block %d: sold %d, left %v of %v; want %d sold, %v left", block, sq.Blocks[0].Sold, sq.Left, sq.Initial, sold, left)
		}
		if !slices.Equal(sq.Blocks[0].Left, left) {
			t.Errorf("block %d: its own lots left %v, want %v", block, sq.Blocks[0].Left, left)
		}
		if sq.Blocks[0].Commitment != s.Seed().Block(seq.Game, seq.Stake, block).Commitment(seq.Block(block)) {
			t.Errorf("block %d: not its commitment", block)
		}
		var want []Win
		for _, r := range slices.Backward(bought) {
			if r.Sold.Unit.Prize.GreaterThanOrEqual(stake.Mul(decimal.NewFromInt(BigWinFactor))) && len(want) < keep {
				want = append(want, Win{Unit: r.Sold.Unit.ID, Prize: r.Sold.Unit.Prize, At: r.At})
			}
		}
		if len(want) == 0 {
			t.Fatal("the test sold no big win: sell more")
		}
		if len(b.Wins) != len(want) {
			t.Fatalf("wins %v, want %v", b.Wins, want)
		}
		for i, w := range want {
			got := b.Wins[i]
			if got.Unit.String() != w.Unit.String() || !got.Prize.Equal(w.Prize) || !got.At.Equal(w.At) {
				t.Errorf("win %d: %s %s at %s, want %s %s at %s", i, got.Unit, got.Prize, got.At, w.Unit, w.Prize, w.At)
			}
		}
		checkTop(t, b, bought, keep, stake)
		var total int
		for _, n := range b.Sales {
			total += n
		}
		if total != len(bought) {
			t.Errorf("sales %v add up to %d, want %d", b.Sales, total, len(bought))
		}
	}

	buy(40)
	advance(time.Second)
	b, err := p.Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check(b, 1)
	if fake && b.PerMinute != 59 { // 40 in 41 s, at a minute's rate
		t.Errorf("40 units in 41 s: %d a minute, want 59", b.PerMinute)
	}
	// Past the block's end: block 1 closes, block 2 opens, between polls.
	buy(30)
	b, err = p.Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check(b, 2)
	if fake && (!b.Since.Equal(first.At) || len(b.Sales) != 8 || !b.SalesFrom.Equal(first.At)) {
		t.Errorf("history since %s from %s, %d steps; want since and from %s, 8 steps", b.Since, b.SalesFrom, len(b.Sales), first.At)
	}

	// A poller started now shows the big wins of the blocks on sale, and
	// of those closed in the last minute, already, and counts no sale made
	// before it.
	later, err := s.NewPoller(keep).Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(later.Wins, b.Wins, func(a, b Win) bool { return a.Unit.String() == b.Unit.String() && a.At.Equal(b.At) }) {
		t.Errorf("a new poller shows the wins %v, want %v", later.Wins, b.Wins)
	}
	// and the day's biggest, from the closed block too.
	checkTop(t, later, bought, keep, stake)
	if !slices.Equal(sequenceOf(later, seq).Left, sequenceOf(b, seq).Left) || later.PerMinute != 0 || later.Sales[0] != 0 {
		t.Errorf("a new poller: %v left, %d a minute, sales %v", sequenceOf(later, seq).Left, later.PerMinute, later.Sales)
	}

	// Players: the servers that wrote their count lately.
	for id, n := range map[string]int{"one": 3, "two": 4} {
		if err := s.Present(ctx, id, n); err != nil {
			t.Fatal(err)
		}
	}
	if b, err = p.Poll(ctx); err != nil || b.Players != 7 {
		t.Fatalf("two servers of 3 and 4 players: %d, %v", b.Players, err)
	}
	if err := s.Absent(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	if b, err = p.Poll(ctx); err != nil || b.Players != 4 {
		t.Fatalf("one server gone: %d players, %v", b.Players, err)
	}
	if err := s.Present(ctx, "two", 5); err != nil {
		t.Fatal(err)
	}
	if b, err = p.Poll(ctx); err != nil || b.Players != 5 {
		t.Fatalf("a server's new count: %d players, %v", b.Players, err)
	}
	if !fake {
		return
	}
	advance(PresenceWithin + time.Second)
	if b, err = p.Poll(ctx); err != nil || b.Players != 0 {
		t.Fatalf("a server silent for longer than %s: %d players, %v", PresenceWithin, b.Players, err)
	}
	// A server killed without removing itself: another clears its row
	// once it has been gone an hour.
	advance(presenceKept)
	if err := s.Present(ctx, "three", 1); err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM servers`).Scan(&rows); err != nil || rows != 1 {
		t.Errorf("servers left after an hour of silence: %d rows (%v), want the one writing", rows, err)
	}
}

// TestPollerSeesSeveralOpenBlocks: with blocks on sale side by side, the
// lots left add up over them.
func TestPollerSeesSeveralOpenBlocks(t *testing.T) {
	clock := newFakeClock()
	s, _ := openSQLite(t, clock.options(Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(5), SeedSet: true, Tables: SmallTables, OpenBlocks: 3}))
	ctx := context.Background()
	g, stake := lottery.Vegas(), decimal.NewFromInt(3)
	if err := s.Deposit(ctx, "bob", decimal.NewFromInt(10_000)); err != nil {
		t.Fatal(err)
	}
	p := s.NewPoller(3)
	if _, err := p.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 7; n++ {
		r, err := s.Sell(ctx, Purchase{Account: "bob", Number: n, Game: g, Stake: stake})
		if err != nil {
			t.Fatal(err)
		}
		s.ShownSoon("bob", r.Sold.Ref()) // carried by the next purchase, or written soon
	}
	time.Sleep(ShownDelay + 300*time.Millisecond)
	b, err := p.Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sq := sequenceOf(b, g.Seq(stake))
	var sold, left, initial int64
	for _, bl := range sq.Blocks {
		sold += bl.Sold
	}
	for tier := range sq.Left {
		left += sq.Left[tier]
		initial += sq.Initial[tier]
	}
	if len(sq.Blocks) != 3 || sold != 7 || initial != 3*60 || left != initial-7 {
		t.Errorf("3 blocks on sale, 7 sold: %d blocks, %d sold, %d left of %d", len(sq.Blocks), sold, left, initial)
	}
}

func TestSQLitePollerWaitsForTheReveal(t *testing.T) {
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(7), SeedSet: true, Tables: SmallTables})
	pollerWaitsForTheReveal(t, s)
}

func TestPostgresPollerWaitsForTheReveal(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(7), SeedSet: true, Tables: SmallTables})
	pollerWaitsForTheReveal(t, s)
}

// pollerWaitsForTheReveal: a unit its player is still revealing is not on
// the board (not sold, not gone from its lot, not a big win) until it is
// shown, or its session is over (its lease released) without showing it.
func pollerWaitsForTheReveal(t *testing.T, s *SQL) {
	ctx := context.Background()
	g, stake := lottery.Yams(), decimal.NewFromInt(1)
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(10_000)); err != nil {
		t.Fatal(err)
	}
	lease, err := s.Hold(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	p := s.NewPoller(30)
	if _, err := p.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	win := sellUntilBigWin(t, s, "ann", g, stake) // all but it seen
	seen := func(want bool) {
		t.Helper()
		b, err := p.Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sq := sequenceOf(b, g.Seq(stake))
		listed := slices.ContainsFunc(b.Wins, func(w Win) bool { return w.Unit.String() == win.Sold.Unit.ID.String() })
		id := win.Sold.Unit.ID
		i := slices.IndexFunc(sq.Blocks, func(o OpenBlock) bool { return o.Number == id.Block })
		if i < 0 {
			t.Fatalf("block %d of %s is not on sale: %+v", id.Block, win.Sold.Name(), sq.Blocks)
		}
		sold := id.Serial // every unit before it seen
		if !want {
			sold--
		}
		if listed != want || sq.Blocks[i].Sold != sold {
			t.Errorf("the big win %s: listed %v, %d sold; want listed %v, %d sold", win.Sold.Name(), listed, sq.Blocks[i].Sold, want, sold)
		}
	}
	seen(false)
	s.ShownSoon("ann", win.Sold.Ref())
	seen(false) // queued: on disk within a second
	time.Sleep(ShownDelay + 300*time.Millisecond)
	seen(true)

	// Another win left covered, its session over: no secret any more.
	win = sellUntilBigWin(t, s, "ann", g, stake)
	seen(false)
	if err := lease.Release(); err != nil {
		t.Fatal(err)
	}
	seen(true)
	a, err := s.Account(ctx, "ann", 0)
	if err != nil || len(a.Pending) != 1 || a.Pending[0].Sold.Name() != win.Sold.Name() {
		t.Errorf("the unit left covered is still the account's to reveal: %+v, %v", a.Pending, err)
	}
}

// sellUntilBigWin sells an account units until a big win, and returns
// it; every other unit is marked seen.
func sellUntilBigWin(t *testing.T, s *SQL, account string, g lottery.Game, stake decimal.Decimal) Receipt {
	t.Helper()
	ctx := context.Background()
	a, err := s.Account(ctx, account, 0)
	if err != nil {
		t.Fatal(err)
	}
	for n := a.Purchases + 1; ; n++ {
		r, err := s.Sell(ctx, Purchase{Account: account, Number: n, Game: g, Stake: stake})
		if err != nil {
			t.Fatal(err)
		}
		if r.Sold.Unit.Prize.GreaterThanOrEqual(stake.Mul(decimal.NewFromInt(BigWinFactor))) {
			return r
		}
		if err := s.Shown(ctx, account, r.Sold.Ref()); err != nil {
			t.Fatal(err)
		}
	}
}

// checkTop checks a board's biggest wins are the keep biggest of the units
// bought (every one seen), the highest prize first, the latest first
// among equal prizes.
func checkTop(t *testing.T, b Board, bought []Receipt, keep int, stake decimal.Decimal) {
	t.Helper()
	var want []Win
	for _, r := range bought {
		if r.Sold.Unit.Prize.GreaterThanOrEqual(stake.Mul(decimal.NewFromInt(BigWinFactor))) {
			want = append(want, Win{Unit: r.Sold.Unit.ID, Prize: r.Sold.Unit.Prize, At: r.At})
		}
	}
	slices.SortStableFunc(want, func(a, b Win) int {
		if c := b.Prize.Cmp(a.Prize); c != 0 {
			return c
		}
		return b.At.Compare(a.At)
	})
	want = want[:min(keep, len(want))]
	if len(b.Top) != len(want) {
		t.Fatalf("top %v, want %v", b.Top, want)
	}
	for i, w := range want {
		if got := b.Top[i]; got.Unit.String() != w.Unit.String() || !got.Prize.Equal(w.Prize) || !got.At.Equal(w.At) {
			t.Errorf("top %d: %s %s at %s, want %s %s at %s", i, got.Unit, got.Prize, got.At, w.Unit, w.Prize, w.At)
		}
	}
}
