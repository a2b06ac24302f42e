package server

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// keyInputs are what terminals send, one kind a line: what readEvents must
// read as ultraviolet's own reader does.
var keyInputs = []string{
	"hello, world 123",
	"é à ç — 🎲 中文",
	"\r\t\x7f\x03\x1a\x00 \x08",
	"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1bOB\x1bOC\x1bOD",
	"\x1b[1;2A\x1b[1;3B\x1b[1;5C\x1b[1;6D\x1b[1;7H\x1b[1;8F",
	"\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[7~\x1b[8~\x1b[2~\x1b[3~\x1b[5~\x1b[6~",
	"\x1bOP\x1bOQ\x1bOR\x1bOS\x1b[11~\x1b[12~\x1b[15~\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~\x1b[23~\x1b[24~",
	"\x1b[a\x1b[b\x1b[c\x1b[d\x1bOa\x1bOb\x1bOc\x1bOd\x1b[2^\x1b[3$\x1b[[A\x1b[[E",
	"\x1ba\x1bZ\x1b1\x1b\x7f\x1b\r",
	"\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<64;3;4M\x1b[<65;3;4M\x1b[<35;20;7M\x1b[<2;1;1M",
	"\x1b[200~pasted text\r\nline two\x1b[A\x1bb\x1b[201~after",
	"\x1b[200~\x1b[201~\x1b[201~",
	"\x1b[I\x1b[O",
	"\x1b[97;5u\x1b[13u\x1b[27u\x1b[97;3:1u",
	"\x1b]11;rgb:0000/0000/0000\x07\x1b]10;rgb:ffff/ffff/ffff\x1b\\",
	"\x1b[999z\x1b[?1;2c\x1b[12;40R",
	"\x1b]11;rgb:1\x18x\x1bPabc\x1ay",
	"abc\x1b",
	"\x1b",
	"\xff\xfe abc \xc3",
}

// uvEvents reads the parts with ultraviolet's TerminalReader, as Bubble
// Tea does.
func uvEvents(t *testing.T, parts [][]byte) []uv.Event {
	t.Helper()
	evc := make(chan uv.Event, 1024)
	if err := uv.NewTerminalReader(&chunks{parts: parts}, "xterm-256color").StreamEvents(context.Background(), evc); err != nil {
		t.Fatal(err)
	}
	close(evc)
	var evs []uv.Event
	for e := range evc {
		evs = append(evs, e)
	}
	return evs
}

// ourEvents reads the parts with readEvents.
func ourEvents(parts [][]byte) []uv.Event {
	var evs []uv.Event
	readEvents(context.Background(), &chunks{parts: parts}, func(e uv.Event) { evs = append(evs, e) })
	return evs
}

// TestReadEventsReadsAsUltraviolet: every kind of input a terminal sends,
// whole and cut into reads anywhere, is read as ultraviolet's reader reads
// the same reads. A paste is compared whole only: ultraviolet looks a read
// up in its table before it looks at the paste under way, so that a key's
// sequence pasted and read on its own leaves the paste as a key
// (TestReadEventsKeepsAPasteWhole).
func TestReadEventsReadsAsUltraviolet(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	copies := func(parts [][]byte) [][]byte { // chunks consumes its parts
		c := make([][]byte, len(parts))
		for i, p := range parts {
			c[i] = append([]byte(nil), p...)
		}
		return c
	}
	var unpasted []string
	for _, in := range keyInputs {
		if !strings.Contains(in, "\x1b[200~") {
			unpasted = append(unpasted, in)
		}
	}
	for _, in := range append(keyInputs, strings.Join(keyInputs, ""), strings.Join(unpasted, "")) {
		for i := range 41 {
			parts := [][]byte{[]byte(in)}
			if i > 0 {
				if strings.Contains(in, "\x1b[200~") {
					break
				}
				parts = split([]byte(in), r, 1+r.IntN(8))
			}
			want := fmt.Sprintf("%#v", uvEvents(t, copies(parts)))
			if got := fmt.Sprintf("%#v", ourEvents(copies(parts))); got != want {
				t.Errorf("%q in reads %q:\n got %s\nwant %s", in, parts, got, want)
				break
			}
		}
	}
}

