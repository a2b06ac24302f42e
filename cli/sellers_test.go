package cli

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"tapis/internal/pgtest"
	"tapis/ledger"
	"tapis/store"
)

func TestSimulatesOnOneAccount(t *testing.T) {
	simulatesOnOneAccount(t, "sqlite:"+filepath.Join(t.TempDir(), "shop.db"))
}

func TestPostgresSimulatesOnOneAccount(t *testing.T) {
	simulatesOnOneAccount(t, pgtest.Fresh(t))
}

// simulatesOnOneAccount: three simulates at once on one account of one
// store each sell every unit or are refused before selling any, in one
// line naming the account and its seller; none fails midway.
func simulatesOnOneAccount(t *testing.T, url string) {
	const count = 400
	type result struct {
		code        int
		out, errOut string
	}
	results := make([]result, 3)
	key := testKeyFile(t)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			code, out, errOut := run(t, "", "simulate", "--store", url, "--house-key", key, "--count", "400", "--balance", "100000", "--seed", "5")
			results[i] = result{code, out, errOut}
		})
	}
	wg.Wait()
	sold := 0
	for _, r := range results {
		switch {
		case r.code == ExitOK && r.errOut == "":
			sold++
		case r.code == ExitUsage && strings.HasPrefix(r.errOut, "tapis simulate: account local is in use by another seller (pid ") &&
			strings.Count(r.errOut, "\n") == 1 && r.out == "":
		default:
			t.Errorf("a simulate ended %d:\n%s%s", r.code, r.out, r.errOut)
		}
	}
	st, err := store.Open(context.Background(), url, store.Options{Key: ledger.PublicTestKey(), Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.Account(context.Background(), "local", 0)
	if err != nil {
		t.Fatal(err)
	}
	if sold == 0 || a.Purchases != sold*count {
		t.Errorf("%d simulates sold all their units, the account made %d purchases", sold, a.Purchases)
	}
}
