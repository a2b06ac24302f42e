package journal_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapis/ledger"
	"tapis/session"
	"tapis/store"
	"tapis/store/journal"
)

// oldJournal is a journal as tapis before format 3 wrote it: a 64-bit
// seed, nothing sealed nor signed.
func oldJournal(v int) string {
	start := fmt.Sprintf(`{"kind":"start","time":"2026-11-29T20:00:00Z","v":%d,"seed":"17","balance":"100"}`, v)
	if v == 0 {
		start = `{"kind":"start","time":"2026-11-29T20:00:00Z","seed":"17","balance":"100"}` // no format at all
	}
	return start + "\n" +
		`{"kind":"commit","time":"2026-11-29T20:00:01Z","block":"yams:1:1","commitment":"` + strings.Repeat("ab", 32) + `"}` + "\n" +
		`{"kind":"buy","time":"2026-11-29T20:00:02Z","seq":1,"unit":"yams:1:1:1","stake":"1","prize":"0","before":"100","after":"99","layout":{"game":"yams","stake":"1","cups":[[1,2,3,4,6],[1,2,3,4,6],[1,2,3,4,6]]}}` + "\n"
}

// TestOtherFormatRefused: a journal of another format (formats 1 and 2
// held 64-bit seeds, which deal otherwise, and signed nothing) is refused
// by verify and by resuming with one line, the first, saying what it is,
// never checked against this program's deals, and left as it is; a house
// key given changes nothing of it.
func TestOtherFormatRefused(t *testing.T) {
	for _, v := range []int{2, 1, 0, journal.Version + 1} {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		old := oldJournal(v)
		if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("line 1: journal format %d, written by an older tapis (64-bit seeds, which deal otherwise, and nothing signed): this tapis neither sells from it nor checks it; open or verify it with the tapis that wrote it", v)
		if v > journal.Version {
			want = fmt.Sprintf("line 1: journal format %d, written by a newer tapis: this tapis reads format %d only; open or verify it with the tapis that wrote it", v, journal.Version)
		}
		rep := verify(t, path)
		if !rep.Refused || len(rep.Problems) != 1 || rep.Problems[0].Error() != want || rep.Purchases != 0 {
			t.Errorf("format %d: verify found %+v, want only %q", v, rep, want)
		}
		for _, o := range []session.Options{{Journal: path, Tables: store.SmallTables}, {Journal: path, Tables: store.SmallTables, Key: ledger.PublicTestKey()}} {
			s, err := session.Open(o)
			if err == nil {
				s.Close()
			}
			var fe *journal.FormatError
			if err == nil || err.Error() != "journal "+path+": "+want || !errors.As(err, &fe) || fe.Version != v || errors.As(err, new(journal.Problem)) {
				t.Errorf("format %d: resuming says %v, want %q, a FormatError and no Problem to list", v, err, want)
			}
		}
		if now, _ := os.ReadFile(path); string(now) != old {
			t.Errorf("format %d: the refused journal was changed", v)
		}
	}
}
