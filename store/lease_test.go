package store

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tapis/internal/pgtest"
)

// leaseChild is set in a child process of TestLease*: it opens the store
// it names, holds the account "held", says so on its standard output and
// waits to be killed.
const leaseChild = "TAPIS_LEASE_CHILD"

func init() {
	url := os.Getenv(leaseChild)
	if url == "" {
		return
	}
	s, err := Open(context.Background(), url, Options{Tables: SmallTables})
	if err == nil {
		_, err = s.Hold(context.Background(), "held")
	}
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("holding\n")
	time.Sleep(time.Minute)
	os.Exit(0)
}

func TestLeaseSQLite(t *testing.T) {
	url := filepath.Join(t.TempDir(), "lease.db")
	holdsOneSellerAtATime(t, url)
}

func TestPostgresLease(t *testing.T) {
	holdsOneSellerAtATime(t, pgtest.Fresh(t))
}

// holdsOneSellerAtATime: an account is held by one seller at a time, in
// one store, in two stores of one process, in two processes; released,
// or its holder killed, it is taken at once.
func holdsOneSellerAtATime(t *testing.T, url string) {
	ctx := context.Background()
	open := func() *SQL {
		s, err := Open(ctx, url, Options{Seed: 5, SeedSet: true, Tables: SmallTables})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	lease, err := a.Hold(ctx, "alice")
	if err != nil {
		t.Fatalf("the first hold: %v", err)
	}
	host, _ := os.Hostname()
	for name, s := range map[string]*SQL{"the same store": a, "another store of the process": b} {
		_, err := s.Hold(ctx, "alice")
		var inUse *InUseError
		if !errors.As(err, &inUse) || inUse.PID != os.Getpid() || inUse.Host != host {
			t.Errorf("%s holds alice again: %v", name, err)
		}
	}
	want := "account alice is in use by another seller (pid "
	if _, err := b.Hold(ctx, "alice"); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("refusal %q, want it to start %q", err, want)
	}
	other, err := b.Hold(ctx, "bob")
	if err != nil {
		t.Fatalf("another account: %v", err)
	}
	if err := lease.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := b.Hold(ctx, "alice")
	if err != nil {
		t.Fatalf("alice released, held by another store: %v", err)
	}
	again.Release()
	other.Release()

	// Another process holds it; killed, it lets it go at once.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), leaseChild+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "holding\n" {
		t.Fatalf("the child said %q", line)
	}
	_, err = a.Hold(ctx, "held")
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != cmd.Process.Pid {
		t.Fatalf("held by pid %d: %v", cmd.Process.Pid, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	start := time.Now()
	for {
		l, err := a.Hold(ctx, "held")
		if err == nil {
			l.Release()
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("its holder killed, the account is still held: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // PostgreSQL sees the connection end
	}
	t.Logf("taken %v after its holder's SIGKILL", time.Since(start).Round(time.Millisecond))
}
