package server

import (
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tapis/text"
)

// The purchases' outcomes, as the metrics and the shutdown's line count
// them.
const (
	outcomeSold      = "sold"       // a unit sold
	outcomeAgain     = "again"      // a retry answered with the unit sold before: no new sale
	outcomeLossLimit = "loss_limit" // refused by the loss limit
	outcomePaused    = "paused"     // refused: the stand's host paused sales
	outcomeFailed    = "failed"     // the store failed: nothing sold
)

// metrics are one server's Prometheus metrics, in a registry of its own
// (never the process's default: two servers in one process, as the tests
// run them, count apart), with the purchases' counts the shutdown's line
// reads.
type metrics struct {
	reg         *prometheus.Registry
	sessions    *prometheus.CounterVec // by kind: game, board, operator
	purchases   *prometheus.CounterVec // by game and outcome
	latency     prometheus.Histogram   // a sale's store call, sold units only
	storeErrors *prometheus.CounterVec // by what failed
	frames      prometheus.Counter
	dropped     prometheus.Counter // input events past the guard's rate

	sold, again, refused, failed atomic.Int64
}

// newMetrics registers the server's metrics; s answers the gauges.
func newMetrics(s *Server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.sessions = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tapis_sessions_total",
		Help: "SSH sessions begun, by kind: game, board, operator (refused ones included)."}, []string{"kind"})
	m.purchases = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tapis_purchases_total",
		Help: "Purchases asked of the store, by game and outcome: sold, again (a retry of one sold), loss_limit, paused, failed."},
		[]string{"game", "outcome"})
	m.latency = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tapis_purchase_seconds",
		Help:    "How long the store took to sell a unit (units sold only).",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}})
	m.storeErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tapis_store_errors_total",
		Help: "Store calls that failed, by what they were for: purchase, presence, leases, sweep, board."}, []string{"call"})
	m.frames = prometheus.NewCounter(prometheus.CounterOpts{Name: "tapis_frames_total",
		Help: "Frames written to the sessions' terminals, games' and boards'."})
	m.dropped = prometheus.NewCounter(prometheus.CounterOpts{Name: "tapis_input_dropped_total",
		Help: "Keys, clicks and reports sessions sent past the input's rate (100 a second past a burst of 200), dropped."})
	m.reg.MustRegister(m.sessions, m.purchases, m.latency, m.storeErrors, m.frames, m.dropped,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "tapis_players", Help: "Players playing now on this server."},
			func() float64 { return float64(s.Playing()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "tapis_boards", Help: "Boards watched now on this server."},
			func() float64 { return float64(s.Watching()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "tapis_sales_paused", Help: "1 while the stand's host paused sales on this server."},
			func() float64 {
				if s.stand.isPaused() {
					return 1
				}
				return 0
			}),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// purchase counts a purchase's outcome.
func (m *metrics) purchase(game, outcome string, took time.Duration) {
	m.purchases.WithLabelValues(game, outcome).Inc()
	switch outcome {
	case outcomeSold:
		m.sold.Add(1)
		m.latency.Observe(took.Seconds())
	case outcomeAgain:
		m.again.Add(1)
	case outcomeFailed:
		m.failed.Add(1)
		m.storeErrors.WithLabelValues("purchase").Inc()
	default:
		m.refused.Add(1)
	}
}

// storeError counts a store call that failed, of what it was for.
func (m *metrics) storeError(call string) { m.storeErrors.WithLabelValues(call).Inc() }

// Purchases are the purchases' counts since the server started, as the
// shutdown's line gives them: the units sold apart from the rest.
type Purchases struct {
	Sold    int64 // units sold
	Again   int64 // retries answered with a unit sold before (counted once in Sold)
	Refused int64 // refused by the loss limit or a pause: nothing sold
	Failed  int64 // the store failed: nothing sold
}

// Purchases returns the purchases' counts so far.
func (s *Server) Purchases() Purchases {
	m := s.metrics
	return Purchases{Sold: m.sold.Load(), Again: m.again.Load(), Refused: m.refused.Load(), Failed: m.failed.Load()}
}

// healthWait bounds how long /healthz waits for the store.
const healthWait = 2 * time.Second

// Ops returns the operations' HTTP handler, for a listener apart from the
// players' (tapis serve --metrics): /metrics, the server's metrics in
// Prometheus's text format, and /healthz, 200 when the store answers, 503
// when it does not (the log says why; the answer never has the store's
// words).
func (s *Server) Ops() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), healthWait)
		defer cancel()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := s.o.Store.Answers(ctx); err != nil {
			s.metrics.storeError("health")
			s.log.Error("health check: the store does not answer", "err", text.Printable(err.Error()))
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "the store does not answer\n") //nolint:errcheck // a client gone reads nothing
			return
		}
		io.WriteString(w, "ok\n") //nolint:errcheck // a client gone reads nothing
	})
	return mux
}
