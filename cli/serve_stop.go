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
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(ctx) }()
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
		logger.Info("reveals cut short", "by", "the second signal")
	case err != nil:
		logger.Warn("shut down", "err", text.Printable(err.Error()))
	}
}
