package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "modernc.org/sqlite"             // the "sqlite" driver

	"tapis/game"
	"tapis/text"
)

// SchemaVersion is the version of the tables tapis keeps an emission in.
// Opening a store migrates an older schema, and refuses a newer one.
const SchemaVersion = 3

// BusyTimeout is how long a SQLite seller waits for another's write.
const BusyTimeout = 10 * time.Second

// SQL is a store kept in SQLite or PostgreSQL: many sellers, in many
// processes, sell from its emission at once.
type SQL struct {
	db       *sql.DB
	dialect  dialect
	emission *Emission
	orders   *orders
	now      func() time.Time
	where    string               // the store, as given, for messages
	driver   string               // the database/sql driver
	dsn      string               // its data source
	stmts    map[string]*sql.Stmt // prepared, by query as written for PostgreSQL
	path     string               // a SQLite store's file
	leases   leases               // the accounts its sellers hold
	shown    shownQueue           // units seen to the end, to be marked shown
}

// dialect is what differs between the two databases.
type dialect struct {
	name      string // sqlite, postgres
	forUpdate string // locks the rows a SELECT reads, where the database can
	skip      string // and passes over rows another seller holds
}

var (
	sqlite   = dialect{name: "sqlite"}
	postgres = dialect{name: "postgres", forUpdate: " FOR UPDATE", skip: " FOR UPDATE SKIP LOCKED"}
)

var placeholder = regexp.MustCompile(`\$([0-9]+)`)

// q writes a query for the dialect: $1, $2… become ?1, ?2… for SQLite.
func (d dialect) q(query string) string {
	if d.name == "sqlite" {
		return placeholder.ReplaceAllString(query, "?$1")
	}
	return query
}

// IsURL reports whether s names a SQL store: sqlite:PATH, a path ending in
// .db, or a postgres:// or postgresql:// URL.
func IsURL(s string) bool {
	_, _, err := parseURL(s)
	return err == nil
}

// parseURL reads where a store is: its dialect and the driver's data source.
func parseURL(s string) (dialect, string, error) {
	switch {
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		return postgres, s, nil
	case strings.HasPrefix(s, "sqlite:"), strings.HasSuffix(s, ".db"):
		path := strings.TrimPrefix(s, "sqlite:")
		if path == "" {
			return dialect{}, "", errors.New("sqlite: wants a path, as in sqlite:tapis.db")
		}
		if strings.HasPrefix(path, "//") || strings.HasPrefix(path, ":") {
			return dialect{}, "", fmt.Errorf("sqlite:%s: want sqlite:PATH, the path of a file (sqlite:tapis.db, sqlite:/var/tapis/tapis.db)", text.Printable(path))
		}
		if strings.ContainsAny(path, "?#") {
			return dialect{}, "", fmt.Errorf("sqlite path %s: a store's path takes no ? or #", text.Printable(path))
		}
		dsn := "file:" + strings.ReplaceAll(path, "%", "%25") + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)" +
			"&_pragma=busy_timeout(" + strconv.FormatInt(BusyTimeout.Milliseconds(), 10) + ")" +
			"&_pragma=foreign_keys(ON)&_txlock=immediate"
		return sqlite, dsn, nil
	}
	return dialect{}, "", fmt.Errorf("store %s: want sqlite:PATH, a path ending in .db, or postgres://…", text.Printable(Redact(s)))
}

// Open opens the store at url, creating its tables and its emission on
// first use, and migrating an older schema.
func Open(ctx context.Context, url string, o Options) (*SQL, error) {
	d, dsn, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	if d.name == "sqlite" {
		path := strings.TrimPrefix(url, "sqlite:")
		if o.Existing {
			if _, err := os.Stat(path); err != nil {
				return nil, fmt.Errorf("store %s: %w", url, err)
			}
		} else if err := createPrivate(path); err != nil {
			return nil, fmt.Errorf("store %s: %w", text.Printable(url), err)
		}
		// The file holds the house's master seed, and its write-ahead log
		// the pages written lately: no one else may read them.
		for _, f := range []string{path, path + "-wal", path + "-shm"} {
			if err := Private("store", f); err != nil {
				return nil, err
			}
		}
	}
	driver := "sqlite"
	if d.name == "postgres" {
		driver = "pgx"
	}
	if o.Existing { // a reader: its transactions take no write lock (a read-only file reads)
		dsn = strings.Replace(dsn, "_txlock=immediate", "_txlock=deferred", 1)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &SQL{db: db, dialect: d, now: o.Now, where: text.Printable(Redact(url)), driver: driver, dsn: dsn, stmts: map[string]*sql.Stmt{}}
	if d.name == "sqlite" {
		s.path = strings.TrimPrefix(url, "sqlite:")
	}
	if d.name == "sqlite" {
		db.SetMaxOpenConns(1) // one writer a process; other processes wait their turn
	} else {
		// A server of many players shares one pool: bounded, so that a
		// few servers stay well within PostgreSQL's max_connections
		// (100 by default), and kept open between purchases.
		db.SetMaxOpenConns(pgConns)
		db.SetMaxIdleConns(pgConns)
	}
	if !o.Existing {
		if err := s.migrate(ctx); err != nil {
			db.Close()
			return nil, err
		}
	} else if _, err := s.version(ctx, s.db); err != nil {
		db.Close()
		return nil, err
	}
	if s.emission, err = s.loadEmission(ctx, o); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		db.Close()
		return nil, err
	}
	s.orders = newOrders(4 * s.emission.OpenBlocks * len(s.emission.tables))
	return s, nil
}

