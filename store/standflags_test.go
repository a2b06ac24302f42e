package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"tapis/internal/pgtest"
)

func TestSQLiteSharedStand(t *testing.T) {
	sharedStand(t, opener(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db")))
}

func TestPostgresSharedStand(t *testing.T) { sharedStand(t, opener(t, pgtest.Fresh(t))) }

// sharedStand: what one server's host sets (a pause, an announcement) is
// read by another server of the store, the latest change with its time;
// a pause and an announcement keep each other; a store never set reads
// as nothing set.
func sharedStand(t *testing.T, open func() *SQL) {
	ctx := context.Background()
	a, b := open(), open()
	if st, err := b.ReadStand(ctx); err != nil || st != (Stand{}) {
		t.Fatalf("a stand never set: %+v, %v", st, err)
	}
	paused, err := a.SetPaused(ctx, true)
	if err != nil || !paused.Paused || paused.Changed.IsZero() {
		t.Fatalf("SetPaused: %+v, %v", paused, err)
	}
	until := time.Now().Add(time.Minute).Truncate(time.Microsecond)
	said, err := a.SetAnnounce(ctx, "le tirage à 18 h", until)
	if err != nil || !said.Paused || said.Announce != "le tirage à 18 h" || !said.Until.Equal(until) || said.Changed.Before(paused.Changed) {
		t.Fatalf("SetAnnounce: %+v, %v", said, err)
	}
	if st, err := b.ReadStand(ctx); err != nil || !st.Paused || st.Announce != said.Announce || !st.Until.Equal(until) || !st.Changed.Equal(said.Changed) {
		t.Fatalf("another server reads %+v, %v; want %+v", st, err, said)
	}
	if _, err := b.SetPaused(ctx, false); err != nil {
		t.Fatal(err)
	}
	if st, err := a.ReadStand(ctx); err != nil || st.Paused || st.Announce != said.Announce {
		t.Fatalf("resumed by the other server: %+v, %v", st, err)
	}
}
