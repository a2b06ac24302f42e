package server

import (
	"io"
	"time"
)

// Bounds on what a session's input may make the server hold or do. The
// session's input reader (readEvents, read as ultraviolet's reader reads,
// which Bubble Tea runs) keeps every byte it has not decoded yet, and
// waits for more while bytes keep coming: an unfinished paste, an
// unterminated OSC string, a control sequence that never gets its final
// byte, an invalid UTF-8 byte, or even ESC and one byte (alt+x) followed by
// a stream, grow its buffer without end (and it rescans it on each read).
// The guard below hands it only what it decodes at once, or what its 50 ms
// escape timeout settles.
const (
	// maxPaste bounds a bracketed paste: past it, the paste is closed for
	// the reader and the rest of it dropped, up to its real end.
	maxPaste = 64 << 10
	// maxCSI bounds a control sequence's bytes after ESC [; maxParams
	// its parameters (the reader keeps 32, and waits at a 33rd);
	// maxDigits each one's digits (no overflow).
	maxCSI    = 64
	maxParams = 16
	maxDigits = 7
	// maxSS3Digits bounds the digits of an SS3 key (ESC O).
	maxSS3Digits = 3
	// maxString bounds an OSC, DCS, APC, PM or SOS string, which the guard
	// drops whole (past the bound, what follows is input again); maxColour
	// bounds the one string kept, a terminal's colour reply (OSC 10-12),
	// which the game asks for.
	maxString = 4 << 10
	maxColour = 64
	// splitWithin is how soon after a lone ESC was handed over (as the
	// Escape key) the next bytes must come to be taken for the rest of a
	// sequence split across reads, and dropped: a person's next key comes
	// later.
	splitWithin = 50 * time.Millisecond
	// inputRate and inputBurst bound the input handed to the game, in
	// bytes a second and at once: a stream of pastes waits for it.
	// eventRate and eventBurst bound its keys, clicks and reports (a
	// paste is one): past them each is dropped whole, not kept for later,
	// so that a session sent more than a person types or clicks (a
	// client's bug, a drag's motion reports, a flood) answers the events
	// it is handed at once rather than later and later; a client
	// streaming keys would otherwise spend the server's CPU on frames
	// (2 048 one-byte keys a second scrolling a history of 200 units at
	// 300×100 took a core).
	inputRate  = 2 << 10
	inputBurst = maxPaste
	eventRate  = 100
	eventBurst = 200
)

// pasteEnd ends a bracketed paste.
const pasteEnd = "\x1b[201~"

// escapeKey is the Escape key as the guard hands it over: in the kitty
// keyboard protocol's form, which the reader decodes at once, where a
// lone ESC would have it wait 50 ms for what follows, and take what does
// for an alt key or a sequence.
const escapeKey = "\x1b[27u"

// inputGuard is a session's input as the game reads it: escape sequences
// whole, bounded and well formed (held until their last byte, then handed
// over or dropped), the Escape key as CSI 27 u, alt keys dropped (the game
// has none, and ESC and a byte is what the reader waits on), strings
// dropped but the colour replies, only valid UTF-8, pastes cut at
// maxPaste, and a rate. Every ESC it hands over starts a whole sequence:
// the reader decodes each read at once, and keeps nothing. Across reads it
// keeps at most a sequence's bytes.
type inputGuard struct {
	r     io.Reader
	now   func() time.Time
	sleep func(time.Duration)
	done  <-chan struct{}

	in  [4096]byte
	out []byte // filtered, not read yet
	err error  // the reader's error, once out is read

	st   inState
	escs int    // ESCs held before the sequence under way (1, or 2 for alt+ESC…: dropped)
	held []byte // the sequence's bytes after its ESC, or a rune's, not handed over yet
	// A lone ESC was handed over at a read's end, at flushedAt: bytes
	// coming within splitWithin may be the rest of a sequence split across
	// reads.
	flushed   bool
	flushedAt time.Time
	// The sequence under way: its parameters, its digits, its first
	// parameter's value; whether it began with a prefix byte (< = > ?) or
	// has intermediate bytes.
	params, digits, first    int
	firstDone, prefix, inter bool
	drop                     bool // the rest of the sequence is dropped
	alted                    bool // an ESC came before its ESC (an alt key's)
	kind                     byte // a string's introducer: ] P _ ^ X
	n                        int  // a string's bytes
	need                     int  // a UTF-8 rune's bytes still to come
	lo, hi                   byte // the range of its next byte
	skip                     int  // bytes of an X10 mouse report to drop

	paste  bool // within a bracketed paste
	pasted int  // the paste's bytes handed over
	match  int  // bytes of pasteEnd matched, while a cut paste is dropped

	wakeAt  time.Time // no bytes are handed over before then
	bytes   bucket    // inputRate's
	events  bucket    // eventRate's
	filled  time.Time // when the buckets were filled
	dropped int       // events dropped past eventRate
	onDrop  func()    // called at each event dropped (the metrics'); nil: none
}

// bucket is a token bucket: rate tokens a second, burst at most.
type bucket struct{ rate, burst, tokens float64 }

func newBucket(rate, burst float64) bucket { return bucket{rate: rate, burst: burst, tokens: burst} }

// fill adds what d brought, and takes n.
func (b *bucket) fill(d time.Duration, n int) {
	b.tokens = min(b.burst, b.tokens+d.Seconds()*b.rate) - float64(n)
}

// owed is how long until the bucket holds a token again.
func (b *bucket) owed() time.Duration {
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / b.rate * float64(time.Second))
}

// inState is where the guard stands in the input.
type inState uint8

