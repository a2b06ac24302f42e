package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pressly/goose/v3/database"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/pgtest"
	"tapis/ledger"
	"tapis/text"
)

func TestSQLiteMigratesFrom2(t *testing.T) {
	migratesFrom2(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
}

func TestPostgresMigratesFrom2(t *testing.T) {
	migratesFrom2(t, pgtest.Fresh(t))
}

// migratesFrom2: a store of schema version 2 holding an emission (the
// tapis before goose, no goose table) is one of format 1: a reader and a
// seller refuse it alike, and change nothing of it.
func migratesFrom2(t *testing.T, url string) {
	ctx := context.Background()
	s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(3), SeedSet: true, Tables: SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{`DROP TABLE sellers`, `DROP INDEX purchases_at`, `DROP INDEX purchases_revealing`, `UPDATE tapis_schema SET version = 2`, `DROP TABLE tapis_migrations`} {
		if _, err := s.db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	s.Close()
	for _, existing := range []bool{true, false} {
		if r, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), Existing: existing}); err == nil || !strings.Contains(err.Error(), "holds an emission of format 1 (schema 2, 64-bit seeds), which this tapis neither sells from nor checks") {
			if r != nil {
				r.Close()
			}
			t.Errorf("opening a store of version 2 (reader %v): %v", existing, err)
		}
	}
	db, err := sql.Open(map[bool]string{true: "sqlite", false: "pgx"}[strings.HasPrefix(url, "sqlite:")], strings.TrimPrefix(url, "sqlite:"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRowContext(ctx, `SELECT version FROM tapis_schema`).Scan(&v); err != nil || v != 2 {
		t.Errorf("a refused store of version 2 now says version %d (%v)", v, err)
	}
}

// sqliteTest and postgresTest are the engines, for the schema's tests.
func sqliteTest() engineTest {
	return engineTest{
		fresh: func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "tapis.db") },
		rowID: " WITHOUT ROWID",
		describe: []string{
			`SELECT m.name, p.cid, p.name, p.type, p."notnull", p.dflt_value, p.pk
				FROM sqlite_master m JOIN pragma_table_info(m.name) p
				WHERE m.type = 'table' AND m.name NOT IN ('tapis_migrations', 'sqlite_sequence') ORDER BY m.name, p.cid`,
			`SELECT name, sql LIKE '%WITHOUT ROWID' FROM sqlite_master
				WHERE type = 'table' AND name NOT IN ('tapis_migrations', 'sqlite_sequence') ORDER BY name`,
			`SELECT name, tbl_name, replace(sql, 'IF NOT EXISTS ', '') FROM sqlite_master
				WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`,
			`SELECT m.name, f.* FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
				WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq`,
		},
	}
}

func postgresTest() engineTest {
	return engineTest{
		fresh: func(t *testing.T) string { return pgtest.Fresh(t) },
		describe: []string{
			`SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default
				FROM information_schema.columns
				WHERE table_schema = current_schema() AND table_name <> 'tapis_migrations' ORDER BY 1, 2`,
			`SELECT indexname, indexdef FROM pg_indexes
				WHERE schemaname = current_schema() AND tablename <> 'tapis_migrations' ORDER BY 1`,
			`SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
				WHERE connamespace = current_schema()::regnamespace AND conrelid::regclass::text <> 'tapis_migrations' ORDER BY 1, 2`,
		},
	}
}

