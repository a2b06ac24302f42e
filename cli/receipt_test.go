package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/session"
	"tapis/store"
)

// soldStore makes a SQLite store signed by the test key where ann bought
// three units and bob none, and returns its URL and the head its seller
// signed as it closed.
func soldStore(t *testing.T) (string, ledger.HeadToken) {
	t.Helper()
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "tapis.db")
	s, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(11), SeedSet: true, Tables: store.SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ann", "bob"} {
		if _, err := s.OpenAccount(ctx, name, decimal.NewFromInt(20)); err != nil {
			t.Fatal(err)
		}
	}
	for n := 1; n <= 3; n++ {
		if _, err := s.Sell(ctx, store.Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SignHead(ctx); err != nil {
		t.Fatal(err)
	}
	head, ok := s.LastHead()
	if !ok {
		t.Fatal("the seller signed no head")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return url, head
}

// writeFile writes a test file and returns its path.
func writeFile(t *testing.T, name, content string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReceiptPrints: an account's receipts, one JSON line each, oldest
// first, each checking against the house's key; a reader needs no key.
func TestReceiptPrints(t *testing.T) {
	url, _ := soldStore(t)
	code, out, errOut := run(t, "", "receipt", "--store", url, "--account", "ann")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	toks, err := ledger.Read(strings.NewReader(out))
	if err != nil || len(toks.Receipts) != 3 {
		t.Fatalf("%d receipts read back: %v", len(toks.Receipts), err)
	}
	for i, r := range toks.Receipts {
		if err := r.Check(ledger.PublicTestKey().Public()); err != nil {
			t.Errorf("receipt %d: %v", i+1, err)
		}
		if r.Number != i+1 || r.Account != "ann" || !strings.HasPrefix(lines[i], `{"receipt":1,"account":"ann",`) {
			t.Errorf("line %d: %s", i+1, lines[i])
		}
	}
	code, out, errOut = run(t, "", "receipt", "--account", "bob", "--store", url)
	if code != ExitOK || out != "" || errOut != "tapis receipt: account bob has bought nothing yet\n" {
		t.Errorf("bob: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestReceiptUsageErrors: what receipt cannot read is said in one line,
// exit 2, and nothing is created.
func TestReceiptUsageErrors(t *testing.T) {
	url, _ := soldStore(t)
	dir := t.TempDir()
	open := writeFile(t, "open.jsonl", `{"kind":"start"}`+"\n", 0o644)
	empty := writeFile(t, "empty.jsonl", "", 0o600)
	missing := filepath.Join(dir, "none.db")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"receipt"}, "--store URL or --journal FILE is required"},
		{[]string{"receipt", "--store", url, "--journal", empty}, "--store and --journal: receipt reads one of them"},
		{[]string{"receipt", "--store", url, "extra"}, `unexpected argument "extra"`},
		{[]string{"receipt", "--store", url, "--account", ""}, "--account is empty"},
		{[]string{"receipt", "--store", url, "--account", " ann"}, "want 1 to 64 printable characters"},
		{[]string{"receipt", "--store", url}, `account "local": no such account`},
		{[]string{"receipt", "--store", url, "--account", "zed"}, `account "zed": no such account`},
		{[]string{"receipt", "--store", "mysql://x"}, "want sqlite:PATH"},
		{[]string{"receipt", "--store", "sqlite:" + missing}, "none.db"},
		{[]string{"receipt", "--journal", filepath.Join(dir, "none.jsonl")}, "no such file"},
		{[]string{"receipt", "--journal", dir}, "is a directory"},
		{[]string{"receipt", "--journal", open}, "chmod 600"},
		{[]string{"receipt", "--journal", empty}, "is empty: nothing was bought on it"},
		{[]string{"receipt", "--nope"}, "flag provided but not defined: -nope"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, "", c.args...)
		if code != ExitUsage || out != "" {
			t.Errorf("%v: exit %d, stdout %q", c.args, code, out)
		}
		if !strings.HasPrefix(errOut, "tapis receipt: ") || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: stderr %q, want one line with %q", c.args, errOut, c.want)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("receipt created the store it was asked to read")
	}
	if info, err := os.Stat(empty); err != nil || info.Size() != 0 {
		t.Errorf("receipt wrote to the empty journal: %v", err)
	}
}

// TestReceiptVerify: the receipts printed, and the head a seller logged,
// check offline against the house's public key, given as itself or as its
// .pub file, from a file or standard input; a line for each.
func TestReceiptVerify(t *testing.T) {
	url, head := soldStore(t)
	_, receipts, _ := run(t, "", "receipt", "--store", url, "--account", "ann")
	house := ledger.PublicTestKey().Public()
	pub := writeFile(t, "house_ed25519.pub", house.String()+" tapis house\n", 0o644)
	file := writeFile(t, "mine.jsonl", "2026/11/30 20:00:00 tapis serve: head "+head.String()+"\n"+receipts, 0o644)
	code, out, errOut := run(t, "", "receipt", "verify", file, "--key", pub)
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	if want := "line 1: head " + itoa(head.N) + ": ok"; lines[0] != want {
		t.Errorf("line 1: %q, want %q", lines[0], want)
	}
	for i, l := range lines[1:4] {
		if !strings.HasPrefix(l, "line "+itoa(int64(i+2))+": yams:1:1:") || !strings.Contains(l, ", stake €1.00, prize €") ||
			!strings.HasSuffix(l, ", account ann record "+itoa(int64(i+2))+": ok") {
			t.Errorf("receipt %d: %q", i+1, l)
		}
	}
	if want := "ok: 3 receipts and 1 head, signed by the house key " + house.Fingerprint(); lines[4] != want {
		t.Errorf("last line %q, want %q", lines[4], want)
	}
	// The key itself, the receipts from standard input.
	if code, out, errOut := run(t, receipts, "receipt", "verify", "-", "--key", house.String()); code != ExitOK || errOut != "" || !strings.Contains(out, "ok: 3 receipts and 0 heads") {
		t.Errorf("from standard input: exit %d, stderr %q\n%s", code, errOut, out)
	}
}

// TestReceiptVerifyRefuses: a tampered receipt, a tampered head, another
// key, a file of no receipt or a broken one: exit 1 naming the line; no
// key, no file, a key that is none: exit 2. Each in one line.
func TestReceiptVerifyRefuses(t *testing.T) {
	url, head := soldStore(t)
	_, receipts, _ := run(t, "", "receipt", "--store", url, "--account", "ann")
	lines := strings.Split(strings.TrimSuffix(receipts, "\n"), "\n")
	house := ledger.PublicTestKey().Public()
	other := ledger.KeyFromSeed([32]byte{3}).Public()
	// A prize raised on the second receipt.
	raised := regexp.MustCompile(`"prize":"[^"]*"`).ReplaceAllString(lines[1], `"prize":"5000"`)
	if raised == lines[1] {
		t.Fatalf("no prize in %s", lines[1])
	}
	tampered := writeFile(t, "tampered.jsonl", lines[0]+"\n"+raised+"\n"+lines[2]+"\n", 0o644)
	code, out, errOut := run(t, "", "receipt", "verify", tampered, "--key", house.String())
	if code != ExitInvalid {
		t.Errorf("a tampered receipt: exit %d", code)
	}
	if !strings.Contains(out, "line 2: ") || !strings.Contains(out, "prize €5,000.00,") || !strings.Contains(out, "its hash is not the one its purchase gives: the receipt was changed\n") ||
		strings.Count(out, ": ok\n") != 2 {
		t.Errorf("a tampered receipt:\n%s", out)
	}
	if want := "tapis receipt verify: " + tampered + ": line 2 does not check against the house key " + house.Fingerprint() + " (1 of 3)\n"; errOut != want {
		t.Errorf("a tampered receipt: stderr %q, want %q", errOut, want)
	}
	// Another key than the house's.
	code, out, errOut = run(t, receipts, "receipt", "verify", "-", "--key", other.String())
	if code != ExitInvalid || strings.Count(out, "it names the house key "+house.Fingerprint()+", not the one given ("+other.Fingerprint()+")") != 3 ||
		!strings.HasSuffix(errOut, "lines 1, 2, 3 do not check against the house key "+other.Fingerprint()+" (3 of 3)\n") {
		t.Errorf("another key: exit %d, stderr %q\n%s", code, errOut, out)
	}
	// A head changed.
	bad := head
	bad.Hash[0] ^= 1
	code, out, errOut = run(t, bad.String()+"\n", "receipt", "verify", "-", "--key", house.String())
	if code != ExitInvalid || out != "line 1: head "+itoa(head.N)+": its signature is not the house key's\n" || !strings.Contains(errOut, "line 1 does not check") {
		t.Errorf("a head changed: exit %d, stderr %q\n%s", code, errOut, out)
	}
	// What reads as no receipt, and a receipt that does not read.
	code, out, errOut = run(t, "hello\n{\"game\":\"yams\"}\n", "receipt", "verify", "-", "--key", house.String())
	if code != ExitInvalid || out != "" || errOut != "tapis receipt verify: standard input holds no receipt or head (one a line, as tapis receipt prints them)\n" {
		t.Errorf("no receipt: exit %d, stderr %q\n%s", code, errOut, out)
	}
	broken := lines[0] + "\n" + `{"receipt":1,"seq":"two"}` + "\n" + lines[2] + "\n"
	code, out, errOut = run(t, broken, "receipt", "verify", "-", "--key", house.String())
	if code != ExitInvalid || strings.Count(out, "\n") != 1 || !strings.HasPrefix(errOut, "tapis receipt verify: standard input: line 2: a receipt that does not read: ") ||
		strings.Count(errOut, "\n") != 1 {
		t.Errorf("a broken receipt: exit %d, stderr %q\n%s", code, errOut, out)
	}
	long := strings.Repeat("x", ledger.MaxLine+1) + "\n"
	if code, _, errOut := run(t, long, "receipt", "verify", "-", "--key", house.String()); code != ExitInvalid || !strings.Contains(errOut, "line 1: longer than 65536 bytes") {
		t.Errorf("a long line: exit %d, stderr %q", code, errOut)
	}
	notKey := writeFile(t, "notes.pub", "hello\n", 0o644)
	file := writeFile(t, "mine.jsonl", receipts, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"receipt", "verify", file}, "--key is required"},
		{[]string{"receipt", "verify", "--key", house.String()}, "FILE (or - for standard input) is required"},
		{[]string{"receipt", "verify", file, file, "--key", house.String()}, "receipt verify checks one file"},
		{[]string{"receipt", "verify", filepath.Join(t.TempDir(), "none"), "--key", house.String()}, "no such file"},
		{[]string{"receipt", "verify", t.TempDir(), "--key", house.String()}, "is a directory"},
		{[]string{"receipt", "verify", file, "--key", "ssh-rsa AAAA"}, "neither a public key nor a file"},
		{[]string{"receipt", "verify", file, "--key", notKey}, "not a public key"},
		{[]string{"receipt", "verify", file, "--key"}, "flag needs an argument: -key"},
	} {
		code, out, errOut := run(t, "", c.args...)
		if code != ExitUsage || out != "" || !strings.HasPrefix(errOut, "tapis receipt verify: ") || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want one line with %q", c.args, code, out, errOut, c.want)
		}
	}
}

