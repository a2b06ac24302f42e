package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"tapis/ledger"
)

// standServe starts tapis serve with its state in dir and JSON logs,
// metrics on a port of its own, and waits for its "listening" object: it
// returns the process, and every object its log wrote so far.
func standServe(t *testing.T, dir string) (*serveProcess, func() []map[string]any) {
	t.Helper()
	bin := buildTapis(t)
	p := &serveProcess{logs: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--state-dir", dir, "--log-format", "json",
		"--metrics", "127.0.0.1:0", "--loss-limit", "50", "--idle-timeout", "10m")
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	objects := func() []map[string]any {
		var all []map[string]any
		sc := bufio.NewScanner(strings.NewReader(p.logs.String()))
		for sc.Scan() {
			var o map[string]any
			if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
				t.Fatalf("a log line is no JSON object: %q: %v", sc.Text(), err)
			}
			all = append(all, o)
		}
		return all
	}
	for deadline := time.Now().Add(30 * time.Second); p.where == ""; time.Sleep(20 * time.Millisecond) {
		for _, o := range objects() {
			if o["msg"] == "listening" {
				p.where, _ = o["addr"].(string)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("tapis serve never said where it listens:\n%s", p.logs.String())
		}
	}
	return p, objects
}

// logged returns the first log object of that message.
func logged(t *testing.T, objects []map[string]any, msg string) map[string]any {
	t.Helper()
	for _, o := range objects {
		if o["msg"] == msg {
			return o
		}
	}
	t.Fatalf("no %q in the log", msg)
	return nil
}

// TestServeStandLog: the first lines say what was created, then found
// again in the same --state-dir, and every setting; the log is one JSON
// object a line; --metrics serves the metrics and the health check.
func TestServeStandLog(t *testing.T) {
	dir := t.TempDir()
	srv, objects := standServe(t, dir)
	_, out, keys := srv.player(t)
	io.WriteString(keys, "1") // Yam's
	waitScreen(t, out, "enter play")
	io.WriteString(keys, "a") // a purchase, revealed at once: the store signs a head
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(srv.logs.String(), `"msg":"signed"`); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no head signed in the log:\n%s", srv.logs.String())
		}
	}
	first := objects()
	key := logged(t, first, "host key created: players who came before are warned of a changed key")
	logged(t, first, "store created: a new emission, every account starts anew")
	settings := logged(t, first, "settings")
	for k, want := range map[string]any{"balance": "100.00", "loss_limit": "50.00", "idle_timeout": "10m0s", "max_sessions": float64(200), "qa": false, "operators": float64(0)} {
		if settings[k] != want {
			t.Errorf("settings %s = %v (%T), want %v", k, settings[k], settings[k], want)
		}
	}
	if c := logged(t, first, "connected"); c["kind"] != "game" || c["account"] == nil {
		t.Errorf("the connection's line: %v", c)
	}
	if _, err := os.Stat(filepath.Join(dir, "tapis.db")); err != nil {
		t.Errorf("the store is not in --state-dir: %v", err)
	}
	metrics, _ := settings["metrics"].(string)
	for _, u := range []string{metrics, strings.TrimSuffix(metrics, "/metrics") + "/healthz"} {
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Errorf("%s: %s, %v", u, res.Status, err)
		}
		if u == metrics && !strings.Contains(string(body), "\ngo_sched_gomaxprocs_threads ") {
			t.Errorf("the metrics say nothing of the processors:\n%s", grepLines(string(body), "go_sched"))
		}
	}
	// The server starts on one processor and says so (cli/serve_procs.go),
	// unless the environment sets them or the machine has one.
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) > 1 {
		if p := logged(t, first, "processors"); p["n"] != float64(1) || p["most"] != float64(runtime.GOMAXPROCS(0)) {
			t.Errorf("the processors' first line: %v, want n 1 and most %d", p, runtime.GOMAXPROCS(0))
		}
	}
	srv.signal(t)
	srv.exit(t)
	if p := logged(t, objects(), "purchases"); p["sold"] != float64(1) || p["failed"] != float64(0) {
		t.Errorf("the shutdown's purchases: %v", p)
	}
	// The heads in a JSON log are JSON objects, as verify --heads reads them.
	pub, err := ledger.ReadPublicKey(filepath.Join(dir, "house_ed25519.pub"))
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := ledger.Read(strings.NewReader(srv.logs.String()))
	if err != nil || len(tokens.Heads) == 0 {
		t.Fatalf("the JSON log's heads: %d read, %v", len(tokens.Heads), err)
	}
	for _, h := range tokens.Heads {
		if err := h.Check(pub); err != nil {
			t.Error(err)
		}
	}

	again, objects := standServe(t, dir)
	if k := logged(t, objects(), "host key found"); k["fingerprint"] != key["fingerprint"] {
		t.Errorf("the host key found again is %v, was %v", k["fingerprint"], key["fingerprint"])
	}
	if s := logged(t, objects(), "store found"); s["sold"] != float64(1) || s["emission"] == nil {
		t.Errorf("the store found again: %v", s)
	}
	again.signal(t)
	again.exit(t)
}

// grepLines returns the lines of s that hold sub.
func grepLines(s, sub string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// TestServeOperatorKeysBad: a bad --operator-keys file is one line, exit
// status 2, and nothing is created.
func TestServeOperatorKeysBad(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "operators")
	if err := os.WriteFile(bad, []byte("ssh-ed25519 not-a-key host\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(buildTapis(t), "serve", "--listen", "127.0.0.1:0", "--state-dir", filepath.Join(dir, "state"), "--operator-keys", bad)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), "line 1: not a public key") {
		t.Errorf("exit %d (%v): %q", code, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "state")); err == nil {
		t.Error("a bad --operator-keys file left a state folder behind")
	}
}
