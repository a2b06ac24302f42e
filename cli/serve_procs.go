package cli

import (
	"runtime"
	"time"

	"charm.land/log/v2"

	"tapis/internal/beat"
)

// procsEvery is how often tapis serve weighs the processors it runs on
// against the CPU it used since, while its load is not light or someone
// arrived (procsRestEvery): a room logging in at once (SSH handshakes,
// accounts opened, first frames) is given a second processor within a
// quarter of a second or so.
const procsEvery = 250 * time.Millisecond

// procsRestEvery is how often procs looks while the load is light (under
// procsLight cores on one processor) and no one arrived for two seconds: a
// server sitting with its players is woken once a second, when their
// clocks wake it anyway, rather than four times. An arrival (nudge) has
// it look at the next quarter second again, and every quarter for
// procsCalm looks at least.
const procsRestEvery = time.Second

// procsLight is the load, in cores on one processor, under which procs
// looks every procsRestEvery: a third of what asks for a second one.
const procsLight = 0.25

// procsCalm is how many looks in a row a processor is taken back after:
// two seconds of a lighter load, measured at the processors it has.
const procsCalm = 8

// procs keeps the processors Go runs tapis serve's goroutines on
// (GOMAXPROCS) to what its load uses: one, and more, up to what Go chose
// for the machine, only while the load keeps them busy. A server of a few
// hundred sessions uses a fraction of a core in thousands of short wakes a
// second (a frame, a clock's second, a packet); with a processor idle, Go
// wakes a thread at each to look for work on it and parks the thread
// again, which costs more than the work: 200 sessions sitting cost 56 µs
// of CPU a second each on one processor, 70 on two, and 200 pressing Auto
// 8 % less (README, Serving over SSH: Processors). GOMAXPROCS set in the
// environment wins.
type procs struct {
	n, most int
	// cpu returns the CPU time the process used so far.
	cpu func() time.Duration
	// set gives the runtime n processors.
	set func(n int)
	// changed is told of each change, with the cores used that led to it.
	changed func(n int, used float64)
	// pace sets the period of the looks; nil: they keep theirs.
	pace  func(d time.Duration)
	every time.Duration // the period set last
	// arrived counts down the looks that come every procsEvery since the
	// last arrival, whatever the load: procsCalm of them, two seconds.
	arrived int

	cpus, walls [procsCalm]time.Duration // the last looks', a ring
	at          int                      // where the next look goes in the ring
	looks       int                      // looks since the last change, up to procsCalm
}

// nextProcs is how many processors a load of used cores (CPU time over
// wall time) needs on n of them, from 1 to most: one more when it keeps
// three quarters of the n busy, one fewer when it would keep under half
// of n-1 busy. Between the two it stays, so that a load near a bound does
// not move it at each look.
func nextProcs(n, most int, used float64) int {
	switch {
	case used > 0.75*float64(n) && n < most:
		return n + 1
	case n > 1 && used < 0.5*float64(n-1):
		return n - 1
	}
	return n
}

// look takes the CPU time used over the last wall time: a processor more
// as soon as one look asks for it, one fewer once procsCalm looks in a row
// since the last change, taken together, ask for it.
func (p *procs) look(cpu, wall time.Duration) {
	p.cpus[p.at], p.walls[p.at] = cpu, wall
	p.at = (p.at + 1) % procsCalm
	p.looks = min(p.looks+1, procsCalm)
	used, n := float64(cpu)/float64(wall), p.n
	if up := nextProcs(p.n, p.most, used); up > p.n {
		n = up
	} else if p.looks == procsCalm {
		var c, w time.Duration
		for i := range procsCalm {
			c, w = c+p.cpus[i], w+p.walls[i]
		}
		if used = float64(c) / float64(w); nextProcs(p.n, p.most, used) < p.n {
			n = p.n - 1
		}
	}
	if n != p.n {
		p.n, p.looks = n, 0
		p.set(n)
		p.changed(n, used)
	}
	if p.arrived > 0 {
		p.arrived--
	}
	if p.n == 1 && p.arrived == 0 && float64(cpu)/float64(wall) < procsLight {
		p.setPace(procsRestEvery)
	} else {
		p.setPace(procsEvery)
	}
}

// setPace has the looks come every d.
func (p *procs) setPace(d time.Duration) {
	if p.pace != nil && d != p.every {
		p.every = d
		p.pace(d)
	}
}

// run looks at the load at each tick, and has the looks come every
// procsEvery at each nudge (someone arrived), until done is closed.
func (p *procs) run(tick <-chan time.Time, nudge <-chan struct{}, done <-chan struct{}) {
	last, at := p.cpu(), time.Now()
	for {
		select {
		case <-done:
			return
		case <-nudge:
			p.arrived = procsCalm
			if p.every == procsRestEvery {
				// At rest: the next look weighs what comes from now, not
				// a quiet second with a room's first moment at its end.
				p.setPace(procsEvery)
				last, at = p.cpu(), time.Now()
			}
		case now := <-tick:
			// The ticks fall on the quarter seconds of the wall clock, the
			// first one at any moment after the start: a look spans at
			// least half a period, or the CPU time the system counts at its
			// own ticks (some 4 ms) would be most of it.
			if wall := now.Sub(at); wall >= procsEvery/2 {
				c := p.cpu()
				p.look(c-last, wall)
				last, at = c, now
			}
		}
	}
}

// startProcs puts tapis serve on one processor and has procs follow its
// load, logging where it starts (n and most) and each change (with the
// cores used that led to it); it returns the function that stops it and
// gives the runtime back its own choice (the in-process tests run serve,
// then more). Where the process's CPU time cannot be read, or Go gave it
// one processor, it logs what it keeps and follows nothing. A value on
// nudge says someone arrived.
func startProcs(logger *log.Logger, nudge <-chan struct{}) (stop func()) {
	cpu, ok := processCPU()
	most := runtime.GOMAXPROCS(0)
	if !ok || most <= 1 {
		logger.Info("processors", "n", most, "most", most)
		return func() {}
	}
	p := &procs{n: 1, most: most, cpu: cpu, set: func(n int) { runtime.GOMAXPROCS(n) },
		changed: func(n int, used float64) {
			logger.Info("processors", "n", n, "most", most, "cores_used", float64(int(used*100))/100)
		}}
	p.set(1)
	logger.Info("processors", "n", 1, "most", most)
	tick := beat.NewTicker(procsEvery)
	p.pace, p.every = tick.Reset, procsEvery
	done, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		p.run(tick.C, nudge, done)
	}()
	return func() {
		tick.Stop()
		close(done)
		<-over
		runtime.SetDefaultGOMAXPROCS()
	}
}
