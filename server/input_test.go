package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// readerModel is Bubble Tea's input reader (ultraviolet's TerminalReader)
// as far as what it keeps goes: the rules of its scanEvents, on its own
// decoder. It keeps what it has not decoded, and waits for more while the
// first of it decodes as unknown, or as a key of ESC and one byte at most,
// until its 50 ms timeout passes with no input (expire).
type readerModel struct {
	dec     uv.EventDecoder
	escRun  bool // three ESC in a row reached it in one read
	buf     []byte
	paste   []byte // nil outside a paste
	events  []uv.Event
	maxBuf  int // the most it kept
	maxPast int // the longest paste it kept
}

// feed is a read's bytes reaching the reader.
func (m *readerModel) feed(b []byte) {
	m.escRun = m.escRun || bytes.Contains(b, []byte("\x1b\x1b\x1b"))
	m.buf = append(m.buf, b...)
	m.scan(false)
	m.maxBuf = max(m.maxBuf, len(m.buf))
}

// expire is the reader's timeout passing: it decodes what it kept.
func (m *readerModel) expire() { m.scan(true) }

// win32Key is a key of Win32 input mode, which the reader decodes (on
// every system) before anything else: a virtual key 0 and key down is the
// rune it carries, a key up nothing that matters here.
var win32Key = regexp.MustCompile(`\x1b\[0;\d*;(\d+);(\d+);\d*;\d*_`)

func (m *readerModel) scan(expired bool) {
	m.buf = win32Key.ReplaceAllFunc(m.buf, func(k []byte) []byte {
		sub := win32Key.FindSubmatch(k)
		r, _ := strconv.Atoi(string(sub[1]))
		if string(sub[2]) != "1" || r <= 0 || r > utf8.MaxRune {
			return nil
		}
		return utf8.AppendRune(nil, rune(r))
	})
	for len(m.buf) > 0 {
		esc := m.buf[0] == 0x1b
		n, ev := m.dec.Decode(m.buf)
		ignored := fmt.Sprintf("%T", ev) == "uv.ignoredEvent"
		if _, end := ev.(uv.PasteEndEvent); m.paste != nil && !end {
			switch e := ev.(type) {
			case uv.KeyPressEvent:
				if len(e.Text) > 0 {
					m.paste = append(m.paste, e.Text...)
					break
				}
				if esc && n <= 2 && !expired {
					return
				}
				m.paste = append(m.paste, m.buf[:n]...)
			case uv.UnknownEvent:
				if !expired {
					return
				}
			}
			m.maxPast = max(m.maxPast, len(m.paste))
			m.buf = m.buf[n:]
			continue
		}
		switch ev.(type) {
		case uv.UnknownEvent:
			if !expired {
				return
			}
			m.events = append(m.events, ev)
		case uv.PasteStartEvent:
			m.paste = []byte{}
		case uv.PasteEndEvent:
			m.events = append(m.events, uv.PasteEvent{Content: string(m.paste)})
			m.paste = nil
		default:
			if !ignored && ev != nil {
				if esc && n <= 2 && !expired {
					return
				}
				m.events = append(m.events, ev)
			}
		}
		m.buf = m.buf[n:]
	}
}

