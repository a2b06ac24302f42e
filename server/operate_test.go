package server

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"
)

// command runs cmd on the server as key (a guest when nil), without a
// terminal, as ssh HOST cmd does: its output, its errors and its exit
// status.
func (ts *testServer) command(t *testing.T, key gossh.Signer, cmd string) (stdout, stderr string, code int) {
	t.Helper()
	c := ts.dial(t, key)
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out, errOut strings.Builder
	s.Stdout, s.Stderr = &out, &errOut
	err = s.Run(cmd)
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitStatus()
	case err != nil:
		t.Fatalf("%s: %v", cmd, err)
	}
	return out.String(), errOut.String(), code
}

// operatorsOf makes the keys operators, as an --operator-keys file of
// theirs would.
func operatorsOf(t *testing.T, keys ...gossh.Signer) Operators {
	t.Helper()
	var file []byte
	file = append(file, "# the stand's hosts\n\n"...)
	for _, k := range keys {
		file = append(file, gossh.MarshalAuthorizedKey(k.PublicKey())...)
	}
	o, err := ParseOperators(file)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOperatorsFile(t *testing.T) {
	k := newKey(t)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey())))
	o, err := ParseOperators([]byte(`no-pty,from="10.0.0.0/8" ` + line + " host@stand\n"))
	if err != nil || o.Len() != 1 || !o.has(gossh.FingerprintSHA256(k.PublicKey())) {
		t.Fatalf("a key with options and a comment: %v, %d keys", err, o.Len())
	}
	for _, bad := range []string{"", "# nobody\n", line + "\nssh-ed25519 AAAAnot-base64\n"} {
		if _, err := ParseOperators([]byte(bad)); err == nil {
			t.Errorf("%q: read as operators", bad)
		}
	}
	if _, err := ParseOperators([]byte(line + "\nnot a key\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad line is not named: %v", err)
	}
}

