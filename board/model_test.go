package board

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
	"tapis/ui"
)

// fixed is a source that always gives the same reading.
type fixed struct {
	b   store.Board
	ok  bool
	err error
}

func (f fixed) Latest() (store.Board, bool, error) { return f.b, f.ok, f.err }

var at = time.Date(2026, 12, 1, 14, 32, 5, 0, time.UTC)

// sample is a board of the regulations' tables: one block on sale a game
// and stake (two of Vegas), some of each sold, wins, players, an hour of
// sales but the last few minutes.
func sample(t *testing.T) store.Board {
	t.Helper()
	b := store.Board{At: at, Since: at.Add(-40 * time.Minute), SalesFrom: at.Add(-40 * time.Minute), Players: 23, PerMinute: 312}
	for i := range 240 {
		b.Sales = append(b.Sales, 20+(i*7)%45)
	}
	for _, g := range lottery.Games() {
		for _, stake := range g.Stakes {
			table, err := g.Table(stake)
			if err != nil {
				t.Fatal(err)
			}
			blocks := 1
			if g.Name == "vegas" {
				blocks = 2
			}
			sq := store.Sequence{Seq: g.Seq(stake), Losing: table.Losing()}
			for tier := range table.Tiers() {
				sq.Prizes = append(sq.Prizes, table.Prize(tier))
				sq.Initial = append(sq.Initial, int64(blocks)*table.Count(tier))
				sq.Left = append(sq.Left, int64(blocks)*table.Count(tier)*int64(3+tier%4)/7)
			}
			for n := range blocks {
				left := make([]int64, table.Tiers())
				for tier := range left {
					left[tier] = table.Count(tier) * int64(3+tier%4) / 7
				}
				if n == 1 {
					left[0] = 0 // the top prize of Vegas's block 4 is won
				}
				sq.Blocks = append(sq.Blocks, store.OpenBlock{Number: int64(3 + n), Units: table.Units, Sold: table.Units * 4 / 7,
					Commitment: [32]byte{0x9f, 0x86, 0xd0, 0x81, 0x88, 0x4c, 0x7d, 0x65}, Left: left})
			}
			b.Sequences = append(b.Sequences, sq)
		}
	}
	for i := range 14 {
		unit := game.UnitID{Game: "yams", Stake: decimal.NewFromFloat(0.5), Block: 3, Serial: int64(400_000 - i*977)}
		prize := decimal.NewFromInt(5)
		if i%3 == 1 {
			unit = game.UnitID{Game: "vegas", Stake: decimal.NewFromInt(3), Block: 4, Serial: int64(1_234_567 - i)}
			prize = decimal.NewFromInt(10_000)
		}
		b.Wins = append(b.Wins, store.Win{Unit: unit, Prize: prize, At: at.Add(-time.Duration(i*37+3) * time.Second)})
	}
	b.Top = []store.Win{
		{Unit: game.UnitID{Game: "vegas", Stake: decimal.NewFromInt(3), Block: 4, Serial: 77}, Prize: decimal.NewFromInt(40_000), At: at.Add(-2 * time.Hour)},
		{Unit: game.UnitID{Game: "yams", Stake: decimal.NewFromInt(2), Block: 3, Serial: 12}, Prize: decimal.NewFromInt(1_000), At: at.Add(-5 * time.Second)},
		{Unit: game.UnitID{Game: "yams", Stake: decimal.NewFromInt(1), Block: 3, Serial: 5}, Prize: decimal.NewFromInt(500), At: at.Add(-30 * time.Minute)},
		{Unit: game.UnitID{Game: "yams", Stake: decimal.NewFromFloat(0.5), Block: 3, Serial: 9}, Prize: decimal.NewFromInt(250), At: at.Add(-15 * time.Hour)}, // yesterday
	}
	return b
}

// draw renders a board of src at w×h, its ANSI sequences stripped.
func draw(t *testing.T, src Source, lang ui.Lang, w, h int) string {
	t.Helper()
	m := New(Options{Lang: lang, Source: src, Location: time.UTC, Join: Join{Host: "stand.local", Port: 23234}})
	m.Update(m.read())
	return stripped(m, w, h)
}

// stripped draws a board at w×h, its ANSI sequences stripped.
func stripped(m *Model, w, h int) string {
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return ansi.Strip(m.View().Content)
}

// fits checks a frame is h lines of w cells at most.
func fits(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Errorf("%d×%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%d×%d: line %d is %d cells: %q", w, h, i+1, n, l)
		}
	}
}