// chunks reads a stream in the reads given, one after the other.
type chunks struct{ parts [][]byte }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	if c.parts[0] = c.parts[0][n:]; len(c.parts[0]) == 0 {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// split cuts b into reads of random sizes.
func split(b []byte, r *rand.Rand, most int) [][]byte {
	var parts [][]byte
	for len(b) > 0 {
		n := min(len(b), 1+r.IntN(most))
		parts = append(parts, b[:n])
		b = b[n:]
	}
	return parts
}

// through runs reads through a guard into the reader's model, as Bubble
// Tea reads a session (4 KiB a read); a pause of the guard (the rate's) of 50 ms or
// more lets the model's timeout pass. It returns the model, and what the
// guard handed over.
func through(t testing.TB, parts [][]byte) (*readerModel, []byte) {
	t.Helper()
	m := &readerModel{}
	clock := time.Unix(0, 0)
	g := newInputGuard(&chunks{parts: parts}, nil)
	g.now = func() time.Time { return clock }
	g.sleep = func(d time.Duration) {
		clock = clock.Add(d)
		if d >= 50*time.Millisecond {
			m.expire()
		}
	}
	var out bytes.Buffer
	p := make([]byte, 4096)
	for {
		n, err := g.Read(p)
		out.Write(p[:n])
		m.feed(p[:n])
		if err != nil {
			break
		}
		// A stream at the link's pace: a read every millisecond.
		clock = clock.Add(time.Millisecond)
		if len(g.held) > maxCSI+2 {
			t.Fatalf("the guard holds %d bytes", len(g.held))
		}
	}
	m.expire()
	return m, out.Bytes()
}

// keyed is what a reader makes of a stream read all at once, then left.
func keyed(b []byte) []uv.Event {
	m := &readerModel{}
	m.feed(b)
	m.expire()
	return m.events
}

// TestInputGuardKeepsPlay: what a terminal sends in play reaches the game
// as it was: keys, arrows, alt keys, SGR mouse clicks and wheel, a short
// paste, UTF-8, and the colour reply the game asks for.
func TestInputGuardKeepsPlay(t *testing.T) {
	for _, in := range []string{
		"a1q\r ",
		"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1b[1;5C",
		"\x1b[<0;12;7M\x1b[<0;12;7m\x1b[<65;3;3M",
		"\x1b[200~une partie, s'il vous plaît\x1b[201~",
		"é€😀",
		"\x1b]11;rgb:1e1e/1e1e/2e2e\x07",
		"\x1b]11;rgb:ffff/ffff/ffff\x1b\\",
		"\x1b[?2026;2$y\x1b[?1u",
		"\x1b[3~\x1b[5~\x1b[15~",
	} {
		m, out := through(t, [][]byte{[]byte(in)})
		want := keyed([]byte(in))
		if fmt.Sprint(m.events) != fmt.Sprint(want) {
			t.Errorf("%q: read as %v through the guard (%q), %v without", in, m.events, out, want)
		}
	}
	// The Escape key, a read of its own as a person types it, is the same
	// key handed over as CSI 27 u; alt keys are dropped (the game has
	// none).
	if esc, kitty := keyed([]byte("\x1b")), keyed([]byte(escapeKey)); fmt.Sprintf("%#v", esc) != fmt.Sprintf("%#v", kitty) {
		t.Fatalf("ESC reads as %#v, %q as %#v", esc, escapeKey, kitty)
	}
	parts := [][]byte{[]byte("\x1ba"), []byte("\x1b"), []byte("q"), []byte("\x1b\x1b"), []byte("\x1b\x1b[A"), []byte("\x1bé")}
	want := append(keyed([]byte("\x1b")), keyed([]byte("q"))...)
	m, _ := through(t, parts)
	if fmt.Sprintf("%#v", m.events) != fmt.Sprintf("%#v", want) {
		t.Errorf("alt and Escape keys read as %v, want %v", m.events, want)
	}
}

// hostileInputs are streams each of which grows the reader without the
// guard: name, a head, and a byte repeated after it for a megabyte.
var hostileInputs = []struct {
	name string
	head string
	fill byte
}{
	{"an unfinished paste", "\x1b[200~", 'a'},
	{"an unterminated OSC string", "\x1b]0;", 'a'},
	{"an unterminated DCS string", "\x1bP1$r", 'a'},
	{"an APC string", "\x1b_G", 'a'},
	{"endless parameters", "\x1b[", ';'},
	{"an invalid byte before a stream", "\xff", 'a'},
	{"a stray continuation byte", "\xa0", 'a'},
	{"an alt key before a stream", "\x1ba", 'b'},
	{"ESC before a stream", "\x1b", 'b'},
	{"an alt key before a run of ESC", "\x1ba", 0x1b},
	{"a control sequence cut by a control", "\x1b[1\x01", 'a'},
	{"SS3 digits", "\x1bO", '1'},
	{"U+FFFD", "\uFFFD", 'a'},
	{"an X10 mouse report", "\x1b[M", 0xff},
	{"C1 control sequence introducers", "\x9b", '1'},
	{"a paste of OSC strings", "\x1b[200~\x1b]0;", 'a'},
	{"a paste opened past a dropped byte", "\x1b\x80[200~", 'a'},
	{"a paste opened past a broken rune", "\x1b\xc3[200~", 'a'},
	{"a paste opened in Win32 input mode", win32("\x1b[200~"), 'a'},
}

// TestInputGuardDropsWhatTheGameDoesNotRead: sequences the reader acts on
// and the game does not read never reach it: a window size in a report,
// Win32 input mode's keys (with 65 535 repeats).
func TestInputGuardDropsWhatTheGameDoesNotRead(t *testing.T) {
	for _, in := range []string{"\x1b[8;1024;1024t", "\x1b[48;1000;1000;1;1t", "\x1b[124;0;0;1;0;65535_", win32("q")} {
		m, out := through(t, [][]byte{[]byte(in + "x")})
		if string(out) != "x" || len(m.events) != 1 {
			t.Errorf("%q: handed over %q, read as %v", in, out, m.events)
		}
	}
}

// win32 writes s as Win32 input mode's keys down.
func win32(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, "\x1b[0;0;%d;1;0;1_", r)
	}
	return b.String()
}