// checkVersions checks that goose's table records each version once, to
// SchemaVersion, and that tapis_schema says it to the tapis before goose.
func checkVersions(t *testing.T, s *SQL) {
	t.Helper()
	ctx := context.Background()
	list, err := s.versions().ListMigrations(ctx, s.db)
	if err != nil {
		t.Fatal(err)
	}
	var versions []int64
	for _, m := range list {
		if !m.IsApplied {
			t.Errorf("version %d recorded not applied", m.Version)
		}
		versions = append(versions, m.Version)
	}
	if want := []int64{5, 4, 3, 2, 1, 0}; !slices.Equal(versions, want) {
		t.Errorf("goose's versions, latest first: %v, want %v", versions, want)
	}
	var n, v int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), MAX(version) FROM tapis_schema`).Scan(&n, &v); err != nil || n != 1 || v != SchemaVersion {
		t.Errorf("tapis_schema: %d rows, version %d (%v)", n, v, err)
	}
}

func TestSQLiteMigrationsBuildTheTablesOfBefore(t *testing.T) {
	migrationsBuildTheTablesOfBefore(t, sqliteTest())
}

func TestPostgresMigrationsBuildTheTablesOfBefore(t *testing.T) {
	migrationsBuildTheTablesOfBefore(t, postgresTest())
}

// migrationsBuildTheTablesOfBefore: the tables goose's migrations create
// are those the tapis before goose created, column for column, index for
// index, constraint for constraint.
func migrationsBuildTheTablesOfBefore(t *testing.T, e engineTest) {
	before, now := e.fresh(t), e.fresh(t)
	storeBeforeGoose(t, e, before, 3) // the last schema before goose, no emission yet: migrated to 4
	for _, url := range []string{before, now} {
		s, err := Open(context.Background(), url, Options{Key: ledger.PublicTestKey()})
		if err != nil {
			t.Fatal(err)
		}
		checkVersions(t, s)
		s.Close()
	}
	want, got := describeTables(t, e, before), describeTables(t, e, now)
	if len(want) < 30 || !slices.Equal(got, want) {
		t.Errorf("the tables goose built:\n%s\nthose of the tapis before goose:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSQLiteMigratesFrom1(t *testing.T) { migratesFrom1(t, sqliteTest()) }

func TestPostgresMigratesFrom1(t *testing.T) { migratesFrom1(t, postgresTest()) }

// migratesFrom1: a store the tapis before goose left at schema version 1
// (no guest column, no sellers) opens at version 3, its accounts no
// guests', and sells and holds as a new one.
func migratesFrom1(t *testing.T, e engineTest) {
	ctx := context.Background()
	url := e.fresh(t)
	storeBeforeGoose(t, e, url, 1)
	execAll(t, url, `INSERT INTO accounts (name, balance, deposited, purchases, deposits, created) VALUES ('ann', 10000, 10000, 0, 0, 1)`)
	s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(3), SeedSet: true, Tables: SmallTables})
	if err != nil {
		t.Fatalf("opening a store of version 1: %v", err)
	}
	defer s.Close()
	checkVersions(t, s)
	if a, err := s.Account(ctx, "ann", 0); err != nil || a.Guest || !a.Balance.Equal(decimal.NewFromInt(100)) {
		t.Errorf("an account of version 1: %+v, %v", a, err)
	}
	l, err := s.Hold(ctx, "ann")
	if err != nil {
		t.Fatalf("holding an account of version 1: %v", err)
	}
	defer l.Release()
	if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Lease: l.Token()}); err != nil {
		t.Errorf("selling on a store of version 1: %v", err)
	}
}

func TestSQLiteOpensAStoreOf3BeforeGoose(t *testing.T) { opensAStoreOf3BeforeGoose(t, sqliteTest()) }

func TestPostgresOpensAStoreOf3BeforeGoose(t *testing.T) {
	opensAStoreOf3BeforeGoose(t, postgresTest())
}

// opensAStoreOf3BeforeGoose: a store of version 3 written by the tapis
// before goose is recorded as migrated, and nothing runs again: a unit
// being revealed stays so (version 3's migration would leave it).
func opensAStoreOf3BeforeGoose(t *testing.T, e engineTest) {
	ctx := context.Background()
	url := e.fresh(t)
	storeBeforeGoose(t, e, url, 3)
	s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(3), SeedSet: true, Tables: SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	checkVersions(t, s)
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	execAll(t, url, `DROP TABLE tapis_migrations`) // as the tapis before goose left it, with a sale
	s, err = Open(ctx, url, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkVersions(t, s)
	var shown int
	if err := s.db.QueryRowContext(ctx, `SELECT shown FROM purchases`).Scan(&shown); err != nil || shown != shownRevealing {
		t.Errorf("the unit being revealed: shown %d (%v), want %d", shown, err, shownRevealing)
	}
	if r, err := s.Verify(ctx); err != nil || !r.OK() {
		t.Errorf("verify: %v (%v)", r.Problems, err)
	}
}

func TestSQLiteRefusals(t *testing.T) { refusals(t, sqliteTest()) }

func TestPostgresRefusals(t *testing.T) { refusals(t, postgresTest()) }

// refusals: a store newer than this tapis (goose's or the tapis before
// goose's), a database of another program (goose's table of its own
// included) and, for a reader, one with no store are refused, each in one
// line, for a seller as for a reader, and left as they were.
func refusals(t *testing.T, e engineTest) {
	ctx := context.Background()
	newer := e.fresh(t)
	s, err := Open(ctx, newer, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.versions().Insert(ctx, s.db, database.InsertRequest{Version: SchemaVersion + 1}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	older := e.fresh(t)
	storeBeforeGoose(t, e, older, 3)
	execAll(t, older, fmt.Sprintf(`UPDATE tapis_schema SET version = %d`, SchemaVersion+1))
	others := e.fresh(t)
	execAll(t, others, `CREATE TABLE goose_db_version (id INTEGER, version_id BIGINT)`)
	empty := e.fresh(t)
	execAll(t, empty) // an empty database, and for SQLite its file
	where := func(url string) string { return "store " + text.Printable(Redact(url)) }
	newerThan := fmt.Sprintf(": schema version %d is newer than this tapis's (%d): open it with a newer tapis", SchemaVersion+1, SchemaVersion)
	for _, c := range []struct {
		url, want, wantReader string
	}{
		{newer, where(newer) + newerThan, ""},
		{older, where(older) + newerThan, ""},
		{others, where(others) + " holds another program's tables: tapis keeps its store in a database of its own", where(others) + " holds no tapis emission"},
		{empty, "", where(empty) + " holds no tapis emission"},
	} {
		before := describeTables(t, e, c.url)
		for _, existing := range []bool{false, true} {
			want := c.want
			if existing && c.wantReader != "" {
				want = c.wantReader
			}
			if want == "" {
				continue
			}
			if s, err := Open(ctx, c.url, Options{Key: ledger.PublicTestKey(), Existing: existing}); err == nil || err.Error() != want {
				if err == nil {
					s.Close()
				}
				t.Errorf("opening %s (reader %v): %v, want %q", c.url, existing, err, want)
			}
		}
		if after := describeTables(t, e, c.url); !slices.Equal(after, before) {
			t.Errorf("%s refused, then: %v, before: %v", c.url, after, before)
		}
	}
}

func TestSQLiteSellersOpenANewStoreAtOnce(t *testing.T) { sellersOpenANewStoreAtOnce(t, sqliteTest()) }

func TestPostgresSellersOpenANewStoreAtOnce(t *testing.T) {
	sellersOpenANewStoreAtOnce(t, postgresTest())
}

// sellersOpenANewStoreAtOnce: sellers opening a new store at once all
// open it, its tables migrated once and its emission created once.
func sellersOpenANewStoreAtOnce(t *testing.T, e engineTest) {
	const sellers = 6
	url := e.fresh(t)
	stores := make([]*SQL, sellers)
	errs := make([]error, sellers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() {
			<-start
			stores[i], errs[i] = Open(context.Background(), url, Options{Key: ledger.PublicTestKey(), Tables: SmallTables})
		})
	}
	close(start)
	wg.Wait()
	for i, s := range stores {
		if errs[i] != nil {
			t.Errorf("seller %d: %v", i, errs[i])
			continue
		}
		defer s.Close()
		if s.Seed() != stores[0].Seed() {
			t.Errorf("seller %d sells the emission of seed %d, seller 0 of %d", i, s.Seed(), stores[0].Seed())
		}
	}
	if errs[0] == nil {
		checkVersions(t, stores[0])
	}
}

func TestSQLiteMigratedStoreWaitsForTheDisk(t *testing.T) {
	migratedStoreWaitsForTheDisk(t, sqliteTest(), `PRAGMA synchronous`, "2") // FULL
}

func TestPostgresMigratedStoreWaitsForTheDisk(t *testing.T) {
	migratedStoreWaitsForTheDisk(t, postgresTest(), `SHOW synchronous_commit`, "on")
}

// migratedStoreWaitsForTheDisk: goose migrates a store with commits that
// wait for no disk; every connection of the store's pool commits
// purchases waiting for it again, on a new store as on one migrated.
func migratedStoreWaitsForTheDisk(t *testing.T, e engineTest, show, want string) {
	ctx := context.Background()
	older := e.fresh(t)
	storeBeforeGoose(t, e, older, 2)
	for _, url := range []string{e.fresh(t), older} {
		s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey()})
		if err != nil {
			t.Fatal(err)
		}
		var conns []*sql.Conn
		for range s.db.Stats().OpenConnections { // those open, held at once
			c, err := s.db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		for i, c := range conns {
			var got string
			if err := c.QueryRowContext(ctx, show).Scan(&got); err != nil || got != want {
				t.Errorf("%s, connection %d of %d: %s says %s (%v), want %s", url, i+1, len(conns), show, got, err, want)
			}
			c.Close()
		}
		s.Close()
	}
}

func TestSQLiteRefusesAnEmissionOfFormat1(t *testing.T) { refusesFormat1(t, sqliteTest()) }

func TestPostgresRefusesAnEmissionOfFormat1(t *testing.T) { refusesFormat1(t, postgresTest()) }

// refusesFormat1: a store of schema 3 holding an emission (64-bit seeds)
// is refused by a seller and a reader alike, in one line, and left as it
// was: how its blocks deal never changes under them, and the tapis that
// made it still reads it.
func refusesFormat1(t *testing.T, e engineTest) {
	ctx := context.Background()
	url := e.fresh(t)
	storeBeforeGoose(t, e, url, 3)
	execAll(t, url, `INSERT INTO emission (id, seed, open_blocks, qa, tables, created) VALUES (1, '42', 1, 0, '{}', 1)`)
	before := describeTables(t, e, url)
	want := "store " + text.Printable(Redact(url)) + " holds an emission of format 1 (schema 3, 64-bit seeds), which this tapis neither sells from nor checks: keep the tapis that made it to read it, and start a new store for a new emission"
	for _, existing := range []bool{false, true} {
		s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), Existing: existing})
		if err == nil {
			s.Close()
		}
		if err == nil || err.Error() != want {
			t.Errorf("opening a store of format 1 (reader %v): %v, want %q", existing, err, want)
		}
	}
	if after := describeTables(t, e, url); !slices.Equal(after, before) {
		t.Errorf("a store of format 1 changed by being opened:\n%s", strings.Join(after, "\n"))
	}
}
