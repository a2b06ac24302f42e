package server

import (
	"context"
	"io"
	"reflect"
	"time"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// escWait is how long an escape sequence's start waits for the rest of it
// before it is read as it stands (an Escape key, an alt key): ultraviolet's
// own (uv.DefaultEscTimeout).
const escWait = uv.DefaultEscTimeout

// readSize is the most a read of the session's input takes at once.
const readSize = 4096

// readEvents decodes a session's input into events and hands each to send,
// in order, until the input ends or ctx is done. It reads as ultraviolet's
// TerminalReader does, with its decoder (uv.EventDecoder), but keeps no
// table of legacy key sequences: that table is built for each reader
// (some 1 300 sequences, 140 KB, a third of what 200 sessions keep, all of
// it scanned at every collection), and the decoder reads each of its
// sequences as the table would but the modified F3 keys (CSI 1;m R, read
// as a cursor position report too), which tapis binds to nothing. It
// needs no Win32 input mode either: the input guard lets none of its keys
// through. Its buffers are its own, reused from read to read, and it runs
// in two goroutines where ultraviolet's reader and feed ran three.
func readEvents(ctx context.Context, in io.Reader, send func(uv.Event)) {
	reads := make(chan []byte)
	taken := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		var b [readSize]byte
		for {
			n, err := in.Read(b[:])
			if n > 0 {
				select { // b is the scanner's until taken
				case reads <- b[:n]:
					<-taken
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	s := eventScanner{send: send}
	wait := time.NewTimer(escWait)
	wait.Stop()
	defer wait.Stop()
	for {
		select {
		case <-ctx.Done():
			s.scan(true)
			return
		case <-ended:
			s.scan(true)
			return
		case <-wait.C:
			// Nothing came for escWait: what is held is read as it stands
			// (and nothing is held after).
			s.scan(true)
		case b := <-reads:
			s.buf = append(s.buf, b...)
			taken <- struct{}{}
			wait.Stop()
			if s.scan(false) {
				wait.Reset(escWait)
			}
		}
	}
}

// eventScanner is readEvents' decoding: the bytes read and not decoded
// yet, and a bracketed paste's text while it comes.
type eventScanner struct {
	dec   uv.EventDecoder
	buf   []byte
	paste []byte // nil: no paste under way
	send  func(uv.Event)
}

// scan hands over the events buf holds and keeps what may be the start of
// one more (an escape sequence cut by a read, an ESC that may be alt's),
// unless expired: then everything is read as it stands. It reports
// whether bytes are kept. Its reading is ultraviolet's eventScanner's.
func (s *eventScanner) scan(expired bool) (held bool) {
	buf := s.buf
	for len(buf) > 0 {
		n, ev, wait := s.next(buf, expired)
		if wait {
			break
		}
		buf = buf[max(n, 1):] // the decoder reads a byte at least: never a loop

		switch ev := ev.(type) {
		case nil:
		case uv.MultiEvent:
			for _, e := range ev {
				s.send(e)
			}
		default:
			s.send(ev)
		}
	}
	s.buf = s.buf[:copy(s.buf, buf)]
	return len(s.buf) > 0
}

// next decodes the event at the start of buf, of n bytes; ev is nil for
// bytes of a paste under way (kept in paste) or a sequence the decoder
// drops; wait says to wait for more bytes.
func (s *eventScanner) next(buf []byte, expired bool) (n int, ev uv.Event, wait bool) {
	esc := buf[0] == ansi.ESC
	n, ev = s.dec.Decode(buf)
	short := esc && n <= 2 && !expired // an ESC and a byte: alt's, or a sequence's start
	if _, end := ev.(uv.PasteEndEvent); s.paste != nil && !end {
		switch ev := ev.(type) {
		case uv.KeyPressEvent:
			switch {
			case ev.Text != "":
				s.paste = append(s.paste, ev.Text...)
			case short:
				return 0, nil, true
			default:
				s.paste = append(s.paste, buf[:n]...)
			}
		case uv.UnknownEvent:
			if !expired {
				return 0, nil, true
			}
		}
		return n, nil, false
	}
	if ev == nil || !wanted(ev) {
		return n, nil, false
	}
	switch ev.(type) {
	case uv.UnknownEvent:
		// A sequence not decoded: the rest of it may come.
		return n, ev, !expired
	case uv.PasteStartEvent:
		s.paste = []byte{}
	case uv.PasteEndEvent:
		ev = uv.MultiEvent{uv.PasteEvent{Content: validText(s.paste)}, ev}
		s.paste = nil
	}
	if short {
		return 0, nil, true
	}
	return n, ev, false
}

// validText is b's text, its invalid bytes left out (and U+FFFD, which
// reads as one), as ultraviolet makes a paste's.
func validText(b []byte) string {
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, w := utf8.DecodeRune(b)
		if r != utf8.RuneError {
			out = append(out, r)
		}
		b = b[w:]
	}
	return string(out)
}

// wanted reports whether ev is one the reader hands over: not a string
// the decoder reads only to drop it (an OSC, DCS, APC, PM or SOS string
// cancelled by CAN or SUB, or cut by an ESC), of a type ultraviolet keeps
// to itself. TestReadEventsReadsAsUltraviolet feeds such strings: a
// rename of the type would show there.
func wanted(ev uv.Event) bool {
	return reflect.TypeOf(ev).Name() != "ignoredEvent"
}
