package ui

import (
	"tapis/game"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/internal/hostile"
	"tapis/ledger"
	"tapis/session"
	"tapis/store/journal"
)

func journaled(t *testing.T, path string) *Model {
	t.Helper()
	m, err := newOn(Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen}, session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), SeedSet: true, Journal: path})
	if err != nil {
		t.Fatal(err)
	}
	send(m, sizeMsg(80, 24))
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
	balance, units := m.Balance(), len(m.Recent())
	pending := m.Showing("yams").Name()
	m.Close() // the program dies here

	m = journaled(t, path)
	if !m.Balance().Equal(balance) || len(m.Recent()) != units || m.Screen() != YamsScreen || m.Showing("yams") == nil || m.Showing("yams").Name() != pending {
		t.Fatalf("taken up: balance %s (want %s), %d units (want %d), screen %d", m.Balance(), balance, len(m.Recent()), units, m.Screen())
	}
	golden(t, "journal_recovered", plain(m))
	press(m, "1", "2", "3")
	settle(m)
	m.Close()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"kind":"shown"`) || !strings.Contains(last, `"unit":"`+pending+`"`) {
		t.Fatalf("the revealed unit is not recorded as shown:\n%s", data)
	}
	f, _ := os.Open(path)
	defer f.Close()
	if rep, err := journal.Verify(f, nil); err != nil || !rep.OK() || rep.Purchases != 3 {
		t.Errorf("verify: %+v, %v", rep, err)
	}
	// Another seed is refused, and the journal left as it was.
	if _, err := newOn(Options{Balance: decimal.NewFromInt(1)}, session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(10), SeedSet: true, Journal: path}); err == nil || !strings.Contains(err.Error(), "another seed") {
		t.Errorf("another seed: %v", err)
	}
	if now, _ := os.ReadFile(path); string(now) != string(data) {
		t.Error("a refused journal was changed")
	}
}

// TestNetAfterTakeUp: a journal left with a winning unit unrevealed opens
// with a balance and a net that leave its prize out, and agree with each
// other before and after it is revealed.
func TestNetAfterTakeUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	s, err := session.Open(session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), SeedSet: true, Balance: decimal.NewFromInt(100), Journal: path, QA: true})
	if err != nil {
		t.Fatal(err)
	}
	total := 58
	if _, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(2), &lottery.Force{Total: &total}, "QA"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	m, err := newOn(Options{Lang: English, Start: YamsScreen, QA: true}, session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), Journal: path})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	send(m, sizeMsg(80, 24))
	if b, n := headerMoney(t, m); !b.Equal(decimal.NewFromInt(98)) || !n.Equal(decimal.NewFromInt(-2)) {
		t.Fatalf("before the reveal: balance %s, net %s, want 98 and -2:\n%s", b, n, plain(m))
	}
	press(m, "a")
	settle(m)
	if b, n := headerMoney(t, m); !b.Equal(decimal.NewFromInt(118)) || !n.Equal(decimal.NewFromInt(18)) {
		t.Fatalf("after the reveal: balance %s, net %s, want 118 and +18:\n%s", b, n, plain(m))
	}
}

// TestEveryUnrevealedUnitOffered buys a Yam's unit left covered, then a
// Vegas ticket scratched, and another left covered, and stops: after a
// restart the Yam's unit is offered first on its screen, then the ticket
// on Vegas's, and the summary counts what is left.
func TestEveryUnrevealedUnitOffered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	m := journaled(t, path)
	press(m, "enter", "esc", "2", "enter", "a")
	settle(m)
	press(m, "enter") // a second ticket, covered
	yamsUnit, ticket := m.Showing("yams").Name(), m.Showing("vegas").Name()
	if !strings.HasSuffix(m.Summary(), " · unrevealed 2") {
		t.Errorf("summary %q", m.Summary())
	}
	m.Close()

	m = journaled(t, path)
	if title(m) != "· Yam's!" || !strings.Contains(plain(m), "it is paid, reveal it") || m.Showing("yams").Name() != yamsUnit {
		t.Fatalf("the Yam's unit is not offered first:\n%s", plain(m))
	}
	// The summary tells what the header tells: no prize not shown.
	b, _ := headerMoney(t, m)
	if want := "played 0 · staked €0.00 · won €0.00 · balance " + m.t.money(b) + " · unrevealed 2"; m.Summary() != want {
		t.Errorf("summary %q, want %q", m.Summary(), want)
	}
	prize := m.Showing("yams").Unit.Prize
	press(m, "a")
	settle(m)
	b, _ = headerMoney(t, m)
	// The unit of the earlier run, shown now, counts in this session: its
	// stake with its prize, as the stats screen counts it.
	if want := "played 1 · staked €1.00 · won " + m.t.money(prize) + " · balance " + m.t.money(b) + " · unrevealed 1"; m.Summary() != want {
		t.Errorf("summary %q, want %q", m.Summary(), want)
	}
	if !strings.Contains(plain(m), "Your Vegas ticket is still to scratch: esc, then 2") {
		t.Errorf("the ticket left is not pointed to:\n%s", plain(m))
	}
	press(m, "esc", "2")
	if !strings.Contains(plain(m), "it is paid, reveal it") || m.Showing("vegas").Name() != ticket {
		t.Fatalf("the ticket is not offered:\n%s", plain(m))
	}
	if got := m.Summary(); !strings.HasSuffix(got, " · unrevealed 1") {
		t.Errorf("summary %q", got)
	}
	press(m, "a")
	settle(m)
	if got := m.Summary(); strings.Contains(got, "unrevealed") || m.Totals().Played != 0 {
		t.Errorf("summary %q", got)
	}
	m.Close()
	f := mustOpen(t, path)
	if rep, err := journal.Verify(f, nil); err != nil || !rep.OK() || rep.Purchases != 3 {
		t.Errorf("verify: %+v, %v", rep, err)
	}
}

// TestTornLineOnScreen: a journal's last line cut short by a crash is said
// on the first screen.
func TestTornLineOnScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	m := journaled(t, path)
	press(m, "a")
	settle(m)
	m.Close()
	appendFile(t, path, `{"kind":"buy","seq":2,"unit":"yams:1:1:`)
	m = journaled(t, path)
	if !strings.Contains(plain(m), "Journal line 5, torn by a crash, dropped") {
		t.Errorf("the torn line is not said on screen:\n%s", plain(m))
	}
	press(m, "left")
	if strings.Contains(plain(m), "cut short") {
		t.Error("the notice stays after a key")
	}
}

