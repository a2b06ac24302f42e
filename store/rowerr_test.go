package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/ledger"
)

// TestExplainARetypedRow: a balance an insider set to text, or to NULL,
// reads as one line naming the account, the column and the value found,
// not database/sql's Scan error; other errors are left as they are.
func TestExplainARetypedRow(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(ctx, "sqlite:"+path, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ set, want string }{
		{`'abc'`, `its column "balance" holds "abc" where tapis writes a whole number: the store was changed outside tapis`},
		{`1.5`, `its column "balance" holds "1.5" where tapis writes a whole number`},
	} {
		if _, err := s.db.ExecContext(ctx, `UPDATE accounts SET balance = `+c.set); err != nil {
			t.Fatal(err)
		}
		_, err := s.Account(ctx, "ann", 0)
		if err == nil {
			t.Fatalf("balance %s: the account read", c.set)
		}
		got := Explain(err)
		var changed *ChangedRowError
		if !errors.As(got, &changed) || !strings.Contains(got.Error(), c.want) || strings.Contains(got.Error(), "driver") ||
			!strings.Contains(got.Error(), `account "ann"`) {
			t.Errorf("balance %s: %v, want a ChangedRowError naming the account and saying %q", c.set, got, c.want)
		}
	}
	null := fmt.Errorf("store: reading purchase 3: %w",
		errors.New(`sql: Scan error on column index 2, name "prize": converting NULL to int64 is unsupported`))
	if got, want := Explain(null).Error(), `store: reading purchase 3: its column "prize" holds nothing (NULL) where tapis writes a whole number: the store was changed outside tapis`; got != want {
		t.Errorf("a NULL: %q, want %q", got, want)
	}
	other := errors.New("store: reading account: connection refused")
	if Explain(other) != other || Explain(nil) != nil {
		t.Error("Explain changed an error that is no row's")
	}
}
