package server

// The input guard's steps, a byte at a time: runes, escape sequences
// (CSI, SS3), the colour replies, the strings it drops and the rest of a
// paste past its bound. Each reports, where it says so, whether the byte
// is to be read again in the state it left (input.go).

import (
	"strconv"

	"tapis/text"
)

// leads reports whether c begins a UTF-8 rune of two to four bytes.
func leads(c byte) bool { return c >= 0xc2 && c <= 0xf4 }

// beginRune holds a rune's first byte, and the range of the next one
// (utf8's table: no overlong forms, surrogates or runes past U+10FFFF).
func (g *inputGuard) beginRune(c byte) {
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

// runeStep reads the next byte of a UTF-8 rune: a whole rune is handed
// over, unless ESC came before it (alt+é: dropped); a broken one is
// dropped, and an ESC before it waits on for a follower that is kept.
func (g *inputGuard) runeStep(c byte) bool {
	if c < g.lo || c > g.hi {
		g.st, g.held = inGround, g.held[:0]
		if g.escs > 0 {
			g.st = inEsc
		}
		return true
	}
	g.held = append(g.held, c)
	g.lo, g.hi = 0x80, 0xbf
	if g.need--; g.need > 0 {
		return false
	}
	// U+FFFD decodes as utf8.RuneError, at which the reader stops too.
	if string(g.held) != "\uFFFD" && g.escs == 0 && g.event() {
		g.emit(g.held...)
	}
	g.st, g.held, g.escs = inGround, g.held[:0], 0
	return false
}

// introduce starts the sequence c introduces after ESC.
func (g *inputGuard) introduce(c byte) {
	g.params, g.digits, g.first, g.n = 0, 0, 0, 0
	g.firstDone, g.prefix, g.inter, g.drop, g.alted = false, false, false, false, false
	g.held = append(g.held[:0], c)
	switch c {
	case '[':
		g.st = inCSI
	case 'O':
		g.st = inSS3
	case ']':
		g.st, g.kind = inColour, c
		g.held = append(g.held[:0], 0x1b, ']')
	default:
		g.st, g.kind = inString, c
	}
}

// escStep reads the byte after ESC. A byte the guard drops (a C1 control,
// an invalid byte) is no follower: the ESC waits on for one. What ESC ESC
// starts (alt+ESC, alt+up…) is an alt key, dropped whole.
func (g *inputGuard) escStep(c byte) bool {
	alt := g.escs > 1
	switch {
	case c == '[' || c == 'O' || c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X':
		g.introduce(c)
		g.drop, g.alted, g.escs = alt, alt, 0
		if alt && g.st == inColour {
			g.st, g.held = inString, g.held[:0]
		}
	case c == 0x1b:
		g.escs = 2
	case leads(c): // alt+é: dropped with its rune, if it is one
		escs := g.escs
		g.beginRune(c)
		g.escs = escs
	case c >= 0x80:
	default: // alt+c: dropped (the reader would wait on it, then hand it to a game that has none)
		g.st, g.escs = inGround, 0
	}
	return false
}

// csiStep reads a byte of a control sequence, held: parameter bytes, then
// intermediate bytes, then a final byte, at which the sequence is handed
// over whole, unless it is one the game must not see. A sequence cut short
// by another byte is dropped, the byte read again; one past its bounds is
// dropped with the rest of it.
func (g *inputGuard) csiStep(c byte) bool {
	switch {
	case c >= 0x30 && c <= 0x3f && !g.inter:
		if len(g.held) == 1 && c >= '<' { // the reader takes a first byte of < = > ? as a prefix
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
		g.hold(c, g.digits > maxDigits || g.params > maxParams || len(g.held) > maxCSI)
	case c >= 0x20 && c <= 0x2f:
		g.inter = true
		g.hold(c, len(g.held) > maxCSI)
	case c >= 0x40 && c <= 0x7e:
		g.st = inGround
		plain := !g.prefix && !g.inter
		if g.alted && plain && c == '~' && g.params == 0 && (g.first == 200 && !g.paste || g.first == 201 && g.paste) {
			// A paste's start or end after an ESC: the Escape key typed
			// in the same read as a paste, or a paste that ends with an
			// ESC. The ESC goes as alt's; the paste's bound stays, or its
			// text would be read as keys, or every key after it as text.
			g.drop, g.held = false, append(g.held[:1], strconv.Itoa(g.first)...)
		}
		switch {
		case g.drop:
		case !csiFinal(c):
			// A sequence the game does not read, that the reader would
			// act on: Win32 input mode's keys (decoded into any bytes,
			// ESC [ 200 ~ as well, or 65 535 repeats, before the guard's
			// eyes), a window's size in a report (CSI 8;H;W t, which the
			// reader makes a window change).
		case c == 'M' && plain:
			// An X10 mouse report: three raw bytes follow. The game reads
			// SGR mouse reports.
			g.skip = 3
		case !g.event(): // past the rate
			if c == '~' && plain && g.first == 200 && len(g.held) > 1 {
				g.st, g.match = inCut, 0 // the paste it starts with it
			}
		default:
			g.emit(0x1b)
			g.emit(g.held...)
			g.emit(c)
			if c == '~' && plain && len(g.held) > 1 {
				switch {
				case g.first == 200 && !g.paste: // the reader takes a second start for text of the paste
					g.paste, g.pasted = true, 0
				case g.first == 201:
					g.paste = false
				}
			}
		}
		g.held, g.escs = g.held[:0], 0
	default:
		g.st, g.held, g.escs = inGround, g.held[:0], 0
		return true
	}
	return false
}

// csiFinal reports whether a control sequence of final byte c is one the
// game reads: keys (cursor, function, editing and kitty keys), SGR mouse
// reports, focus, and the terminal's replies (modes, attributes, cursor
// position, colour scheme).
func csiFinal(c byte) bool {
	switch c {
	case 'A', 'B', 'C', 'D', 'E', 'F', 'H', 'P', 'Q', 'R', 'S', 'Z', 'a', 'b', 'c', 'd', '~', 'u', '@', '^',
		'M', 'm', 'I', 'O', 'y', 'n':
		return true
	}
	return false
}

// hold keeps a byte of the sequence under way, unless it goes past the
// sequence's bounds: then the sequence is dropped, with the rest of it.
func (g *inputGuard) hold(c byte, over bool) {
	if over {
		g.drop = true
	}
	if !g.drop {
		g.held = append(g.held, c)
	}
}

// ss3Step reads a byte of an SS3 key, held: digits, then one character.
func (g *inputGuard) ss3Step(c byte) bool {
	switch {
	case c >= '0' && c <= '9':
		g.digits++
		g.hold(c, g.digits > maxSS3Digits)
	case c >= 0x21 && c <= 0x7e:
		if !g.drop && g.event() {
			g.emit(0x1b)
			g.emit(g.held...)
			g.emit(c)
		}
		g.st, g.held, g.escs = inGround, g.held[:0], 0
	default:
		g.st, g.held, g.escs = inGround, g.held[:0], 0
		return true
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
		g.st, g.held, g.escs = inString, g.held[:0], 0
		return true
	}
	g.held = append(g.held, c)
	return false
}

// colourEnd ends a colour reply held: handed over if it is one (ESC ]
// digits ; and a colour).
func (g *inputGuard) colourEnd() {
	if g.firstDone && g.first >= 10 && g.first <= 12 && len(g.held) > 3+g.digits && g.event() {
		g.emit(g.held...) // its ESC in it
		g.emit(0x07)
	}
	g.st, g.held, g.escs = inGround, g.held[:0], 0
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

// keep reports whether s, a client's text (a terminal type, an
// environment variable), is printable as it is.
func keep(s string) bool { return text.Printable(s) == s }
