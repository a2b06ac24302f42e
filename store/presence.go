package store

import (
	"context"
	"fmt"
	"time"
)

// Presence: each tapis serve on a store writes how many players it has,
// every PresenceEvery, in the store's servers table, and removes its row
// when it closes; a board adds up the rows written in the last
// PresenceWithin (a server killed without closing drops out by itself).
const (
	PresenceEvery  = 3 * time.Second
	PresenceWithin = 10 * time.Second
)

// Present records that the server named id has players connected now. A
// server's row is written by it alone; the rows of servers long gone are
// removed by any, once every presenceSweep at most.
func (s *SQL) Present(ctx context.Context, id string, players int) error {
	now, err := s.dbNow(ctx)
	if err != nil {
		return err
	}
	r := dbRunner{s}
	err = r.exec(ctx, upsertServer, id, players, now.UnixNano())
	if err == nil && now.Sub(time.Unix(0, s.presenceSwept.Load())) >= presenceSweep {
		// A server killed without removing itself is no one's to remove:
		// any server clears it once it is long gone from the count.
		if err = r.exec(ctx, deleteGoneServers, now.Add(-presenceKept).UnixNano()); err == nil {
			s.presenceSwept.Store(now.UnixNano())
		}
	}
	if err != nil {
		return fmt.Errorf("store %s: recording server %s's players: %w", s.where, id, oneLine{err})
	}
	return nil
}

const (
	upsertServer = `INSERT INTO servers (id, players, seen) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET players = excluded.players, seen = excluded.seen`
	deleteGoneServers = `DELETE FROM servers WHERE seen < $1`
)

// presenceKept is how long a server's row stays once it stopped writing:
// long past PresenceWithin, after which the boards no longer count it.
const presenceKept = time.Hour

// presenceSweep is how often a server removes the rows of servers gone
// for presenceKept: a row an hour old waits a minute more at most.
const presenceSweep = time.Minute

// Absent removes the server named id from the players' count.
func (s *SQL) Absent(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, s.engine.q(`DELETE FROM servers WHERE id = $1`), id); err != nil {
		return fmt.Errorf("store %s: removing server %s's players: %w", s.where, id, oneLine{err})
	}
	return nil
}

// Players returns how many players the servers on the store have
// connected: those that wrote their count in the last PresenceWithin, as of
// now by the store's clock. A store no server ever opened (its tables from
// before the servers table) has none.
func (s *SQL) Players(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, s.engine.q(`SELECT COALESCE(SUM(players), 0) FROM servers WHERE seen >= $1`),
		now.Add(-PresenceWithin).UnixNano()).Scan(&n)
	if err != nil && noTable(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store %s: counting the players connected: %w", s.where, oneLine{err})
	}
	return int(n), nil
}

// dbNow returns the store's clock: PostgreSQL's, so that servers and
// boards on machines whose clocks differ agree; on SQLite, one machine,
// this process's.
func (s *SQL) dbNow(ctx context.Context) (time.Time, error) {
	now, err := s.engine.clock(ctx, dbRunner{s}, s.now)
	if err != nil {
		return time.Time{}, fmt.Errorf("store %s: reading the database's clock: %w", s.where, oneLine{err})
	}
	return now, nil
}
