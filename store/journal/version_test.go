package journal_test

import (
	"fmt"
	"strings"
	"testing"

	"tapis/store"
	"tapis/store/journal"
)

// TestOtherFormatRefused: a journal of another format (format 1 dealt the
// same seed's units otherwise) is refused by verify and by resuming with one
// line, the first, and never checked against this program's deals.
func TestOtherFormatRefused(t *testing.T) {
	for _, v := range []int{1, 0, journal.Version + 1} {
		rep, err := forge(t, store.SmallTables, func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], fmt.Sprintf(`"v":%d,`, journal.Version), fmt.Sprintf(`"v":%d,`, v), 1)
			if v == 0 {
				ls[0] = strings.Replace(ls[0], `"v":0,`, "", 1) // no format at all
			}
			return ls
		})
		want := fmt.Sprintf("line 1: journal format %d: this tapis reads format %d only, and the same seed deals other layouts in each; open or verify it with the tapis that wrote it", v, journal.Version)
		if len(rep.Problems) != 1 || rep.Problems[0].Error() != want {
			t.Errorf("format %d: verify found %v, want only %q", v, rep.Problems, want)
		}
		if err == nil || !strings.HasSuffix(err.Error(), ": "+want) {
			t.Errorf("format %d: resuming says %v, want %q", v, err, want)
		}
	}
}
