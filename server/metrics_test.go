package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"

	"tapis/game/lottery"
	"tapis/store"
	"tapis/ui"
)

// scrape reads the server's metrics as Prometheus does, with the
// library's own parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("the metrics do not parse: %v", err)
	}
	return families
}

// sample returns the value of a family's sample whose labels are those
// given (a counter's, a gauge's, or a histogram's count).
func sample(t *testing.T, families map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	t.Helper()
	f, ok := families[name]
	if !ok {
		t.Fatalf("no %s in the metrics", name)
	}
	for _, m := range f.GetMetric() {
		match := true
		for _, l := range m.GetLabel() {
			if labels[l.GetName()] != l.GetValue() {
				match = false
			}
		}
		if !match || len(m.GetLabel()) != len(labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	t.Fatalf("no %s%v in the metrics", name, labels)
	return 0
}

// TestMetrics: the metrics count the sessions, the purchases by game and
// outcome and their latency, the players and the frames, in Prometheus's
// text format; /healthz says whether the store answers.
func TestMetrics(t *testing.T) {
	ts := startServer(t, nil)
	ops := httptest.NewServer(ts.Ops())
	defer ops.Close()

	key := newKey(t)
	term := open(t, ts.dial(t, key), 100, 30, map[string]string{"LANG": "en_US.UTF-8"}, "")
	term.waitFor(t, "Choose a game")
	term.press(t, "1")
	term.waitFor(t, "enter play")
	term.press(t, "\r")
	waitUntil(t, "a purchase", func() bool { return ts.account(t, gossh.FingerprintSHA256(key.PublicKey())).Purchases == 1 })

	m := scrape(t, ops.URL)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"tapis_sessions_total", map[string]string{"kind": "game"}, 1},
		{"tapis_purchases_total", map[string]string{"game": "yams", "outcome": "sold"}, 1},
		{"tapis_purchase_seconds", nil, 1},
		{"tapis_players", nil, 1},
		{"tapis_boards", nil, 0},
		{"tapis_sales_paused", nil, 0},
		{"tapis_input_dropped_total", nil, 0},
	} {
		if got := sample(t, m, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if frames := sample(t, m, "tapis_frames_total", nil); frames < 1 {
		t.Errorf("%v frames drawn", frames)
	}
	if _, ok := m["tapis_store_errors_total"]; ok {
		t.Error("store errors counted, none failed")
	}
	if p := ts.Purchases(); p != (Purchases{Sold: 1}) {
		t.Errorf("the purchases counted: %+v", p)
	}

	health := func() (int, string) {
		res, err := http.Get(ops.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := health(); code != http.StatusOK || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	term.Close() // the player leaves: the store is theirs no more
	waitUntil(t, "the player gone", func() bool { return ts.Playing() == 0 })
	ts.store.Close()
	if code, body := health(); code != http.StatusServiceUnavailable || body != "the store does not answer\n" {
		t.Errorf("/healthz, the store closed: %d %q", code, body)
	}
	if got := sample(t, scrape(t, ops.URL), "tapis_store_errors_total", map[string]string{"call": "health"}); got != 1 {
		t.Errorf("the failed health check counted %v times", got)
	}
}

// TestSellerPaused: a purchase that reaches the seller while sales are
// paused (asked before the game heard of the pause) sells nothing, and is
// counted refused, not sold.
func TestSellerPaused(t *testing.T) {
	ts := startServer(t, nil)
	ts.stand.pause(true)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := ts.store.Deposit(ctx, "ann", decimal.NewFromInt(10)); err != nil {
		t.Fatal(err)
	}
	p := store.Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}
	if _, err := ts.seller.Sell(ctx, p); !errors.Is(err, ui.ErrSalesPaused) {
		t.Fatalf("paused, the seller answered %v", err)
	}
	if a := ts.account(t, "ann"); a.Purchases != 0 {
		t.Fatalf("paused, %d purchases made", a.Purchases)
	}
	ts.stand.pause(false)
	if _, err := ts.seller.Sell(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := ts.Purchases(); got != (Purchases{Sold: 1, Refused: 1}) {
		t.Errorf("purchases counted %+v", got)
	}
}
