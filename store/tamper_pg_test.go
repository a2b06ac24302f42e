package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"tapis/game"
	"tapis/internal/pgtest"
	"tapis/ledger"
)

func TestPostgresTamperings(t *testing.T) {
	base := pgtest.Fresh(t)
	f := sellToTamper(t, base)
	runTamperings(t, f, postgresCopies(base))
	insiderWithTheKey(t, f, postgresCopies(base))
}

func TestPostgresQAStoreVerifies(t *testing.T) {
	s, url := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(22), SeedSet: true, Tables: SmallTables, QA: true})
	qaStoreVerifies(t, s, url)
}

// postgresCopies returns fresh copies of the PostgreSQL store at base (a
// database no one is connected to): each a database made from it as a
// template, dropped when its test ends.
func postgresCopies(base string) func(t *testing.T) string {
	return func(t *testing.T) string {
		server := pgtest.URL(t)
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		var suffix [6]byte
		if _, err := rand.Read(suffix[:]); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(u.Path, "/") + "_" + hex.EncodeToString(suffix[:])
		ident := pgx.Identifier{name}.Sanitize()
		serverExec(t, server, "CREATE DATABASE "+ident+" TEMPLATE "+pgx.Identifier{strings.TrimPrefix(u.Path, "/")}.Sanitize())
		t.Cleanup(func() { serverExec(t, server, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)") })
		u.Path = "/" + name
		return u.String()
	}
}

// serverExec runs a statement on the test server, on a connection of its
// own.
func serverExec(t *testing.T, server, statement string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, statement); err != nil {
		t.Fatalf("%s: %v", statement, err)
	}
}
