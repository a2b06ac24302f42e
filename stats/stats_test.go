package stats

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func newSession(t *testing.T, o Options) *Session {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// player plays units and keeps the balance as a wallet would.
type player struct {
	t       *testing.T
	s       *Session
	balance decimal.Decimal
	at      time.Time
}

func (p *player) play(g string, stake, prize string, forced bool) {
	p.t.Helper()
	p.balance = p.balance.Sub(dec(stake)).Add(dec(prize))
	p.at = p.at.Add(time.Minute)
	u := Unit{Game: g, Stake: dec(stake), Prize: dec(prize), Balance: p.balance, Forced: forced, At: p.at}
	if err := p.s.Add(u); err != nil {
		p.t.Fatalf("add %+v: %v", u, err)
	}
}

// every sequence of the regulations, played once so that its figures exist.
func allSequences(t *testing.T) []Figures {
	p := &player{t: t, s: newSession(t, Options{}), balance: dec("100")}
	for _, g := range lottery.Games() {
		for _, stake := range g.Stakes {
			p.play(g.Name, stake.String(), "0", false)
		}
	}
	return p.s.Sequences()
}

func TestExpectedSharesAddUpToOne(t *testing.T) {
	fs := allSequences(t)
	if len(fs) != 4 {
		t.Fatalf("%d sequences, want 4 (yams at 3 stakes, vegas)", len(fs))
	}
	for _, f := range fs {
		var num int64
		sum := decimal.Zero
		for _, l := range f.Lots {
			if l.Expected.Den != f.Block.Units || l.Expected.Num <= 0 {
				t.Errorf("%s: lot %s expected %d/%d", f.Key, l.Prize, l.Expected.Num, l.Expected.Den)
			}
			num += l.Expected.Num
			sum = sum.Add(decimal.NewFromInt(l.Expected.Num).Div(decimal.NewFromInt(l.Expected.Den)))
		}
		if num != f.Block.Units {
			t.Errorf("%s: expected shares add up to %d/%d, not 1", f.Key, num, f.Block.Units)
		}
		if !sum.Round(12).Equal(decimal.NewFromInt(1)) {
			t.Errorf("%s: expected shares add up to %s", f.Key, sum)
		}
		if last := f.Lots[len(f.Lots)-1]; !last.Prize.IsZero() {
			t.Errorf("%s: the last lot is %s, not the losing tier", f.Key, last.Prize)
		}
	}
}

func TestExpectedSharesAreTheTables(t *testing.T) {
	for _, f := range allSequences(t) {
		g, err := lottery.Find(f.Key.Game)
		if err != nil {
			t.Fatal(err)
		}
		table, err := g.Table(f.Key.Stake)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Lots) != len(table.Lots)+1 {
			t.Fatalf("%s: %d lots for a table of %d", f.Key, len(f.Lots), len(table.Lots))
		}
		for i, l := range table.Lots {
			if !f.Lots[i].Prize.Equal(l.Prize) || f.Lots[i].Expected != (Ratio{l.Count, table.Units}) {
				t.Errorf("%s: lot %d is %s %v, table says %s %d/%d", f.Key, i, f.Lots[i].Prize, f.Lots[i].Expected, l.Prize, l.Count, table.Units)
			}
		}
	}
	// Vegas, art. 3: two lots of 40 000 € in a block of 1 500 000 tickets.
	s := newSession(t, Options{})
	if err := s.Add(Unit{Game: "vegas", Stake: dec("3"), Prize: dec("40000"), Balance: dec("40097")}); err != nil {
		t.Fatal(err)
	}
	f, _ := s.Figures(Key{Game: "vegas", Stake: dec("3")})
	if top := f.Lots[0]; !top.Prize.Equal(dec("40000")) || top.Expected != (Ratio{2, 1_500_000}) || top.Share != (Ratio{1, 1}) {
		t.Errorf("vegas top lot: %+v", top)
	}
}

func TestPayoutFromTheTables(t *testing.T) {
	for _, f := range allSequences(t) {
		if got := f.Payout(6); !got.Equal(dec("0.7")) {
			t.Errorf("%s: payout %s, want 0.7", f.Key, got)
		}
		// Exactly: a block pays 70 % of what it costs.
		if !f.Block.Prizes.Equal(f.Block.Stakes.Mul(dec("0.7"))) {
			t.Errorf("%s: a block pays %s for %s", f.Key, f.Block.Prizes, f.Block.Stakes)
		}
		if want := f.Key.Stake.Mul(decimal.NewFromInt(f.Block.Units)); !f.Block.Stakes.Equal(want) {
			t.Errorf("%s: a block costs %s, want %s", f.Key, f.Block.Stakes, want)
		}
	}
}

