package store

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ChangedRowError is a row of the store that tapis could not read: one of
// its columns holds a value of another type than tapis writes there (text
// where it writes a number, nothing where it writes something), which only
// a hand outside tapis puts there.
type ChangedRowError struct {
	Context string // what was being read, as the error chain said it ("store: reading account "a": ")
	Column  string
	Value   string // the value found, quoted; empty for NULL
	Want    string // what tapis writes there, in words
}

func (e *ChangedRowError) Error() string {
	found := "nothing (NULL)"
	if e.Value != "" {
		found = e.Value
	}
	return fmt.Sprintf("%sits column %q holds %s where tapis writes %s: the store was changed outside tapis",
		e.Context, e.Column, found, e.Want)
}

// scanError is the text database/sql gives a value Scan could not
// convert: it has no type of its own to look for.
var scanError = regexp.MustCompile(`sql: Scan error on column index \d+, name "((?:[^"\\]|\\.)*)": ` +
	`(?:converting driver\.Value type \S+ \("((?:[^"\\]|\\.)*)"\) to a (\w+): .*|converting NULL to (\w+) is unsupported|(.*))$`)

// Explain returns err, or, when it is a row that did not read (database/
// sql's Scan error), the same error told as a *ChangedRowError: one line
// that says which column holds what, in place of the driver's text.
func Explain(err error) error {
	if err == nil {
		return nil
	}
	var changed *ChangedRowError
	if errors.As(err, &changed) {
		return err
	}
	msg := err.Error()
	at := strings.Index(msg, "sql: Scan error on column index ")
	if at < 0 {
		return err
	}
	m := scanError.FindStringSubmatch(msg[at:])
	if m == nil {
		return err
	}
	e := &ChangedRowError{Context: msg[:at], Column: unquoted(m[1])}
	switch {
	case m[3] != "":
		e.Value, e.Want = shortQuote(unquoted(m[2])), kindWords(m[3])
	case m[4] != "":
		e.Want = kindWords(m[4])
	default:
		e.Value, e.Want = "a value it could not read", "another"
	}
	return e
}

// kindWords names a Go kind as what tapis writes in a column of it.
func kindWords(kind string) string {
	switch kind {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "text"
	}
	return "a value of another type"
}

// unquoted reads back a string %q wrote, or returns it as it is.
func unquoted(s string) string {
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}

// shortQuote quotes s, cut to 40 characters: a column filled with a book
// is told in one line.
func shortQuote(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return strconv.Quote(s)
}
