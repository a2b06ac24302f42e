package sshload

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRunRefuses checks that a load that is unbounded, or not on
// loopback, is refused before any connection.
func TestRunRefuses(t *testing.T) {
	ok := Config{Addrs: []string{"127.0.0.1:1"}, Sessions: 1, Press: "a", Every: time.Second, For: time.Second}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Addrs = nil }, "no server address"},
		{func(c *Config) { c.Sessions = 0 }, "0 sessions"},
		{func(c *Config) { c.Sessions = maxSessions + 1 }, "10001 sessions"},
		{func(c *Config) { c.Every = 0 }, "want both positive"},
		{func(c *Config) { c.For = 25 * time.Hour }, "at most 24h"},
		{func(c *Config) { c.Press = "" }, "no key"},
		{func(c *Config) { c.Addrs = []string{"example.com:22"} }, "not a loopback address"},
		{func(c *Config) { c.Addrs = []string{"10.0.0.1:22"} }, "not a loopback address"},
		{func(c *Config) { c.Addrs = []string{"127.0.0.1"} }, "missing port"},
	} {
		c := ok
		tc.change(&c)
		_, err := Run(context.Background(), c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", c, err, tc.want)
		}
	}
}
