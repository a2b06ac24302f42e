package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestServeUsageErrors: a bad flag, or a store or host key that cannot
// serve, stops tapis serve before it listens: one line, exit status 2.
func TestServeUsageErrors(t *testing.T) {
	dir, shop := houseStore(t)
	open := filepath.Join(dir, "open_key")
	if err := os.WriteFile(open, []byte("key"), 0o644); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(dir, "key")
	house := testKeyFile(t)
	// A store others may read: it holds the house's seed.
	_, readable := houseStore(t)
	if err := os.Chmod(readable, 0o644); err != nil {
		t.Fatal(err)
	}
	usageErrors(t, "serve", []usageCase{
		{[]string{"--host-key", key, "--house-key", house, "--store", "sqlite:" + readable, "--listen", "127.0.0.1:0"},
			"store " + readable + " can be read by others (mode 0644): chmod 600 " + readable},
		{[]string{"--balance", "-1"}, "--balance: amount -1 is negative"},
		{[]string{"--balance", "2000000000"}, "--balance 2000000000: at most 1000000000"},
		{[]string{"--max-sessions", "0"}, "--max-sessions 0: want 1 to 100000"},
		{[]string{"--max-boards", "0"}, "--max-boards 0: want 1 to 100000"},
		{[]string{"--max-per-address", "-1"}, "--max-per-address -1: want 0 (no bound) to 100000"},
		{[]string{"--max-startups", "10:30"}, `--max-startups "10:30": want START:RATE:FULL or FULL`},
		{[]string{"--max-startups", "50:30:10"}, `--max-startups "50:30:10": want 0 ≤ START ≤ FULL`},
		{[]string{"--max-startups", "a:b:c"}, `--max-startups "a:b:c": want START:RATE:FULL or FULL, whole numbers`},
		{[]string{"--guests=maybe"}, `invalid boolean value "maybe" for -guests`},
		{[]string{"--open-blocks", "0"}, "--open-blocks 0: want 1 to 64"},
		{[]string{"--open-blocks", "65"}, "--open-blocks 65: want 1 to 64"},
		{[]string{"--idle-timeout", "10ms"}, "--idle-timeout 10ms: want 0 (never), or 1s to 168h"},
		{[]string{"--idle-timeout", "soon"}, `invalid value "soon" for flag -idle-timeout`},
		{[]string{"--timer-slack", "-1ms"}, "--timer-slack -1ms: want 0 (the slack it was started with) to 100ms"},
		{[]string{"--timer-slack", "101ms"}, "--timer-slack 101ms: want 0 (the slack it was started with) to 100ms"},
		{[]string{"--reality-check", "500ms"}, "--reality-check 500ms: want 0 (never), or 1s to 168h"},
		{[]string{"--reality-check", "169h"}, "--reality-check 169h0m0s: want 0 (never), or 1s to 168h"},
		{[]string{"--loss-limit", "0"}, "--loss-limit 0: want more than 0, at most 1000000"},
		{[]string{"--loss-limit", "1000000,01"}, "--loss-limit 1000000,01: want more than 0, at most 1000000"},
		{[]string{"--loss-limit", "-5"}, "--loss-limit: amount -5 is negative"},
		{[]string{"--loss-limit", "lots"}, `--loss-limit: "lots" is not an amount in euros`},
		{[]string{"--store", "tapis.json"}, "--store tapis.json: want sqlite:PATH"},
		{[]string{"--host-key", ""}, "--host-key is empty"},
		{[]string{"board"}, `unexpected argument "board"`},
		{[]string{"--log-format", "xml"}, "--log-format xml: want text or json"},
		{[]string{"--state-dir", ""}, "--state-dir is empty: want a folder"},
		{[]string{"--operator-keys", filepath.Join(dir, "no_such_keys"), "--listen", "127.0.0.1:0"}, "--operator-keys: open " + filepath.Join(dir, "no_such_keys") + ": no such file or directory"},
		{[]string{"--operator-keys", open, "--listen", "127.0.0.1:0"}, "--operator-keys " + open + ": line 1: not a public key"},
		{[]string{"--host-key", filepath.Join(dir, "new_key"), "--store", "sqlite:" + filepath.Join(dir, "new.db"), "--listen", "127.0.0.1:0", "--metrics", "nonsense"},
			"--metrics: listen tcp: address nonsense: missing port in address"},
		{[]string{"--host-key", open, "--house-key", house, "--store", "sqlite:" + shop, "--listen", "127.0.0.1:0"}, "can be read by others (mode 0644): chmod 600"},
		{[]string{"--host-key", key, "--house-key", house, "--store", "sqlite:" + shop, "--qa", "--listen", "127.0.0.1:0"}, "QA plays on a store created with --qa"},
		{[]string{"--host-key", key, "--house-key", house, "--store", "sqlite:" + shop, "--listen", "127.0.0.1:99999"}, "--listen: listen tcp: address 99999: invalid port"},
		{[]string{"--host-key", filepath.Join(dir, "new_key"), "--store", "sqlite:" + filepath.Join(dir, "new.db"), "--listen", "nonsense"},
			"--listen: listen tcp: address nonsense: missing port in address"},
	})
	// An address that cannot be used leaves nothing behind.
	for _, name := range []string{"new_key", "new.db"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("serve with a bad --listen left %s behind: %v", name, err)
		}
	}
}
