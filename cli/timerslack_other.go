//go:build !linux

package cli

import "time"

// SettleTimerSlack does nothing where the system has no timer slack to set
// (Linux's prctl PR_SET_TIMERSLACK): the process keeps its timers' own.
func SettleTimerSlack(time.Duration) error { return nil }
