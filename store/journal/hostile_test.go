package journal_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/hostile"
	"tapis/ledger"
	"tapis/session"
	"tapis/store"
	"tapis/store/journal"
)

// smallDisk returns a directory on a file system of 64 KiB, a tmpfs the
// test mounts, or "" when it may not mount one.
func smallDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		return ""
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}

// TestFullDisk fills the disk under a journal: each refused purchase leaves
// the file exactly as it was (no partial line) and the blocks where they
// were; once there is room again the next purchase sells the unit that was
// due, and the journal verifies and resumes. It runs on a real full file
// system (a 64 KiB tmpfs) when the test may mount one, and with a file size
// limit otherwise, and always with the limit, which cuts writes midway.
func TestFullDisk(t *testing.T) {
	for _, mode := range []string{"tmpfs", "rlimit"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			if mode == "tmpfs" {
				if dir = smallDisk(t); dir == "" {
					t.Skip("cannot mount a tmpfs here: the rlimit case covers it")
				}
			}
			path := filepath.Join(dir, "journal.jsonl")
			filler := filepath.Join(dir, "filler")
			os.WriteFile(filler, make([]byte, 8<<10), 0o644)
			s := open(t, path, game.SeedFrom(13))
			defer s.Close()
			undo := func() {}
			if mode == "rlimit" {
				undo = hostile.FileLimit(t, 20<<10)
			}
			var last string
			refused := 0
			for i := 0; refused < 12; i++ {
				g, stake := pick(i)
				before, _ := os.ReadFile(path)
				blockBefore := sold(t, s, g, stake)
				balance := s.Wallet().Balance()
				u, _, err := s.Buy(g, stake, nil, "")
				if err == nil {
					last = u.Name()
					s.Shown(u.Ref())
					continue
				}
				var j *journal.JournalError
				if !errors.As(err, &j) {
					t.Fatalf("purchase %d: %v", i, err)
				}
				refused++
				after, _ := os.ReadFile(path)
				if string(after) != string(before) {
					t.Fatalf("a refused purchase changed the journal: %d bytes, then %d, ending %q", len(before), len(after), tail(after))
				}
				if got := sold(t, s, g, stake); got != blockBefore || !s.Wallet().Balance().Equal(balance) {
					t.Fatalf("a refused purchase moved the block from %d to %d sold, the balance from %s to %s", blockBefore, got, balance, s.Wallet().Balance())
				}
			}
			if last == "" {
				t.Fatal("nothing was bought before the disk was full")
			}
			undo()
			os.Remove(filler) // room again
			g, stake := lottery.Yams(), decimal.NewFromInt(1)
			due := sold(t, s, g, stake) + 1
			u, _, err := s.Buy(g, stake, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			if u.Unit.ID.Serial != due {
				t.Errorf("after the refusals the unit sold is %s, serial %d was due", u.Name(), due)
			}
			s.Close()
			if rep := verify(t, path); !rep.OK() {
				t.Fatalf("verify: %v", rep.Problems)
			}
			again, err := session.Open(session.Options{Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables})
			if err != nil {
				t.Fatal(err)
			}
			again.Close()
		})
	}
}

func sold(t *testing.T, s *session.Session, g lottery.Game, stake decimal.Decimal) int64 {
	t.Helper()
	b, err := s.Shop().Block(g, stake)
	if err != nil {
		t.Fatal(err)
	}
	return b.Sold()
}

func tail(b []byte) string { return string(b[max(0, len(b)-40):]) }

