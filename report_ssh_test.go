package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestServeReportOverSSH: ssh HOST report, for an operator's key, gives
// the figures tapis report gives of the store the server sells from,
// after simulated sales whose totals are known; --store is not among its
// flags (exit 2), and any other key is refused (exit 1).
func TestServeReportOverSSH(t *testing.T) {
	bin := buildTapis(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	operator, _ := gossh.NewSignerFromKey(priv)
	keys := filepath.Join(dir, "operators")
	if err := os.WriteFile(keys, gossh.MarshalAuthorizedKey(operator.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startServeArgs(t, bin, "--state-dir", state, "--operator-keys", keys)
	url := "sqlite:" + filepath.Join(state, "tapis.db")
	sim, err := exec.Command(bin, "simulate", "--store", url, "--house-key", filepath.Join(state, "house_ed25519"),
		"--account", "ann", "--count", "120", "--json").Output()
	if err != nil {
		t.Fatalf("simulate: %v", err)
	}
	var played struct{ Units int }
	if err := json.Unmarshal(sim, &played); err != nil || played.Units != 120 {
		t.Fatalf("simulate --json: %v %s", err, sim)
	}
	run := func(signer gossh.Signer, cmd string) (string, int) {
		t.Helper()
		c, err := gossh.Dial("tcp", p.where, &gossh.ClientConfig{User: "host", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
			HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.CombinedOutput(cmd)
		var exit *gossh.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitStatus()
		} else if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return string(out), 0
	}
	overSSH, code := run(operator, "report --json")
	local, err := exec.Command(bin, "report", "--store", url, "--json").Output()
	if code != 0 || err != nil {
		t.Fatalf("ssh report --json: exit %d %q; tapis report: %v", code, overSSH, err)
	}
	total := func(s string) any {
		var r struct{ Total any }
		if err := json.Unmarshal([]byte(s), &r); err != nil || r.Total == nil {
			t.Fatalf("not a report: %v %q", err, s)
		}
		return r.Total
	}
	if a, b := total(overSSH), total(string(local)); !strings.Contains(overSSH, `"units":120`) || !equalJSON(a, b) {
		t.Errorf("ssh report's total %v, tapis report's %v, want both of the 120 units simulated", a, b)
	}
	if out, code := run(operator, "report"); code != 0 || !strings.Contains(out, "120") {
		t.Errorf("ssh report: exit %d:\n%s", code, out)
	}
	if out, code := run(operator, "report --store sqlite:/etc/other.db"); code != 2 || strings.Count(out, "\n") != 1 {
		t.Errorf("ssh report --store: exit %d %q, want 2 and one line", code, out)
	}
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	stranger, _ := gossh.NewSignerFromKey(other)
	if out, code := run(stranger, "report"); code != 1 || strings.Contains(out, "120") {
		t.Errorf("a key not the operators': exit %d %q, want 1 and no figure", code, out)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
