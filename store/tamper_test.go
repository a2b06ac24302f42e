package store

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

// soldStore is a store sold from as sellers sell, then closed: what the
// tamperings change. Its facts name the records they change.
type soldStore struct {
	url      string
	n        map[string]int            // each account's purchases
	receipts map[string]ledger.Receipt // what the players kept, by purchase
	heads    []ledger.HeadToken        // what the sellers published, in order
	win      int                       // a winning purchase of ann's
	losing   int                       // a losing Vegas purchase of bob's
	left     int                       // a purchase of cy's left unshown when its session ended
}

// sellToTamper sells, in the house's store at url: Vegas over three
// accounts, two of its blocks sold out and their seeds revealed, Yam's
// to one; a second deposit; units shown, and some left unshown by a
// session that ended; heads signed on the way and at Close.
func sellToTamper(t *testing.T, url string) *soldStore {
	t.Helper()
	ctx := context.Background()
	f := &soldStore{url: url, n: map[string]int{}, receipts: map[string]ledger.Receipt{}}
	var mu sync.Mutex
	s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(21), SeedSet: true, Tables: SmallTables, OpenBlocks: 2,
		OnHead: func(h ledger.HeadToken) { mu.Lock(); f.heads = append(f.heads, h); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"ann", "bob", "cy"} {
		if _, err := s.OpenAccount(ctx, a, decimal.NewFromInt(500)); err != nil {
			t.Fatal(err)
		}
	}
	vegas, three := lottery.Vegas(), decimal.NewFromInt(3)
	buy := func(account string, g lottery.Game, stake decimal.Decimal, lease string) Receipt {
		t.Helper()
		f.n[account]++
		r, err := s.Sell(ctx, Purchase{Account: account, Number: f.n[account], Game: g, Stake: stake, Lease: lease})
		if err != nil {
			t.Fatal(err)
		}
		f.receipts[PurchaseID(account, f.n[account])] = *r.Signed
		return r
	}
	show := func(account string, r Receipt) {
		t.Helper()
		if err := s.Shown(ctx, account, r.Sold.Ref()); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 90 {
		a := []string{"ann", "bob"}[i%2]
		r := buy(a, vegas, three, "")
		if a == "ann" || i%4 == 1 {
			show(a, r)
		}
		switch won := r.Sold.Unit.Prize.IsPositive(); {
		case a == "ann" && won && f.win == 0:
			f.win = f.n[a]
		case a == "bob" && !won && f.losing == 0:
			f.losing = f.n[a]
		}
	}
	for range 10 {
		show("bob", buy("bob", lottery.Yams(), decimal.NewFromInt(1), ""))
	}
	if err := s.SignHead(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(50)); err != nil {
		t.Fatal(err)
	}
	l, err := s.Hold(ctx, "cy")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		r := buy("cy", vegas, three, l.Token())
		if i%2 == 0 {
			show("cy", r)
		} else {
			f.left = f.n["cy"]
		}
	}
	if err := l.Release(); err != nil { // cy's units not shown are left
		t.Fatal(err)
	}
	for i := range 40 {
		a := []string{"ann", "bob"}[i%2]
		if r := buy(a, vegas, three, ""); a == "ann" {
			show(a, r)
		}
	}
	if err := s.SignHead(ctx); err != nil {
		t.Fatal(err)
	}
	buy("ann", vegas, three, "") // the last sale of block vegas:3:3, never shown
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if f.win == 0 || f.losing == 0 || len(f.heads) < 3 {
		t.Fatalf("the store sold: ann won nothing (%d), bob lost nothing (%d), or %d heads", f.win, f.losing, len(f.heads))
	}
	r := verifyAt(t, url, ledger.Tokens{Heads: f.heads, Receipts: f.allReceipts()})
	if !r.OK() || r.Purchases != 151 || r.Accounts != 3 || r.Closed != 2 || r.Heads != int64(len(f.heads)) ||
		r.Covered != r.Records || r.FoundHeads != r.Heads || r.FoundReceipts != 151 || !r.KeyGiven {
		t.Fatalf("the store as sold: %d purchases, %d accounts, %d closed, %d heads, %d of %d records covered, %d heads and %d receipts found, key given %v; problems %q",
			r.Purchases, r.Accounts, r.Closed, r.Heads, r.Covered, r.Records, r.FoundHeads, r.FoundReceipts, r.KeyGiven, r.Problems)
	}
	return f
}

// allReceipts returns every receipt the players kept.
func (f *soldStore) allReceipts() []ledger.Receipt {
	out := make([]ledger.Receipt, 0, len(f.receipts))
	for _, r := range f.receipts {
		out = append(out, r)
	}
	return out
}