// TestOperatorCommands runs every stand's command over SSH, as an
// operator and as anyone else.
func TestOperatorCommands(t *testing.T) {
	op, visitor := newKey(t), newKey(t)
	ts := startServer(t, func(o *Options) {
		o.Operators = operatorsOf(t, op)
		o.Report = func(_ context.Context, w io.Writer, args []string) error {
			_, err := io.WriteString(w, "the day's figures "+strings.Join(args, " ")+"\n")
			return err
		}
	})
	account := gossh.FingerprintSHA256(visitor.PublicKey())
	player := open(t, ts.dial(t, visitor), 100, 30, map[string]string{"LANG": "en_US.UTF-8"}, "")
	player.waitFor(t, "Choose a game")
	board := open(t, ts.dial(t, nil), 100, 30, map[string]string{"LANG": "en_US.UTF-8"}, "board")
	waitUntil(t, "the board", func() bool { return ts.Watching() == 1 })

	// Anyone else is refused, in one line, and logged.
	for name, key := range map[string]gossh.Signer{"a player's key": visitor, "a guest": nil} {
		out, errOut, code := ts.command(t, key, "pause")
		if code != opFailed || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "not one of theirs") {
			t.Errorf("%s: pause answered %d, %q %q", name, code, out, errOut)
		}
	}
	if ts.stand.isPaused() || strings.Count(ts.log.String(), "operator command refused") != 2 {
		t.Fatalf("refused commands: paused %v, log:\n%s", ts.stand.isPaused(), ts.log)
	}

	out, _, code := ts.command(t, op, "players")
	if code != 0 || !strings.Contains(out, account) || !strings.Contains(out, "key") || !strings.Contains(out, "1 playing") {
		t.Fatalf("players: %d %q", code, out)
	}
	if !strings.Contains(ts.log.String(), "players listed") {
		t.Errorf("players: not in the log:\n%s", ts.log)
	}

	// Help asked of a command is its usage, the command not done: an
	// announce --help went to every screen.
	for _, cmd := range []string{"announce --help", "announce -h", "kick --help", "pause --help"} {
		out, errOut, code := ts.command(t, op, cmd)
		name, _, _ := strings.Cut(cmd, " ")
		if code != 0 || !strings.HasPrefix(out, "usage: ssh HOST "+name) || errOut != "" {
			t.Errorf("%s: %d %q %q, want the usage", cmd, code, out, errOut)
		}
	}
	if ts.stand.isPaused() || strings.Contains(ts.log.String(), "announced") || strings.Count(ts.log.String(), "usage asked") != 4 {
		t.Fatalf("a command's help did it, or is not logged: paused %v, log:\n%s", ts.stand.isPaused(), ts.log)
	}

	// Paused: the player is told, and buys nothing; resumed, they buy.
	if _, _, code := ts.command(t, op, "pause"); code != 0 {
		t.Fatalf("pause: %d", code)
	}
	player.waitFor(t, "Sales are paused by the stand")
	board.waitFor(t, "Paused: sales are stopped by the stand")
	player.press(t, "1")
	player.waitFor(t, "enter play")
	player.press(t, "\r")
	player.waitFor(t, "no purchase for now")
	if a := ts.account(t, account); a.Purchases != 0 {
		t.Fatalf("paused: %d purchases", a.Purchases)
	}
	if _, _, code := ts.command(t, op, "resume"); code != 0 {
		t.Fatalf("resume: %d", code)
	}
	player.press(t, "\r")
	waitUntil(t, "a purchase once resumed", func() bool { return ts.account(t, account).Purchases == 1 })
	out, _, _ = ts.command(t, op, "players")
	found := false
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 5 && f[0] == account {
			found = f[1] == "key" && f[3] == "1"
		}
	}
	if !found {
		t.Errorf("players after a purchase, want the account's row with 1 unit:\n%s", out)
	}

	// An announcement, escaped, on every screen.
	if out, _, code := ts.command(t, op, "announce -h is the key for help"); code != 0 || !strings.Contains(ts.log.String(), `text="-h is the key for help"`) {
		t.Errorf("an announcement that starts with -h: %d %q, want it announced", code, out)
	}
	if out, _, code := ts.command(t, op, "announce L'heure du café"); code != 0 || !strings.Contains(ts.log.String(), `text="L'heure du café"`) {
		t.Errorf("an apostrophe: %d %q", code, out)
	}
	out, _, code = ts.command(t, op, "announce 'Free  coffee\x1b[31m at the bar'")
	if code != 0 || !strings.Contains(out, "players 1, boards 1") {
		t.Fatalf("announce: %d %q", code, out)
	}
	player.waitFor(t, `Free coffee\x1b[31m at the bar`)
	board.waitFor(t, `Free coffee\x1b[31m at the bar`)
	if _, errOut, code := ts.command(t, op, "pause now"); code != opBadArgs || !strings.Contains(errOut, "usage: ssh HOST pause") {
		t.Errorf("pause now: %d %q", code, errOut)
	}
	if _, errOut, code := ts.command(t, op, "announce"); code != opBadArgs || !strings.Contains(errOut, "usage") {
		t.Errorf("announce without text: %d %q", code, errOut)
	}

	// A top-up is refused while the account plays, and for one unknown.
	if _, errOut, code := ts.command(t, op, "topup "+account+" 10"); code != opFailed || !strings.Contains(errOut, "playing now") {
		t.Errorf("topup while playing: %d %q", code, errOut)
	}
	if _, errOut, code := ts.command(t, op, "topup SHA256:nobody 10"); code != opFailed || !strings.Contains(errOut, "no account") {
		t.Errorf("topup of no account: %d %q", code, errOut)
	}
	if _, _, code := ts.command(t, op, "topup "+account+" ten"); code != opBadArgs {
		t.Errorf("topup of ten: %d", code)
	}

	// Kicked: the game ends, and says why.
	if _, errOut, code := ts.command(t, op, "kick nobody-at-all"); code != opFailed || !strings.Contains(errOut, "no one plays") {
		t.Errorf("kick of no one: %d %q", code, errOut)
	}
	if out, _, code := ts.command(t, op, "kick "+account[:16]); code != 0 || !strings.Contains(out, account) {
		t.Fatalf("kick: %d %q", code, out)
	}
	player.exit(t)
	if !strings.Contains(player.errOut.String(), "the stand closed your game") {
		t.Errorf("the kicked player is told %q", player.errOut.String())
	}
	waitUntil(t, "the player gone", func() bool { return ts.Playing() == 0 })

	before := ts.account(t, account).Balance
	if out, _, code := ts.command(t, op, "topup "+account+" 12.50"); code != 0 || !strings.Contains(out, "deposited 12.50") {
		t.Fatalf("topup: %d %q", code, out)
	}
	if got, want := ts.account(t, account).Balance, before.Add(decimal.RequireFromString("12.5")); !got.Equal(want) {
		t.Errorf("balance after topup %s, want %s", got, want)
	}
	if out, _, code := ts.command(t, op, "report --since 2026-12-01"); code != 0 || out != "the day's figures --since 2026-12-01\n" {
		t.Errorf("report: %d %q", code, out)
	}
	for _, want := range []string{"operator command not done", "sales paused", "sales resumed", "announced", "kicked", "topped up", `eur=12.50`, "report asked"} {
		if !strings.Contains(ts.log.String(), want) {
			t.Errorf("the log has no %q:\n%s", want, ts.log)
		}
	}
}
