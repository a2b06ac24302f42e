package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
)

// signedStore makes a SQLite store of small blocks, sells n Vegas tickets
// in it to one account and closes it, and returns its path, the heads its
// seller published and its receipts, one a line, as a file for --heads.
func signedStore(t *testing.T, n int) (path string, heads []ledger.HeadToken, receipts []ledger.Receipt) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, "shop.db")
	ctx := context.Background()
	var mu sync.Mutex
	st, err := store.Open(ctx, path, store.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(4), SeedSet: true, Tables: store.SmallTables,
		OnHead: func(h ledger.HeadToken) { mu.Lock(); heads = append(heads, h); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.OpenAccount(ctx, "ann", decimal.NewFromInt(1000)); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		r, err := st.Sell(ctx, store.Purchase{Account: "ann", Number: i, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3)})
		if err != nil {
			t.Fatal(err)
		}
		receipts = append(receipts, *r.Signed)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return path, heads, receipts
}

// tokensFile writes heads and receipts, one a line, amid a log's lines.
func tokensFile(t *testing.T, heads []ledger.HeadToken, receipts []ledger.Receipt) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("2026/12/01 10:00:00 tapis serve: listening\n")
	for _, h := range heads {
		b.WriteString("2026/12/01 10:00:02 head " + h.String() + "\n")
	}
	for _, r := range receipts {
		b.WriteString(r.String() + "\n")
	}
	path := filepath.Join(t.TempDir(), "tokens.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVerifyStoreKeyAndHeads(t *testing.T) {
	path, heads, receipts := signedStore(t, 20)
	pub := ledger.PublicTestKey().Public()
	tokens := tokensFile(t, heads, receipts[:3])

	code, out, errOut := run(t, "", "verify", "--store", path, "--key", pub.String(), "--heads", tokens)
	if code != ExitOK || errOut != "" ||
		!strings.Contains(out, "seal: ok, by the house's key "+pub.Fingerprint()+" (--key)\n") ||
		!strings.Contains(out, "history: 21 records, 21 covered by 1 signed head (the last, head 1), 0 signed one by one\n") ||
		!strings.Contains(out, "given: 1 head and 3 receipts; 1 and 3 found as the store holds them\n") {
		t.Errorf("verify with the house's key and its heads: %d\n%s%s", code, out, errOut)
	}
	// --heads again: each file is read, the heads and receipts of both given.
	more := tokensFile(t, nil, receipts[3:5])
	code, out, errOut = run(t, "", "verify", "--store", path, "--key", pub.String(), "--heads", tokens, "--heads", more)
	if code != ExitOK || !strings.Contains(out, "given: 1 head and 5 receipts; 1 and 5 found as the store holds them\n") {
		t.Errorf("verify with --heads twice: %d\n%s%s", code, out, errOut)
	}
	code, out, _ = run(t, "", "verify", "--store", path)
	if code != ExitOK || !strings.Contains(out, "seal: ok, by the key the store names, "+pub.Fingerprint()+": give the house's with --key") {
		t.Errorf("verify without the key: %d\n%s", code, out)
	}

	other := ledger.KeyFromSeed([32]byte{7}).Public()
	keyFile := filepath.Join(t.TempDir(), "house.pub")
	if err := os.WriteFile(keyFile, []byte(other.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "", "verify", "--store", path, "--key", keyFile, "--json")
	var rep struct {
		OK           bool     `json:"ok"`
		SealOK       bool     `json:"seal_ok"`
		SealProblems []string `json:"seal_problems"`
		Key          string   `json:"key"`
		KeyGiven     bool     `json:"key_given"`
		Heads        int64    `json:"heads"`
		LastHead     int64    `json:"last_head"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("verify --json: %v\n%s", err, out)
	}
	want := "the emission was sealed by the key " + pub.Fingerprint() + ", not the house's " + other.Fingerprint()
	if code != ExitInvalid || rep.OK || rep.SealOK || len(rep.SealProblems) != 1 || rep.SealProblems[0] != want ||
		rep.Key != other.Fingerprint() || !rep.KeyGiven || rep.Heads != 1 || rep.LastHead != 1 || !strings.HasSuffix(errOut, ": 1 problem found\n") {
		t.Errorf("verify with another key: %d %+v %q", code, rep, errOut)
	}
}

// A store whose seal is broken is opened and named, not refused.
func TestVerifyStoreNamesABrokenSeal(t *testing.T) {
	path, heads, receipts := signedStore(t, 20)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE emission SET qa = 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM purchases WHERE number = 20`); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "", "verify", "--store", path, "--heads", tokensFile(t, heads, receipts[19:]))
	for _, want := range []string{
		"seal: broken, 1 problem (below)\n",
		"the emission's QA flag is 1, sealed as 0 (the house's): changed after it was sealed\n",
		`purchase ann#20: its receipt shows record 21 of account "ann", which the store no longer holds: rolled back`,
		"given: 1 head and 1 receipt; 1 and 0 found as the store holds them\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	if code != ExitInvalid || !strings.HasSuffix(errOut, "problems found\n") {
		t.Errorf("verify a store of broken seal: %d %q", code, errOut)
	}
	if _, err := store.Open(context.Background(), path, store.Options{Key: ledger.PublicTestKey()}); err == nil || !strings.Contains(err.Error(), "QA flag is 1") {
		t.Errorf("a seller opens a store of broken seal: %v", err)
	}
}

func TestVerifyStoreKeyAndHeadsBadInput(t *testing.T) {
	path, _, _ := signedStore(t, 1)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(empty, []byte("a log with no head\n"), 0o600)
	os.WriteFile(bad, []byte(`{"head":1,"hash":"xyz"}`+"\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", path, "--key", "ssh-ed25519 nope"}, "--key ssh-ed25519 nope: neither a public key nor a file"},
		{[]string{"--store", path, "--heads", filepath.Join(dir, "none.txt")}, "--heads " + filepath.Join(dir, "none.txt") + ": open"},
		{[]string{"--store", path, "--heads", empty}, "no head nor receipt in it"},
		{[]string{"--store", path, "--heads", bad}, "line 1: a head that does not read"},
		{[]string{"--journal", "j.jsonl", "--heads", bad}, "--key and --heads check a store's history: give --store URL"},
	} {
		code, out, errOut := run(t, "", append([]string{"verify"}, c.args...)...)
		if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("verify %q: %d %q %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
}
