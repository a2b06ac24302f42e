package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"

	"tapis/board"
	"tapis/game/lottery"
	"tapis/store"
)

// TestBoardSession: `ssh -t HOST board` gets the live board, keyless or
// not, at its PTY's size and again at each window change, in its
// language: how to join (the server's join address), the top prizes left
// in the blocks on sale, the players connected (a board is none); keys
// other than q do nothing, and q quits.
func TestBoardSession(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.Join = board.Join{Host: "stand.local", Port: 2222} })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := ts.store.Deposit(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	r, err := ts.store.Sell(ctx, store.Purchase{Account: "ann", Number: 1, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3)})
	if err != nil {
		t.Fatal(err)
	}
	if err := ts.store.Shown(ctx, "ann", r.Sold.Ref()); err != nil { // seen: the board counts it
		t.Fatal(err)
	}
	watcher := open(t, ts.dial(t, nil), 80, 24, nil, "board")
	watcher.waitFor(t, "tapis · live board")
	watcher.waitFor(t, "How to play")
	watcher.waitFor(t, "ssh -p 2222 stand.local")
	watcher.waitFor(t, "16 × €40,000, 16 × €10,000 left in 8 blocks") // the default's 8 blocks on sale, 2 of each a block
	if n, w := ts.Playing(), ts.Watching(); n != 0 || w != 1 {
		t.Errorf("a board: %d playing, %d watching; want 0 and 1", n, w)
	}
	player := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	player.waitFor(t, "Choose a game")
	watcher.waitFor(t, "1 player ·")
	watcher.resize(t, 50, 200)
	watcher.waitFor(t, "Biggest wins today (10× the stake and more)")
	watcher.press(t, "a\r ")
	watcher.press(t, "q")
	if status := watcher.exit(t); status != 0 {
		t.Errorf("quitting the board: exit status %d", status)
	}
	if a := ts.account(t, "ann"); a.Purchases != 1 {
		t.Errorf("keys on the board bought: %d purchases", a.Purchases)
	}
	waitUntil(t, "the board's log line", func() bool { return strings.Contains(ts.log.String(), "watched the board") })

	fr := open(t, ts.dial(t, newKey(t)), 80, 24, map[string]string{"LANG": "fr_FR.UTF-8"}, "board")
	fr.waitFor(t, "tableau en direct")
	fr.waitFor(t, "16 × 40 000 €, 16 × 10 000 € dans 8 blocs")
}

// TestBoardWithoutTerminal: a board needs a PTY, as the game does: one
// line says how to ask for one.
func TestBoardWithoutTerminal(t *testing.T) {
	ts := startServer(t, nil)
	term := open(t, ts.dial(t, nil), 0, 0, nil, "board")
	if status := term.exit(t); status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
	_, port, _ := strings.Cut(ts.addr, ":")
	want := "tapis: the game needs a terminal: connect with ssh -t -p " + port + " 127.0.0.1 board\r\n"
	if got := term.errOut.String(); got != want {
		t.Errorf("told %q, want %q", got, want)
	}
}

// TestBoardsHaveTheirOwnPlaces: boards take places of --max-boards, none
// of the players': with the boards full, a player still comes in, and one
// more board is told the boards are full; a board idle past
// --idle-timeout is closed, saying so.
func TestBoardsHaveTheirOwnPlaces(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.MaxSessions, o.MaxBoards, o.IdleTimeout = 1, 2, 3*time.Second })
	var boards []*terminal
	for range 2 {
		b := open(t, ts.dial(t, nil), 80, 24, nil, "board")
		b.waitFor(t, "live board")
		boards = append(boards, b)
	}
	player := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	player.waitFor(t, "Choose a game")
	late := open(t, ts.dial(t, nil), 80, 24, nil, "board")
	if status := late.exit(t); status != 1 {
		t.Errorf("a third board: exit status %d, want 1", status)
	}
	if got, want := late.errOut.String(), "tapis: enough boards are open (2 at most); try again in a moment\r\n"; got != want {
		t.Errorf("a third board was told %q, want %q", got, want)
	}
	boards[0].exit(t)
	if got := boards[0].errOut.String(); !strings.Contains(got, "board closed after 3s without a key") {
		t.Errorf("an idle board was told %q", got)
	}
	waitUntil(t, "the boards closed as idle", func() bool { return ts.Watching() == 0 })
	if !strings.Contains(ts.log.String(), "watched the board") || !strings.Contains(ts.log.String(), "end=idle") {
		t.Errorf("log:\n%s", ts.log.String())
	}
}

