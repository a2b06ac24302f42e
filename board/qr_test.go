package board

import (
	"image"
	"image/color"
	"net"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"tapis/ui"
)

// modulesOf reads the QR code drawn in a board's frame back into modules
// (true: dark), from the lines between the join panel's title and its
// "scan" line: in half blocks (two rows a line) or, at scale 2, two cells
// and one line a module. ink says which modules the glyphs draw.
func modulesOf(t *testing.T, frame, title, scan string, ink bool) [][]bool {
	t.Helper()
	lines := strings.Split(frame, "\n")
	start, end := -1, -1
	for i, l := range lines {
		if start < 0 && strings.Contains(l, title) {
			start = i + 2 // the title, a blank line
		}
		if start >= 0 && strings.Contains(l, scan) {
			end = i
			break
		}
	}
	if start < 0 || end <= start {
		t.Fatalf("no QR code between %q and %q in\n%s", title, scan, frame)
	}
	rows := lines[start:end]
	full := !strings.ContainsAny(strings.Join(rows, ""), "▀▄")
	var m [][]bool
	for _, l := range rows {
		cells := []rune(l)
		var top, bottom []bool
		for x := 0; x < len(cells); x++ {
			c := cells[x]
			if full {
				if x%2 == 1 {
					continue
				}
				top = append(top, (c == '█') == ink)
				continue
			}
			switch c {
			case '█':
				top, bottom = append(top, ink), append(bottom, ink)
			case '▀':
				top, bottom = append(top, ink), append(bottom, !ink)
			case '▄':
				top, bottom = append(top, !ink), append(bottom, ink)
			default:
				top, bottom = append(top, !ink), append(bottom, !ink)
			}
		}
		m = append(m, top)
		if !full {
			m = append(m, bottom)
		}
	}
	return m
}

