package sshload

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a PTY's size as the load commands take it, COLSxROWS
// (x or X): 20 to 500 columns, 10 to 500 rows.
func ParseSize(s string) (cols, rows int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	cols, err1 := strconv.Atoi(a)
	rows, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || cols < 20 || cols > 500 || rows < 10 || rows > 500 {
		return 0, 0, fmt.Errorf("-size %q: want COLSxROWS, 20 to 500 columns, 10 to 500 rows", s)
	}
	return cols, rows, nil
}
