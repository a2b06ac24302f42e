package ui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"tapis/game/vegas"
	"tapis/game/yams"
	"tapis/session"
)

// A history row says what a player wants to read of a unit: when it was
// bought, the game, the stake, what it reached (Yam's: the points and the
// cups' combinations; Vegas: the surfaces that won), and the prize. A wide
// window adds the balance after it and the unit's number, what a claim
// quotes.

// historyCols are the columns a history shows in a width: what it reached
// gets the room left by the others, and the balance and the unit's number
// come in when there is room for them.
type historyCols struct {
	when, reached   int
	balance, number bool
}

// Widths of the history's columns, the spaces between them included.
const (
	histSeqW     = 5  // "#" and the purchase number
	histTimeW    = 13 // "29/11 20:00" and two spaces; "20:00" alone, 7
	histGameW    = 9  // "Yam's !"
	histStakeW   = 7  // "€0.50"
	histPrizeW   = 11 // "€40,000.00"
	histBalanceW = 13 // "€100,000.00"
	histNumberW  = 24 // "vegas:3:1:1500000", two spaces before it
	histReachedW = 30 // what reached needs for its usual text, two spaces before it
)

// historyColumns returns the columns that fit w cells, the times of the
// day alone when every unit listed is of today: at 80 columns, all but
// the balance and the unit's number.
func historyColumns(w int, today bool) historyCols {
	c := historyCols{when: histTimeW}
	if today {
		c.when = len("20:00") + 2
	}
	fixed := histSeqW + c.when + histGameW + histStakeW + histPrizeW
	c.reached = max(12, w-2-fixed)
	if c.reached-histNumberW >= histReachedW {
		c.number, c.reached = true, c.reached-histNumberW
	}
	if c.reached-histBalanceW >= histReachedW {
		c.balance, c.reached = true, c.reached-histBalanceW
	}
	c.reached = min(c.reached, 2*histReachedW)
	return c
}

// width is how many cells a row of the columns takes.
func (cols historyCols) width() int {
	return histSeqW + cols.when + histGameW + histStakeW + cols.reached + histPrizeW +
		b2i(cols.balance)*histBalanceW + b2i(cols.number)*histNumberW
}

// historyCells are the texts of a history row, heads or a unit's.
type historyCells struct {
	seq, when, game, stake, reached, prize, balance, number string
}

// historyRow lays the cells of a row out in the columns.
func (cols historyCols) historyRow(r historyCells) string {
	var sb strings.Builder
	sb.WriteString(padRight(r.seq, histSeqW))
	sb.WriteString(padRight(r.when, cols.when))
	sb.WriteString(padRight(r.game, histGameW))
	sb.WriteString(padLeft(r.stake, histStakeW))
	sb.WriteString("  " + padRight(ansi.Truncate(r.reached, cols.reached-2, "…"), cols.reached-2))
	sb.WriteString(padLeft(r.prize, histPrizeW))
	if cols.balance {
		sb.WriteString(padLeft(r.balance, histBalanceW))
	}
	if cols.number {
		sb.WriteString("  " + ansi.Truncate(r.number, histNumberW-2, "…"))
	}
	return strings.TrimRight(sb.String(), " ")
}

// historyHeads are the heads of the history's columns.
func (c *common) historyHeads() historyCells {
	return historyCells{seq: "#", when: c.t.get("hist.time"), game: c.t.get("hist.game"), stake: c.t.get("hist.stake"),
		reached: c.t.get("hist.reached"), prize: c.t.get("hist.prize"), balance: c.t.get("hist.balance"),
		number: c.t.get("hist.unit")}
}

// playedWhen writes when a unit was bought, in the clock's zone: its time
// on the day of now, its day too before.
func (c *common) playedWhen(t, now time.Time) string {
	t = t.In(now.Location())
	if sameDay(t, now) {
		return t.Format("15:04")
	}
	if c.t.lang == French {
		return t.Format("02/01 15:04")
	}
	return t.Format("Jan 2 15:04")
}