// TestInputGuardBoundsHostileInput: each hostile stream, which the reader
// alone keeps whole, is kept within a few reads through the guard, and a
// paste within maxPaste.
func TestInputGuardBoundsHostileInput(t *testing.T) {
	// Four times the longest paste the guard lets through: its bound shows,
	// and the reader alone keeps all of it.
	const size = 4 * maxPaste
	r := rand.New(rand.NewPCG(1, 2))
	for _, h := range hostileInputs {
		t.Run(h.name, func(t *testing.T) {
			in := append([]byte(h.head), bytes.Repeat([]byte{h.fill}, size)...)
			alone := &readerModel{}
			for _, p := range split(in, r, 4096) {
				alone.feed(p)
			}
			if alone.maxBuf < size/2 && alone.maxPast < size/2 {
				t.Fatalf("the reader alone kept %d bytes and a paste of %d: not a hostile stream", alone.maxBuf, alone.maxPast)
			}
			m, _ := through(t, split(in, r, 4096))
			if m.maxBuf > 3*4096 || m.maxPast > maxPaste+maxCSI {
				t.Errorf("through the guard the reader kept %d bytes and a paste of %d", m.maxBuf, m.maxPast)
			}
		})
	}
}

// TestInputGuardCutsPaste: a paste past maxPaste reaches the game as its
// first maxPaste bytes, closed; what follows its real end is kept.
func TestInputGuardCutsPaste(t *testing.T) {
	in := "\x1b[200~" + strings.Repeat("x", 3*maxPaste) + "\x1b[201~q"
	m, _ := through(t, split([]byte(in), rand.New(rand.NewPCG(3, 4)), 4096))
	if len(m.events) != 2 {
		t.Fatalf("read as %d events, want the paste and q", len(m.events))
	}
	p, ok := m.events[0].(uv.PasteEvent)
	if !ok || len(p.Content) != maxPaste || strings.Trim(p.Content, "x") != "" {
		t.Errorf("the paste reached the game as %T of %d bytes", m.events[0], len(p.Content))
	}
	if fmt.Sprint(m.events[1]) != "q" {
		t.Errorf("after the paste: %v, want q", m.events[1])
	}
}

// TestInputGuardRate: a client streaming pastes is read at inputRate,
// once its burst is spent.
func TestInputGuardRate(t *testing.T) {
	paste := "\x1b[200~" + strings.Repeat("p", 1000) + "\x1b[201~"
	var slept time.Duration
	clock := time.Unix(0, 0)
	g := newInputGuard(&repeated{unit: []byte(paste), most: 64}, nil)
	g.now = func() time.Time { return clock }
	g.sleep = func(d time.Duration) { slept += d; clock = clock.Add(d) }
	p := make([]byte, 4096)
	read := 0
	for slept < time.Minute {
		n, _ := g.Read(p)
		read += n
	}
	rate := float64(read/len(paste)-inputBurst/len(paste)) / slept.Seconds()
	if want := float64(inputRate / len(paste)); rate < want*0.9 || rate > want*1.1 {
		t.Errorf("%d bytes read in %s of pauses: %.1f pastes a second past the burst, want %.1f", read, slept, rate, want)
	}
}

// TestInputGuardDropsEventsPastTheRate: keys, clicks and pastes streamed
// faster than eventRate are handed over at that rate past the burst, the
// rest dropped whole (a paste's start dropped drops the paste, its text
// never taken for keys), and never waited for: the events handed over
// are the latest, each as it comes.
func TestInputGuardDropsEventsPastTheRate(t *testing.T) {
	for _, c := range []struct {
		name, unit string
		events     int // in a unit
	}{
		{"keys", "a", 1},
		{"presses", "\x1b[<0;10;5M", 1},
		{"pastes", "\x1b[200~aaaa\x1b[201~", 1}, // its end, within it, is not counted
	} {
		clock := time.Unix(0, 0)
		// Reads of whole units, as a client writes them: a read ending
		// on ESC [ is alt+[ (readEnd).
		most := 64 / len(c.unit) * len(c.unit)
		src := &repeated{unit: []byte(c.unit), most: most, read: func() { clock = clock.Add(10 * time.Millisecond) }}
		g := newInputGuard(src, nil)
		g.now = func() time.Time { return clock }
		g.sleep = func(d time.Duration) { t.Fatalf("%s: the guard waited %s", c.name, d) }
		p := make([]byte, 4096)
		var out strings.Builder
		for clock.Before(time.Unix(60, 0)) {
			n, _ := g.Read(p)
			out.Write(p[:n])
		}
		got := strings.Count(out.String(), c.unit)
		if c.name == "keys" {
			got = out.Len()
		}
		want := (eventBurst + eventRate*60) / c.events
		if got < want*9/10 || got > want*11/10 {
			t.Errorf("%s: %d handed over in 60 s, want about %d", c.name, got, want)
		}
		if rest := strings.ReplaceAll(out.String(), c.unit, ""); rest != "" {
			t.Errorf("%s: handed over %q besides whole units", c.name, rest[:min(len(rest), 40)])
		}
		if g.dropped == 0 {
			t.Errorf("%s: nothing dropped", c.name)
		}
	}
}

