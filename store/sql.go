package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"tapis/game"
	"tapis/ledger"
	"tapis/text"
)

// SchemaVersion is the version of the tables tapis keeps an emission in.
// Opening a store migrates an older schema, and refuses a newer one.
const SchemaVersion = 5

// BusyTimeout is how long a SQLite seller waits for another's write.
const BusyTimeout = 10 * time.Second

// SQL is a store kept in SQLite or PostgreSQL: many sellers, in many
// processes, sell from its emission at once.
type SQL struct {
	db            *sql.DB
	engine        engine // SQLite's or PostgreSQL's
	emission      *Emission
	orders        *orders
	now           func() time.Time
	where         string               // the store, as given, for messages
	stmts         map[string]*sql.Stmt // prepared, by query as written for PostgreSQL
	leases        leases               // the accounts its sellers hold
	shown         shownQueue           // units seen to the end, to be marked shown
	key           ledger.Key           // the house's signing key; zero for a reader
	book          headBook             // what it recorded since its last head
	checked       checkedBlocks        // the blocks whose commitment it checked
	sealed        sealedRow            // the emission's row as its seal was verified
	lastCheck     checkMark            // the engine's changes when Check last read the store whole
	presenceSwept atomic.Int64         // when Present last removed the servers long gone (UnixNano)
	houseKey      ledger.PublicKey     // the house's key as a reader knows it (Options.HouseKey), for Verify
	raw           rawStatements        // SQLite: the purchase's statements prepared on the driver's connection
	fresh         bool                 // Open created the emission: the store was new
}

// IsURL reports whether s names a SQL store: sqlite:PATH, a path ending in
// .db, or a postgres:// or postgresql:// URL.
func IsURL(s string) bool {
	_, err := parseURL(s)
	return err == nil
}

// parseURL reads where a store is: its engine, with the driver's data
// source.
func parseURL(s string) (engine, error) {
	switch {
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		return &postgresEngine{dsn: s, alloc: []string{allocateFree, allocateFirst}}, nil
	case strings.HasPrefix(s, "sqlite:"), strings.HasSuffix(s, ".db"):
		path := strings.TrimPrefix(s, "sqlite:")
		if path == "" {
			return nil, errors.New("sqlite: wants a path, as in sqlite:tapis.db")
		}
		if strings.HasPrefix(path, "//") || strings.HasPrefix(path, ":") {
			return nil, fmt.Errorf("sqlite:%s: want sqlite:PATH, the path of a file (sqlite:tapis.db, sqlite:/var/tapis/tapis.db)", text.Printable(path))
		}
		if strings.ContainsAny(path, "?#") {
			return nil, fmt.Errorf("sqlite path %s: a store's path takes no ? or #", text.Printable(path))
		}
		// busy_timeout first: the pragmas run in order, and switching a
		// new file to WAL waits for another process opening it too.
		dsn := "file:" + strings.ReplaceAll(path, "%", "%25") +
			"?_pragma=busy_timeout(" + strconv.FormatInt(BusyTimeout.Milliseconds(), 10) + ")" +
			"&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)&_txlock=immediate"
		return &sqliteEngine{url: s, path: path, dsn: dsn, alloc: []string{allocateFirst}}, nil
	}
	return nil, fmt.Errorf("store %s: want sqlite:PATH, a path ending in .db, or postgres://…", text.Printable(Redact(s)))
}

