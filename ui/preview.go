package ui

import (
	"strings"

	"tapis/game/vegas"
)

// The Vegas screen before a purchase: as Yam's shows its covered cups and
// its tables, a preview of the ticket's four surfaces, still coated, and
// its lot table, above the button that buys one. Nothing of it but the
// button is clickable, and nothing else looks it: the surfaces are drawn
// small, greyed, unnamed for the mouse.

// Size of a surface's preview, inside its frame.
const (
	previewW = 16
	previewH = 3
)

// previewKey is the preview as laid out in a body.
type previewKey struct{ body area }

// previewHeight is what the preview needs above the button: the
// surfaces' row, a blank, the lot table, a blank.
func previewHeight() int { return previewH + 2 + 1 + len(vegas.Table().Lots) + 3 + 1 }

// previewLayers returns the preview's layers in a body, and the row the
// buy button goes on; none when the body has no room for it (the button
// alone, centred).
func (s *vegasScreen) previewLayers(body area) ([]layer, int, bool) {
	h := previewHeight() + 1 // and the button
	if body.h < h || body.w < 4*(previewW+2)+3 {
		return nil, 0, false
	}
	y0 := body.y + max(0, (body.h-h-2)/2) // the note's two rows under the button, when there is room
	layers := memo(s.common, previewKey{body}, func() []layer {
		const boxW, gap = previewW + 2, 2
		x0 := body.x + (body.w-(4*boxW+3*gap))/2
		coat := s.st.coating.Render(strings.Repeat("░", previewW))
		rows := strings.TrimSuffix(strings.Repeat(coat+"\n", previewH), "\n")
		var out []layer
		for f := range int(vegas.Surfaces) {
			d := measure(framed(s.st.surface, previewW, s.surfaceTitle(f), "", rows))
			out = append(out, place(area{x0 + f*(boxW+gap), y0, boxW, previewH + 2}, d))
		}
		table := measure(s.previewTable())
		return append(out, place(area{body.x + (body.w-table.w)/2, y0 + previewH + 3, table.w, table.height()}, table))
	})
	return layers, y0 + h - 1, true
}

// previewTable is the ticket's lot table (art. 3): each lot and its
// chance, as the rules write them.
func (s *vegasScreen) previewTable() string {
	t := vegas.Table()
	rows := []string{s.st.boxTitle.Render(s.t.f("v.lots", s.t.money(vegas.Price())))}
	for _, l := range t.Lots {
		rows = append(rows, padLeft(s.t.money(l.Prize), 12)+padLeft(s.chance(t.Units, l.Count), 16))
	}
	return s.st.box.Render(strings.Join(rows, "\n"))
}
