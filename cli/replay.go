package cli

import (
	"errors"
	"fmt"
	"io"

	"tapis/game/lottery"
	"tapis/text"
)

// ReplayLayouts reads the layouts that `tapis replay` shows, from r: at most
// lottery.MaxRecords of them, saying so on stderr when more were left out
// (the rest is not read). An invalid layout is reported on stderr in one
// line, as score does. The status is ExitInvalid when a layout was invalid,
// or a line too long stopped the reading, and ExitUsage when r failed.
func ReplayLayouts(stderr io.Writer, r io.Reader) ([]lottery.Entry, int) {
	var entries []lottery.Entry
	status := ExitOK
	err := lottery.ReadWhile(r, func(e lottery.Entry) bool {
		if e.Err != nil {
			fmt.Fprintf(stderr, "line %d: %s\n", e.Line, text.Printable(e.Err.Error()))
			status = ExitInvalid
			return true
		}
		if len(entries) == lottery.MaxRecords {
			fmt.Fprintf(stderr, "tapis replay: more than %d layouts: the first %d are shown, the rest (from line %d) is left out\n",
				lottery.MaxRecords, lottery.MaxRecords, e.Line)
			return false
		}
		entries = append(entries, e)
		return true
	})
	var long *lottery.LineTooLongError
	switch {
	case errors.As(err, &long):
		fmt.Fprintf(stderr, "tapis replay: %s\n", long)
		status = ExitInvalid
	case err != nil:
		fmt.Fprintf(stderr, "tapis replay: %s\n", text.Printable(err.Error()))
		status = ExitUsage
	}
	return entries, status
}
