package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAuditEveryStake audits every stake of Yam's in one run: one report
// a stake, in the order of the game's stakes, each passing; in JSON one
// line each.
func TestAuditEveryStake(t *testing.T) {
	code, out, errOut := run(t, "", "audit", "--game", "yams", "--stake", "all", "--seed", "42")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"audit of yams at €0.50: 1 block", "audit of yams at €1.00: 1 block", "audit of yams at €2.00: 1 block"} {
		if strings.Count(out, want) != 1 {
			t.Errorf("want one %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "MISMATCH") || strings.Contains(out, "self-test") {
		t.Errorf("a clean audit:\n%s", out)
	}
	code, out, _ = run(t, "", "audit", "--game", "vegas", "--stake", "all", "--seed", "42", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitOK || len(lines) != 1 {
		t.Fatalf("vegas --stake all: exit %d, %d lines", code, len(lines))
	}
	var r auditJSON
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil || r.Game != "vegas" || r.Units != 1_500_000 || r.SelfTest != nil {
		t.Errorf("%+v, %v", r, err)
	}
}

// TestAuditSelfTest deals one unit of each stake's block for another lot:
// each audit shows the lots off the table and the unit that does not
// score to its drawn prize, and the self-test passes (exit 0) because the
// audit failed on it.
func TestAuditSelfTest(t *testing.T) {
	code, out, errOut := run(t, "", "audit", "--game", "yams", "--stake", "all", "--seed", "7", "--self-test")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
	if n := strings.Count(out, "the audit fails on it, as it must: self-test passed"); n != 3 {
		t.Errorf("%d self-tests passed, want 3:\n%s", n, out)
	}
	if n := strings.Count(out, "units not scoring to their drawn prize: 1\n"); n != 3 {
		t.Errorf("%d audits with one mismatch, want 3:\n%s", n, out)
	}
	if n := strings.Count(out, "MISMATCH"); n != 6 {
		t.Errorf("%d lots off the table, want 6 (two a stake):\n%s", n, out)
	}
	code, out, _ = run(t, "", "audit", "--game", "yams", "--stake", "0.5", "--seed", "7", "--self-test", "--json")
	var r auditJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitOK {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if s := r.SelfTest; s == nil || !s.Caught || !strings.HasPrefix(s.Unit, "yams:0.5:1:") || s.Drawn == s.Dealt || r.Mismatches != 1 {
		t.Errorf("self-test %+v, %d mismatches", r.SelfTest, r.Mismatches)
	}
	// The same seed tampers with the same unit.
	_, again, _ := run(t, "", "audit", "--game", "yams", "--stake", "0.5", "--seed", "7", "--self-test", "--json")
	var r2 auditJSON
	if err := json.Unmarshal([]byte(again), &r2); err != nil || r2.SelfTest == nil || r2.SelfTest.Unit != r.SelfTest.Unit {
		t.Errorf("again: %+v, %v", r2.SelfTest, err)
	}
	if code, _, errOut := run(t, "", "audit", "--game", "yams", "--stake", "3"); code != ExitUsage || !strings.Contains(errOut, "(or all)") {
		t.Errorf("--stake 3: exit %d, %q", code, errOut)
	}
}
