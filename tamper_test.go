package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"tapis/ledger"
	"tapis/store"
)

// TestServeStopsOnAStoreChangedUnderIt runs tapis serve on a SQLite store,
// a player connected and playing, and changes the store with SQL as an
// insider would while it runs: the server finds it within its checks
// (store.CheckEvery), stops selling, tells the player in one line on the
// screen and as their game ends (their reveal under way finishing first),
// logs what it found and exits with status 1. Its log's first line is the
// house's public key, and every head it logged checks against it.
func TestServeStopsOnAStoreChangedUnderIt(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(t *testing.T, db *sql.DB, account string)
		found  string // in the log line naming what was found
	}{
		{"the emission made a QA one", func(t *testing.T, db *sql.DB, _ string) {
			insider(t, db, `UPDATE emission SET qa = 1`)
		}, "the emission's QA flag is 1, sealed as 0"},
		{"the commitment of the block on sale", func(t *testing.T, db *sql.DB, _ string) {
			insider(t, db, `UPDATE blocks SET commitment = ? WHERE game = 'vegas' AND closed IS NULL`, strings.Repeat("0", 64))
		}, "block vegas:3:1: its commitment was changed"},
		{"the player's last purchase deleted and their account rolled back", func(t *testing.T, db *sql.DB, account string) {
			var n, block int64
			if err := db.QueryRow(`SELECT number, block FROM purchases WHERE account = ? ORDER BY number DESC LIMIT 1`, account).Scan(&n, &block); err != nil {
				t.Fatal(err)
			}
			insider(t, db, `UPDATE accounts SET seq = seq - 1, purchases = purchases - 1,
				head = (SELECT prev FROM purchases WHERE account = ?1 AND number = ?2),
				balance = (SELECT before_cents FROM purchases WHERE account = ?1 AND number = ?2) WHERE name = ?1`, account, n)
			insider(t, db, `UPDATE blocks SET sold = sold - 1 WHERE game = 'vegas' AND number = ?`, block)
			insider(t, db, `DELETE FROM purchases WHERE account = ? AND number = ?`, account, n)
		}, "its history no longer ends with record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			srv := startServeIn(t, dir)
			signer, out, errOut, keys := srv.playerTold(t)
			account := gossh.FingerprintSHA256(signer.PublicKey())
			db := insiderDB(t, srv.store)
			purchases := func(n int, shown int) func() bool {
				return func() bool {
					var bought, seen int
					err := db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(shown), 0) FROM purchases WHERE account = ?`, account).Scan(&bought, &seen)
					return err == nil && bought == n && seen == shown
				}
			}
			io.WriteString(keys, "2") // Vegas
			waitScreen(t, out, "Buy a ticket")
			io.WriteString(keys, "\r") // a ticket bought
			waitFor(t, "the first ticket bought", purchases(1, 0))
			io.WriteString(keys, "a") // and scratched
			waitFor(t, "the first ticket shown", purchases(1, 1))
			io.WriteString(keys, "\r") // another, left to scratch: the reveal under way
			waitFor(t, "the second ticket bought", purchases(2, 1))

			c.change(t, db, account)
			waitScreen(t, out, "Sales are stopped: the store was changed under this server.")
			io.WriteString(keys, "a") // the reveal finishes
			code := srv.exitCode(t)
			logs := srv.logs.String()
			if code != 1 {
				t.Errorf("tapis serve exited %d, want 1:\n%s", code, logs)
			}
			checkLog(t, logs, "house key ssh-ed25519 ", "listening addr=", "the store was changed under this server: sales are stopped", c.found,
				"stopping sales players=1 grace=10s", `end="sales stopped"`, "stopped took=")
			if got := errOut.String(); !strings.HasPrefix(got, "tapis: sales are stopped, the store was changed under this server: played 2") || strings.Count(got, "\n") != 1 {
				t.Errorf("the player was told %q", got)
			}
			checkHeads(t, logs, srv.houseKey)
		})
	}
}

// TestServeRefusesAChangedStore: a store whose seal (its open blocks, its
// QA flag) or a block on sale was changed while no server ran is refused
// by tapis serve at start: one line, exit status 2.
func TestServeRefusesAChangedStore(t *testing.T) {
	bin := buildTapis(t)
	for _, c := range []struct {
		name, change, want string
	}{
		{"open blocks", fmt.Sprintf(`UPDATE emission SET open_blocks = %d`, store.DefaultOpenBlocks+1), // made with the default
			fmt.Sprintf("the emission's open blocks is %d, sealed as %d: changed after it was sealed", store.DefaultOpenBlocks+1, store.DefaultOpenBlocks)},
		{"QA flag", `UPDATE emission SET qa = 1`, "the emission's QA flag is 1, sealed as 0"},
		{"a commitment", `UPDATE blocks SET commitment = '` + strings.Repeat("0", 64) + `' WHERE game = 'yams' AND stake = '1'`,
			"block yams:1:1: its commitment was changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			url, house := "sqlite:"+filepath.Join(dir, "tapis.db"), filepath.Join(dir, ".tapis", "house_ed25519")
			ctx := context.Background()
			st, err := store.Open(ctx, url, store.Options{KeyFile: house})
			if err != nil {
				t.Fatal(err)
			}
			for _, seq := range st.Emission().Sequences() {
				if _, err := st.Block(ctx, seq); err != nil {
					t.Fatal(err)
				}
			}
			st.Close()
			insider(t, insiderDB(t, url), c.change)
			cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--store", url, "--host-key", filepath.Join(dir, ".tapis", "host_ed25519"))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err = cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.HasPrefix(stderr.String(), "tapis serve: ") ||
				!strings.Contains(stderr.String(), c.want) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("tapis serve: %v, stderr %q; want exit 2 and one line with %q", err, stderr.String(), c.want)
			}
		})
	}
}

// insider changes a store with SQL, as someone with the database's
// password and not the house's key would.
func insider(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// checkHeads checks that the log holds heads, as tapis verify --heads
// reads them, each signed by the house key in keyFile (its .pub beside
// it), and that the log's first line is that key.
func checkHeads(t *testing.T, logs, keyFile string) {
	t.Helper()
	pub, err := ledger.ReadPublicKey(keyFile + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(logs, "\n"); !strings.Contains(first, "house key "+pub.String()+" fingerprint="+pub.Fingerprint()) {
		t.Errorf("the log's first line is %q, not the house key %s", first, pub)
	}
	tokens, err := ledger.Read(strings.NewReader(logs))
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens.Heads) == 0 {
		t.Errorf("no head in the log:\n%s", logs)
	}
	for _, h := range tokens.Heads {
		if err := h.Check(pub); err != nil {
			t.Error(err)
		}
	}
}

// playerTold connects a player with a key of their own, whose game shows
// its menu: it returns the key, what the session writes on its standard
// output and on its standard error (what the player is told as it ends),
// and its keyboard.
func (p *serveProcess) playerTold(t *testing.T) (gossh.Signer, *lockedBuffer, *lockedBuffer, io.Writer) {
	t.Helper()
	signer := newPlayerKey(t)
	out, errOut, in := p.session(t, signer, "Choose a game")
	return signer, out, errOut, in
}

// exitCode waits for tapis serve's end and returns its exit status.
func (p *serveProcess) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		var exit *exec.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &exit):
			return exit.ExitCode()
		}
		t.Fatalf("tapis serve: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatalf("tapis serve did not stop:\n%s", p.logs.String())
	}
	return -1
}

// waitFor waits until cond holds, 30 s at most.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// newPlayerKey returns a new player's key.
func newPlayerKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return signer
}

// insiderDB opens a SQLite store's database as an insider would, waiting
// for the server's writes.
func insiderDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+strings.TrimPrefix(url, "sqlite:")+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestGameStopsOnAStoreChangedUnderIt plays the game on a store in a real
// terminal (tmux), then changes the store with SQL: once the game's store
// found it, a purchase is refused with one line on the screen, and
// quitting prints the summary, then what was found, exit status 1.
func TestGameStopsOnAStoreChangedUnderIt(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the game is tested in a real terminal")
	}
	bin := buildTapis(t)
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "tapis.db")
	p := pane{t: t, sock: "tapis-tamper-" + strconv.Itoa(os.Getpid())}
	p.tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "env -i PATH=/usr/bin:/bin TERM=xterm-256color LANG=C bash --norc --noprofile")
	t.Cleanup(func() { exec.Command("tmux", "-L", p.sock, "kill-server").Run() })
	p.tmux("send-keys", "-t", "t", bin+" yams --store "+url+" --house-key "+filepath.Join(dir, "house_ed25519"), "Enter")
	p.wait("the game", func(s, modes string) bool { return modes == "alt=1 mouse=1\n" && strings.Contains(s, "Balance") })
	p.tmux("send-keys", "-t", "t", "a")
	p.wait("a unit played", func(s, _ string) bool { return strings.Contains(s, "Balance €99.00") })

	insider(t, insiderDB(t, url), `UPDATE emission SET qa = 1`)
	refused := "Sales are stopped: the store was changed under this game; nothing was bought"
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(p.tmux("capture-pane", "-p", "-t", "t"), refused); time.Sleep(300 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no purchase was refused in 30 s:\n%s", p.tmux("capture-pane", "-p", "-t", "t"))
		}
		p.tmux("send-keys", "-t", "t", "a") // buys, until the store refuses
	}
	p.tmux("send-keys", "-t", "t", "q")
	p.wait("the summary and what was found", func(s, modes string) bool {
		return modes == "alt=0 mouse=0\n" && strings.Contains(s, "played ") &&
			strings.Contains(s, "tapis: sales were stopped: store changed under its seller: the emission's QA flag is 1")
	})
	p.tmux("send-keys", "-t", "t", "echo status=$?", "Enter")
	p.wait("exit status 1", func(s, _ string) bool { return strings.Contains(s, "status=1") })
}
