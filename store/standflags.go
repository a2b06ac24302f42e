package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Stand is what the stand's host set for every server of a store with the
// operators' commands: sales paused, an announcement shown until a time.
// Each server writes a change here and reads the others' with its
// presence (PresenceEvery), so that a pause on one stops the sales of all.
type Stand struct {
	Paused   bool
	Announce string    // the announcement, as the operator gave it; "" none
	Until    time.Time // when the announcement is taken down
	Changed  time.Time // when this was set, by the store's clock; zero: never
}

// SetPaused records that sales are paused, or resumed, on every server of
// the store; it returns the stand as it is now.
func (s *SQL) SetPaused(ctx context.Context, paused bool) (Stand, error) {
	return s.setStand(ctx, func(st *Stand) { st.Paused = paused })
}

// SetAnnounce records an announcement for every server of the store, shown
// until until.
func (s *SQL) SetAnnounce(ctx context.Context, text string, until time.Time) (Stand, error) {
	return s.setStand(ctx, func(st *Stand) { st.Announce, st.Until = text, until })
}

func (s *SQL) setStand(ctx context.Context, change func(*Stand)) (Stand, error) {
	now, err := s.dbNow(ctx)
	if err != nil {
		return Stand{}, err
	}
	var st Stand
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if st, err = readStand(tx.QueryRowContext(ctx, selectStand)); err != nil {
			return err
		}
		change(&st)
		st.Changed = now
		paused := 0
		if st.Paused {
			paused = 1
		}
		_, err := tx.ExecContext(ctx, s.engine.q(`INSERT INTO stand (id, paused, announce, until, changed) VALUES (1, $1, $2, $3, $4)
			ON CONFLICT (id) DO UPDATE SET paused = excluded.paused, announce = excluded.announce, until = excluded.until, changed = excluded.changed`),
			paused, st.Announce, st.Until.UnixNano(), st.Changed.UnixNano())
		return err
	})
	if err != nil {
		return Stand{}, fmt.Errorf("store %s: recording the stand: %w", s.where, oneLine{err})
	}
	return st, nil
}

// ReadStand returns what the stand's host set last, for every server of
// the store: the zero Stand when nothing was ever set.
func (s *SQL) ReadStand(ctx context.Context) (Stand, error) {
	st, err := readStand(dbRunner{s}.row(ctx, selectStand))
	if err != nil {
		return Stand{}, fmt.Errorf("store %s: reading the stand: %w", s.where, oneLine{err})
	}
	return st, nil
}

// selectStand reads the stand's flags.
const selectStand = `SELECT paused, announce, until, changed FROM stand WHERE id = 1`

// readStand reads the stand from its row (selectStand's).
func readStand(row scanner) (Stand, error) {
	var st Stand
	var paused int
	var until, changed int64
	err := row.Scan(&paused, &st.Announce, &until, &changed)
	if errors.Is(err, sql.ErrNoRows) {
		return Stand{}, nil
	}
	if err != nil {
		return Stand{}, err
	}
	st.Paused, st.Until, st.Changed = paused == 1, time.Unix(0, until), time.Unix(0, changed)
	return st, nil
}