func TestReturnExact(t *testing.T) {
	p := &player{t: t, s: newSession(t, Options{}), balance: dec("100")}
	k := Key{Game: "yams", Stake: dec("0.5")}
	// Ten units at 0,50 €: 5 € staked. Prizes at 0,50 € are 0,50 € times
	// the multiples of art. 4.5: 1 × 0,50 + 3 × 1 = 3,50 €, exactly 70 %.
	for _, prize := range []string{"0.5", "1", "1", "1", "0", "0", "0", "0", "0", "0"} {
		p.play("yams", "0.5", prize, false)
	}
	f, ok := p.s.Figures(k)
	if !ok {
		t.Fatal("no figures for yams:0.5")
	}
	if !f.Staked.Equal(dec("5")) || !f.Won.Equal(dec("3.5")) || f.Units != 10 {
		t.Fatalf("staked %s won %s units %d", f.Staked, f.Won, f.Units)
	}
	if r, err := f.Return(4); err != nil || !r.Equal(dec("0.7")) {
		t.Errorf("return %s %v, want 0.7", r, err)
	}
	if v := f.VersusPayout(); v != 0 {
		t.Errorf("at exactly 70 %%: VersusPayout %d", v)
	}
	p.play("yams", "0.5", "0", false) // 3,50 of 5,50: below
	if f, _ := p.s.Figures(k); f.VersusPayout() != -1 {
		t.Errorf("below 70 %%: VersusPayout %d", f.VersusPayout())
	}
	if r, _ := p.s.Figures(k); !must(r.Return(6)).Equal(dec("0.636364")) {
		t.Errorf("3.5/5.5 to 6 places: %s", must(r.Return(6)))
	}
	p.play("yams", "0.5", "1", false) // 4,50 of 6: 75 %
	if f, _ := p.s.Figures(k); f.VersusPayout() != 1 || !must(f.Return(2)).Equal(dec("0.75")) {
		t.Errorf("above 70 %%: VersusPayout %d return %s", f.VersusPayout(), must(f.Return(2)))
	}

	// Many cents add up exactly, where floats would drift.
	q := &player{t: t, s: newSession(t, Options{}), balance: dec("1000000")}
	var cents int64
	for range 10000 {
		q.play("yams", "0.5", "0.5", false)
		cents += 50
	}
	tot := q.s.Total()
	if !tot.Won.Equal(decimal.New(cents, -2)) || !must(tot.Return(20)).Equal(decimal.NewFromInt(1)) {
		t.Errorf("10 000 units at 0,50 € paying 0,50 €: won %s, return %s", tot.Won, must(tot.Return(20)))
	}
	if _, err := newSession(t, Options{}).Total().Return(2); err == nil {
		t.Error("a return before any unit: want an error")
	}
}

func must(d decimal.Decimal, err error) decimal.Decimal {
	if err != nil {
		panic(err)
	}
	return d
}

func TestLotsCountedForcedApart(t *testing.T) {
	p := &player{t: t, s: newSession(t, Options{}), balance: dec("100")}
	p.play("vegas", "3", "5", false)
	p.play("vegas", "3", "0", false)
	p.play("vegas", "3", "0", false)
	p.play("vegas", "3", "7", true) // a forced layout may pay what no lot pays
	f, _ := p.s.Figures(Key{Game: "vegas", Stake: dec("3")})
	if f.Units != 4 || f.Forced != 1 || f.Drawn() != 3 || !f.Won.Equal(dec("12")) || !f.Staked.Equal(dec("12")) {
		t.Fatalf("units %d forced %d won %s staked %s", f.Units, f.Forced, f.Won, f.Staked)
	}
	got := map[string]Ratio{}
	for _, l := range f.Lots {
		got[l.Prize.String()] = l.Share
	}
	if got["5"] != (Ratio{1, 3}) || got["0"] != (Ratio{2, 3}) || got["40000"] != (Ratio{0, 3}) {
		t.Errorf("shares: %v", got)
	}
	if f.VersusPayout() != 1 {
		t.Errorf("12 won of 12 staked: VersusPayout %d", f.VersusPayout())
	}
}

func TestAddRefuses(t *testing.T) {
	s := newSession(t, Options{})
	for _, c := range []struct {
		u    Unit
		want string
	}{
		{Unit{Game: "poker", Stake: dec("1"), Prize: dec("0")}, "no such game"},
		{Unit{Game: "YAMS", Stake: dec("1"), Prize: dec("0")}, "no such game"},
		{Unit{Game: "yams", Stake: dec("3"), Prize: dec("0")}, "stake 3 is not one of"},
		{Unit{Game: "vegas", Stake: dec("1"), Prize: dec("0")}, "not the ticket's price"},
		{Unit{Game: "yams", Stake: dec("0"), Prize: dec("0")}, "not positive"},
		{Unit{Game: "yams", Stake: dec("1"), Prize: dec("-1")}, "negative"},
		{Unit{Game: "yams", Stake: dec("1"), Prize: dec("7")}, "no lot of its table"},
	} {
		err := s.Add(c.u)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.u, err, c.want)
		}
	}
	if s.Total().Units != 0 || len(s.Sequences()) != 0 || len(s.Balance()) != 0 {
		t.Errorf("refused units were counted: %+v, %d sequences", s.Total(), len(s.Sequences()))
	}
	if _, err := New(Options{Points: 3}); err == nil {
		t.Error("3 balance points: want an error")
	}
}

