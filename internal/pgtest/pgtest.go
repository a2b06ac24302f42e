// Package pgtest gives the tests that need PostgreSQL their server and a
// database of their own on it.
//
// The server is named by the environment variable TAPIS_TEST_POSTGRES, a
// connection URL (postgres://user@host:port/db?sslmode=disable) whose user
// may create databases. Without it the tests that call URL or Fresh are
// skipped with one line naming the variable, or failed when
// TAPIS_TEST_POSTGRES_REQUIRED is set too: .ci/run starts a throwaway
// server and sets both, so that no test needing PostgreSQL can pass by
// skipping. By convention every test that needs PostgreSQL has "Postgres"
// in its name, so that CI can check that each package using this one has
// some.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"testing"

	"github.com/jackc/pgx/v5"
)

// EnvVar is the environment variable that names the test server.
const EnvVar = "TAPIS_TEST_POSTGRES"

// RequireVar is the environment variable that, set to anything, turns the
// skip of a test needing PostgreSQL without EnvVar into its failure.
const RequireVar = "TAPIS_TEST_POSTGRES_REQUIRED"

// SkipMessage is what a test needing PostgreSQL says when it is skipped
// because EnvVar is not set; CI looks for it.
const SkipMessage = EnvVar + " is not set: the PostgreSQL tests need a server (see README, PostgreSQL tests)"

// URL returns the test server's connection URL, from TAPIS_TEST_POSTGRES,
// and skips the test when the variable is empty (fails it when RequireVar
// is set).
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvVar)
	if u == "" && os.Getenv(RequireVar) != "" {
		t.Fatal(RequireVar + " is set and " + SkipMessage)
	}
	if u == "" {
		t.Skip(SkipMessage)
	}
	return u
}

// Command returns the path of a PostgreSQL program a test needs beside
// the server (pgbench), and skips the test when it is not on PATH, or
// fails it when RequireVar is set, as URL does without the server.
func Command(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	msg := name + " is not on PATH: this PostgreSQL test needs it"
	if os.Getenv(RequireVar) != "" {
		t.Fatal(RequireVar + " is set and " + msg)
	}
	t.Skip(msg)
	return ""
}

// Fresh creates a new, empty database on the test server for this test
// alone and returns its connection URL; the database is dropped when the
// test ends, connections still open to it or not. It skips the test as URL
// does, and fails it when the database cannot be created.
func Fresh(t testing.TB) string {
	t.Helper()
	server := URL(t)
	dbURL, drop, err := CreateDatabase(t.Context(), server, "tapis_t_")
	if err != nil {
		t.Fatalf("pgtest: %s: %v", EnvVar, err)
	}
	t.Cleanup(func() {
		// The test's context is already cancelled when cleanups run.
		if err := drop(context.Background()); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return dbURL
}

// CreateDatabase creates a database named prefix followed by 16 random hex
// digits on the server that serverURL (a postgres:// URL) connects to, and
// returns the URL of that database (serverURL with its path changed) and a
// function that drops it, closing whatever connections are still open to it.
// prefix must be a lower-case SQL identifier start such as "tapis_t_".
func CreateDatabase(ctx context.Context, serverURL, prefix string) (dbURL string, drop func(context.Context) error, err error) {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		// Not echoed: it may hold a password.
		return "", nil, errors.New("the server must be given as a postgres://user@host:port/db URL")
	}
	var suffix [8]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return "", nil, fmt.Errorf("naming a database: %w", err)
	}
	name := prefix + hex.EncodeToString(suffix[:])
	ident := pgx.Identifier{name}.Sanitize()
	if err := execSQL(ctx, serverURL, "CREATE DATABASE "+ident); err != nil {
		return "", nil, fmt.Errorf("creating database %s on %s (the user needs CREATEDB): %w", name, u.Redacted(), err)
	}
	db := *u
	db.Path = "/" + name
	db.RawPath = ""
	drop = func(ctx context.Context) error {
		if err := execSQL(ctx, serverURL, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("dropping database %s on %s: %w", name, u.Redacted(), err)
		}
		return nil
	}
	return db.String(), drop, nil
}

// execSQL runs one statement on its own connection to serverURL.
func execSQL(ctx context.Context, serverURL, sql string) (err error) {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return fmt.Errorf("connecting: %w", err)
	}
	defer func() {
		err = errors.Join(err, conn.Close(context.WithoutCancel(ctx)))
	}()
	_, err = conn.Exec(ctx, sql)
	return err
}
