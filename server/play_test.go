package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"

	"tapis/game/lottery"
	"tapis/store"
)

// TestLossLimitRefusesOverSSH: an account whose net loss over the last
// day reached --loss-limit is refused its purchase, told so on its screen
// with the time purchases are possible again, and keeps playing: nothing
// sold, the balance untouched, the refusal logged as information, and q
// quits as ever.
func TestLossLimitRefusesOverSSH(t *testing.T) {
	limit := decimal.NewFromInt(2)
	ts := startServer(t, func(o *Options) { o.LossLimit = limit })
	key := newKey(t)
	account := gossh.FingerprintSHA256(key.PublicKey())
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := ts.store.Deposit(ctx, account, decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	// The account loses 2 € or more, bought and seen as on any seller.
	n := 0
	for {
		sp, err := ts.store.Spending(ctx, account, store.LossWindow)
		if err != nil {
			t.Fatal(err)
		}
		if !sp.NetLoss().LessThan(limit) {
			break
		}
		if n++; n > 200 {
			t.Fatalf("200 units of 1 € and the account lost only %s", sp.NetLoss())
		}
		r, err := ts.store.Sell(ctx, store.Purchase{Account: account, Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
		if err != nil {
			t.Fatal(err)
		}
		if err := ts.store.Shown(ctx, account, r.Sold.Ref()); err != nil {
			t.Fatal(err)
		}
	}
	before := ts.account(t, account)

	term := open(t, ts.dial(t, key), 100, 30, nil, "")
	term.waitFor(t, "Choose a game")
	term.press(t, "1")
	term.waitFor(t, "enter play")
	term.press(t, "\r")
	// Lost just now, 2 € or more: no stake is possible, the smallest
	// (0,50 €) neither, until tomorrow; the help line is named.
	term.waitFor(t, "Loss limit (€2 in 24 h): no purchase of any stake before tomorrow ")
	term.waitFor(t, " · help 09 74 75 13 13")
	term.press(t, "a") // Auto is refused too
	waitUntil(t, "Auto's refusal", func() bool { return strings.Count(ts.log.String(), "purchase refused") == 2 })
	term.press(t, "h")
	term.waitFor(t, "enter: show it again")
	term.press(t, "q")
	if status := term.exit(t); status != 0 {
		t.Errorf("quitting after a refusal: exit status %d, want 0", status)
	}
	after := ts.account(t, account)
	if after.Purchases != before.Purchases || !after.Balance.Equal(before.Balance) {
		t.Errorf("past the loss limit: %d purchases, balance %s; want %d and %s", after.Purchases, after.Balance, before.Purchases, before.Balance)
	}
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(ts.log.String(), "end=quit") })
	logs := ts.log.String()
	if !strings.Contains(logs, "INFO  purchase refused") || !strings.Contains(logs, `why="loss limit"`) || strings.Contains(logs, "ERRO") {
		t.Errorf("the refusal is not logged as information alone:\n%s", logs)
	}
}

// TestRealityCheckOverSSH: --reality-check shows each player, every so
// long, the time played and the net result; c goes on playing, q quits as
// a quit does.
func TestRealityCheckOverSSH(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.RealityCheck = time.Second })
	term := open(t, ts.dial(t, newKey(t)), 100, 30, map[string]string{"LANG": "fr_FR.UTF-8"}, "")
	term.waitFor(t, "Point sur votre jeu")
	term.waitFor(t, "Résultat net : 0,00 €")
	term.press(t, "c")
	waitUntil(t, "a second reality check", func() bool { return strings.Count(term.screen(), "Point sur votre jeu") >= 2 })
	term.press(t, "q")
	if status := term.exit(t); status != 0 {
		t.Errorf("quitting from the reality check: exit status %d, want 0", status)
	}
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(ts.log.String(), "end=quit") })
}
