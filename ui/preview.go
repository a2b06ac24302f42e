package ui

import (
	"strings"

	"tapis/game/vegas"
)

// The Vegas screen before a purchase shows, under the buy button, the
// ticket's four surfaces still covered, each saying how it wins, beside the
// ticket's lot table (art. 3), as the Yam's board shows its tables before a
// unit is bought. A wide window has the surfaces at the ticket's own size;
// 80×24 has them as bands of coating; a window too small for either keeps
// the lot table alone, then the button alone.

// previewRuleKeys are the text keys of how each surface wins (art. 4.2 to
// 4.5), written in its frame's bottom edge, where its win shows once
// scratched.
var previewRuleKeys = [vegas.Surfaces]string{
	vegas.RouletteSurface: "v.pre.roulette", vegas.CrapsSurface: "v.pre.craps",
	vegas.PokerSurface: "v.pre.poker", vegas.JackpotSurface: "v.pre.jackpot",
}

// Keys of the preview's drawings.
type (
	// previewSurfaceKey is a covered surface of the preview, w cells wide
	// inside its frame and h high.
	previewSurfaceKey struct{ f, w, h int }
	// previewLotsKey is the lot table, with the lots per block when wide.
	previewLotsKey struct{ wide bool }
)

// previewGap is the room between the surfaces and the lot table.
const previewGap = 2

// preview appends to layers the four covered surfaces and the lot table
// that fit a body with the buy button on its row top, and returns the row
// the button goes on; ok is false when the body has room for neither, the
// button then centred alone.
func (c *common) preview(layers []layer, body area) (_ []layer, top int, ok bool) {
	wideLots := c.lotsTable(true)
	lots := c.lotsTable(false)
	const boxW, boxH = surfaceW + 2, surfaceH + 2
	// The ticket's own surfaces, two by two, under the button and its note.
	if w := 2*boxW + 1 + previewGap + lots.w; body.w >= w && body.h >= 3+2*boxH {
		if w+wideLots.w-lots.w <= body.w && wideLots.height() <= 2*boxH {
			lots, w = wideLots, w+wideLots.w-lots.w
		}
		top = body.y + max(0, (body.h-(3+2*boxH))/2)
		x0 := body.x + (body.w-w)/2
		for f := range int(vegas.Surfaces) {
			d := drawn(c, previewSurfaceKey{f, surfaceW, surfaceH}, func() string { return c.previewSurface(f, surfaceW, surfaceH) })
			layers = append(layers, place(area{x0 + (f%2)*(boxW+1), top + 3 + (f/2)*boxH, boxW, boxH}, d))
		}
		return append(layers, place(area{x0 + 2*boxW + 1 + previewGap, top + 3, lots.w, lots.height()}, lots)), top, true
	}
	// Bands of coating, one above the other, two rows high where there is
	// room, one otherwise.
	for rows := 2; rows >= 1; rows-- {
		inner := min(surfaceW, body.w-lots.w-previewGap-2)
		h := max(int(vegas.Surfaces)*(rows+2), lots.height())
		if inner < c.previewNeeds() || body.h < 3+h {
			continue
		}
		w := inner + 2 + previewGap + lots.w
		top = body.y + max(0, (body.h-(3+h))/2)
		x0 := body.x + (body.w-w)/2
		for f := range int(vegas.Surfaces) {
			d := drawn(c, previewSurfaceKey{f, inner, rows}, func() string { return c.previewSurface(f, inner, rows) })
			layers = append(layers, place(area{x0, top + 3 + f*(rows+2), inner + 2, rows + 2}, d))
		}
		return append(layers, place(area{x0 + inner + 2 + previewGap, top + 3, lots.w, lots.height()}, lots)), top, true
	}
	// The lot table alone.
	if body.w >= lots.w && body.h >= 3+lots.height() {
		top = body.y + max(0, (body.h-(3+lots.height()))/2)
		return append(layers, place(area{body.x + (body.w-lots.w)/2, top + 3, lots.w, lots.height()}, lots)), top, true
	}
	return layers, 0, false
}

// previewNeeds is the width inside a preview surface's frame its title and
// its rule need, the widest of the four.
func (c *common) previewNeeds() int {
	n := 0
	for f := range int(vegas.Surfaces) {
		n = max(n, cellWidth(c.surfaceTitle(f))+3, cellWidth(c.t.get(previewRuleKeys[f]))+3)
	}
	return n
}

// previewSurface draws surface f covered, w cells wide and h high inside
// its frame: its title on the frame, the coating, and how it wins in the
// bottom edge. It does not say "scratch here" as a ticket's does: there
// is nothing to scratch yet, and nothing there answers the mouse.
func (c *common) previewSurface(f, w, h int) string {
	art := c.ticketArt().coat
	var b strings.Builder
	for y := range h {
		row := make([]rune, w)
		tile := art[y%len(art)]
		for x := range row {
			row[x] = tile[x%len(tile)]
		}
		if y > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.st.coating.Render(string(row)))
	}
	foot := c.st.dim.Render(" " + c.t.get(previewRuleKeys[f]) + " ")
	return framed(c.surfaceFrame(false), w, c.surfaceTitle(f), foot, b.String())
}

// lotsTable draws the ticket's lot table (art. 3), highest first: each lot
// and its chance; wide, under a heading, the lots per block too. A lot only
// reached by adding several surfaces' wins is marked "+", and a line under
// the table says so (art. 3, ruling V5).
func (c *common) lotsTable(wide bool) *drawing {
	return memo(c, previewLotsKey{wide}, func() *drawing {
		t := vegas.Table()
		rows := []string{c.st.boxTitle.Render(c.t.f("v.pre.lots", c.euros(vegas.Price())))}
		if wide {
			rows = append(rows, c.st.dim.Render(padLeft(c.t.get("v.pre.lot"), 9)+padLeft(c.t.get("count"), 10)+padLeft(c.t.get("chance"), 13)))
		}
		for _, l := range t.Lots {
			line := padLeft(c.euros(l.Prize), 8) + " "
			if vegas.Cumulative(l.Prize.IntPart()) {
				line = line[:len(line)-1] + "+"
			}
			if wide {
				line += padLeft(c.number(l.Count), 10)
			}
			rows = append(rows, line+padLeft(c.chance(t.Units, l.Count), 13))
		}
		rows = append(rows, c.st.dim.Render(c.t.get("v.pre.cumul")))
		return measure(c.st.box.Render(strings.Join(rows, "\n")))
	})
}