// verifyAt opens the store at url as verify does and checks it, against
// the house's key, with the tokens given.
func verifyAt(t *testing.T, url string, given ledger.Tokens) Report {
	t.Helper()
	r, err := tryVerify(url, given)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func tryVerify(url string, given ledger.Tokens) (Report, error) {
	ctx := context.Background()
	s, err := Open(ctx, url, Options{Existing: true, Audit: true, HouseKey: ledger.PublicTestKey().Public()})
	if err != nil {
		return Report{}, err
	}
	defer s.Close()
	return s.VerifyGiven(ctx, given)
}

// tampering is what an insider does to a store with its database's own
// tools, and what the problem verify names it with says.
type tampering struct {
	name string
	do   func(d tamperDB)
	// want are words one problem says, every one of them; refused, the
	// words the store's refusal to open says instead.
	want    []string
	refused string
}

// tamperDB is a raw connection to a copy of the store, as an insider has.
type tamperDB struct {
	t   *testing.T
	db  *sql.DB
	eng engine
}

// openRaw opens the database of the store at url itself.
func openRaw(t *testing.T, url string) tamperDB {
	t.Helper()
	e, err := parseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	var db *sql.DB
	switch e := e.(type) {
	case *sqliteEngine:
		db, err = sql.Open("sqlite", e.path)
	case *postgresEngine:
		db, err = sql.Open("pgx", e.dsn)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tamperDB{t: t, db: db, eng: e}
}

// exec runs statements, written for PostgreSQL ($1…).
func (d tamperDB) exec(query string, args ...any) {
	d.t.Helper()
	if _, err := d.db.Exec(d.eng.q(query), args...); err != nil {
		d.t.Fatalf("%s: %v", query, err)
	}
}

// one reads one value.
func (d tamperDB) one(query string, args ...any) int64 {
	d.t.Helper()
	var n int64
	if err := d.db.QueryRow(d.eng.q(query), args...).Scan(&n); err != nil {
		d.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// runTamperings makes each tampering on a fresh copy of the sold store and
// checks verify names it.
func runTamperings(t *testing.T, f *soldStore, fresh func(t *testing.T) string) {
	for _, c := range tamperings(f) {
		t.Run(c.name, func(t *testing.T) {
			url := fresh(t)
			d := openRaw(t, url)
			c.do(d)
			if err := d.db.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := tryVerify(url, ledger.Tokens{})
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) {
					t.Errorf("want the store refused with %q, got %v", c.refused, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if testing.Verbose() {
				t.Logf("%d problems: %q", len(r.Problems), r.Problems)
			}
			if r.OK() || !named(r.Problems, c.want) {
				t.Errorf("want a problem saying %q, got %q", c.want, r.Problems)
			}
		})
	}
}

// named reports whether one problem says every one of words.
func named(problems, words []string) bool {
	for _, p := range problems {
		all := true
		for _, w := range words {
			all = all && strings.Contains(p, w)
		}
		if all {
			return true
		}
	}
	return false
}

// sqliteCopies returns fresh copies of the SQLite store at url.
func sqliteCopies(base string) func(t *testing.T) string {
	from := strings.TrimPrefix(base, "sqlite:")
	return func(t *testing.T) string {
		to := filepath.Join(t.TempDir(), "copy.db")
		for _, suffix := range []string{"", "-wal"} {
			if err := copyFile(from+suffix, to+suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
		}
		return "sqlite:" + to
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func TestSQLiteTamperings(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "house.db")
	f := sellToTamper(t, url)
	runTamperings(t, f, sqliteCopies(url))
	insiderWithTheKey(t, f, sqliteCopies(url))
}

func TestSQLiteQAStoreVerifies(t *testing.T) {
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(22), SeedSet: true, Tables: SmallTables, QA: true})
	qaStoreVerifies(t, s, url)
}

// qaStoreVerifies sells a forced unit from a QA store: verify counts it,
// and finds nothing wrong.
func qaStoreVerifies(t *testing.T, s *SQL, url string) {
	ctx := context.Background()
	if _, err := s.OpenAccount(ctx, "qa", decimal.NewFromInt(10)); err != nil {
		t.Fatal(err)
	}
	tier := 0
	for n, f := range []*lottery.Force{{Tier: &tier}, nil} {
		if _, err := s.Sell(ctx, Purchase{Account: "qa", Number: n + 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(2), Force: f, Label: "QA"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := verifyAt(t, url, ledger.Tokens{})
	if !r.OK() || r.Forced != 1 || r.Purchases != 2 || r.Covered != 3 {
		t.Errorf("a QA store: %d forced, %d purchases, %d records covered; %q", r.Forced, r.Purchases, r.Covered, r.Problems)
	}
}