// TestJournalKeepsItsBalance: --balance given for a journal that exists
// is said not to apply, on the first screen.
func TestJournalKeepsItsBalance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	m := journaled(t, path)
	m.Close()
	m, err := newOn(Options{Lang: English, Balance: decimal.NewFromInt(500), BalanceSet: true, Start: YamsScreen}, session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), Journal: path})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	send(m, sizeMsg(80, 24))
	if b, _ := headerMoney(t, m); !b.Equal(decimal.NewFromInt(100)) || !strings.Contains(plain(m), "--balance is for a new journal") {
		t.Errorf("balance %s:\n%s", b, plain(m))
	}
}

// TestQuitAsksWhileRevealing: q with a unit half revealed asks once;
// ctrl+c quits at once; the summary counts the unit left.
func TestQuitAsksWhileRevealing(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	if !quits(press(m, "q")) {
		t.Fatal("q with nothing revealing does not quit")
	}
	press(m, "enter", "1")
	settle(m)
	if quits(press(m, "q")) || !strings.Contains(plain(m), "A unit is being revealed: q again to quit; without a journal it ends unseen") { // in memory
		t.Fatalf("q did not ask:\n%s", plain(m))
	}
	press(m, "2") // another key: the question is dropped
	if quits(press(m, "q")) {
		t.Fatal("q quit without asking again after another key")
	}
	if !quits(press(m, "q")) {
		t.Fatal("q twice did not quit")
	}
	if !strings.HasSuffix(m.Summary(), " · unrevealed 1") {
		t.Errorf("summary %q", m.Summary())
	}
	fr := newModel(t, French, VegasScreen, 80, 24)
	press(fr, "enter")
	if !quits(press(fr, "ctrl+c")) || !strings.HasSuffix(fr.Summary(), " · 1 non révélée") {
		t.Errorf("ctrl+c does not quit at once, or summary %q", fr.Summary())
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func lastLine(m *Model) string {
	lines := strings.Split(strings.TrimRight(plain(m), "\n"), "\n")
	return lines[len(lines)-1]
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// fileLimit makes files larger than the one at path unwritable, as a full
// disk does, until the test ends.
func fileLimit(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	hostile.FileLimit(t, info.Size())
}

// TestStoreAccountKeepsItsBalance: on a shared store, --balance for an
// account that exists is said not to apply; the account's balance shows.
func TestStoreAccountKeepsItsBalance(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "shop.db")
	first, err := newOn(Options{Lang: English, Balance: decimal.NewFromInt(40), BalanceSet: true, Start: YamsScreen}, session.Options{Seed: game.SeedFrom(9), Store: url, Account: "ann", Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	m, err := newOn(Options{Lang: English, Balance: decimal.NewFromInt(500), BalanceSet: true, Start: YamsScreen}, session.Options{Seed: game.SeedFrom(9), Store: url, Account: "ann", Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	send(m, sizeMsg(80, 24))
	if b, _ := headerMoney(t, m); !b.Equal(decimal.NewFromInt(40)) || !strings.Contains(plain(m), "--balance is for a new account") {
		t.Errorf("balance %s:\n%s", b, plain(m))
	}
}
