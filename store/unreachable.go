package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unreachable reports whether err says the store did not answer, or not
// in time: a connection refused, cut or timed out, a database busy past
// its wait. A player is told the game cannot reach its store; any other
// failure is the store refusing the purchase.
func Unreachable(err error) bool {
	var netErr net.Error
	var connectErr *pgconn.ConnectError
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// A server shutting down or starting (57P01-57P03), a connection
		// failing (class 08): not the store refusing.
		return strings.HasPrefix(pgErr.Code, "57P0") || strings.HasPrefix(pgErr.Code, "08")
	}
	switch {
	case err == nil:
		return false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.As(err, &netErr), errors.As(err, &connectErr), pgconn.Timeout(err), pgconn.SafeToRetry(err):
		return true
	}
	return sqliteBusy(err)
}

// sqliteBusy reports whether err is SQLite's busy or locked (codes 5 and
// 6): another process's write, past BusyTimeout, or a new file being
// switched to WAL by another process (which waits for no busy handler).
func sqliteBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "database is locked") || strings.Contains(msg, "SQLITE_BUSY")
}