// TestReadEventsKeepsAPasteWhole: a paste's text is the paste's however
// the reads cut it, its keys' sequences included.
func TestReadEventsKeepsAPasteWhole(t *testing.T) {
	in := []byte("\x1b[200~up\x1b[A and alt\x1bb\x1b[201~")
	for most := 1; most <= len(in); most++ {
		evs := ourEvents(split(append([]byte(nil), in...), rand.New(rand.NewPCG(uint64(most), 1)), most))
		want := []uv.Event{uv.PasteStartEvent{}, uv.PasteEvent{Content: "up\x1b[A and alt\x1bb"}, uv.PasteEndEvent{}}
		if fmt.Sprintf("%#v", evs) != fmt.Sprintf("%#v", want) {
			t.Fatalf("reads of at most %d: %#v", most, evs)
		}
	}
}

// TestReadEventsModifiedF3: the one sequence of ultraviolet's table its
// decoder reads otherwise: F3 with a modifier, which is also a cursor
// position report at the first row. Both are handed over; tapis binds F3
// to nothing and asks for no report.
func TestReadEventsModifiedF3(t *testing.T) {
	got := ourEvents([][]byte{[]byte("\x1b[1;5R")})
	if len(got) != 2 {
		t.Fatalf("%#v, want ctrl+f3 and a position", got)
	}
	if k, ok := got[0].(uv.KeyPressEvent); !ok || k.Code != uv.KeyF3 || k.Mod != uv.ModCtrl {
		t.Errorf("first %#v, want ctrl+f3", got[0])
	}
	if _, ok := got[1].(uv.CursorPositionEvent); !ok {
		t.Errorf("second %#v, want a cursor position", got[1])
	}
}

// TestReadEventsWaitsForTheRestOfASequence: an ESC cut from the rest of
// its sequence by a read waits for it (the arrow is read as one key); an
// ESC with nothing after it for escWait is the Escape key.
func TestReadEventsWaitsForTheRestOfASequence(t *testing.T) {
	pr, pw := io.Pipe()
	evc := make(chan uv.Event, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		readEvents(context.Background(), pr, func(e uv.Event) { evc <- e })
	}()
	pw.Write([]byte("\x1b")) //nolint:errcheck // a pipe read to its end
	pw.Write([]byte("[A"))   //nolint:errcheck
	pw.Write([]byte("\x1b")) //nolint:errcheck
	if k := (<-evc).(uv.KeyPressEvent); k.Code != uv.KeyUp {
		t.Errorf("ESC, then [A: %v, want up", k)
	}
	select {
	case e := <-evc:
		if k, ok := e.(uv.KeyPressEvent); !ok || k.Code != uv.KeyEscape {
			t.Errorf("a lone ESC: %#v, want escape", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a lone ESC was not read as escape")
	}
	pw.Close()
	<-done
}

// TestReadEventsEndsWithItsContext: a reader whose input never ends stops
// with its context, and hands over what it held first (an ESC waiting for
// what may follow it, read as the Escape key).
func TestReadEventsEndsWithItsContext(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	evc := make(chan uv.Event, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		readEvents(ctx, pr, func(e uv.Event) { evc <- e })
	}()
	pw.Write([]byte("q\x1b")) //nolint:errcheck // read by the reader
	if k, ok := (<-evc).(uv.KeyPressEvent); !ok || k.Code != 'q' {
		t.Errorf("first %v, want q", k)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("readEvents did not end with its context")
	}
	close(evc)
	if k, ok := (<-evc).(uv.KeyPressEvent); !ok || k.Code != uv.KeyEscape {
		t.Errorf("then %v, want escape", k)
	}
}

// TestReadEventsAllocatesLittle: starting a session's reader and reading a
// key allocates a few kilobytes, where ultraviolet's builds a table of some
// 300 KB for each (140 KB kept: 200 sessions' tables were a third of the
// heap, the reason readEvents exists).
func TestReadEventsAllocatesLittle(t *testing.T) {
	held := func(start func(io.Reader)) uint64 {
		const n = 20
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range n {
			start(&chunks{parts: [][]byte{[]byte("a\x1b[A")}})
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / n
	}
	ours := held(func(in io.Reader) { readEvents(context.Background(), in, func(uv.Event) {}) })
	theirs := held(func(in io.Reader) {
		evc := make(chan uv.Event, 8)
		uv.NewTerminalReader(in, "xterm-256color").StreamEvents(context.Background(), evc) //nolint:errcheck // read to its end
	})
	t.Logf("allocated a reader: ours %d B, ultraviolet's %d B", ours, theirs)
	if ours > 16<<10 || ours*8 > theirs {
		t.Errorf("a reader allocates %d B (ultraviolet's %d B): want under 16 KB and an eighth of theirs", ours, theirs)
	}
}
