package store

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"tapis/ledger"
)

// TestUnreachable: a database that does not answer (a port nothing
// listens on, a call past its deadline) is told apart from a purchase
// the store refuses.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = Open(ctx, "postgres://tapis@"+addr+"/tapis?sslmode=disable&connect_timeout=5", Options{Key: ledger.PublicTestKey()})
	if err == nil || !Unreachable(err) {
		t.Errorf("a PostgreSQL that does not listen: %v, unreachable %v", err, Unreachable(err))
	}
	for _, err := range []error{
		fmt.Errorf("store: %w", context.DeadlineExceeded),
		errors.New("store: committing: database is locked (5) (SQLITE_BUSY)"),
		fmt.Errorf("store: %w", &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}),
	} {
		if !Unreachable(err) {
			t.Errorf("%v: not unreachable", err)
		}
	}
	for _, err := range []error{fmt.Errorf("account %q: %w", "ann", ErrNoAccount), ErrOtherPurchase, errors.New("wallet: stake 0 is not positive"),
		&pgconn.PgError{Code: "23505", Message: "duplicate key value violates unique constraint"}} {
		if Unreachable(err) {
			t.Errorf("%v: unreachable", err)
		}
	}
}
