//go:build !unix

package cli

import "time"

// processCPU reports that the process's CPU time is not read here: tapis
// serve keeps the processors Go gives it.
func processCPU() (func() time.Duration, bool) { return nil, false }
