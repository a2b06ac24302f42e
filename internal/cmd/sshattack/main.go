// Command sshattack attacks a running `tapis serve` as issue 19 describes,
// one attack after another, and says for each what the server's memory
// did (its resident set before, at its peak and after, read from
// /proc/PID/status) and how long a player took to see the menu and buy a
// unit while the attack ran and after it: a Go client, and OpenSSH's ssh
// in a terminal of its own with -ssh.
//
// Usage, from the module's root, with tapis serve running on loopback:
//
//	go run ./internal/cmd/sshattack -addr 127.0.0.1:23234 -pid PID [-attack all|pty,paste,…] [-size N] [-hold 10s] [-ssh]
//
// The attacks come from -from (127.0.0.2), the player from 127.0.0.1, as
// an attacker and a visitor on two laptops. Everything stays on loopback;
// every attack is bounded in count and time. Exit status: 0 when the
// player got in during and after every attack, 1 when not, 2 for bad flags.
package main

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	gossh "golang.org/x/crypto/ssh"

	"tapis/internal/sshattack"
	"tapis/internal/sshload"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// probeLimit is how long a player may take to buy a unit.
const probeLimit = 30 * time.Second

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sshattack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:23234", "the server's `ADDR` (loopback only)")
	from := fs.String("from", "127.0.0.2", "the attacker's loopback `ADDRESS`")
	pid := fs.Int("pid", 0, "the server's process, whose memory is read (0: not read)")
	which := fs.String("attack", "all", "the attacks, comma-separated, or all: "+names())
	size := fs.Int64("size", 0, "each attack's size (its default, issue 19's, when 0)")
	holdFor := fs.Duration("hold", 10*time.Second, "how long each attack holds what it opened")
	settle := fs.Duration("settle", 5*time.Second, "how long after an attack the memory is read again")
	realSSH := fs.Bool("ssh", false, "the player is also OpenSSH's ssh, in a terminal of its own")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	attacks, err := pick(*which)
	if err != nil || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sshattack: %v\n", errors.Join(err, unexpected(fs.Args())))
		return 2
	}
	t := sshattack.Target{Addr: *addr, From: net.ParseIP(*from), Hold: *holdFor}
	key, err := sshload.NewKey()
	if err != nil {
		fmt.Fprintf(stderr, "sshattack: %v\n", err)
		return 2
	}
	var keyFile string
	if *realSSH {
		if keyFile, err = writeKey(); err != nil {
			fmt.Fprintf(stderr, "sshattack: %v\n", err)
			return 2
		}
		defer os.RemoveAll(filepath.Dir(keyFile))
	}
	player := sshattack.Target{Addr: *addr, From: net.IPv4(127, 0, 0, 1)}
	failed := false
	for _, a := range attacks {
		before := memory(*pid, true)
		done := make(chan struct{})
		var res sshattack.Result
		var aerr error
		go func() {
			defer close(done)
			res, aerr = a.Run(ctx, t, *size)
		}()
		// The player comes once the attack is under way.
		time.Sleep(time.Second)
		during, perr := sshattack.Play(ctx, player, key, probeLimit)
		var sshDuring time.Duration
		var serr error
		if *realSSH {
			sshDuring, serr = playSSH(ctx, *addr, keyFile)
		}
		<-done
		time.Sleep(*settle)
		after := memory(*pid, false)
		later, lerr := sshattack.Play(ctx, player, key, probeLimit)
		fmt.Fprintf(stdout, "%-9s %s %s: %v", a.Name, size0(*size, a), a.Unit, res)
		if aerr != nil {
			fmt.Fprintf(stdout, " (the attack: %v)", aerr)
		}
		if *pid != 0 {
			fmt.Fprintf(stdout, "; memory %s before, %s at its peak, %s after", mb(before.rss), mb(after.peak), mb(after.rss))
		}
		fmt.Fprintf(stdout, "; a player during it: %s", probe(during, perr))
		if *realSSH {
			fmt.Fprintf(stdout, ", ssh's first frame %s", dur(sshDuring, serr))
		}
		fmt.Fprintf(stdout, "; after it: %s\n", probe(later, lerr))
		if perr != nil || lerr != nil || serr != nil {
			failed = true
		}
		if ctx.Err() != nil {
			return 1
		}
	}
	if failed {
		return 1
	}
	return 0
}

// names lists the attacks.
func names() string {
	var n []string
	for _, a := range sshattack.Attacks {
		n = append(n, a.Name)
	}
	return strings.Join(n, ",")
}

// pick reads -attack.
func pick(which string) ([]sshattack.Attack, error) {
	if which == "all" {
		return sshattack.Attacks, nil
	}
	var out []sshattack.Attack
	for _, name := range strings.Split(which, ",") {
		a, ok := sshattack.Find(name)
		if !ok {
			return nil, fmt.Errorf("-attack %q: want all, or some of %s", name, names())
		}
		out = append(out, a)
	}
	return out, nil
}

func unexpected(args []string) error {
	if len(args) == 0 {
		return nil
	}
	return fmt.Errorf("unexpected argument %q", args[0])
}

func size0(n int64, a sshattack.Attack) string {
	if n == 0 {
		n = a.Default
	}
	return strconv.FormatInt(n, 10)
}

// usage is a process's memory: its resident set now, and at its peak.
type usage struct{ rss, peak int64 }

// memory reads a process's memory from /proc/PID/status; reset sets its
// peak back to its resident set (clear_refs), so that the next reading's
// peak is the attack's.
func memory(pid int, reset bool) usage {
	if pid == 0 {
		return usage{}
	}
	if reset {
		os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return usage{-1, -1}
	}
	defer f.Close()
	var u usage
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			u.rss = kb << 10
		case "VmHWM":
			u.peak = kb << 10
		}
	}
	return u
}

func mb(b int64) string {
	if b < 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f MB", float64(b)/1e6)
}

func dur(d time.Duration, err error) string {
	if err != nil {
		return "FAILED (" + err.Error() + ")"
	}
	return d.Round(time.Millisecond).String()
}

func probe(p sshattack.Probe, err error) string {
	if err != nil {
		return "FAILED (" + err.Error() + ")"
	}
	return fmt.Sprintf("menu in %s, a unit bought in %s", p.FirstFrame.Round(time.Millisecond), p.Bought.Round(time.Millisecond))
}

// writeKey writes a new ed25519 key for ssh, 0600, in a new directory.
func writeKey() (string, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", err
	}
	block, err := gossh.MarshalPrivateKey(priv, "sshattack player")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "sshattack")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "id_ed25519")
	return path, os.WriteFile(path, pem.EncodeToMemory(block), 0o600)
}

// playSSH runs OpenSSH's ssh in a 100×30 terminal of its own, from
// 127.0.0.1, and returns how long it took to draw the menu.
func playSSH(ctx context.Context, addr, keyFile string) (time.Duration, error) {
	host, port, _ := net.SplitHostPort(addr)
	ctx, cancel := context.WithTimeout(ctx, probeLimit)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "ssh", "-p", port, "-i", keyFile, "-o", "IdentitiesOnly=yes",
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
		"-o", "BindAddress=127.0.0.1", "visitor@"+host)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "LANG=C")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		return 0, err
	}
	defer func() {
		f.Write([]byte("\x03"))
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	}()
	var mu sync.Mutex
	var out strings.Builder
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			mu.Lock()
			out.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	for {
		mu.Lock()
		shown := strings.Contains(ansi.Strip(out.String()), "Choose a game")
		mu.Unlock()
		if shown {
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("no menu within %s", probeLimit)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