// sameDay reports whether t is of the day of now, in now's zone.
func sameDay(t, now time.Time) bool {
	y, m, d := t.In(now.Location()).Date()
	return y == now.Year() && m == now.Month() && d == now.Day()
}

// playedGame is the game of a unit, as its screen is named.
func (c *common) playedGame(p *session.Played) string {
	if p.Sold.Layout.Yams != nil {
		return c.t.get("yams")
	}
	return c.t.get("vegas")
}

// yamsReached says what a Yam's unit reached, to fit w cells: its points,
// then each cup's combination, highest first; the same combination once
// with its count ("pair ×2") when they do not fit one by one, and the
// lowest left out for "…" when they do not fit so either.
func (c *common) yamsReached(s yams.Score, w int) string {
	combos := s.Combinations
	slices.SortFunc(combos[:], func(a, b yams.Combination) int { return cmp.Compare(b, a) })
	var each, counted []string
	for i, combo := range combos {
		if combo.Points() == 0 {
			break
		}
		each = append(each, c.comboName(combo))
		if i > 0 && combos[i-1] == combo {
			continue
		}
		n := 0
		for _, o := range combos {
			n += b2i(o == combo)
		}
		name := c.comboName(combo)
		if n > 1 {
			name += " ×" + strconv.Itoa(n)
		}
		counted = append(counted, name)
	}
	text := c.t.f("pts", s.Points)
	if len(each) == 0 {
		return text
	}
	if long := text + " · " + strings.Join(each, " + "); cellWidth(long) <= w {
		return long
	}
	// The lowest combinations give way first, whole: "…" says some do.
	for n := len(counted); n > 0; n-- {
		short := text + " · " + strings.Join(counted[:n], " + ")
		if n < len(counted) {
			short += " + …"
		}
		if cellWidth(short) <= w {
			return short
		}
	}
	return text + " …"
}

// reachedOf says what a unit reached, to fit w cells: Yam's, its points and
// the combinations its cups made; Vegas, the surfaces that won, with the
// Roulette's results matched, the Poker's combination, the Jackpot's case
// and the Craps' count of sevens where they fit, "—" for none.
func (c *common) reachedOf(p *session.Played, w int) string {
	if u := p.Sold.Layout.Yams; u != nil {
		return c.yamsReached(u.Score(), w)
	}
	t := p.Sold.Layout.Vegas
	if t == nil {
		return ""
	}
	s := t.Score()
	var names, detailed []string
	for f := range vegas.Surfaces {
		if !s.SurfacePrize(f).IsPositive() {
			continue
		}
		name := c.t.get(surfaceKeys[f])
		names = append(names, name)
		switch f {
		case vegas.RouletteSurface: // the results its chips matched
			var bets []string
			for k := range vegas.Kinds {
				if !s.Roulette.Wins[k] {
					continue
				}
				if k == vegas.NumberKind {
					bets = append(bets, strconv.Itoa(t.Roulette.Number))
				} else {
					bets = append(bets, c.betWord(k, t.Roulette.Result(k)))
				}
			}
			name += " (" + strings.Join(bets, ", ") + ")"
		case vegas.PokerSurface:
			name += " (" + c.t.get(pokerKeys[s.Poker.Combination]) + ")"
		case vegas.JackpotSurface:
			name += " (" + c.t.get(jackpotKeys[s.Jackpot.Case]) + ")"
		case vegas.CrapsSurface:
			n := 0
			for _, won := range s.Craps.Wins {
				n += b2i(won)
			}
			if n > 1 {
				name += " ×" + strconv.Itoa(n)
			}
		}
		detailed = append(detailed, name)
	}
	switch long := strings.Join(detailed, " + "); {
	case len(names) == 0:
		return "—"
	case cellWidth(long) <= w:
		return long
	}
	return strings.Join(names, " + ")
}