// repeated is an endless run of one unit, most bytes a read.
type repeated struct {
	unit []byte
	most int
	at   int
	read func() // called at each read; nil: none
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.read != nil {
		r.read()
	}
	n := 0
	for n < len(p) && n < r.most {
		p[n] = r.unit[r.at]
		n++
		r.at = (r.at + 1) % len(r.unit)
	}
	return n, nil
}

// FuzzInputGuard: whatever a client sends, split however, the reader
// behind the guard keeps at most a few reads, and a paste within its bound.
func FuzzInputGuard(f *testing.F) {
	for _, h := range hostileInputs {
		f.Add([]byte(h.head+strings.Repeat(string(h.fill), 64)), uint64(1))
	}
	f.Add([]byte("\x1b[200~\x1b\x1b[201~\x1b]11;rgb:0/0/0\x1b\\\x1bP\x1b_\x1bX\x1b^"), uint64(7))
	f.Add([]byte("\x1b!["+strings.Repeat(";", 40)+"1_\x1b\x1b[I\x1b[200~a\x1b[200~"), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		r := rand.New(rand.NewPCG(seed, seed>>1))
		// The data repeated, so that whatever it leaves open is streamed.
		in := bytes.Repeat(data, 1+(64<<10)/(len(data)+1))
		m, _ := through(t, split(in, r, 1+int(seed%4096)))
		if m.maxBuf > 3*4096 || m.maxPast > maxPaste+maxCSI {
			t.Errorf("the reader kept %d bytes and a paste of %d", m.maxBuf, m.maxPast)
		}
		// A run of ESC deepens the decoder's recursion by one each.
		if m.escRun {
			t.Errorf("three ESC in a row handed over")
		}
		// The reader itself takes it without a crash.
		realEvents(t, split(data, r, 1+int(seed%4096)))
	})
}

// TestInputGuardKeysAfterEscape: a key typed after the Escape key, in a
// read of its own, is kept, even one that could follow ESC in a sequence;
// the rest of a sequence split right after its ESC is dropped, not typed.
func TestInputGuardKeysAfterEscape(t *testing.T) {
	for _, c := range []struct {
		gap  time.Duration
		want string
	}{{time.Second, escapeKey + "[x"}, {time.Millisecond, escapeKey}} {
		clock := time.Unix(0, 0)
		reads := [][]byte{[]byte("\x1b"), []byte("[x")}
		g := newInputGuard(readerFunc(func(p []byte) (int, error) {
			if len(reads) == 0 {
				return 0, io.EOF
			}
			if len(reads) == 1 {
				clock = clock.Add(c.gap)
			}
			n := copy(p, reads[0])
			reads = reads[1:]
			return n, nil
		}), nil)
		g.now = func() time.Time { return clock }
		g.sleep = func(d time.Duration) { clock = clock.Add(d) }
		out, _ := io.ReadAll(g)
		if string(out) != c.want {
			t.Errorf("ESC, then [x %s later: %q handed over, want %q", c.gap, out, c.want)
		}
	}
}

// readerFunc is a function read as a reader.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// realEvents runs reads through a guard into the sessions' input reader
// (readEvents), its pauses not waited, and returns the reader's events.
func realEvents(t *testing.T, parts [][]byte) []uv.Event {
	t.Helper()
	g := newInputGuard(&chunks{parts: parts}, nil)
	g.sleep = func(time.Duration) {}
	var evs []uv.Event
	readEvents(context.Background(), g, func(e uv.Event) { evs = append(evs, e) })
	return evs
}