// pgConns is how many connections to PostgreSQL a process holds at most.
// More would not sell faster: a purchase holds its connection for one
// round trip of two pipelined batches, and the block's row lock
// serializes the rest (docs/scaling.md).
const pgConns = 16

// createPrivate creates a SQLite store's file, empty, readable by its
// owner only, when there is none: the file will hold the house's master
// seed, from which every unit of every block is dealt. SQLite gives its
// write-ahead log and shared-memory files the database file's mode.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// Private refuses a file that others than its owner may read: a store, a
// journal or a host key, which hold the house's seeds or its key. A file
// that does not exist is no matter.
func Private(what, path string) error {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return PrivateMode(what, path, info.Mode())
}

// PrivateMode is Private, for a file whose mode is known.
func PrivateMode(what, path string, mode fs.FileMode) error {
	perm := mode.Perm()
	if perm&0o077 == 0 {
		return nil
	}
	how := "read"
	if perm&0o044 == 0 {
		how = "written"
	}
	p := text.Printable(path)
	return fmt.Errorf("%s %s can be %s by others (mode %04o): chmod 600 %s", what, p, how, perm, p)
}

// oneLine is an error written on one line: a driver's error of several
// lines (PostgreSQL's, one a host it tried) has them joined, each once.
type oneLine struct{ err error }

func (e oneLine) Error() string {
	var lines []string
	for _, l := range strings.Split(e.err.Error(), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			if strings.HasSuffix(lines[i-1], ":") {
				b.WriteString(" ")
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

func (e oneLine) Unwrap() error { return e.err }

// Redact drops a URL's password, for messages.
func Redact(raw string) string {
	if !strings.Contains(raw, "://") {
		return raw // a SQLite path
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "a store URL that does not parse" // never the raw text: it may hold a password
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "…")
	}
	q := u.Query()
	for key := range q {
		if strings.Contains(strings.ToLower(key), "password") {
			q.Set(key, "…")
		}
	}
	u.RawQuery = q.Encode()
	return strings.NewReplacer("%E2%80%A6", "…").Replace(u.String())
}

// Emission returns the emission the store sells.
func (s *SQL) Emission() *Emission { return s.emission }

// Seed returns the house's master seed. It never leaves the seller: players
// see commitments, and seeds once their blocks are sold out.
func (s *SQL) Seed() game.Seed { return s.emission.seed }

// Close closes the database, letting go of the accounts its sellers
// held.
func (s *SQL) Close() error {
	lerr := errors.Join(s.closeShown(), s.closeLeases())
	for _, st := range s.stmts {
		st.Close()
	}
	return errors.Join(lerr, s.db.Close())
}

// tx runs f in a transaction, committed when f returns nil.
func (s *SQL) tx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, oneLine{err})
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: committing: %w", err)
	}
	return nil
}

