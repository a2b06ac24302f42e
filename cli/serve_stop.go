package cli

import (
	"context"
	"errors"
	"os"
	"time"

	"charm.land/log/v2"

	"tapis/server"
	"tapis/text"
)

// shutdownGrace is how long tapis serve lets the reveals under way finish
// once it is told to stop.
const shutdownGrace = 10 * time.Second

// shutDown stops the server on a first signal: no one else gets in, the
// players are told, the reveals under way have shutdownGrace to finish,
// and every game ends with its player's terminal given back. A second
// signal meanwhile ends the games left at once.
func shutDown(logger *log.Logger, srv *server.Server, sig os.Signal, stop <-chan os.Signal) {
	logger.Info("shutting down", "signal", sig.String(), "players", srv.Playing(), "grace", shutdownGrace)
	graceful(logger, srv.Shutdown, stop, "the second signal")
}

// stopSelling stops the server once its store was found changed under
// it, as shutDown does on a signal: the store sells nothing more already,
// every player is told why in one line, the reveals under way have
// shutdownGrace to finish; a signal meanwhile ends the games left at once.
func stopSelling(logger *log.Logger, srv *server.Server, stop <-chan os.Signal) {
	logger.Info("stopping sales", "players", srv.Playing(), "grace", shutdownGrace)
	graceful(logger, srv.StopSelling, stop, "a signal")
}

// graceful runs a server's graceful end, shutdown, for shutdownGrace at
// most, or until a signal on stop (named signal in the log) ends the
// games left at once.
func graceful(logger *log.Logger, shutdown func(context.Context) error, stop <-chan os.Signal, signal string) {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- shutdown(ctx) }()
	var err error
	select {
	case err = <-done:
	case sig := <-stop:
		logger.Warn("closing now", "signal", sig.String())
		cancel()
		err = <-done
	}
	// Reveals cut short are as designed: the games still revealing were
	// ended, their units kept for the players' next visit.
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		logger.Info("reveals cut short", "by", "the deadline")
	case errors.Is(err, context.Canceled):
		logger.Info("reveals cut short", "by", signal)
	case err != nil:
		logger.Warn("shut down", "err", text.Printable(err.Error()))
	}
}