// decode decodes modules as a phone's camera would see them, with the
// gozxing decoder: each module 6 pixels, a wide white margin.
func decode(t *testing.T, m [][]bool) string {
	t.Helper()
	const px, margin = 6, 24
	w := 0
	for _, row := range m {
		w = max(w, len(row))
	}
	img := image.NewGray(image.Rect(0, 0, w*px+2*margin, len(m)*px+2*margin))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y, row := range m {
		for x, dark := range row {
			if !dark {
				continue
			}
			for dy := range px {
				for dx := range px {
					img.SetGray(margin+x*px+dx, margin+y*px+dy, color.Gray{})
				}
			}
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("the drawn QR code does not decode: %v", err)
	}
	return res.GetText()
}

// TestBoardQRCodeDecodes: the QR code the board draws, read back from
// the frame and decoded by a QR decoder, is the join address's ssh://
// URL: at 80×24 in half blocks, at 200×50 twice as large, in colours (dark
// modules drawn) and without (light ones drawn, on a dark background).
func TestBoardQRCodeDecodes(t *testing.T) {
	src := fixed{b: sample(t), ok: true}
	for _, c := range []struct {
		join    Join
		w, h    int
		profile colorprofile.Profile
		lang    ui.Lang
	}{
		{Join{Host: "stand.local", Port: 23234}, 80, 24, colorprofile.TrueColor, ui.English},
		{Join{Host: "stand.local", Port: 23234}, 200, 50, colorprofile.TrueColor, ui.French},
		{Join{Host: "tapis-salon-2026.example.org", Port: 2222}, 80, 24, colorprofile.ANSI256, ui.French},
		{Join{Host: "192.168.1.20", Port: 23234}, 120, 40, colorprofile.ASCII, ui.English},
		{Join{Host: "fe80::1", Port: 23234}, 200, 50, colorprofile.ASCII, ui.English},
	} {
		m := New(Options{Lang: c.lang, Source: src, Join: c.join, Profile: c.profile})
		m.Update(m.read())
		frame := stripped(m, c.w, c.h)
		fits(t, frame, c.w, c.h)
		title, scan := "How to play", "scan, or type:"
		if c.lang == ui.French {
			title, scan = "Pour jouer", "scannez, ou tapez :"
		}
		ink := c.profile > colorprofile.ASCII // without colours, on a dark background: the light modules
		if got := decode(t, modulesOf(t, frame, title, scan, ink)); got != c.join.URL() {
			t.Errorf("%s at %d×%d decodes to %q, want %q", c.join.URL(), c.w, c.h, got, c.join.URL())
		}
		if !strings.Contains(frame, c.join.Command()) {
			t.Errorf("%d×%d: no %q in\n%s", c.w, c.h, c.join.Command(), frame)
		}
	}
}

// TestJoin: join addresses as typed and as derived from the listener.
func TestJoin(t *testing.T) {
	for in, want := range map[string]Join{
		"stand.local":       {"stand.local", DefaultPort},
		"stand.local:2222":  {"stand.local", 2222},
		"10.0.0.7":          {"10.0.0.7", DefaultPort},
		"[fe80::1]:23":      {"fe80::1", 23},
		"fe80::1":           {"fe80::1", DefaultPort},
		"Stand-2.example.o": {"Stand-2.example.o", DefaultPort},
	} {
		if got, err := ParseJoin(in, DefaultPort); err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "stand.local:0", "stand.local:99999", "stand.local:x", "a b", "evil\x1b[2J", ":23", "a:b:c", strings.Repeat("a", 65)} {
		if got, err := ParseJoin(in, DefaultPort); err == nil {
			t.Errorf("%q: %+v, want an error", in, got)
		}
	}
	if got := (Join{"stand.local", 23234}); got.Command() != "ssh -p 23234 stand.local" || got.URL() != "ssh://stand.local:23234" {
		t.Errorf("%s, %s", got.Command(), got.URL())
	}
	if got := (Join{"fe80::1", 22}); got.Command() != "ssh fe80::1" || got.URL() != "ssh://[fe80::1]:22" {
		t.Errorf("%s, %s", got.Command(), got.URL())
	}
	host := func() (string, error) { return "stand", nil }
	for addr, want := range map[string]Join{
		"127.0.0.1:23234":  {"127.0.0.1", 23234},
		"0.0.0.0:2222":     {"stand", 2222},
		"[::]:23234":       {"stand", 23234},
		"192.168.1.5:2300": {"192.168.1.5", 2300},
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := JoinOf(a, host); got != want {
			t.Errorf("%s: %+v, want %+v", addr, got, want)
		}
	}
}

// TestBigFont: every figure of the large type is drawn with blocks the
// double scale knows, the money of both languages renders, and at scale 2
// it is twice as tall and about twice as wide.
func TestBigFont(t *testing.T) {
	f := newBigFont()
	for r, g := range f {
		for _, row := range g {
			for _, c := range row {
				if _, ok := quadrants[c]; !ok {
					t.Errorf("figure %q: %q has no quarters", r, c)
				}
			}
		}
	}
	for _, s := range []string{"40 000 €", "€40,000", "2,50 €", "€2.50", "0123456789"} {
		one, ok1 := f.render(s, 1)
		two, ok2 := f.render(s, 2)
		if !ok1 || !ok2 || len(one) != bigRows || len(two) != 2*bigRows || blockWidth(two) != 2*blockWidth(one) {
			t.Errorf("%q: %d rows of %d, %d of %d", s, len(one), blockWidth(one), len(two), blockWidth(two))
		}
	}
	if _, ok := f.render("x", 1); ok {
		t.Error("a letter rendered in figures")
	}
}

// FuzzParseJoin: any text gives a join address or an error, never a
// panic; an address read has a host players can type, which reads back
// from its URL's host and port the same, and encodes in a QR code.
func FuzzParseJoin(f *testing.F) {
	for _, s := range []string{"stand.local", "stand.local:2222", "[fe80::1]:23", "fe80::1", ":", "[", "a:b:c", "é.local", "x:65536"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		j, err := ParseJoin(s, DefaultPort)
		if err != nil {
			return
		}
		if j.Port < 1 || j.Port > 65535 || j.Host == "" || len(j.Host) > maxHost {
			t.Fatalf("%q: %+v", s, j)
		}
		again, err := ParseJoin(strings.TrimPrefix(j.URL(), "ssh://"), 1)
		if err != nil || again != j {
			t.Fatalf("%q: %+v, read back from %s as %+v %v", s, j, j.URL(), again, err)
		}
		if _, err := qrMatrix(j.URL()); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}