// TestBoardShowsEveryPart: at 80×24 and at 200×50, in both languages, the
// board fits its screen and shows each game and stake with its block and
// lots left, the big wins (their units, amounts, times), the players and
// the sales per minute.
// bigAt reports whether the frame holds s in the board's large type at
// scale: its rows one under the other, at the same column.
func bigAt(frame, s string, scale int) bool {
	rows, ok := newBigFont().render(s, scale)
	if !ok {
		return false
	}
	lines := strings.Split(frame, "\n")
	for i := 0; i+len(rows) <= len(lines); i++ {
		col := strings.Index(lines[i], rows[0])
		for col >= 0 {
			at := ansi.StringWidth(lines[i][:col])
			all := true
			for k, r := range rows[1:] {
				cells := []rune(lines[i+1+k])
				line := string(cells[min(at, len(cells)):])
				all = all && strings.HasPrefix(line, r)
			}
			if all {
				return true
			}
			next := strings.Index(lines[i][col+1:], rows[0])
			if next < 0 {
				break
			}
			col += 1 + next
		}
	}
	return false
}

// TestBoardShowsEveryPart: at 80×24 and at 200×50, in both languages, the
// board fits its screen and shows how to join (the command players type),
// the day's biggest win in large type with its game, stake and time (and
// not yesterday's), the next ones, the sales a minute and the players in
// large type, and the top prizes left in each game and stake's blocks on
// sale; never a commitment, a hash or a unit's name.
func TestBoardShowsEveryPart(t *testing.T) {
	src := fixed{b: sample(t), ok: true}
	for _, c := range []struct {
		lang  ui.Lang
		w, h  int
		scale int
		want  []string
	}{
		{ui.French, 80, 24, 1, []string{"tableau en direct", "23 joueurs", "312 achats/min", "14:32:05",
			"Pour jouer", "scannez, ou tapez :", "ssh -p 23234 stand.local",
			"Plus gros gains du jour (10× la mise et plus)", "Vegas · 3 € · 12:32:05", "1 000 €     Yam's ! 2 €     14:32:00",
			"achats par minute", "joueurs en ce moment", "Lots restants",
			"Yam's ! · 0,50 €", "285 × 10 €, 15 428 × 5 € dans le bloc n° 3", "Vegas · 3 €", "2 × 10 000 € dans les blocs n° 3, 4", "q quitter"}},
		{ui.English, 80, 24, 1, []string{"live board", "23 players", "How to play", "ssh -p 23234 stand.local",
			"Biggest wins today", "Vegas · €3 · 12:32:05", "sales a minute", "players now", "Top prizes left",
			"Yam's! · €1", "285 × €20, 15,428 × €10 left in block 3", "q quit"}},
		{ui.French, 200, 50, 2, []string{"tableau en direct", "Pour jouer", "ssh -p 23234 stand.local",
			"Plus gros gains du jour (10× la mise et plus)", "1 000 €     Yam's ! 2 €     14:32:00", "500 €       Yam's ! 1 €     14:02:05",
			"Lots restants", "285 × 10 €, 15 428 × 5 €, 10 714 × 2,50 € dans le bloc n° 3",
			"Vegas · 3 €  2 × 10 000 €, 34 × 1 000 €, 856 × 200 € dans les blocs n° 3, 4", "Achats par minute", "max 384/min"}},
		{ui.English, 200, 50, 2, []string{"How to play", "Biggest wins today (10× the stake and more)", "Top prizes left", "Sales per minute"}},
	} {
		frame := draw(t, src, c.lang, c.w, c.h)
		fits(t, frame, c.w, c.h)
		for _, want := range c.want {
			if !strings.Contains(frame, want) {
				t.Errorf("%s %d×%d: no %q in\n%s", c.lang, c.w, c.h, want, frame)
			}
		}
		big := map[ui.Lang][3]string{ui.French: {"40 000 €", "312", "23"}, ui.English: {"€40,000", "312", "23"}}[c.lang]
		for _, s := range big {
			if !bigAt(frame, s, c.scale) {
				t.Errorf("%s %d×%d: no %q in large type (scale %d) in\n%s", c.lang, c.w, c.h, s, c.scale, frame)
			}
		}
		for _, not := range []string{"9f86d081", "engagement", "commitment", "yams:", "vegas:", "250 €", "€250"} {
			if strings.Contains(frame, not) {
				t.Errorf("%s %d×%d: %q, which the room must not see (a hash, a unit, yesterday's win), in\n%s", c.lang, c.w, c.h, not, frame)
			}
		}
	}
}

// TestBoardBeforeTheFirstWin: no big win today says so; a win just bought
// stands out (its own style, not plain text).
func TestBoardBeforeTheFirstWin(t *testing.T) {
	b := sample(t)
	b.Top = nil
	if frame := draw(t, fixed{b: b, ok: true}, ui.English, 80, 24); !strings.Contains(frame, "none yet today") {
		t.Errorf("no win today:\n%s", frame)
	}
}

