package ui

// ticketSize is the size of the cells a ticket's surfaces are drawn in:
// the regular one, which two surfaces side by side fit in 80 columns, and a
// larger one for windows of about 120×40 and more, with larger dice and
// cards. The coating is always kept at the regular size: a larger surface
// shows it, and is scratched, scaled.
type ticketSize struct{ w, h int }

// The two sizes of a surface.
var (
	regularSurface = ticketSize{surfaceW, surfaceH}
	largeSurface   = ticketSize{54, 12}
)

// largest is the largest size's height, which arrays of rows are sized for.
const largestH = 12

// ticketSizeFor returns the size the ticket is drawn at in a body: the
// larger one when two rows of two surfaces fit it.
func ticketSizeFor(body area) ticketSize {
	if body.w >= 2*largeSurface.boxW()+4 && body.h >= largeSurface.height() {
		return largeSurface
	}
	return regularSurface
}

// large reports whether the size is the larger one.
func (z ticketSize) large() bool { return z.w > surfaceW }

// boxW and boxH are a framed surface's size.
func (z ticketSize) boxW() int { return z.w + 2 }
func (z ticketSize) boxH() int { return z.h + 2 }

// height is what the ticket needs: two rows of framed surfaces and the
// result line.
func (z ticketSize) height() int { return 2*z.boxH() + 1 }

// coatAt returns the cell of the coating under the cell (x, y) of a
// surface drawn at this size.
func (z ticketSize) coatAt(x, y int) (int, int) { return x * surfaceW / z.w, y * surfaceH / z.h }

// roulette returns where the Roulette's pieces are at this size: the row
// of the first bet, the column of the piles of chips (Mise 1 to 4) and of
// the chips' values, and the row "scratch here" is written on, over the
// wheel.
func (z ticketSize) roulette() (betsY, pilesX, chipX, scratchY int) {
	if z.large() {
		return 6, 30, 39, 2
	}
	return 4, 21, 29, 1
}
