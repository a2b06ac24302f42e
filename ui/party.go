package ui

import (
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/assets"
)

// The celebration of a big win: the prize in big lettering over the board,
// counting up then flashing, for about two seconds; the banner under it
// flashes as long. Its steps stay far above the server's 40 ms a frame.
const (
	partyEvery  = 160 * time.Millisecond
	partyFrames = 12 // about two seconds
	countFrames = 5  // the first frames count the prize up
)

// Big wins, in stakes: from bigWinAt the prize is celebrated, from
// jackpotAt it is a jackpot (art. 4.5 of Yam's top lots, Vegas's 10 000 €).
var (
	bigWinAt  = decimal.NewFromInt(10)
	jackpotAt = decimal.NewFromInt(500)
)

// partyState is the celebration under way, if any: the prize and stake of
// the unit it celebrates, which the screen showing that unit draws it over.
type partyState struct {
	gen   int
	frame int // 0 when none is under way
	prize decimal.Decimal
	stake decimal.Decimal
	huge  bool // a jackpot
}

// celebrateWin starts the celebration of a prize of ten stakes or more,
// and rings the terminal's bell with --bell (three times for a jackpot);
// smaller wins are shown plainly or with a still banner.
func (c *common) celebrateWin(prize, stake decimal.Decimal) tea.Cmd {
	if prize.LessThan(stake.Mul(bigWinAt)) {
		return nil
	}
	c.party = partyState{gen: c.party.gen + 1, frame: 1, prize: prize, stake: stake,
		huge: prize.GreaterThanOrEqual(stake.Mul(jackpotAt))}
	return tea.Batch(c.clock.After(partyEvery, partyTickMsg{c.party.gen}), c.ring())
}

// ring is the terminal's bell, with --bell.
func (c *common) ring() tea.Cmd {
	if !c.bell {
		return nil
	}
	return tea.Raw("\a")
}

// partyTick moves the celebration on, until it ends; a jackpot rings again
// on its fourth and eighth frames.
func (c *common) partyTick(t partyTickMsg) tea.Cmd {
	if t.gen != c.party.gen || c.party.frame == 0 {
		return nil
	}
	c.party.frame++
	if c.party.frame > partyFrames {
		c.party.frame = 0
		return nil
	}
	var bell tea.Cmd
	if c.party.huge && (c.party.frame == 4 || c.party.frame == 8) {
		bell = c.ring()
	}
	return tea.Batch(c.clock.After(partyEvery, t), bell)
}

// flashing reports whether the banner shows its other colours now, while
// a celebration lasts.
func (p partyState) flashing() bool { return p.frame%2 == 0 && p.frame > 0 }

// celebrating reports whether the celebration under way is of a unit of
// this prize and stake, fully shown: the screen showing it draws it.
func (p partyState) celebrating(prize, stake decimal.Decimal) bool {
	return p.frame > 0 && p.prize.Equal(prize) && p.stake.Equal(stake)
}

// lettering holds the big characters of assets/lettering.txt, five rows each.
type lettering map[rune][]string

// letterRows is the height of a big character.
const letterRows = 5

func newLettering() lettering {
	names := map[string]rune{"euro": '€', "comma": ',', "dot": '.', "space": ' '}
	l := lettering{}
	for _, block := range assets.MustDrawing("lettering.txt") {
		r, ok := names[block[0]]
		if !ok {
			r = []rune(block[0])[0]
		}
		l[r] = block[1:]
	}
	return l
}

// render writes s in big characters, a blank column between two, and says
// how wide they are; a space of any kind is the lettering's space, and a
// character it has no drawing of is left out.
func (l lettering) render(s string) ([letterRows]string, int) {
	var rows [letterRows]string
	w := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			r = ' '
		}
		g, ok := l[r]
		if !ok || len(g) != letterRows {
			continue
		}
		gap := ""
		if w > 0 {
			gap = " "
		}
		for y := range rows {
			rows[y] += gap + g[y]
		}
		w += len(gap) + len([]rune(g[0]))
	}
	return rows, w
}

// partyKey is a band of the celebration as drawn: its size, its big word,
// its title and its frame.
type partyKey struct {
	w, h, frame int
	word, title string
}

// partyAmount is the prize the celebration shows now: counted up in whole
// euros over its first frames, then the prize itself.
func (c *common) partyAmount() string {
	p := c.party
	if p.frame >= countFrames {
		return c.euros(p.prize)
	}
	return c.euros(p.prize.Mul(decimal.NewFromInt(int64(p.frame))).Div(decimal.NewFromInt(countFrames)).Floor())
}

// partyBands returns the celebration's bands over a board or a ticket: a
// big win's prize in big lettering over top (h rows), and for a jackpot
// the word JACKPOT there and the prize over rest (rest.h 0 for none).
func (c *common) partyBands(top, rest area) []layer {
	title := c.t.get("bigwin")
	if c.party.huge {
		title = c.t.get("hugewin")
	}
	amount := c.partyAmount()
	if !c.party.huge || rest.h < letterRows {
		return []layer{place(top, c.kept.party[0].get(partyKey{top.w, top.h, c.party.frame, amount, title},
			func() *drawing { return c.partyBand(top.w, top.h, amount, title) }))}
	}
	return []layer{
		place(top, c.kept.party[0].get(partyKey{top.w, top.h, c.party.frame, "JACKPOT", title},
			func() *drawing { return c.partyBand(top.w, top.h, "JACKPOT", "") })),
		place(rest, c.kept.party[1].get(partyKey{rest.w, rest.h, c.party.frame, amount, title},
			func() *drawing { return c.partyBand(rest.w, rest.h, amount, title) })),
	}
}

// partyBand draws a band w×h of the celebration: word in big lettering in
// its middle, title under it, and stars strewn over the rest, which move
// at every frame; its colours flash.
func (c *common) partyBand(w, h int, word, title string) *drawing {
	frame := c.party.frame
	band := c.st.bigWin.UnsetPadding()
	if c.party.flashing() {
		band = c.st.replay.UnsetPadding()
	}
	big, bw := c.art.letters.render(word)
	if bw > w {
		big, bw = [letterRows]string{}, 0 // too narrow: the title says it
		title = strings.TrimSpace(title + "  " + word)
	}
	lines := make([]string, h)
	top := max(0, (h-letterRows-1)/2)
	for y := range h {
		row := []rune(c.sparkles(w, y, frame))
		put := func(s string) {
			r := []rune(s)
			x := max(0, (w-len(r))/2)
			for i := range r {
				if x+i < w {
					row[x+i] = r[i]
				}
			}
		}
		switch {
		case bw > 0 && y >= top && y < top+letterRows:
			put(" " + big[y-top] + " ")
		case y == top+letterRows && title != "":
			put("  " + title + "  ")
		case bw == 0 && y == h/2:
			put("  " + title + "  ")
		}
		lines[y] = band.Render(string(row))
	}
	return measure(strings.Join(lines, "\n"))
}

// sparkles is a row of a band's stars, strewn differently at each frame.
func (c *common) sparkles(w, y, frame int) string {
	row := make([]rune, w)
	for x := range row {
		switch (x*7 + y*13 + frame*5) % 23 {
		case 0:
			row[x] = '★'
		case 11:
			row[x] = '✦'
		default:
			row[x] = ' '
		}
	}
	return string(row)
}
