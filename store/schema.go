package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
)

// migrationFiles are the schema's migrations, one directory an engine:
// version N of each is SchemaVersion N (migrations/*/0000N_*.sql).
//
//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationFiles embed.FS

// engineMigrations returns an engine's directory of migrationFiles.
func engineMigrations(dir string) fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations/"+dir)
	if err != nil {
		panic(err) // fs.Sub fails only on a path that is not valid: these are constants
	}
	return sub
}

// Goose's version table, named for tapis: another program's goose table
// (goose_db_version) is no tapis store.
const migrationsTable = "tapis_migrations"

// legacyTable is the version the tapis before goose kept, and read: each
// migration keeps it, so that an older tapis opens a store of its own
// version and refuses a newer one in its own words.
const legacyTable = "tapis_schema"

// schemaState is what a database holds of a tapis store's tables.
type schemaState struct {
	tables  int  // the database's tables, tapis's or not
	goose   bool // migrationsTable: a store migrated by goose
	legacy  bool // legacyTable: a store of any tapis (goose's, or one before goose)
	version int  // goose's latest version, else legacyTable's; 0 when none
}

// readSchema reads what the database holds of a store's tables: an error
// when it is a store newer than this tapis.
func (s *SQL) readSchema(ctx context.Context, q database.DBTxConn) (schemaState, error) {
	tables, err := s.engine.tables(ctx, q)
	if err != nil {
		return schemaState{}, fmt.Errorf("store %s: %w", s.where, oneLine{err})
	}
	st := schemaState{tables: len(tables), goose: slices.Contains(tables, migrationsTable), legacy: slices.Contains(tables, legacyTable)}
	switch {
	case st.goose:
		v, err := s.versions().GetLatestVersion(ctx, q)
		if err != nil && !errors.Is(err, database.ErrVersionNotFound) {
			return schemaState{}, fmt.Errorf("store %s: reading its schema's version: %w", s.where, oneLine{err})
		}
		st.version = int(v)
	case st.legacy:
		err := q.QueryRowContext(ctx, `SELECT version FROM tapis_schema`).Scan(&st.version)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return schemaState{}, fmt.Errorf("store %s: reading its schema's version: %w", s.where, oneLine{err})
		}
		if st.version < 1 {
			return schemaState{}, fmt.Errorf("store %s: schema version %d: no tapis wrote it", s.where, st.version)
		}
	}
	if st.version > SchemaVersion {
		return schemaState{}, fmt.Errorf("store %s: schema version %d is newer than this tapis's (%d): open it with a newer tapis", s.where, st.version, SchemaVersion)
	}
	return st, nil
}

// versions is goose's version table, in the engine's SQL.
func (s *SQL) versions() database.Store {
	_, dialect := s.engine.migrations()
	store, err := database.NewStore(dialect, migrationsTable)
	if err != nil {
		panic(err) // a dialect goose knows, a table named: never
	}
	return store
}

// migrate creates the tables of a new store, or migrates those of an
// older one, with goose. It refuses a database that holds another
// program's tables, or a store newer than this tapis.
func (s *SQL) migrate(ctx context.Context) error {
	st, err := s.readSchema(ctx, s.db)
	if err == nil && !st.goose {
		err = s.baseline(ctx)
	}
	if err != nil {
		return err
	}
	if st.version == SchemaVersion {
		return nil
	}
	if err := s.refuseOldFormat(ctx, st); err != nil {
		return err
	}
	fsys, _ := s.engine.migrations()
	p, err := goose.NewProvider(goose.DialectCustom, s.db, fsys,
		goose.WithStore(s.versions()),
		goose.WithSessionLocker(s.engine.schemaLock()),
		goose.WithDisableGlobalRegistry(true),
		goose.WithLogger(goose.NopLogger()))
	if err == nil {
		_, err = p.Up(ctx)
	}
	switch {
	case err != nil && st.version == 0:
		return fmt.Errorf("store %s: creating its tables: %w", s.where, oneLine{err})
	case err != nil:
		return fmt.Errorf("store %s: migrating its tables from version %d: %w", s.where, st.version, oneLine{err})
	}
	return nil
}

// firstFormatVersion is the first schema holding emissions of
// ledger.Format: an older schema's emission has 64-bit seeds.
const firstFormatVersion = 4

// refuseOldFormat refuses a store whose emission an older tapis made, with
// 64-bit seeds, before changing anything in it: how its blocks deal cannot
// change under them, and the tapis that made it still reads it.
func (s *SQL) refuseOldFormat(ctx context.Context, st schemaState) error {
	if st.version == 0 || st.version >= firstFormatVersion {
		return nil
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM emission`).Scan(&n); err != nil {
		return fmt.Errorf("store %s: reading its emission: %w", s.where, oneLine{err})
	}
	if n == 0 {
		return nil
	}
	return oldFormat(s.where, st.version)
}

// oldFormat is the refusal of a store of an older format.
func oldFormat(where string, version int) error {
	return fmt.Errorf("store %s holds an emission of format 1 (schema %d, 64-bit seeds), which this tapis neither sells from nor checks: keep the tapis that made it to read it, and start a new store for a new emission", where, version)
}

// baseline creates goose's version table, the store recorded in it as
// migrated to its version: 0 for a new store, tapis_schema's for one of
// the tapis before goose. Sellers opening a store at once create it once,
// alone: goose would create it before it takes its lock (Provider.Up asks
// HasPending first), and the sellers that lost would try again a second
// later.
func (s *SQL) baseline(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.alone(ctx, tx); err != nil {
			return err
		}
		st, err := s.readSchema(ctx, tx)
		if err != nil || st.goose {
			return err // or another seller created it first
		}
		if st.tables > 0 && !st.legacy {
			return fmt.Errorf("store %s holds another program's tables: tapis keeps its store in a database of its own", s.where)
		}
		versions := s.versions()
		err = versions.CreateVersionTable(ctx, tx)
		for v := 0; v <= st.version && err == nil; v++ { // goose's table begins with a version 0
			err = versions.Insert(ctx, tx, database.InsertRequest{Version: int64(v)})
		}
		if err != nil {
			return fmt.Errorf("store %s: recording its schema's version %d: %w", s.where, st.version, oneLine{err})
		}
		return nil
	})
}

// version reads the schema's version, for a reader (which migrates
// nothing): an error when the database holds no tapis store, or one newer
// than this tapis.
func (s *SQL) version(ctx context.Context, q database.DBTxConn) (int, error) {
	st, err := s.readSchema(ctx, q)
	if err != nil {
		return 0, err
	}
	if st.version < 1 {
		return 0, fmt.Errorf("store %s holds no tapis emission", s.where)
	}
	return st.version, nil
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

// alone makes a transaction wait for any other seller's that creates the
// emission or records an older store's version, and for a seller
// migrating the tables: sellers starting at once do it once.
func (s *SQL) alone(ctx context.Context, tx *sql.Tx) error {
	if err := s.engine.alone(ctx, tx); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}
