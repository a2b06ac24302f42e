package journal_test

import (
	"os"
	"strings"
	"testing"
)

// TestVerifyGoesOn: verify goes on past lines that do not read, naming
// each, and deals every unit after them again in step: one unreadable
// purchase, or two, costs its own units only, and the problems after it
// are every one the journal holds, by line.
func TestVerifyGoesOn(t *testing.T) {
	path, ls := signedJournal(t)
	clean := verify(t, path)
	if !clean.OK() {
		t.Fatalf("a clean journal: %+v", clean.Problems)
	}
	first := index(t, ls, 40, `"kind":"buy"`)
	second := index(t, ls, first+30, `"kind":"buy"`)
	bad := append([]string(nil), ls...)
	bad[first] = "{not a record\n"
	bad[second] = "\xff\xfe binary\n"
	if err := os.WriteFile(path, []byte(strings.Join(bad, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := verify(t, path)
	if rep.OK() || rep.Purchases != clean.Purchases-2 {
		t.Fatalf("%d purchases (want %d), problems %+v", rep.Purchases, clean.Purchases-2, rep.Problems)
	}
	if rep.Checked != clean.Checked-2 {
		t.Errorf("%d units dealt again, want %d", rep.Checked, clean.Checked-2)
	}
	var unreadable []int
	for _, p := range rep.Problems {
		if p.Msg == "not a journal record" {
			unreadable = append(unreadable, p.Line)
		}
		if p.Line < first+1 {
			t.Errorf("a problem before the first bad line: %+v", p)
		}
	}
	if len(unreadable) != 2 || unreadable[0] != first+1 || unreadable[1] != second+1 {
		t.Errorf("unreadable lines %v, want %d and %d; problems %+v", unreadable, first+1, second+1, rep.Problems)
	}
	for _, p := range rep.Problems {
		if strings.Contains(p.Msg, "not signed by the house") || strings.Contains(p.Msg, "not as the house signed it") {
			t.Errorf("a line after an unreadable one blamed for it: %+v", p)
		}
	}
}