// TestLockChild holds a journal open for TestJournalLocked until killed.
func TestLockChild(t *testing.T) {
	path := os.Getenv("TAPIS_LOCK_JOURNAL")
	if path == "" {
		t.Skip("run by TestJournalLocked")
	}
	s, err := session.Open(session.Options{Seed: game.SeedFrom(1), Balance: decimal.NewFromInt(10), Journal: path, Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	os.WriteFile(path+".ready", nil, 0o644)
	time.Sleep(time.Minute)
}

// TestJournalLocked: a second process on a journal in use is refused with
// the line interface.md gives, naming the first one's pid, and writes
// nothing; verify still reads the journal.
func TestJournalLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TAPIS_LOCK_JOURNAL="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path + ".ready"); err == nil {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the child never opened the journal")
		}
	}
	before, _ := os.ReadFile(path)
	_, err := session.Open(session.Options{Seed: game.SeedFrom(1), Balance: decimal.NewFromInt(10), Journal: path, Key: ledger.PublicTestKey()})
	want := "journal " + path + " is in use by another tapis process (pid " + strconv.Itoa(cmd.Process.Pid) + ")"
	if err == nil || err.Error() != want {
		t.Fatalf("a second opener: %v, want %q", err, want)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the refused opener wrote to the journal")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if rep, err := journal.Verify(f, nil); err != nil || !rep.OK() { // the child's journal has the regulations' tables
		t.Errorf("verify of a journal in use: %v, %v", rep.Problems, err)
	}
	if e := (&journal.InUseError{Path: "j"}).Error(); e != "journal j is in use by another tapis process" {
		t.Errorf("without a pid: %q", e)
	}
}

// forge plays a small honest journal, applies edit to its lines, and
// returns what verify and resuming say of the result.
func forge(t *testing.T, tables store.Tables, edit func(ls []string) []string) (journal.Report, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	s, err := session.Open(session.Options{Seed: game.SeedFrom(17), SeedSet: true, Balance: decimal.NewFromInt(100), Journal: path, Key: ledger.PublicTestKey(), Tables: tables, Now: clock(), QA: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		g, stake := pick(i)
		u, _, err := s.Buy(g, stake, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		s.Shown(u.Ref())
	}
	total := 100
	if _, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(2), &lottery.Force{Total: &total}, "QA"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	good, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Join(edit(strings.SplitAfter(string(good), "\n")), "")), 0o644)
	f, _ := os.Open(path)
	defer f.Close()
	rep, err := journal.Verify(f, tables)
	if err != nil {
		t.Fatal(err)
	}
	r, err := session.Open(session.Options{Journal: path, Key: ledger.PublicTestKey(), Tables: tables})
	if err == nil {
		r.Close()
	}
	if qa, qaErr := session.Open(session.Options{Journal: path, Key: ledger.PublicTestKey(), Tables: tables, QA: true}); qaErr == nil {
		qa.Close()
	} else if err == nil || !strings.Contains(err.Error(), "--qa") {
		err = qaErr // what a QA session says, when it refuses the journal too
	}
	return rep, err
}

// line returns the index of the first line holding all of subs.
func line(ls []string, subs ...string) int {
	for i, l := range ls {
		ok := true
		for _, s := range subs {
			ok = ok && strings.Contains(l, s)
		}
		if ok {
			return i
		}
	}
	panic("no line with " + strings.Join(subs, ", "))
}