func TestTablesOption(t *testing.T) {
	small := func(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
		t, err := g.Table(stake)
		if err != nil {
			return nil, err
		}
		return &game.Table{Units: 10, Lots: []game.Lot{{Prize: t.Lots[len(t.Lots)-1].Prize, Count: 7}}}, nil
	}
	s := newSession(t, Options{Tables: small})
	if err := s.Add(Unit{Game: "vegas", Stake: dec("3"), Prize: dec("3"), Balance: dec("100")}); err != nil {
		t.Fatal(err)
	}
	f, _ := s.Figures(Key{Game: "vegas", Stake: dec("3")})
	if len(f.Lots) != 2 || f.Lots[0].Expected != (Ratio{7, 10}) || f.Lots[1].Expected != (Ratio{3, 10}) || !f.Payout(2).Equal(dec("0.7")) {
		t.Errorf("a table of 10 units: %+v", f)
	}
}

func TestSequencesOrder(t *testing.T) {
	p := &player{t: t, s: newSession(t, Options{}), balance: dec("100")}
	for _, u := range [][2]string{{"vegas", "3"}, {"yams", "2"}, {"yams", "0.5"}, {"vegas", "3"}, {"yams", "1"}} {
		p.play(u[0], u[1], "0", false)
	}
	var keys []string
	for _, f := range p.s.Sequences() {
		keys = append(keys, f.Key.String())
	}
	if got := strings.Join(keys, " "); got != "yams:0.5 yams:1 yams:2 vegas:3" {
		t.Errorf("sequences: %s", got)
	}
}

func TestBalanceEveryPoint(t *testing.T) {
	p := &player{t: t, s: newSession(t, Options{Points: 8}), balance: dec("10")}
	want := []string{"10"}
	for _, prize := range []string{"0", "2", "0", "0", "5", "1"} {
		p.play("yams", "1", prize, false)
		want = append(want, p.balance.String())
	}
	got := fmt.Sprint(p.s.Balance())
	if got != "["+strings.Join(want, " ")+"]" || p.s.Step() != 1 {
		t.Errorf("balance %s step %d, want %v", got, p.s.Step(), want)
	}
	first, last := p.s.Span()
	if last.Sub(first) != 5*time.Minute {
		t.Errorf("span %s to %s", first, last)
	}
}

func TestBalanceBoundedKeepsSpikes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, points := range []int{4, 5, 64, 1000} {
		for _, n := range []int{3, 100, 4097, 20000} {
			b := balance{limit: points}
			spike, dip := r.IntN(n), r.IntN(n)
			var lo, hi, last decimal.Decimal
			for i := range n {
				v := decimal.New(int64(r.IntN(100)), -2) // 0,00 to 0,99
				switch i {
				case spike:
					v = dec("1000")
				case dip:
					v = dec("-1000")
				}
				if i == 0 || v.LessThan(lo) {
					lo = v
				}
				if i == 0 || v.GreaterThan(hi) {
					hi = v
				}
				last = v
				b.add(v)
			}
			got := b.points()
			if len(got) > points+1 || (n > points && len(got) < points/2) {
				t.Errorf("%d values in %d points: %d kept", n, points, len(got))
			}
			if n <= points && len(got) != n {
				t.Errorf("%d values in %d points: %d kept, want all", n, points, len(got))
			}
			gotLo, gotHi := decimal.Min(got[0], got[1:]...), decimal.Max(got[0], got[1:]...)
			if !gotLo.Equal(lo) || !gotHi.Equal(hi) || !got[len(got)-1].Equal(last) {
				t.Errorf("%d values in %d points: min %s max %s last %s, want %s %s %s", n, points, gotLo, gotHi, got[len(got)-1], lo, hi, last)
			}
			// The spike keeps its place in time, to a bucket.
			at := 0
			for i, v := range got {
				if v.Equal(hi) {
					at = i
				}
			}
			if n > points {
				perPoint := float64(n) / float64(len(got))
				if diff := float64(at)*perPoint - float64(spike); diff > 2*float64(b.size) || diff < -2*float64(b.size) {
					t.Errorf("%d values in %d points: spike %d drawn at point %d of %d (bucket %d)", n, points, spike, at, len(got), b.size)
				}
			}
		}
	}
}

// TestStartAt: a series can start from a balance that already paid for
// units shown later, not from the first unit's balance less its result;
// once a unit is counted the start stays.
func TestStartAt(t *testing.T) {
	s := Fresh()
	s.StartAt(dec("96"))
	if err := s.Add(Unit{Game: "yams", Stake: dec("1"), Prize: dec("5"), Balance: dec("101")}); err != nil {
		t.Fatal(err)
	}
	s.StartAt(dec("50"))
	if b := s.Balance(); len(b) != 2 || !b[0].Equal(dec("96")) || !b[1].Equal(dec("101")) {
		t.Errorf("balance %v, want [96 101]", b)
	}
}
