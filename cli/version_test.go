package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyOtherFormat: a journal of format 1, whose seed dealt other
// layouts, is refused with one line on standard error, nothing on standard
// output, exit 1; its purchases are never checked against this program's
// deals.
func TestVerifyOtherFormat(t *testing.T) {
	old := filepath.Join(t.TempDir(), "old.jsonl")
	os.WriteFile(old, []byte(`{"kind":"start","time":"2026-11-29T20:00:00Z","v":1,"seed":"1","balance":"100"}`+"\n"+
		`{"kind":"commit","time":"2026-11-29T20:00:01Z","block":"yams:1:1","commitment":"00"}`+"\n"), 0o600)
	code, out, errOut := run(t, "", "verify", old)
	want := "tapis verify: " + old + ": line 1: journal format 1, written by an older tapis (64-bit seeds, which deal otherwise, and nothing signed): this tapis neither sells from it nor checks it; open or verify it with the tapis that wrote it\n"
	if code != ExitInvalid || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want stderr %q", code, out, errOut, want)
	}
	if strings.Count(errOut, "\n") != 1 {
		t.Errorf("%d lines", strings.Count(errOut, "\n"))
	}
}