// TestForgedJournals: verify names each forgery by its line, and resuming
// refuses what verify refuses, open blocks included.
func TestForgedJournals(t *testing.T) {
	cases := map[string]struct {
		edit func(ls []string) []string
		want string
	}{
		"a ticket bought at 2": {func(ls []string) []string {
			i := line(ls, `"unit":"vegas:3:1:1"`)
			ls[i] = strings.Replace(strings.Replace(ls[i], `"stake":"3"`, `"stake":"2"`, 1), `"after":"97"`, `"after":"98"`, 1)
			return ls[:i+1] // what follows no longer adds up
		}, "bought at 2, not at its stake 3"},
		"a negative stake": {func(ls []string) []string {
			i := line(ls, `"unit":"yams:2:QA:1"`)
			ls[i] = strings.Replace(ls[i], `"stake":"2"`, `"stake":"-1000000"`, 1)
			return ls
		}, "stake -1000000 is not positive"},
		"a deposit": {func(ls []string) []string {
			return append(ls, `{"kind":"deposit","time":"2026-11-29T20:00:00Z","amount":"5","balance":"10"}`+"\n")
		}, "a deposit: a journal holds none"},
		"a forced unit of no game": {func(ls []string) []string {
			i := line(ls, `"unit":"yams:2:QA:1"`)
			ls[i] = strings.Replace(ls[i], `yams:2:QA:1`, `poker:2:QA:1`, 1)
			return ls
		}, `forced unit "poker:2:QA:1": game "poker" is not yams or vegas`},
		"a forced unit of no stake": {func(ls []string) []string {
			i := line(ls, `"unit":"yams:2:QA:1"`)
			ls[i] = strings.Replace(ls[i], `yams:2:QA:1`, `yams:7:QA:1`, 1)
			return ls
		}, "7 is no stake of yams"},
		"a forced unit of another label": {func(ls []string) []string {
			i := line(ls, `"unit":"yams:2:QA:1"`)
			ls[i] = strings.Replace(ls[i], `yams:2:QA:1`, "yams:2:\\u001b[31mX:1", 1)
			return ls
		}, "is not GAME:STAKE:QA:N"},
		"a forced unit of the kiosk": {func(ls []string) []string {
			i := line(ls, `"unit":"yams:2:QA:1"`)
			ls[i] = strings.Replace(ls[i], `yams:2:QA:1`, "yams:2:DEMO:1", 1)
			return ls
		}, "is not GAME:STAKE:QA:N"},
		"a forced unit not marked forced": {func(ls []string) []string {
			i := line(ls, `"unit":"yams:2:QA:1"`)
			ls[i] = strings.Replace(ls[i], `"forced":true,`, "", 1)
			return ls
		}, `unit "yams:2:QA:1" is named as a forced unit, but its purchase is not marked forced`},
		"a forced unit written otherwise": {func(ls []string) []string {
			i := line(ls, `"unit":"yams:2:QA:1"`)
			ls[i] = strings.Replace(ls[i], `yams:2:QA:1`, `yams:2.0:QA:01`, 1)
			return ls
		}, `forced unit "yams:2.0:QA:01" is not written as yams:2:QA:1`},
		"a block written otherwise": {func(ls []string) []string {
			i := line(ls, `"kind":"commit"`, `"block":"yams:1:1"`)
			ls[i] = strings.Replace(ls[i], `"block":"yams:1:1"`, `"block":"yams:1,0:1"`, 1)
			return ls
		}, `block "yams:1,0:1" is not written as yams:1:1`},
		"a block without its number": {func(ls []string) []string {
			i := line(ls, `"kind":"commit"`, `"block":"yams:1:1"`)
			ls[i] = strings.Replace(ls[i], `"block":"yams:1:1"`, `"block":"yams:1"`, 1)
			return ls
		}, `block "yams:1": want GAME:STAKE:BLOCK`},
		"a seed that does not read": {func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"seed":"`+game.SeedFrom(17).String()+`"`, `"seed":"x"`, 1)
			return ls
		}, "seed: "},
		"a commitment in capitals": {func(ls []string) []string {
			i := line(ls, `"kind":"commit"`)
			c := ls[i][strings.Index(ls[i], `"commitment":"`)+14:]
			ls[i] = strings.Replace(ls[i], c[:64], strings.ToUpper(c[:64]), 1)
			return ls
		}, "is not a SHA-256 in lowercase hex"},
		"another valid commitment": {func(ls []string) []string {
			i := line(ls, `"kind":"commit"`)
			c := ls[i][strings.Index(ls[i], `"commitment":"`)+14:]
			ls[i] = strings.Replace(ls[i], c[:64], strings.Repeat("ab", 32), 1)
			return ls
		}, "its commitment is not the one the journal's seed gives"},
		"another seed": {func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"seed":"`+game.SeedFrom(17).String()+`"`, `"seed":"`+game.SeedFrom(18).String()+`"`, 1)
			return ls
		}, "seed " + game.SeedFrom(18).String() + " does not give this journal's commitments"},
		"a layout changed for one paying the same": {func(ls []string) []string {
			return swapLosingCups(ls, line(ls, `"unit":"yams:1:1:1"`)) // the three cups' total, and so the prize, stay
		}, "its layout is not the one its block's seed deals"},
	}
	for name, c := range cases {
		for _, tables := range []store.Tables{journal.RegulationTables, store.SmallTables} { // open blocks, and small ones
			rep, err := forge(t, tables, c.edit)
			found := false
			for _, p := range rep.Problems {
				found = found || strings.Contains(p.Msg, c.want)
			}
			if !found {
				t.Errorf("%s: verify did not say %q: %v", name, c.want, rep.Problems)
			}
			if err == nil {
				t.Errorf("%s: resuming accepted it", name)
			}
		}
	}
}

// TestHonestJournalsAgree: an honest journal, with a forced unit, verifies
// and resumes, and every unit of its open blocks is dealt again.
func TestHonestJournalsAgree(t *testing.T) {
	rep, _ := forge(t, journal.RegulationTables, func(ls []string) []string { return ls })
	if !rep.OK() || rep.Checked != 6 || rep.Closed != 0 {
		t.Fatalf("%+v", rep)
	}
}

// TestUnreadableSeed: a seed that does not read is one problem, not a
// flood of units dealt from another seed.
func TestUnreadableSeed(t *testing.T) {
	rep, _ := forge(t, journal.RegulationTables, func(ls []string) []string {
		ls[0] = strings.Replace(ls[0], `"seed":"`+game.SeedFrom(17).String()+`"`, `"seed":"x"`, 1)
		return ls
	})
	if len(rep.Problems) != 1 || rep.Problems[0].Line != 1 {
		t.Errorf("%v", rep.Problems)
	}
}

// TestQAJournal: a journal holding forced units is a QA journal: verify
// counts them, and only a QA session takes it up.
func TestQAJournal(t *testing.T) {
	rep, err := forge(t, journal.RegulationTables, func(ls []string) []string { return ls })
	if rep.Forced != 1 || err == nil || !strings.Contains(err.Error(), "holds 1 forced (QA) unit: take it up with --qa") {
		t.Fatalf("forced %d, %v", rep.Forced, err)
	}
}

// TestShownWrittenLater: a unit shown while the disk is full is recorded
// as shown once the journal takes records again, or when it closes.
func TestShownWrittenLater(t *testing.T) {
	for _, closeFirst := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		s := open(t, path, game.SeedFrom(13))
		u, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, "")
		if err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(path)
		undo := hostile.FileLimit(t, info.Size())
		if err := s.Shown(u.Ref()); err == nil {
			t.Fatal("the full disk took the shown record")
		}
		undo()
		if !closeFirst {
			if _, _, err := s.Buy(lottery.Vegas(), decimal.NewFromInt(3), nil, ""); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
		r := open(t, path, game.SeedFrom(13))
		for _, p := range r.Restored().Pending {
			if p.Op.Unit == u.Name() {
				t.Errorf("close first %v: %s is offered again, though it was shown", closeFirst, u.Name())
			}
		}
		r.Close()
	}
}

// TestJournalEdges: a line that is not a record is named, and what came
// before it is still counted; an empty journal is a new one, for verify as
// for the game; a whole last record missing only its newline is read, and
// resuming ends its line.
func TestJournalEdges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	s := open(t, path, game.SeedFrom(13))
	play(t, s, 4)
	s.Close()
	good, _ := os.ReadFile(path)

	os.WriteFile(path, append(append([]byte{}, good...), "hello\n"...), 0o644)
	if rep := verify(t, path); rep.OK() || rep.Purchases != 4 || rep.Problems[len(rep.Problems)-1].Msg != "not a journal record" {
		t.Errorf("a line that is no record: %+v", rep)
	}

	os.WriteFile(path, nil, 0o644)
	if rep := verify(t, path); !rep.OK() || !rep.Empty {
		t.Errorf("an empty journal: %+v", rep)
	}

	os.WriteFile(path, good[:len(good)-1], 0o644) // the last record's newline lost
	rep := verify(t, path)
	if !rep.OK() || rep.Torn != 0 || rep.Purchases != 4 {
		t.Fatalf("a last record without its newline: %+v", rep)
	}
	r := open(t, path, game.SeedFrom(13))
	if n := len(r.Restored().Pending); n != 1 { // play leaves the last unit unshown
		t.Errorf("%d units offered", n)
	}
	if _, _, err := r.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, ""); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if rep := verify(t, path); !rep.OK() || rep.Purchases != 5 {
		t.Errorf("after resuming: %+v", rep)
	}
}
