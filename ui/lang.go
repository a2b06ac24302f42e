package ui

import (
	"fmt"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"tapis/game/vegas"
	"tapis/game/yams"
	safe "tapis/text"
	"tapis/wallet"
)

// Lang is the language of the screen: "fr" or "en".
type Lang string

// The two languages.
const (
	French  Lang = "fr"
	English Lang = "en"
)

// ParseLang reads a --lang value.
func ParseLang(s string) (Lang, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "fr":
		return French, nil
	case "en":
		return English, nil
	}
	return "", fmt.Errorf("language %q is not fr or en", s)
}

// text is what the screen says, in one language. French uses the
// regulations' own words.
type text struct {
	lang Lang
	m    safe.Catalog
}

func newText(l Lang) text {
	if l == French {
		return text{l, frenchText()}
	}
	return text{English, englishText()}
}

// The catalogs, made once and only read: every session of a server
// shares them, where each would hold a map of its own (20 KB).
var (
	englishText = sync.OnceValue(english)
	frenchText  = sync.OnceValue(french)
)

// GameNames returns the games' names as the game's screens write them in
// a language, by their registry names ("yams", "vegas").
func GameNames(l Lang) map[string]string {
	t := newText(l)
	return map[string]string{yams.Name: t.get("yams"), vegas.Name: t.get("vegas")}
}

// get returns the text of a key; a missing key shows itself, so that a
// golden test catches it.
func (t text) get(key string) string { return t.m.Get(key) }

// f formats the text of a key.
func (t text) f(key string, args ...any) string { return t.m.F(key, args...) }

// count formats the text of a key about n things: the key's ".one" form
// when n is 1 and it has one.
func (t text) count(key string, n int, args ...any) string { return t.m.Count(key, n, args...) }

// money writes an amount as players of the language read it.
func (t text) money(d decimal.Decimal) string { return wallet.Format(d, string(t.lang)) }

// signed writes an amount with its sign, for the session's net result.
func (t text) signed(d decimal.Decimal) string {
	if d.IsPositive() {
		return "+" + t.money(d)
	}
	return t.money(d)
}