func itoa(n int64) string { return decimal.NewFromInt(n).String() }

// TestReceiptFromAJournal: tapis receipt --journal reads a journal's
// receipts without its key and writes nothing to it; they check offline
// against the key that sealed it.
func TestReceiptFromAJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j.jsonl")
	sess, err := session.Open(session.Options{Key: ledger.PublicTestKey(), Journal: path, Seed: game.SeedFrom(3), SeedSet: true, Balance: decimal.NewFromInt(10)})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := sess.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	code, out, errOut := run(t, "", "receipt", "--journal", path)
	if code != ExitOK || strings.Count(out, `{"receipt":1,`) != 2 || errOut != "" {
		t.Fatalf("receipt --journal: exit %d, %q, %q", code, out, errOut)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("reading a journal's receipts wrote to it")
	}
	mine, pub := filepath.Join(dir, "mine.jsonl"), filepath.Join(dir, "house.pub")
	os.WriteFile(mine, []byte(out), 0o600)
	os.WriteFile(pub, []byte(ledger.PublicTestKey().Public().String()+"\n"), 0o600)
	if code, out, errOut := run(t, "", "receipt", "verify", mine, "--key", pub); code != ExitOK || strings.Count(out, ": ok\n") != 2 {
		t.Errorf("receipt verify of a journal's receipts: exit %d, %q, %q", code, out, errOut)
	}
}
