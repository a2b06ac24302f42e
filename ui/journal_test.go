package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/session"
)

func journaled(t *testing.T, path string) *Model {
	t.Helper()
	m, err := New(Options{Lang: English, Balance: decimal.NewFromInt(100), Seed: 9, SeedSet: true, Start: YamsScreen, Now: fixedClock, Journal: path})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(sizeMsg(80, 24))
	return m
}

// TestJournalTakeUp plays with a journal, stops in the middle of a unit as
// a crash would, and starts again: the balance and the history come back,
// and the unit never revealed is offered, then recorded as shown.
func TestJournalTakeUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	m := journaled(t, path)
	press(m, "a")
	settle(m)
	press(m, "esc", "2", "enter", "a")
	settle(m)
	press(m, "esc", "1", "enter") // bought, cups still covered
	balance, units := m.Balance(), len(m.played)
	pending := m.yams.sold.Name()
	m.Close() // the program dies here

	m = journaled(t, path)
	if !m.Balance().Equal(balance) || len(m.played) != units || m.screen != YamsScreen || m.yams.sold == nil || m.yams.sold.Name() != pending {
		t.Fatalf("taken up: balance %s (want %s), %d units (want %d), screen %d", m.Balance(), balance, len(m.played), units, m.screen)
	}
	golden(t, "journal_recovered", screen(m))
	press(m, "1", "2", "3")
	settle(m)
	m.Close()
	data, _ := os.ReadFile(path)
	if !strings.HasSuffix(strings.TrimSpace(string(data)), `"unit":"`+pending+`"}`) {
		t.Fatalf("the revealed unit is not recorded as shown:\n%s", data)
	}
	f, _ := os.Open(path)
	defer f.Close()
	if rep, err := session.Verify(f, nil); err != nil || !rep.OK() || rep.Purchases != 3 {
		t.Errorf("verify: %+v, %v", rep, err)
	}
	// Another seed is refused, and the journal left as it was.
	if _, err := New(Options{Seed: 10, SeedSet: true, Journal: path, Balance: decimal.NewFromInt(1)}); err == nil || !strings.Contains(err.Error(), "another seed") {
		t.Errorf("another seed: %v", err)
	}
	if now, _ := os.ReadFile(path); string(now) != string(data) {
		t.Error("a refused journal was changed")
	}
}