// schema is version 1 of the tables, in the SQL both databases read.
// Amounts are in cents, times in nanoseconds since 1970 (UTC).
var schema = []string{
	`CREATE TABLE IF NOT EXISTS tapis_schema (version INTEGER NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS emission (
		id INTEGER PRIMARY KEY CHECK (id = 1),
		seed TEXT NOT NULL,
		open_blocks INTEGER NOT NULL,
		qa INTEGER NOT NULL DEFAULT 0,
		tables TEXT NOT NULL,
		created BIGINT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS blocks (
		game TEXT NOT NULL,
		stake TEXT NOT NULL,
		number BIGINT NOT NULL,
		units BIGINT NOT NULL,
		sold BIGINT NOT NULL DEFAULT 0,
		commitment TEXT NOT NULL,
		seed TEXT,
		opened BIGINT NOT NULL,
		closed BIGINT,
		PRIMARY KEY (game, stake, number))` + withoutRowID,
	`CREATE TABLE IF NOT EXISTS accounts (
		name TEXT PRIMARY KEY,
		balance BIGINT NOT NULL,
		deposited BIGINT NOT NULL,
		purchases INTEGER NOT NULL DEFAULT 0,
		deposits INTEGER NOT NULL DEFAULT 0,
		created BIGINT NOT NULL,
		guest INTEGER NOT NULL DEFAULT 0)` + withoutRowID,
	`CREATE TABLE IF NOT EXISTS deposits (
		account TEXT NOT NULL REFERENCES accounts (name),
		n INTEGER NOT NULL,
		amount BIGINT NOT NULL,
		after_purchase INTEGER NOT NULL,
		at BIGINT NOT NULL,
		PRIMARY KEY (account, n))` + withoutRowID,
	`CREATE TABLE IF NOT EXISTS purchases (
		account TEXT NOT NULL REFERENCES accounts (name),
		number INTEGER NOT NULL,
		game TEXT NOT NULL,
		stake TEXT NOT NULL,
		block BIGINT,
		serial BIGINT NOT NULL,
		label TEXT,
		unit TEXT NOT NULL,
		tier INTEGER NOT NULL,
		stake_cents BIGINT NOT NULL,
		prize BIGINT NOT NULL,
		before_cents BIGINT NOT NULL,
		after_cents BIGINT NOT NULL,
		layout TEXT NOT NULL,
		at BIGINT NOT NULL,
		shown INTEGER NOT NULL DEFAULT 0,
		attempt TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (account, number))` + withoutRowID,
	`CREATE UNIQUE INDEX IF NOT EXISTS purchases_serial ON purchases (game, stake, block, serial) WHERE block IS NOT NULL`,
	// The players each tapis serve has connected, for the board (presence.go).
	`CREATE TABLE IF NOT EXISTS servers (
		id TEXT PRIMARY KEY,
		players INTEGER NOT NULL,
		seen BIGINT NOT NULL)` + withoutRowID,
	sellersTable,
	purchasesByTime,
	purchasesRevealing,
}

// purchasesRevealing finds the units being revealed (shown.go): an
// account's when its session ends, all of them for the board.
const purchasesRevealing = `CREATE INDEX IF NOT EXISTS purchases_revealing ON purchases (account, number) WHERE shown = 0`

// purchasesByTime finds an account's purchases of the loss limit's window
// (losses.go) without reading its older ones.
const purchasesByTime = `CREATE INDEX IF NOT EXISTS purchases_at ON purchases (account, at)`

// sellersTable says which process holds each account (lease.go): the
// lock is the engine's; this is for the seller it refuses.
const sellersTable = `CREATE TABLE IF NOT EXISTS sellers (
		account TEXT PRIMARY KEY,
		pid INTEGER NOT NULL,
		host TEXT NOT NULL,
		since BIGINT NOT NULL)` + withoutRowID

// withoutRowID ends a table's definition: SQLite then keeps the table in
// its primary key's order, one B-tree instead of two, and PostgreSQL is
// told nothing. A purchase writes fewer pages.
const withoutRowID = "/*ROWID*/"

// migrate creates the tables, or checks the version of those there.
func (s *SQL) migrate(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.alone(ctx, tx); err != nil {
			return err
		}
		if err := s.notAnother(ctx, tx); err != nil {
			return err
		}
		for _, stmt := range schema {
			if s.dialect.name == "sqlite" {
				stmt = strings.Replace(stmt, withoutRowID, " WITHOUT ROWID", 1)
			}
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store %s: creating its tables: %w", s.where, err)
			}
		}
		v, err := s.version(ctx, tx)
		if errors.Is(err, errNoVersion) {
			_, err = tx.ExecContext(ctx, s.dialect.q(`INSERT INTO tapis_schema (version) VALUES ($1)`), SchemaVersion)
			return err
		}
		if err != nil || v == SchemaVersion {
			return err
		}
		for _, stmt := range migrations[v-1:] {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store %s: migrating its tables from version %d: %w", s.where, v, err)
			}
		}
		_, err = tx.ExecContext(ctx, s.dialect.q(`UPDATE tapis_schema SET version = $1`), SchemaVersion)
		return err
	})
}

// migrations take the tables from each version to the next: the first
// from version 1 to 2.
var migrations = []string{
	// 2: the store says which accounts are guests (serve's keyless
	// players), kept only once they bought.
	`ALTER TABLE accounts ADD COLUMN guest INTEGER NOT NULL DEFAULT 0`,
	// 3: who holds each account (sellers), the indexes of purchases by
	// time and of units being revealed, created with the tables above;
	// the units never shown of sessions over are left (shown = 2), as
	// sessions ending do now.
	`UPDATE purchases SET shown = 2 WHERE shown = 0`,
}

var errNoVersion = errors.New("no schema version")