// TestBoardBeforeABlockOpens: a stake whose blocks no sale has opened yet
// (a store made by simulate at another stake) is said to open at its
// first sale, not to have none on sale: a player can buy there.
func TestBoardBeforeABlockOpens(t *testing.T) {
	b := sample(t)
	b.Sequences[0].Blocks = nil
	for lang, want := range map[ui.Lang]string{ui.English: "no block opened yet: the first sale opens them",
		ui.French: "pas encore de bloc : la première vente en ouvre"} {
		if frame := draw(t, fixed{b: b, ok: true}, lang, 120, 40); !strings.Contains(frame, want) || strings.Contains(frame, "on sale") {
			t.Errorf("%v: a stake with no block opened:\n%s", lang, frame)
		}
	}
}

// TestBoardSizes: every size from the smallest up fits; below it, one
// message says what is needed.
func TestBoardSizes(t *testing.T) {
	src := fixed{b: sample(t), ok: true}
	for _, s := range [][2]int{{40, 12}, {60, 20}, {79, 23}, {100, 30}, {120, 40}, {150, 30}, {149, 60}, {250, 70}} {
		fits(t, draw(t, src, ui.French, s[0], s[1]), s[0], s[1])
	}
	if frame := draw(t, src, ui.English, 60, 20); !strings.Contains(frame, "ssh -p 23234 stand.local") || strings.Contains(frame, "How to play") {
		t.Errorf("60×20: the join command on the bottom line, no panel:\n%s", frame)
	}
	frame := draw(t, src, ui.English, 30, 10)
	fits(t, frame, 30, 10)
	if !strings.Contains(strings.Join(strings.Fields(frame), " "), "needs at least 40×12") {
		t.Errorf("30×10:\n%s", frame)
	}
}

// TestBoardBeforeAndAfterAReading: before the first reading the board says
// it reads; a poll that fails is said on the bottom line, the last
// reading still shown; with no reading at all, in the middle.
func TestBoardBeforeAndAfterAReading(t *testing.T) {
	if frame := draw(t, fixed{}, ui.French, 80, 24); !strings.Contains(frame, "Lecture de l'émission") {
		t.Errorf("before any reading:\n%s", frame)
	}
	// The room is told the board is paused, never the store's words.
	gone := errors.New("store postgres://tapis@10.0.0.5:5432/tapis: connection refused")
	frame := draw(t, fixed{b: sample(t), ok: true, err: gone}, ui.English, 80, 24)
	if !strings.Contains(frame, "Paused") || !strings.Contains(frame, "Vegas · €3") || strings.Contains(frame, "10.0.0.5") {
		t.Errorf("a failed poll after a reading:\n%s", frame)
	}
	frame = draw(t, fixed{b: sample(t), ok: true, err: gone}, ui.English, 120, 40)
	if !strings.Contains(frame, "Paused: the emission does not answer; the board goes on when it does") {
		t.Errorf("a failed poll after a reading, 120×40:\n%s", frame)
	}
	frame = draw(t, fixed{err: gone}, ui.French, 80, 24)
	if !strings.Contains(strings.Join(strings.Fields(frame), " "), "En pause : l'émission ne répond pas") || strings.Contains(frame, "10.0.0.5") {
		t.Errorf("a failed first poll:\n%s", frame)
	}
	// An error of several lines, with control characters, is one
	// printable line: the frame keeps its size.
	for _, src := range []fixed{{b: sample(t), ok: true, err: errors.New("line one\nline two\x1b[2J")}, {err: errors.New("a\nb")}} {
		frame := draw(t, src, ui.English, 80, 24)
		fits(t, frame, 80, 24)
		if strings.Contains(frame, "\x1b") {
			t.Errorf("an error's escape reached the frame:\n%q", frame)
		}
	}
}

// TestBoardKeys: q and ctrl+c quit; no other key does anything.
func TestBoardKeys(t *testing.T) {
	m := New(Options{Lang: ui.English, Source: fixed{b: sample(t), ok: true}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyEnter}, {Code: tea.KeyEscape}, {Code: ' ', Text: " "}} {
		if _, cmd := m.Update(k); cmd != nil {
			t.Errorf("%s: a command", k)
		}
	}
	for _, k := range []tea.KeyPressMsg{{Code: 'q', Text: "q"}, {Code: 'c', Mod: tea.ModCtrl}} {
		_, cmd := m.Update(k)
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s does not quit", k)
		}
	}
}

// TestFeed: a feed of a store gives its readings once started; it closes,
// started or not, more than once, and starts no more once closed.
func TestFeed(t *testing.T) {
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"), store.Options{Key: ledger.PublicTestKey(), Tables: store.SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	idle := NewFeed(st, nil)
	idle.Close()
	idle.Close()
	idle.Start()
	if _, ok, _ := idle.Latest(); ok {
		t.Error("a feed closed before it started reads")
	}
	f := NewFeed(st, nil)
	f.Start()
	f.Start()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, ok, err := f.Latest()
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			if len(b.Sequences) != 4 {
				t.Errorf("a reading of %d sequences", len(b.Sequences))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no reading in 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.Close()
	f.Close()
}
