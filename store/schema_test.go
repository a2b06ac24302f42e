package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/internal/pgtest"
)

func TestSQLiteMigratesFrom2(t *testing.T) {
	migratesFrom2(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
}

func TestPostgresMigratesFrom2(t *testing.T) {
	migratesFrom2(t, pgtest.Fresh(t))
}

// migratesFrom2: a store of schema version 2 (no sellers, no indexes of
// purchases by time or of units being revealed; a unit never shown is 0)
// opened by this tapis is version 3, its units never shown left (2):
// their sessions are over.
func migratesFrom2(t *testing.T, url string) {
	ctx := context.Background()
	s, err := Open(ctx, url, Options{Seed: 3, SeedSet: true, Tables: SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		r, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			if err := s.Shown(ctx, "ann", r.Sold.Ref()); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, stmt := range []string{`DROP TABLE sellers`, `DROP INDEX purchases_at`, `DROP INDEX purchases_revealing`, `UPDATE tapis_schema SET version = 2`} {
		if _, err := s.db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	s.Close()
	s, err = Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.version(ctx, s.db); err != nil || v != SchemaVersion {
		t.Errorf("migrated: version %d (%v)", v, err)
	}
	var shown []int
	rows, err := s.db.QueryContext(ctx, `SELECT shown FROM purchases ORDER BY number`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v int
		rows.Scan(&v)
		shown = append(shown, v)
	}
	rows.Close()
	if len(shown) != 2 || shown[0] != shownSeen || shown[1] != shownLeft {
		t.Errorf("migrated units: shown %v, want [1 2]", shown)
	}
	if _, err := s.Hold(ctx, "ann"); err != nil { // sellers is there
		t.Errorf("holding an account on the migrated store: %v", err)
	}
}