const (
	inGround    inState = iota
	inEsc               // ESC held, its follower not seen
	inRune              // a UTF-8 rune's first bytes held (after ESCs, for alt+é)
	inCSI               // after ESC [, held
	inSS3               // after ESC O, held
	inColour            // an OSC held: a colour reply, perhaps
	inString            // a string dropped up to its terminator
	inStringEsc         // an ESC in a string: ST when \ follows
	inCut               // a cut paste dropped up to pasteEnd
)

// newInputGuard guards r, until done is closed (the session's program
// over): a wait for the rate ends then, and the input with it, so that
// nothing holds the program any longer.
func newInputGuard(r io.Reader, done <-chan struct{}) *inputGuard {
	g := &inputGuard{r: r, now: time.Now, done: done,
		bytes: newBucket(inputRate, inputBurst), events: newBucket(eventRate, eventBurst)}
	g.sleep = func(d time.Duration) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-done:
		}
	}
	return g
}

// Read hands over the input filtered, once the rate allows.
func (g *inputGuard) Read(p []byte) (int, error) {
	for len(g.out) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		if d := g.wakeAt.Sub(g.now()); d > 0 {
			g.sleep(d)
		}
		select {
		case <-g.done:
			return 0, io.EOF
		default:
		}
		n, err := g.r.Read(g.in[:])
		g.filter(g.in[:n], n == len(g.in) && err == nil)
		g.err = err
	}
	n := copy(p, g.out)
	g.out = g.out[n:]
	if len(g.out) == 0 {
		g.handed()
	}
	return n, nil
}

// handed sets when the next bytes may go, once a read's bytes are all
// handed over: when the rate of bytes allows (past the events' rate, an
// event is dropped, not waited for).
func (g *inputGuard) handed() {
	g.wakeAt = g.now().Add(g.bytes.owed())
}

// filter reads one read's bytes, and settles what the read left under way
// unless it filled the buffer (more is waiting: what is under way goes
// on in the next read).
func (g *inputGuard) filter(b []byte, full bool) {
	if g.flushed && g.now().Sub(g.flushedAt) > splitWithin {
		g.flushed = false
	}
	g.refill()
	before := len(g.out)
	for _, c := range b {
		for g.step(c) {
		}
	}
	if !full {
		g.readEnd()
	}
	g.bytes.fill(0, len(g.out)-before)
}

// refill fills the buckets with what the time since they were last
// filled brought.
func (g *inputGuard) refill() {
	now := g.now()
	var d time.Duration
	if !g.filled.IsZero() {
		d = now.Sub(g.filled)
	}
	g.filled = now
	g.bytes.fill(d, 0)
	g.events.fill(d, 0)
}

// event reports whether an event about to be handed over may be: past
// eventRate it is dropped, whole (a paste's text is one event, its own:
// what comes within a paste always goes, its end with it).
func (g *inputGuard) event() bool {
	if g.paste {
		return true
	}
	if g.events.tokens < 1 {
		g.dropped++
		if g.onDrop != nil {
			g.onDrop()
		}
		return false
	}
	g.events.tokens--
	return true
}

// emit appends bytes to what is handed over, counting a paste's.
func (g *inputGuard) emit(b ...byte) {
	g.out = append(g.out, b...)
	if g.paste {
		g.pasted += len(b)
	}
}

// readEnd settles what a read left under way: a lone ESC is the Escape
// key (its follower, if it comes at once, is the rest of a split
// sequence, dropped), two are alt+Escape, an introducer alone (ESC [, ESC
// O, ESC ]…) was an alt key: dropped, the game has none. A sequence, a
// rune or a string with more of it waits for the next read.
func (g *inputGuard) readEnd() {
	switch {
	case g.st == inEsc:
		if g.escs == 1 {
			if g.event() {
				g.emit([]byte(escapeKey)...)
			}
			// Handed over or dropped, what follows at once is the rest
			// of a sequence split across reads.
			g.flushed, g.flushedAt = true, g.now()
		}
		g.st, g.escs = inGround, 0
	case (g.st == inCSI || g.st == inSS3) && len(g.held) == 1,
		(g.st == inString || g.st == inColour) && g.n == 0:
		g.st, g.held, g.escs = inGround, g.held[:0], 0
	}
}

// step reads one byte; it reports whether the byte is to be read again,
// in the state it left.
func (g *inputGuard) step(c byte) (again bool) {
	switch g.st {
	case inCut:
		g.cutStep(c)
	case inGround:
		return g.ground(c)
	case inRune:
		return g.runeStep(c)
	case inEsc:
		return g.escStep(c)
	case inCSI:
		return g.csiStep(c)
	case inSS3:
		return g.ss3Step(c)
	case inColour:
		return g.colourStep(c)
	case inString:
		g.stringStep(c)
	case inStringEsc:
		return g.stringEscStep(c)
	}
	return false
}

// ground reads a byte outside any sequence.
func (g *inputGuard) ground(c byte) bool {
	if g.skip > 0 {
		g.skip--
		return false
	}
	if g.paste && g.pasted >= maxPaste {
		g.emit([]byte(pasteEnd)...)
		g.paste, g.st, g.match = false, inCut, 0
		return true
	}
	if g.flushed {
		g.flushed = false
		switch c {
		case '[', 'O', ']', 'P', '_', '^', 'X':
			g.introduce(c)
			g.drop = true
			return false
		}
	}
	switch {
	case c == 0x1b:
		g.st, g.escs = inEsc, 1
	case c < 0x80:
		if g.event() {
			g.emit(c)
		}
	case leads(c):
		g.beginRune(c)
	}
	// C1 controls, stray continuation bytes and invalid leads are dropped:
	// the reader would stop at them (or take 8-bit CSI and OSC from them).
	return false
}
