package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// redrawEvery is the shortest time between two drawings of a progress bar.
const redrawEvery = 100 * time.Millisecond

// progressBar draws long work's progress on one line of a terminal,
// redrawn in place (at most ten times a second) and cleared at the end.
type progressBar struct {
	w     io.Writer
	width int // the terminal's
	bar   progress.Model
	now   func() time.Time
	last  time.Time // when it was last drawn; zero before the first time
	drawn bool
}

// progressOnTerminal returns a progress bar on env's standard error when
// it is a terminal, and nil otherwise: piped or redirected, standard error
// gets nothing. Its colours follow what the terminal and the environment
// (NO_COLOR) allow.
func progressOnTerminal(env Env) *progressBar {
	f, ok := env.Stderr.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return nil
	}
	width := 80
	if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
		width = w
	}
	return newProgressBar(colorprofile.NewWriter(f, env.Environ), width, time.Now)
}

// newProgressBar returns a progress bar drawing on w, a terminal of the
// given width, with the clock now.
func newProgressBar(w io.Writer, width int, now func() time.Time) *progressBar {
	// The bar leaves room for the count after it, and the last column free
	// so that the terminal never wraps the line.
	bar := progress.New(progress.WithWidth(min(60, max(10, width-30))))
	return &progressBar{w: w, width: width, bar: bar, now: now}
}

// update draws done units out of total, unless the bar was drawn less than
// redrawEvery ago. It has the signature of lottery.AuditOptions.Progress;
// a nil bar draws nothing.
func (p *progressBar) update(done, total int64) {
	if p == nil || total <= 0 {
		return
	}
	now := p.now()
	if p.drawn && now.Sub(p.last) < redrawEvery {
		return
	}
	p.last, p.drawn = now, true
	count := fmt.Sprintf("  %d/%d units", done, total)
	if p.bar.Width()+len(count) >= p.width {
		count = "" // a narrow terminal: the bar alone, never wrapped
	}
	fmt.Fprintf(p.w, "\r%s%s%s", p.bar.ViewAs(float64(done)/float64(total)), count, ansi.EraseLineRight)
}

// clear erases the bar's line, leaving the cursor at its start, when it
// was drawn.
func (p *progressBar) clear() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r"+ansi.EraseEntireLine)
}

// callback returns update, or nil for a nil bar, for an option that skips
// the work of progress when nobody looks.
func (p *progressBar) callback() func(done, total int64) {
	if p == nil {
		return nil
	}
	return p.update
}
