package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOldJournalRefused: a journal of format 2 (a 64-bit seed, nothing
// signed) is neither sold from nor checked: simulate refuses it with one
// line, exit 2, as the game does; verify says the same line, exit 1; the
// journal is left as it is.
func TestOldJournalRefused(t *testing.T) {
	old := filepath.Join(t.TempDir(), "old.jsonl")
	content := `{"kind":"start","time":"2026-11-29T20:00:00Z","v":2,"seed":"1","balance":"100"}` + "\n"
	os.WriteFile(old, []byte(content), 0o600)
	what := "line 1: journal format 2, written by an older tapis (64-bit seeds, which deal otherwise, and nothing signed): this tapis neither sells from it nor checks it; open or verify it with the tapis that wrote it"
	code, out, errOut := run(t, "", "verify", "--journal", old)
	if code != ExitInvalid || out != "" || errOut != "tapis verify: "+old+": "+what+"\n" {
		t.Errorf("verify: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = run(t, "", "simulate", "--count", "1", "--journal", old)
	if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, ": "+what+"\n") {
		t.Errorf("simulate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if now, _ := os.ReadFile(old); string(now) != content {
		t.Error("the old journal was changed")
	}
}
