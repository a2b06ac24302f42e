package server

import (
	"io"
	"time"
)

// Bounds on what a session's input may make the server hold or do. Bubble
// Tea's input reader (ultraviolet's) keeps every byte it has not decoded
// yet, and waits for more while bytes keep coming: an unfinished paste, an
// unterminated OSC string, a control sequence that never gets its final
// byte, an invalid UTF-8 byte, or even ESC and one byte (alt+x) followed by
// a stream, grow its buffer without end (and rescans it on each read). The
// guard below hands it only what it decodes at once, or what its 50 ms
// escape timeout settles.
const (
	// maxPaste bounds a bracketed paste: past it, the paste is closed for
	// the reader and the rest of it dropped, up to its real end.
	maxPaste = 64 << 10
	// maxCSI bounds a control sequence's bytes after ESC [; maxParams
	// its parameters (the reader keeps 32); maxDigits each one's digits.
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
	// escPause is how long the guard lets pass after handing the reader a
	// key that starts with ESC and ends one byte later (alt+x, a lone ESC):
	// the reader holds such a key until 50 ms pass without input, and
	// holds everything after it meanwhile.
	escPause = 100 * time.Millisecond
	// inputRate and inputBurst bound the input handed to the game, in
	// bytes a second and at once: a person types, clicks and pastes far
	// less; a client streaming keys would spend the server's CPU on frames.
	inputRate  = 2 << 10
	inputBurst = maxPaste
)

// pasteEnd ends a bracketed paste.
const pasteEnd = "\x1b[201~"

// inputGuard is a session's input as the game reads it: every escape
// sequence bounded and well formed, strings dropped (but the colour
// replies), only valid UTF-8, pastes cut at maxPaste, and a pause after a
// key the reader would hold. It keeps at most a few bytes across reads.
type inputGuard struct {
	r     io.Reader
	now   func() time.Time
	sleep func(time.Duration)

	in  [4096]byte
	out []byte // filtered, not read yet
	err error  // the reader's error, once out is read

	st     inState
	escs   int  // ESCs held (1, or 2 for alt+ESC…)
	afterE bool // a lone ESC was handed over at a read's end: its follower may be the rest of a split sequence
	held   []byte
	// The sequence under way: its bytes (after ESC [, ESC O or the
	// string's introducer), parameters, digits, first parameter's value.
	n, params, digits, first int
	firstDone, prefix, inter bool
	drop                     bool // the rest of the sequence is dropped
	kind                     byte // a string's introducer: ] P _ ^ X
	need                     int  // a UTF-8 rune's bytes still to come
	lo, hi                   byte // the range of its next byte
	skip                     int  // bytes of an X10 mouse report to drop

	paste  bool // within a bracketed paste
	pasted int  // the paste's bytes handed over
	match  int  // bytes of pasteEnd matched, while a cut paste is dropped

	pause  bool      // the last bytes handed over need escPause before more
	wakeAt time.Time // no bytes are handed over before then
	tokens float64   // inputRate's bucket
	filled time.Time // when tokens was counted
}

// inState is where the guard stands in the input.
type inState uint8

const (
	inGround    inState = iota
	inEsc               // ESC held, its follower not seen
	inRune              // a UTF-8 rune's first bytes held
	inCSI               // after ESC [
	inSS3               // after ESC O
	inColour            // an OSC held: a colour reply, perhaps
	inString            // a string dropped up to its terminator
	inStringEsc         // an ESC in a string: ST when \ follows
	inCut               // a cut paste dropped up to pasteEnd
)

// newInputGuard guards r.
func newInputGuard(r io.Reader) *inputGuard {
	return &inputGuard{r: r, now: time.Now, sleep: time.Sleep, tokens: inputBurst}
}

