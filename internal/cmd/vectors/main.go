// Command vectors writes the published test vectors, testdata/vectors/ (or
// the folder given), from internal/vectors: go run ./internal/cmd/vectors.
// TestFilesUpToDate in internal/vectors fails when the files differ from
// what it writes.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"tapis/internal/vectors"
)

func main() {
	dir := filepath.Join("testdata", "vectors")
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := write(dir); err != nil {
		fmt.Fprintln(os.Stderr, "vectors:", err)
		os.Exit(1)
	}
}

// write writes every vector file into dir.
func write(dir string) error {
	all, err := vectors.Generate()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range vectors.Files {
		b, err := vectors.Encode(all[name])
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d vectors\n", filepath.Join(dir, name), len(all[name]))
	}
	return nil
}