// notAnother refuses a database that holds another program's tables and no
// tapis store: tapis never writes its tables among them.
func (s *SQL) notAnother(ctx context.Context, tx *sql.Tx) error {
	query := `SELECT COUNT(*), COUNT(CASE WHEN name = 'tapis_schema' THEN 1 END) FROM sqlite_master WHERE type = 'table'`
	if s.dialect.name == "postgres" {
		query = `SELECT COUNT(*), COUNT(CASE WHEN table_name = 'tapis_schema' THEN 1 END)
			FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	var tables, ours int
	if err := tx.QueryRowContext(ctx, query).Scan(&tables, &ours); err != nil {
		return fmt.Errorf("store %s: %w", s.where, oneLine{err})
	}
	if tables > 0 && ours == 0 {
		return fmt.Errorf("store %s holds another program's tables: tapis keeps its store in a database of its own", s.where)
	}
	return nil
}

// noTable reports whether err says a table does not exist: PostgreSQL's
// undefined_table, SQLite's "no such table".
func noTable(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "42P01"
	}
	return strings.Contains(err.Error(), "no such table")
}

// version reads the schema's version: errNoVersion when there is none
// yet, an error when it is newer than this tapis's.
func (s *SQL) version(ctx context.Context, q querier) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, `SELECT version FROM tapis_schema`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, errNoVersion
	case err != nil && noTable(err):
		return 0, fmt.Errorf("store %s holds no tapis emission", s.where)
	case err != nil:
		return 0, fmt.Errorf("store %s: %w", s.where, oneLine{err})
	case v > SchemaVersion:
		return 0, fmt.Errorf("store %s: schema version %d is newer than this tapis's (%d): open it with a newer tapis", s.where, v, SchemaVersion)
	case v < 1:
		return 0, fmt.Errorf("store %s: schema version %d: no tapis wrote it", s.where, v)
	}
	return v, nil
}

// alone makes a transaction wait for any other seller's that creates the
// tables or the emission: sellers starting at once create them once. A
// SQLite transaction is alone already.
func (s *SQL) alone(ctx context.Context, tx *sql.Tx) error {
	if s.dialect.name != "postgres" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7263617069)`); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}

// loadEmission reads the store's emission, creating it on first use.
func (s *SQL) loadEmission(ctx context.Context, o Options) (*Emission, error) {
	var e *Emission
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.alone(ctx, tx); err != nil {
			return err
		}
		var seed, tables string
		var open, qa int
		var created int64
		err := tx.QueryRowContext(ctx, `SELECT seed, open_blocks, qa, tables, created FROM emission WHERE id = 1`).Scan(&seed, &open, &qa, &tables, &created)
		if errors.Is(err, sql.ErrNoRows) && o.Existing {
			return fmt.Errorf("store %s holds no emission yet", s.where)
		}
		if errors.Is(err, sql.ErrNoRows) {
			e, err = s.createEmission(ctx, tx, o)
			return err
		}
		if err != nil {
			return fmt.Errorf("store %s: reading its emission: %w", s.where, err)
		}
		e = &Emission{OpenBlocks: open, QA: qa != 0, Created: time.Unix(0, created).UTC()}
		if o.QA && !e.QA {
			return fmt.Errorf("store %s sells the house's emission, with no forced units: QA plays on a store created with --qa", s.where)
		}
		if e.seed, err = game.ParseSeed(seed); err != nil {
			return fmt.Errorf("store %s: the emission's seed: %w", s.where, err)
		}
		if open < 1 {
			return fmt.Errorf("store %s: the emission sells %d blocks at once", s.where, open)
		}
		if e.tables, err = decodeTables(tables); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
		if o.SeedSet && o.Seed != e.seed {
			return fmt.Errorf("store %s: its emission has its own seed, the house's: a seed only seeds a new store", s.where)
		}
		return nil
	})
	return e, err
}

func (s *SQL) createEmission(ctx context.Context, tx *sql.Tx, o Options) (*Emission, error) {
	e := &Emission{OpenBlocks: max(o.OpenBlocks, 1), QA: o.QA, Created: s.now().UTC(), seed: o.Seed}
	if !o.SeedSet {
		var err error
		if e.seed, err = game.RandomSeed(); err != nil {
			return nil, err
		}
	}
	var err error
	if e.tables, err = newTables(o.Tables); err != nil {
		return nil, err
	}
	tables, err := encodeTables(e.tables)
	if err != nil {
		return nil, err
	}
	qa := 0
	if e.QA {
		qa = 1
	}
	_, err = tx.ExecContext(ctx, s.dialect.q(`INSERT INTO emission (id, seed, open_blocks, qa, tables, created) VALUES (1, $1, $2, $3, $4, $5)`),
		strconv.FormatUint(uint64(e.seed), 10), e.OpenBlocks, qa, tables, e.Created.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("store %s: creating its emission: %w", s.where, err)
	}
	return e, nil
}
