package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"charm.land/log/v2"

	"tapis/ledger"
	"tapis/server"
	"tapis/store"
	"tapis/text"
)

// What a stand's host reads in tapis serve's first lines, and the
// operations' listener (--metrics).

// serveLogger is tapis serve's log, in the format asked: text lines, or
// one JSON object a line.
func serveLogger(env Env, format string) *log.Logger {
	o := log.Options{ReportTimestamp: true, Prefix: "tapis serve"}
	if format == "json" {
		o.Formatter = log.JSONFormatter
		o.TimeFormat = time.RFC3339Nano
	}
	return log.NewWithOptions(env.Stderr, o)
}

// logHead writes a head the store signed on a line of its own: the token
// as the message of a text line; in a JSON object, the token as the value
// of its "token" field, a JSON object as it is, not a string escaped, so
// that tapis verify --heads reads either log as it is.
func logHead(logger *log.Logger, format string, h ledger.HeadToken) {
	if format == "json" {
		logger.Info("signed", "token", json.RawMessage(h.String()))
		return
	}
	logger.Info("signed " + h.String())
}

// inStateDir puts the store and the host key (the house key beside it)
// in --state-dir, unless --store or --host-key name theirs.
func (f *serveFlags) inStateDir(fs *flag.FlagSet) error {
	if !isSet(fs, "state-dir") {
		return nil
	}
	if f.stateDir == "" {
		return usagef("--state-dir is empty: want a folder")
	}
	if !isSet(fs, "store") {
		f.store = "sqlite:" + filepath.Join(f.stateDir, "tapis.db")
	}
	if !isSet(fs, "host-key") {
		f.hostKey = filepath.Join(f.stateDir, "host_ed25519")
	}
	return nil
}

// logHostKey says whether the host key was found or just made: a new one
// makes every returning player's ssh warn of a changed key.
func logHostKey(logger *log.Logger, file, fingerprint string, created bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	if created {
		logger.Warn("host key created: players who came before are warned of a changed key", "fingerprint", fingerprint, "file", text.Printable(abs))
		return
	}
	logger.Info("host key found", "fingerprint", fingerprint, "file", text.Printable(abs))
}

// logStore says whether the store was found or just made, with its
// emission's creation time and the units sold so far: a new store where
// the day's was expected starts every returning player again at the
// starting balance.
func logStore(ctx context.Context, logger *log.Logger, st *store.SQL, url string) {
	e := st.Emission()
	where := text.Printable(store.Redact(url))
	if st.Fresh() {
		logger.Warn("store created: a new emission, every account starts anew", "store", where, "emission", e.Created.Format(time.RFC3339), "qa", e.QA)
		return
	}
	sold, err := st.Sold(ctx)
	if err != nil {
		logger.Error("store found, its sales not counted", "store", where, "err", text.Printable(err.Error()))
		return
	}
	logger.Info("store found", "store", where, "emission", e.Created.Format(time.RFC3339), "sold", sold, "qa", e.QA)
}

// metricsText writes the operations' address for the log: none, or it.
func metricsText(ops net.Listener) string {
	if ops == nil {
		return "none"
	}
	return "http://" + ops.Addr().String() + "/metrics"
}

// serveOps serves srv's metrics and health check on ops, when given, and
// returns what stops it.
func serveOps(logger *log.Logger, srv *server.Server, ops net.Listener) (stop func()) {
	if ops == nil {
		return func() {}
	}
	hs := &http.Server{Handler: srv.Ops(), ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(ops); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("the metrics' listener stopped", "err", text.Printable(err.Error()))
		}
	}()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		hs.Shutdown(ctx) //nolint:errcheck // closing: the listener goes anyway
		<-done
	}
}
