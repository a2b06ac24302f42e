package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// freshPostgres is replaced by internal/pgtest when it lands.
func freshPostgres(t *testing.T) string {
	url := os.Getenv("TAPIS_TEST_POSTGRES")
	if url == "" {
		t.Skip("TAPIS_TEST_POSTGRES is not set")
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "tapis_t_" + hex.EncodeToString(b)
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Exec("DROP DATABASE " + name + " WITH (FORCE)"); db.Close() })
	i := strings.LastIndexByte(url, '/')
	q := ""
	if j := strings.IndexByte(url[i:], '?'); j >= 0 {
		q = url[i+j:]
	}
	return url[:i+1] + name + q
}

func openPostgres(t *testing.T, o Options) (*SQL, string) {
	url := freshPostgres(t)
	s, err := Open(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, url
}

func TestPostgresSellsOneBlockExactly(t *testing.T) {
	s, _ := openPostgres(t, Options{Seed: 7, SeedSet: true, Tables: SmallTables})
	sellsOneBlockExactly(t, s)
}

func TestPostgresConcurrentSellers(t *testing.T) {
	s, url := openPostgres(t, Options{Seed: 9, SeedSet: true, Tables: SmallTables, OpenBlocks: 2})
	concurrentSellers(t, s, url)
}

func TestPostgresVerifyFindsEveryForgery(t *testing.T) {
	s, _ := openPostgres(t, Options{Seed: 12, SeedSet: true, Tables: SmallTables})
	verifyFindsEveryForgery(t, s)
}
