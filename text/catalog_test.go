package text

import "testing"

// TestCatalog: a key's text, formatted, its ".one" form for one thing, and
// a missing key showing itself.
func TestCatalog(t *testing.T) {
	c := Catalog{"units": "%d units", "units.one": "one unit", "hello": "hello %s"}
	for _, tc := range []struct{ got, want string }{
		{c.Get("hello"), "hello %s"},
		{c.F("hello", "ann"), "hello ann"},
		{c.Count("units", 2, 2), "2 units"},
		{c.Count("units", 1), "one unit"},
		{c.Count("hello", 1, "bob"), "hello bob"},
		{c.Get("nothing"), "‹nothing›"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