// TestServerPresence: a server records its players in the store for the
// boards of every server on it, and removes them when it closes.
func TestServerPresence(t *testing.T) {
	ts := startServer(t, nil)
	player := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	player.waitFor(t, "Choose a game")
	players := func() int {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		b, err := ts.store.NewPoller(1).Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return b.Players
	}
	waitUntil(t, "the player counted", func() bool { return players() == 1 })
	ts.Close()
	if n := players(); n != 0 {
		t.Errorf("a closed server: %d players", n)
	}
}

// TestShutdownEndsBoards: a board has nothing to reveal: a shutdown ends it
// at once (it does not hold the shutdown to its deadline), says why, logs
// it, and the server's players leave the store.
func TestShutdownEndsBoards(t *testing.T) {
	ts := startServer(t, nil)
	watcher := open(t, ts.dial(t, nil), 80, 24, nil, "board")
	watcher.waitFor(t, "tapis · live board")
	player := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	player.waitFor(t, "Choose a game")
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown with a board and a player between units: %v", err)
	}
	watcher.exit(t)
	if !strings.Contains(watcher.errOut.String(), "the server is closing") {
		t.Errorf("the board's viewer was told %q", watcher.errOut.String())
	}
	if !strings.Contains(ts.log.String(), `watched the board`) || !strings.Contains(ts.log.String(), `end="server closing"`) {
		t.Errorf("log:\n%s", ts.log.String())
	}
	pctx, pcancel := context.WithTimeout(context.Background(), waitLimit)
	defer pcancel()
	if n, err := ts.store.Players(pctx, time.Now()); err != nil || n != 0 {
		t.Errorf("after Shutdown, the store counts %d players (%v)", n, err)
	}
}

// TestBoardWaitsForTheReveal: a unit its player still reveals is not on
// the big screen: bought with Play, its cups covered, the board counts
// no sale; rolled to the end, it counts it. Each look is a board opened
// then, whose first frame is whole.
func TestBoardWaitsForTheReveal(t *testing.T) {
	ts := startServer(t, nil)
	const none = "· 0 sales/min"
	look := func(counted bool) {
		t.Helper()
		watcher := open(t, ts.dial(t, nil), 200, 50, nil, "board")
		waitUntil(t, "the sales a minute", func() bool { return strings.Contains(watcher.screen(), "/min ") })
		if strings.Contains(watcher.screen(), none) == counted {
			t.Errorf("the board, the unit counted %v:\n%s", counted, watcher.screen())
		}
		watcher.press(t, "q")
		watcher.exit(t)
	}
	key := newKey(t)
	account := gossh.FingerprintSHA256(key.PublicKey())
	player := open(t, ts.dial(t, key), 100, 30, nil, "")
	player.waitFor(t, "Choose a game")
	player.press(t, "1")
	player.waitFor(t, "enter play")
	player.press(t, "\r")
	waitUntil(t, "the purchase", func() bool { return ts.account(t, account).Purchases == 1 })
	time.Sleep(3 * board.Every) // polls enough to count it, were it shown
	look(false)
	player.press(t, "a") // every cup rolled
	waitUntil(t, "the unit shown", func() bool {
		a := ts.account(t, account)
		return len(a.Recent) == 1 && a.Recent[0].Shown
	})
	time.Sleep(2 * board.Every)
	look(true)
}
