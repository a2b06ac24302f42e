package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// TestServeCommand runs tapis serve as a process: it says where it
// listens, a player's SSH session plays, and SIGTERM stops it with exit
// status 0, the shutdown and the player's session in its log.
func TestServeCommand(t *testing.T) {
	bin := buildTapis(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--store", "sqlite:"+filepath.Join(dir, "tapis.db"),
		"--host-key", filepath.Join(dir, ".tapis", "host_ed25519"))
	logs := &lockedBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	listening := regexp.MustCompile(`listening addr=(\S+)`)
	var where string
	for deadline := time.Now().Add(30 * time.Second); where == ""; time.Sleep(20 * time.Millisecond) {
		if m := listening.FindStringSubmatch(logs.String()); m != nil {
			where = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("tapis serve never said where it listens:\n%s", logs.String())
		}
	}

	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := gossh.NewSignerFromKey(priv)
	c, err := gossh.Dial("tcp", where, &gossh.ClientConfig{User: "visitor", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	s.Stdout = out
	if err := s.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(ansi.Strip(out.String()), "Choose a game"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the menu never showed:\n%s", ansi.Strip(out.String()))
		}
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("tapis serve did not stop after SIGTERM:\n%s", logs.String())
	}
	for _, want := range []string{"shutting down signal=terminated players=1", "played account=" + gossh.FingerprintSHA256(signer.PublicKey())} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no %q in the log:\n%s", want, logs.String())
		}
	}
}

// lockedBuffer is a buffer written and read from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
