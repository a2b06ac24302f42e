package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/session"
)

// TestVegasPreview: before a purchase the Vegas screen shows the four
// surfaces covered, each named and saying how it wins, and the ticket's
// lot table, at 80×24 and at the ticket's own size at 120×40; the buy
// button above them buys; the preview is gone once a ticket is bought.
func TestVegasPreview(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		tx := newText(lang)
		for _, s := range sizes {
			m := newModel(t, lang, VegasScreen, s[0], s[1])
			frame := plain(m)
			for f := range int(vegas.Surfaces) {
				if n := strings.Count(frame, "─ "+m.surfaceTitle(f)+" ─"); n != 1 {
					t.Errorf("%s %s: surface %q framed %d times:\n%s", lang, sizeName(s), m.surfaceTitle(f), n, frame)
				}
				if rule := tx.get(previewRuleKeys[f]); strings.Count(frame, "─ "+rule+" ─") != 1 {
					t.Errorf("%s %s: how surface %d wins, %q, is not in its frame:\n%s", lang, sizeName(s), f+1, rule, frame)
				}
			}
			// Nothing to scratch before a ticket: no surface says so.
			if n := strings.Count(frame, tx.get("v.scratchhere")); n != 0 {
				t.Errorf("%s %s: %d surfaces say where to scratch before a ticket:\n%s", lang, sizeName(s), n, frame)
			}
			table := vegas.Table()
			if !strings.Contains(frame, tx.f("v.pre.lots", m.euros(vegas.Price()))) {
				t.Errorf("%s %s: no lot table:\n%s", lang, sizeName(s), frame)
			}
			// Each lot beside its chance, marked when only several
			// surfaces reach it (art. 3).
			if !strings.Contains(frame, tx.get("v.pre.cumul")) {
				t.Errorf("%s %s: the table does not say what its mark means:\n%s", lang, sizeName(s), frame)
			}
			for _, l := range table.Lots {
				mark := " "
				if vegas.Cumulative(l.Prize.IntPart()) {
					mark = `\+ `
				}
				row := regexp.MustCompile(`│ +` + regexp.QuoteMeta(m.euros(l.Prize)) + mark + `.*` + regexp.QuoteMeta(m.chance(table.Units, l.Count)) + ` +│`)
				if !row.MatchString(frame) {
					t.Errorf("%s %s: the lot of %s and its chance are not in the table:\n%s", lang, sizeName(s), l.Prize, frame)
				}
			}
			// At 120×40 the surfaces are the ticket's own size, the
			// table has the lots per block.
			wide := s[0] == 120
			if perBlock := strings.Contains(frame, tx.get("count")); perBlock != wide {
				t.Errorf("%s %s: lots per block shown %v:\n%s", lang, sizeName(s), perBlock, frame)
			}
			if wide {
				b := bounds(t, m, "buy")
				coated := 0
				for _, l := range strings.Split(frame, "\n") {
					coated += b2i(strings.Count(l, "░") > surfaceW) // more than one surface can hold
				}
				if coated != 2*surfaceH {
					t.Errorf("%s %s: %d rows of two full-size coatings, not %d (the buy button at row %d):\n%s", lang, sizeName(s), coated, 2*surfaceH, b.Min.Y, frame)
				}
			}
			for _, l := range strings.Split(frame, "\n") {
				if w := ansi.StringWidth(l); w > s[0] || strings.Contains(l, "…") {
					t.Errorf("%s %s: a line is %d wide or cut: %q", lang, sizeName(s), w, l)
				}
			}
			x, y := find(t, m, "buy")
			click(m, x, y)
			if m.Totals().Played != 1 {
				t.Fatalf("%s %s: a click on the buy button over the preview bought nothing", lang, sizeName(s))
			}
			if after := plain(m); strings.Contains(after, tx.f("v.pre.lots", m.euros(vegas.Price()))) || strings.Contains(after, tx.get(previewRuleKeys[0])) {
				t.Errorf("%s %s: the preview stays over the ticket:\n%s", lang, sizeName(s), after)
			}
		}
	}
}

// TestVegasPreviewSmall: in a body too small for the preview (the QA line
// and a kiosk's take rows of it) it gives up the surfaces' second rows,
// then the surfaces, then the table; what it draws stays in the body,
// under the button's row and its note's.
func TestVegasPreviewSmall(t *testing.T) {
	m := newModel(t, English, VegasScreen, 80, 24)
	for _, c := range []struct {
		w, h      int
		bands     int
		table, ok bool
	}{
		{80, 22, 4, true, true}, {80, 18, 4, true, true}, {80, 16, 4, true, true}, {80, 15, 0, false, false},
		{60, 20, 0, true, true}, {40, 12, 0, false, false},
	} {
		body := area{0, 1, c.w, c.h}
		layers, top, ok := m.preview(nil, body)
		if ok != c.ok || len(layers) != c.bands+b2i(c.table) {
			t.Errorf("%d×%d: %d layers, ok %v", c.w, c.h, len(layers), ok)
		}
		for _, l := range layers {
			if l.x < 0 || l.y < top+3 || l.x+l.d.w > body.w || l.y+l.d.height() > body.y+body.h {
				t.Errorf("%d×%d: a layer at (%d, %d), %d×%d, is out of the body under the button's row %d", c.w, c.h, l.x, l.y, l.d.w, l.d.height(), top)
			}
		}
	}
}

