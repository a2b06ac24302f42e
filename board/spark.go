package board

import "strings"

// levels are the eighths of a cell a sparkline rises by.
var levels = [...]rune{'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

// sparkline draws values as columns of eighths, one a cell, height lines
// tall, the highest value reaching the top: the last values, right-
// aligned, when there are more than width; blank on the left when fewer.
// A value above zero shows at least one eighth. It returns height lines of
// exactly width cells, top line first.
func sparkline(values []float64, width, height int) []string {
	if width <= 0 || height <= 0 {
		return nil
	}
	if len(values) > width {
		values = values[len(values)-width:]
	}
	top := 0.0
	for _, v := range values {
		top = max(top, v)
	}
	rows := make([][]rune, height)
	for r := range rows {
		rows[r] = []rune(strings.Repeat(" ", width))
	}
	pad := width - len(values)
	for i, v := range values {
		if v <= 0 || top <= 0 {
			continue
		}
		eighths := max(int(v/top*float64(height*8)+0.5), 1)
		for r := range height { // r counts from the bottom
			fill := min(eighths-r*8, 8)
			if fill <= 0 {
				break
			}
			rows[height-1-r][pad+i] = levels[fill-1]
		}
	}
	out := make([]string, height)
	for r, row := range rows {
		out[r] = string(row)
	}
	return out
}