// Read hands over the input filtered, once the pause or the rate allows.
func (g *inputGuard) Read(p []byte) (int, error) {
	for len(g.out) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		if d := g.wakeAt.Sub(g.now()); d > 0 {
			g.sleep(d)
		}
		n, err := g.r.Read(g.in[:])
		g.filter(g.in[:n])
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
// handed over.
func (g *inputGuard) handed() {
	now := g.now()
	g.wakeAt = now
	if g.pause {
		g.pause = false
		g.wakeAt = now.Add(escPause)
	}
	if g.tokens < 0 {
		if at := now.Add(time.Duration(-g.tokens / inputRate * float64(time.Second))); at.After(g.wakeAt) {
			g.wakeAt = at
		}
	}
}

// filter reads one read's bytes.
func (g *inputGuard) filter(b []byte) {
	before := len(g.out)
	for _, c := range b {
		for g.step(c) {
		}
	}
	g.chunkEnd()
	g.spend(len(g.out) - before)
}

// spend takes n bytes handed over from the rate's bucket.
func (g *inputGuard) spend(n int) {
	now := g.now()
	if !g.filled.IsZero() {
		g.tokens = min(inputBurst, g.tokens+now.Sub(g.filled).Seconds()*inputRate)
	}
	g.filled = now
	g.tokens -= float64(n)
}

// emit hands bytes over.
func (g *inputGuard) emit(b ...byte) {
	g.out = append(g.out, b...)
	if g.paste {
		g.pasted += len(b)
	}
}

// emitEscs hands over the ESCs held, two in a row at most: each ESC in a
// row deepens the reader's decoder by one recursion.
func (g *inputGuard) emitEscs() {
	run := 0
	for i := len(g.out) - 1; i >= 0 && g.out[i] == 0x1b; i-- {
		run++
	}
	for range min(g.escs, 2-min(run, 2)) {
		g.emit(0x1b)
	}
	g.escs = 0
}

// chunkEnd settles what a read left under way: a lone ESC is handed over
// (the Escape key; its follower, if it comes, is the rest of a sequence
// split across reads, dropped), a string's introducer alone was an alt key.
func (g *inputGuard) chunkEnd() {
	switch g.st {
	case inEsc:
		g.emitEscs()
		g.st, g.afterE, g.pause = inGround, true, true
	case inString, inColour:
		if g.n == 0 {
			g.st, g.held = inGround, g.held[:0]
		}
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
	if g.afterE {
		g.afterE = false
		switch c {
		case '[':
			g.begin(inCSI)
			g.drop = true
			return false
		case 'O':
			g.begin(inSS3)
			g.drop = true
			return false
		case ']', 'P', '_', '^', 'X':
			g.begin(inString)
			g.kind = c
			return false
		}
	}
	switch {
	case c == 0x1b:
		g.st, g.escs = inEsc, 1
	case c < 0x80:
		g.emit(c)
	case c >= 0xc2 && c <= 0xf4:
		g.st, g.held = inRune, append(g.held[:0], c)
		g.lo, g.hi = 0x80, 0xbf
		switch {
		case c < 0xe0:
			g.need = 1
		case c < 0xf0:
			g.need = 2
			if c == 0xe0 {
				g.lo = 0xa0
			} else if c == 0xed {
				g.hi = 0x9f
			}
		default:
			g.need = 3
			if c == 0xf0 {
				g.lo = 0x90
			} else if c == 0xf4 {
				g.hi = 0x8f
			}
		}
	}
	// C1 controls, stray continuation bytes and invalid leads are dropped:
	// the reader would stop at them (or take 8-bit CSI and OSC from them).
	return false
}

// runeStep reads the next byte of a UTF-8 rune.
func (g *inputGuard) runeStep(c byte) bool {
	if c < g.lo || c > g.hi {
		g.st, g.held = inGround, g.held[:0]
		return true
	}
	g.held = append(g.held, c)
	g.lo, g.hi = 0x80, 0xbf
	if g.need--; g.need > 0 {
		return false
	}
	// U+FFFD decodes as utf8.RuneError, at which the reader stops too.
	if string(g.held) != "\uFFFD" {
		g.emit(g.held...)
	}
	g.st, g.held = inGround, g.held[:0]
	return false
}

// begin starts a sequence.
func (g *inputGuard) begin(st inState) {
	g.st = st
	g.n, g.params, g.digits, g.first = 0, 0, 0, 0
	g.firstDone, g.prefix, g.inter, g.drop = false, false, false, false
}

// escStep reads the byte after ESC.
func (g *inputGuard) escStep(c byte) bool {
	switch c {
	case '[', 'O':
		g.emitEscs()
		g.emit(c)
		if c == '[' {
			g.begin(inCSI)
		} else {
			g.begin(inSS3)
		}
	case ']':
		g.begin(inColour)
		g.escs, g.kind, g.held = 0, c, append(g.held[:0], 0x1b, ']')
	case 'P', '_', '^', 'X':
		g.begin(inString)
		g.escs, g.kind = 0, c
	case 0x1b: // alt+ESC…: a third ESC would only deepen the reader's recursion
		g.escs = 2
	default: // alt+c, or the Escape key before c
		g.emitEscs()
		g.st, g.pause = inGround, true
		return true
	}
	return false
}

// csiStep reads a byte of a control sequence: parameter bytes, then
// intermediate bytes, then a final byte. A sequence cut short by another
// byte, or past the bounds, is ended with noKey;
// an X10 mouse report (ESC [ M and three raw bytes) is ended so too, its
// bytes dropped: the game reads SGR mouse reports.
func (g *inputGuard) csiStep(c byte) bool {
	switch {
	case c >= 0x30 && c <= 0x3f && !g.inter:
		if g.n == 0 && c >= '<' { // the reader takes a first byte of < = > ? as a prefix
			g.prefix = true
		}
		switch {
		case c >= '0' && c <= '9':
			g.digits++
			if !g.firstDone {
				g.first = g.first*10 + int(c-'0')
			}
		case c == ';' || c == ':':
			g.params++
			g.digits, g.firstDone = 0, true
		}
		g.n++
		g.seqByte(c, g.digits > maxDigits || g.params > maxParams || g.n > maxCSI)
	case c >= 0x20 && c <= 0x2f:
		g.inter = true
		g.n++
		g.seqByte(c, g.n > maxCSI)
	case c >= 0x40 && c <= 0x7e:
		g.st = inGround
		if g.drop {
			return false
		}
		plain := !g.prefix && !g.inter
		if c == 'M' && plain {
			g.emit(noKey)
			g.skip = 3
			return false
		}
		g.emit(c)
		if c == '~' && plain && g.n > 0 {
			switch g.first {
			case 200:
				g.paste, g.pasted = true, 0
			case 201:
				g.paste = false
			}
		}
	default:
		return g.cutShort()
	}
	return false
}

// noKey is the final byte the guard ends a sequence with, when the
// client's would not do: no key has it, for CSI nor SS3.
const noKey = 'z'

// seqByte hands over a byte of the sequence under way, unless the rest
// of it is dropped; past its bounds (over), the sequence is ended with
// noKey, and the rest of it dropped.
func (g *inputGuard) seqByte(c byte, over bool) {
	switch {
	case g.drop:
	case over:
		g.emit(noKey)
		g.drop = true
	default:
		g.emit(c)
	}
}

// cutShort ends a sequence cut short by a byte of none (with noKey,
// unless dropped); the byte is read again, outside.
func (g *inputGuard) cutShort() bool {
	if !g.drop {
		g.emit(noKey)
	}
	g.st = inGround
	return true
}

// ss3Step reads a byte of an SS3 key: digits, then one character.
func (g *inputGuard) ss3Step(c byte) bool {
	switch {
	case c >= '0' && c <= '9':
		g.n++
		g.seqByte(c, g.n > maxSS3Digits)
	case c >= 0x21 && c <= 0x7e:
		g.seqByte(c, false)
		g.st = inGround
	default:
		return g.cutShort()
	}
	return false
}

// colourStep reads a byte of an OSC held: a colour reply (OSC 10, 11 or
// 12 ; a colour) is handed over whole at its end; anything else is a
// string to drop.
func (g *inputGuard) colourStep(c byte) bool {
	g.n++
	switch {
	case c == 0x07 || c == 0x9c:
		g.colourEnd()
		return false
	case c == 0x1b:
		g.st = inStringEsc
		return false
	case !g.firstDone && c >= '0' && c <= '9' && g.digits < 2:
		g.digits++
		g.first = g.first*10 + int(c-'0')
	case !g.firstDone && c == ';' && g.digits > 0:
		g.firstDone = true
	case g.firstDone && c >= 0x20 && c <= 0x7e && len(g.held) < maxColour:
	default:
		g.st, g.held = inString, g.held[:0]
		return true
	}
	g.held = append(g.held, c)
	return false
}

// colourEnd ends a colour reply held: handed over if it is one.
func (g *inputGuard) colourEnd() {
	if g.firstDone && g.first >= 10 && g.first <= 12 && len(g.held) > 3+g.digits {
		g.emit(g.held...)
		g.emit(0x07)
	}
	g.st, g.held = inGround, g.held[:0]
}

// stringStep reads a byte of a string dropped: up to its terminator (BEL
// for an OSC, ST, CAN or SUB; ESC \ is read by stringEscStep), or
// maxString bytes, past which what follows is input again.
func (g *inputGuard) stringStep(c byte) {
	g.n++
	switch {
	case c == 0x9c || c == 0x18 || c == 0x1a || (c == 0x07 && g.kind == ']'):
		g.st = inGround
	case c == 0x1b:
		g.st = inStringEsc
	case g.n > maxString:
		g.st = inGround
	}
}

// stringEscStep reads the byte after an ESC in a string: \ ends it (ST);
// any other byte ends it too, and the ESC starts a sequence.
func (g *inputGuard) stringEscStep(c byte) bool {
	colour := g.kind == ']' && len(g.held) > 0
	if c == '\\' {
		if colour {
			g.colourEnd()
		}
		g.st, g.held = inGround, g.held[:0]
		return false
	}
	g.held = g.held[:0]
	g.st, g.escs = inEsc, 1
	return true
}

// cutStep drops a cut paste up to its end.
func (g *inputGuard) cutStep(c byte) {
	switch {
	case c == pasteEnd[g.match]:
		if g.match++; g.match == len(pasteEnd) {
			g.st, g.match = inGround, 0
		}
	case c == 0x1b:
		g.match = 1
	default:
		g.match = 0
	}
}