// TestInputGuardBeforeTheRealReader: what found a way past the guard, fed
// to the reader itself: no crash, no key, size or paste smuggled in. The
// bytes after an alt key dropped (ESC !) are the client's typing.
func TestInputGuardBeforeTheRealReader(t *testing.T) {
	nested := "\x1b[200~" + strings.Repeat(strings.Repeat("a", 60_000)+"\x1b[200~", 5) + "\x1b[201~"
	keys := func(evs []uv.Event, code rune) (n int) {
		for _, e := range evs {
			if k, ok := e.(uv.KeyPressEvent); ok && k.Code == code {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		name string
		in   string
		ok   func([]uv.Event) bool
	}{
		// The reader's parser indexed past its 32 parameters: a crash.
		{"ESC ! and 40 parameters", "\x1b![" + strings.Repeat(";", 40) + "1_", func(evs []uv.Event) bool { return keys(evs, ';') == 40 }},
		{"ESC ! and Win32 keys", strings.Repeat("\x1b![0;0;113;1;0;1_", 10), func(evs []uv.Event) bool { return keys(evs, 'q') == 0 }},
		{"Win32 keys repeated", "\x1b[81;0;113;1;0;65535_x", func(evs []uv.Event) bool { return len(evs) == 1 }},
		{"a window size report", "\x1b[8;1024;1024tx", func(evs []uv.Event) bool { return len(evs) == 1 }},
		{"a paste started again inside it", nested + "x", func(evs []uv.Event) bool {
			for _, e := range evs {
				if p, ok := e.(uv.PasteEvent); ok && len(p.Content) > maxPaste {
					return false
				}
			}
			return keys(evs, 'x') == 1
		}},
	} {
		evs := realEvents(t, split([]byte(c.in), rand.New(rand.NewPCG(5, 6)), 4096))
		if !c.ok(evs) {
			first := fmt.Sprint(evs[:min(len(evs), 3)])
			t.Errorf("%s: the reader made %d events of it, the first %.200s", c.name, len(evs), first)
		}
	}
}

// TestInputGuardDropsAPasteWhole: a paste whose start comes past the
// rate is dropped up to its end, though the rate allows keys again
// before its end comes: its text is never taken for keys.
func TestInputGuardDropsAPasteWhole(t *testing.T) {
	clock := time.Unix(0, 0)
	reads := []struct {
		at   time.Duration
		text string
	}{
		{0, strings.Repeat("b", eventBurst)},
		{0, "\x1b[200~xx"},
		{time.Second, "yy\x1b[201~"},
		{time.Second, "c"},
	}
	src := &timedReads{at: func(d time.Duration) { clock = time.Unix(0, 0).Add(d) }}
	for _, r := range reads {
		src.reads = append(src.reads, timedRead{r.at, r.text})
	}
	g := newInputGuard(src, nil)
	g.now = func() time.Time { return clock }
	got, _ := io.ReadAll(g)
	if want := strings.Repeat("b", eventBurst) + "c"; string(got) != want {
		t.Errorf("handed over %q…, want the keys and c alone", got[eventBurst:])
	}
}

type timedRead struct {
	at   time.Duration
	text string
}

// timedReads hands its reads one at a time, each at its time (at sets
// the clock), then EOF.
type timedReads struct {
	reads []timedRead
	at    func(time.Duration)
}

func (r *timedReads) Read(p []byte) (int, error) {
	if len(r.reads) == 0 {
		return 0, io.EOF
	}
	next := r.reads[0]
	r.reads = r.reads[1:]
	r.at(next.at)
	return copy(p, next.text), nil
}

// TestInputGuardKeepsAPasteBoundAfterAnESC: the Escape key in the same
// read as a paste does not turn the pasted text into keys, and a paste
// that ends with an ESC ends (the keys after it are keys, not its text).
// Found by an attacker's trial: the guard dropped the paste's start or end
// with the ESC before it, as an alt key's.
func TestInputGuardKeepsAPasteBoundAfterAnESC(t *testing.T) {
	for _, c := range []struct{ in, paste, keys string }{
		{"\x1b\x1b[200~a\x1b[201~q", "a", "q"},
		{"\x1b[200~x\x1b\x1b[201~q", "x", "q"},
		{"\x1b[200~x\x1b\x1b[201~\x1b\x1b[200~y\x1b[201~z", "xy", "z"},
	} {
		var paste, keys string
		for _, e := range realEvents(t, [][]byte{[]byte(c.in)}) {
			switch e := e.(type) {
			case uv.PasteEvent:
				paste += e.Content
			case uv.KeyPressEvent:
				keys += e.Text
			}
		}
		if paste != c.paste || keys != c.keys {
			t.Errorf("%q: pasted %q and typed %q, want %q and %q", c.in, paste, keys, c.paste, c.keys)
		}
	}
}
