package text

import "fmt"

// Catalog is what a screen says in one language: its texts by key, each a
// format for fmt.Sprintf.
type Catalog map[string]string

// Get returns the text of a key; a missing key shows itself, as ‹key›, so
// that a test catches it.
func (c Catalog) Get(key string) string {
	if s, ok := c[key]; ok {
		return s
	}
	return "‹" + key + "›"
}

// F formats the text of a key with args.
func (c Catalog) F(key string, args ...any) string { return fmt.Sprintf(c.Get(key), args...) }

// Count formats the text of a key about n things: the key's ".one" form
// when n is 1 and the catalog has one.
func (c Catalog) Count(key string, n int, args ...any) string {
	if _, ok := c[key+".one"]; ok && n == 1 {
		key += ".one"
	}
	return c.F(key, args...)
}