// Open opens the store at url, creating its tables and its emission on
// first use, and migrating an older schema.
func Open(ctx context.Context, url string, o Options) (*SQL, error) {
	e, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	db, err := e.connect(o.Existing)
	if err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Audit && !o.Existing {
		db.Close()
		return nil, errors.New("store: an audit opens a store that exists (Options.Existing), and sells nothing")
	}
	s := &SQL{db: db, engine: e, now: o.Now, where: text.Printable(Redact(url)), stmts: map[string]*sql.Stmt{}, houseKey: o.HouseKey}
	s.leases.wait = holdWait
	if !o.Existing {
		err = e.retryOpening(func() error { return s.migrate(ctx) })
	} else {
		var v int
		if v, err = s.version(ctx, s.db); err == nil && v < firstFormatVersion {
			err = oldFormat(s.where, v)
		} else if err == nil && v < SchemaVersion {
			// A reader writes nothing: an older store's tables and rows
			// (its units never shown, which the board now reads as being
			// revealed) are migrated by its first seller.
			err = fmt.Errorf("store %s is of schema version %d, older than this tapis's (%d): open it once with a seller (tapis serve, simulate or the game) to migrate it", s.where, v, SchemaVersion)
		}
	}
	if err != nil {
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
	if !o.Existing {
		if err := s.checkBlocks(ctx); err != nil && !errors.Is(err, errUnread) {
			db.Close()
			return nil, fmt.Errorf("store %s: %w; no seller sells from it", s.where, err)
		}
		s.startBook(o)
	}
	return s, nil
}

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
	lerr := errors.Join(s.closeShown(), s.closeLeases(), s.closeBook(), s.raw.close(s.db))
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

// loadEmission reads the store's emission, creating it on first use, and
// checks its seal: a seller refuses an emission changed after it was
// sealed, or sealed by another key than its own.
func (s *SQL) loadEmission(ctx context.Context, o Options) (*Emission, error) {
	var e *Emission
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.alone(ctx, tx); err != nil {
			return err
		}
		row, err := readEmission(ctx, sqlRunner{s, tx})
		if errors.Is(err, sql.ErrNoRows) && o.Existing {
			return fmt.Errorf("store %s holds no emission yet", s.where)
		}
		if errors.Is(err, sql.ErrNoRows) {
			if s.key, err = houseKey(o, true); err != nil {
				return fmt.Errorf("store %s: %w", s.where, err)
			}
			e, err = s.createEmission(ctx, tx, o)
			s.fresh = err == nil
			return err
		}
		if err != nil {
			return fmt.Errorf("store %s: reading its emission: %w", s.where, err)
		}
		// An audit opens a store whose seal is broken, for Verify to name
		// what broke it: it reads the emission as sealed when its sealed
		// copy is intact, as its row says otherwise.
		audit := o.Audit && o.Existing
		sealed, intact := row.sealedCopy()
		if row.format != ledger.Format && !(audit && sealed.Format == ledger.Format) {
			return oldFormat(s.where, firstFormatVersion-1)
		}
		e = &Emission{OpenBlocks: row.open, QA: row.qa != 0, Created: time.Unix(0, row.created).UTC()}
		tables := row.tables
		if audit && intact {
			e.OpenBlocks, e.QA, e.Created, tables = sealed.OpenBlocks, sealed.QA, time.Unix(0, sealed.Created).UTC(), sealed.Tables
		}
		if e.seed, err = game.ParseSeed(row.seed); err != nil {
			return fmt.Errorf("store %s: the emission's seed: %w", s.where, err)
		}
		want := o.HouseKey
		if !o.Existing {
			if s.key, err = houseKey(o, false); err != nil {
				return fmt.Errorf("store %s: %w", s.where, err)
			}
			want = s.key.Public()
		}
		var problems []string
		if e.Seal, problems = row.sealProblems(e.seed, want); len(problems) > 0 && !audit {
			return fmt.Errorf("store %s: %s; no seller sells from it", s.where, problems[0])
		}
		e.SealHash = e.Seal.Hash()
		if o.QA && !e.QA {
			return fmt.Errorf("store %s sells the house's emission, with no forced units: QA plays on a store created with --qa", s.where)
		}
		if e.OpenBlocks < 1 && !audit {
			return fmt.Errorf("store %s: the emission sells %d blocks at once", s.where, row.open)
		}
		e.OpenBlocks = max(e.OpenBlocks, 1)
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

// openBlocks is the count of blocks on sale side by side a new emission
// is asked for: DefaultOpenBlocks when none was asked, at least one.
func openBlocks(asked int) int {
	if asked == 0 {
		return DefaultOpenBlocks
	}
	return max(asked, 1)
}

// createEmission creates the store's emission and seals it with the
// house's key.
func (s *SQL) createEmission(ctx context.Context, tx *sql.Tx, o Options) (*Emission, error) {
	e := &Emission{OpenBlocks: openBlocks(o.OpenBlocks), QA: o.QA, Created: s.now().UTC(), seed: o.Seed}
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
	e.Seal = sealOf(e, tables, s.key.Public())
	e.SealHash = e.Seal.Hash()
	sealed, err := json.Marshal(e.Seal)
	if err != nil {
		return nil, fmt.Errorf("store %s: sealing its emission: %w", s.where, err)
	}
	sig := s.key.Sign(e.SealHash)
	_, err = tx.ExecContext(ctx, s.engine.q(`INSERT INTO emission (id, seed, open_blocks, qa, tables, created, format, commitment, house_key, sealed, seal)
		VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`),
		e.seed.String(), e.OpenBlocks, qa, tables, e.Created.UnixNano(), ledger.Format,
		hex.EncodeToString(e.Seal.Commitment[:]), e.Seal.Key.String(), string(sealed), sig[:])
	if err != nil {
		return nil, fmt.Errorf("store %s: creating its emission: %w", s.where, err)
	}
	return e, nil
}
