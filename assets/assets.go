// Package assets holds the drawings of the game (dice faces, the cup, the
// cards, the reels, the wheel, the scratch coating) as text files embedded
// in the program, so that they can be redrawn without touching the code.
package assets

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed *.txt
var files embed.FS

// Drawing returns the rows of a drawing file: comment lines starting with
// "#" at the top are dropped and "." stands for a blank cell. Blocks are
// separated by empty lines.
func Drawing(name string) ([][]string, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	var blocks [][]string
	var cur []string
	for line := range strings.SplitSeq(strings.TrimRight(string(b), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			if cur != nil {
				blocks = append(blocks, cur)
				cur = nil
			}
		default:
			cur = append(cur, strings.ReplaceAll(line, ".", " "))
		}
	}
	if cur != nil {
		blocks = append(blocks, cur)
	}
	return blocks, nil
}

// MustDrawing is Drawing for the files shipped with the program, which a
// test reads: it panics if one is missing.
func MustDrawing(name string) [][]string {
	d, err := Drawing(name)
	if err != nil {
		panic(err)
	}
	return d
}
