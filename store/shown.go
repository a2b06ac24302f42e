package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"tapis/game/lottery"
	"tapis/ledger"
)

// ShownDelay is how long a unit's shown mark waits, queued, before it is
// written: by then the account's next purchase has carried it, or it is
// written with every mark queued meanwhile, all the store's sellers'
// in one transaction. After a crash, only a unit whose reveal had not
// ended ShownDelay before (plus a write's time) is offered again.
const ShownDelay = 500 * time.Millisecond

// shownRetry is how long marks that could not be written wait to be
// tried again.
const shownRetry = time.Second

// A purchase's shown column: whether its unit was seen to the end, and if
// not, whether its seller still reveals it. Only a unit being revealed is
// hidden from the board.
const (
	shownRevealing = 0 // bought, its seller revealing it: the board waits
	shownSeen      = 1 // revealed to the end
	shownLeft      = 2 // not revealed to the end, its session over: offered again, no secret
)

// leaveUnseen marks an account's units being revealed as left, each mark
// signed: its session is over (a lease let go), or was (a lease taken: its
// last holder may have died). A sweep adds its own condition (and, with
// its arguments from $2). The marks are returned to be noted once the
// transaction commits.
func (s *SQL) leaveUnseen(ctx context.Context, q execQuerier, account, and string, args ...any) ([]ledger.Mark, error) {
	if !s.key.Valid() {
		return nil, fmt.Errorf("store %s: opened to be read, it records nothing", s.where)
	}
	if s.tamperedErr() != nil {
		return nil, nil // a store changed under its seller is left as found: it signs nothing more
	}
	rows, err := q.QueryContext(ctx, s.engine.q(unitsRevealing+and), append([]any{account}, args...)...)
	if err != nil {
		return nil, err
	}
	var units []string
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			rows.Close()
			return nil, err
		}
		units = append(units, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var marks []ledger.Mark
	for _, u := range units {
		m, query, margs := s.leftMark(account, u, and, args...)
		res, err := q.ExecContext(ctx, s.engine.q(query), margs...)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			marks = append(marks, m)
		}
	}
	return marks, nil
}

// unitsRevealing selects the units of an account ($1) being revealed:
// bought, and not yet shown to the end nor left.
const unitsRevealing = `SELECT unit FROM purchases WHERE account = $1 AND shown = 0 `

// leftMark signs the mark that leaves an account's unit being revealed,
// and returns it with the statement that records it (a sweep's condition,
// and, and its arguments again): a unit its seller marked meanwhile, or a
// seller come back, is left as it is, and the statement changes no row.
func (s *SQL) leftMark(account, unit, and string, args ...any) (ledger.Mark, string, []any) {
	m := ledger.Mark{Account: account, Unit: unit, Value: ledger.Left}
	sig := s.key.Sign(m.Hash(s.emission.SealHash))
	n := len(args) + 2
	query := `UPDATE purchases SET shown = 2, shown_sig = $` + strconv.Itoa(n) + ` WHERE account = $1 AND unit = $` + strconv.Itoa(n+1) + ` AND shown = 0 ` + and
	return m, query, append(append([]any{account}, args...), sig[:], unit)
}

// execQuerier is a database or a transaction.
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// mark is a unit its account saw to the end.
type mark struct {
	account string
	unit    lottery.Ref
}

// shownQueue holds the marks queued and not yet written.
type shownQueue struct {
	mu       sync.Mutex
	marks    []mark
	timer    *time.Timer // set while a write is due
	closed   bool
	flushing sync.WaitGroup // the writes due or under way
	writing  sync.RWMutex   // read-held by each write under way, from taking its marks to writing them
}

// ShownSoon records that an account's unit was fully revealed, within a
// second and without waiting: the mark is queued, carried by the
// account's next purchase or written ShownDelay later at most with the
// others queued. Closing the store writes those still queued.
func (s *SQL) ShownSoon(account string, unit lottery.Ref) {
	q := &s.shown
	q.mu.Lock()
	defer q.mu.Unlock()
	q.marks = append(q.marks, mark{account, unit})
	if q.timer == nil && !q.closed {
		q.flushing.Add(1)
		q.timer = time.AfterFunc(ShownDelay, s.writeQueued)
	}
}

// writeQueued writes every mark queued, in one transaction; those that
// could not be written are queued again.
func (s *SQL) writeQueued() {
	q := &s.shown
	defer q.flushing.Done()
	q.writing.RLock()
	defer q.writing.RUnlock()
	q.mu.Lock()
	marks := q.marks
	q.marks, q.timer = nil, nil
	q.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.writeMarks(ctx, marks); errors.Is(err, errNotWritten) {
		q.mu.Lock()
		q.marks = append(marks, q.marks...)
		if q.timer == nil && !q.closed {
			q.flushing.Add(1)
			q.timer = time.AfterFunc(shownRetry, s.writeQueued)
		}
		q.mu.Unlock()
	}
}

// takeShown takes an account's queued marks, for its purchase to carry
// in its transaction.
func (s *SQL) takeShown(account string) []lottery.Ref {
	q := &s.shown
	q.mu.Lock()
	defer q.mu.Unlock()
	var units []lottery.Ref
	kept := q.marks[:0]
	for _, m := range q.marks {
		if m.account == account {
			units = append(units, m.unit)
		} else {
			kept = append(kept, m)
		}
	}
	q.marks = kept
	return units
}

// requeueShown queues again the marks a purchase took and did not write.
func (s *SQL) requeueShown(account string, units []lottery.Ref) {
	for _, u := range units {
		s.ShownSoon(account, u)
	}
}

// closeShown writes every mark still queued, once any write under way is
// done: the store closes.
func (s *SQL) closeShown() error {
	q := &s.shown
	q.mu.Lock()
	q.closed = true
	if q.timer != nil && q.timer.Stop() {
		q.timer = nil
		q.flushing.Done()
	}
	q.mu.Unlock()
	q.flushing.Wait()
	q.mu.Lock()
	marks := q.marks
	q.marks = nil
	q.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.writeMarks(ctx, marks)
}

// errNotWritten is marks the database did not take: they are to be
// written again.
var errNotWritten = errors.New("not written")

// writeMarks writes marks in one transaction (see Shown: it does not wait
// for the disk). A mark of a unit its account did not buy is dropped,
// and said.
func (s *SQL) writeMarks(ctx context.Context, marks []mark) error {
	if len(marks) == 0 {
		return nil
	}
	changed, err := s.shownTx(ctx, marks)
	if err != nil {
		return fmt.Errorf("store: marking %d units shown: %w: %w", len(marks), oneLine{err}, errNotWritten)
	}
	var errs []error
	for i, n := range changed {
		if n == 0 {
			errs = append(errs, fmt.Errorf("store: account %q bought no unit %s", marks[i].account, marks[i].unit.Name()))
		}
	}
	return errors.Join(errs...)
}