// TestHistoryRowsRead: each row of the history says the time, the game,
// the stake, what the unit reached and its prize, as the unit scored; the
// history says how many units it keeps, the session's true number.
func TestHistoryRowsRead(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		tx := newText(lang)
		for _, s := range sizes {
			m := newModel(t, lang, YamsScreen, s[0], s[1])
			for range 4 {
				press(m, "a")
				settle(m)
			}
			press(m, "esc", "2")
			for range 4 {
				press(m, "enter", "a")
				settle(m)
			}
			press(m, "h")
			frame := plain(m)
			golden(t, "history_"+string(lang)+"_"+sizeName(s)+"_rows", frame)
			units := m.till.session.Recent()
			if len(units) != 8 {
				t.Fatalf("%d units played", len(units))
			}
			lines := strings.Split(frame, "\n")
			for _, p := range units {
				row := ""
				for _, l := range lines {
					if strings.HasPrefix(strings.TrimLeft(l, " "), strconv.Itoa(p.Op.Seq)+" ") {
						row = l
					}
				}
				// The time, the game, the stake, the points (Yam's) and the
				// prize, in this order; the combinations or the surfaces
				// that won between, each named unless the cell is cut.
				name, points := tx.get("vegas"), ""
				var reached []string
				if u := p.Sold.Layout.Yams; u != nil {
					name = tx.get("yams")
					sc := u.Score()
					points = tx.f("pts", sc.Points)
					for _, combo := range sc.Combinations {
						if combo.Points() > 0 {
							reached = append(reached, m.comboName(combo))
						}
					}
				} else {
					sc := p.Sold.Layout.Vegas.Score()
					for f := range vegas.Surfaces {
						if sc.SurfacePrize(f).IsPositive() {
							reached = append(reached, tx.get(surfaceKeys[f]))
						} else if strings.Contains(row, tx.get(surfaceKeys[f])) {
							t.Errorf("%s %s: surface %s did not win, yet its row names it: %q", lang, sizeName(s), f, row)
						}
					}
					if len(reached) == 0 {
						points = "—"
					}
				}
				at := 0
				for _, w := range []string{"20:00", name, tx.money(p.Op.Stake), points, tx.money(p.Op.Prize)} {
					i := strings.Index(row[at:], w)
					if i < 0 {
						t.Errorf("%s %s: the row of unit %d has no %q after column %d: %q", lang, sizeName(s), p.Op.Seq, w, at, row)
						break
					}
					at += i + len(w)
				}
				for _, r := range reached {
					if !strings.Contains(row, r) && !strings.Contains(row, "…") {
						t.Errorf("%s %s: the row of unit %d does not say it reached %q: %q", lang, sizeName(s), p.Op.Seq, r, row)
					}
				}
				if strings.Contains(row, p.Op.Unit) != (s[0] == 120) {
					t.Errorf("%s %s: the unit's number %s shown %v: %q", lang, sizeName(s), p.Op.Unit, s[0] == 120, row)
				}
			}
			if !strings.Contains(frame, tx.f("hist.kept", HistoryLimit)) {
				t.Errorf("%s %s: the history does not say it keeps %d units:\n%s", lang, sizeName(s), HistoryLimit, frame)
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > s[0] {
					t.Errorf("%s %s: a line is %d wide: %q", lang, sizeName(s), w, l)
				}
			}
		}
	}
	// A session keeping fewer units says so, and lists that many.
	clock := newTestClock()
	sess, err := session.Open(session.Options{Seed: game.SeedFrom(42), Balance: decimal.NewFromInt(100), Now: clock.Now, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, Clock: clock})
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	for range 5 {
		press(m, "a")
		settle(m)
	}
	press(m, "h")
	frame := plain(m)
	if !strings.Contains(frame, "the last 3 units are kept") || strings.Contains(frame, "\n 2    20:00") || !strings.Contains(frame, "\n 3    20:00") {
		t.Errorf("a session keeping 3 units:\n%s", frame)
	}
}

// TestHistoryRowsDays: a unit of another day than today has its date with
// its time.
func TestHistoryRowsDays(t *testing.T) {
	m := newModel(t, French, YamsScreen, 80, 24)
	press(m, "a")
	settle(m)
	clockOf(m).add(26 * time.Hour)
	press(m, "a")
	settle(m)
	press(m, "h")
	frame := plain(m)
	if !strings.Contains(frame, "\n 1    29/11 20:00  Yam's !") || !strings.Contains(frame, "\n 2    22:00        Yam's !") {
		t.Errorf("the units of two days:\n%s", frame)
	}
}
