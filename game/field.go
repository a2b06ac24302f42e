package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tapis/text"
)

// FieldError is a layout error that names the field at fault, as in
// "cups[1][4]: die 7 is not between 1 and 6".
type FieldError struct {
	Path string
	Msg  string
}

// Error formats the error as PATH: MESSAGE.
func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Errorf returns a FieldError for the field at path. The message often
// quotes what the file held: its control characters are escaped
// (text.Printable), so that it is safe to print.
func Errorf(path, format string, args ...any) error {
	return &FieldError{Path: path, Msg: text.Printable(fmt.Sprintf(format, args...))}
}

// Object reads a JSON object into its fields, keyed by name. A missing or
// null value is an error naming path.
func Object(raw json.RawMessage, path string) (map[string]json.RawMessage, error) {
	if isNull(raw) {
		return nil, Errorf(path, "missing")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, Errorf(path, "want an object, got %s", kind(raw))
	}
	return m, nil
}

// Array reads a JSON array of exactly n elements.
func Array(raw json.RawMessage, path string, n int, what string) ([]json.RawMessage, error) {
	if isNull(raw) {
		return nil, Errorf(path, "missing")
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, Errorf(path, "want an array of %d %s, got %s", n, what, kind(raw))
	}
	if len(a) != n {
		return nil, Errorf(path, "want %d %s, got %d", n, what, len(a))
	}
	return a, nil
}

// Int reads a whole number between lo and hi; what names it in errors
// ("die 7 is not between 1 and 6"). A JSON number is read as its value:
// 6.0 and 6e0 are 6, 6.5 is no whole number, and one past any int is said
// to be too large.
func Int(raw json.RawMessage, path, what string, lo, hi int) (int, error) {
	if isNull(raw) {
		return 0, Errorf(path, "missing")
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, Errorf(path, "%s: want a number, got %s", what, kind(raw))
		}
		n = json.Number(s)
	}
	v, err := strconv.Atoi(string(n))
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(string(n), "-"):
		return 0, Errorf(path, "%s %s is too large (not between %d and %d)", what, n, lo, hi)
	case errors.Is(err, strconv.ErrRange):
		return 0, Errorf(path, "%s %s is not between %d and %d", what, n, lo, hi)
	case err != nil:
		d, err := number(string(n))
		switch {
		case errors.Is(err, errTooLarge) && !strings.HasPrefix(string(n), "-"):
			return 0, Errorf(path, "%s %s is too large (not between %d and %d)", what, n, lo, hi)
		case err != nil || !d.IsInteger():
			return 0, Errorf(path, "%s %s is not a whole number", what, n)
		case d.LessThan(decimal.NewFromInt(int64(lo))) || d.GreaterThan(decimal.NewFromInt(int64(hi))):
			return 0, Errorf(path, "%s %s is not between %d and %d", what, n, lo, hi)
		}
		v = int(d.IntPart())
	}
	if v < lo || v > hi {
		return 0, Errorf(path, "%s %d is not between %d and %d", what, v, lo, hi)
	}
	return v, nil
}

// errTooLarge and errTooFine are number's errors for a number whose
// exponent puts it far beyond any amount or count, or far below the cent.
var (
	errTooLarge = errors.New("too large")
	errTooFine  = errors.New("too fine")
)

// maxExponent bounds the exponents number reads: what a decimal of 10^k
// costs grows with k.
const maxExponent = 64

// number reads a number as JSON writes it (-1.5, 5e-1, 1E3) exactly, as a
// decimal, in bounded time whatever its exponent.
func number(s string) (decimal.Decimal, error) {
	mantissa, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mantissa = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		switch {
		case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s[i+1:], "-"):
			e = maxExponent + 1
		case errors.Is(err, strconv.ErrRange):
			e = -maxExponent - 1
		case err != nil:
			return decimal.Decimal{}, fmt.Errorf("%q is not a number", s)
		}
		exp = e
	}
	if mantissa == "" || strings.ContainsAny(mantissa, "eE") {
		return decimal.Decimal{}, fmt.Errorf("%q is not a number", s)
	}
	d, err := decimal.NewFromString(mantissa)
	switch {
	case err != nil:
		return decimal.Decimal{}, fmt.Errorf("%q is not a number", s)
	case d.IsZero():
		return d, nil
	case exp > maxExponent:
		return decimal.Decimal{}, errTooLarge
	case exp < -maxExponent:
		return decimal.Decimal{}, errTooFine
	}
	return d.Shift(int32(exp)), nil
}

// String reads a JSON string.
func String(raw json.RawMessage, path string) (string, error) {
	if isNull(raw) {
		return "", Errorf(path, "missing")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", Errorf(path, "want a string, got %s", kind(raw))
	}
	return s, nil
}

// Amount reads an amount in euros, written in a file as a decimal string
// ("2.5", also "2,5": see ParsePlainAmount) or a JSON number, read by its
// value (2.5, 25e-1, 3.0).
func Amount(raw json.RawMessage, path string) (decimal.Decimal, error) {
	if isNull(raw) {
		return decimal.Decimal{}, Errorf(path, "missing")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return decimal.Decimal{}, Errorf(path, "want an amount in euros, got %s", kind(raw))
		}
		return numberAmount(string(n), path)
	}
	d, err := ParsePlainAmount(s)
	if err != nil {
		return decimal.Decimal{}, Errorf(path, "%v", err)
	}
	return d, nil
}

// numberAmount reads an amount written as a JSON number (5, 0.5, 5e-1,
// 1e3, 17.0), by its value; its errors quote the number as a number.
func numberAmount(n, path string) (decimal.Decimal, error) {
	d, err := number(n)
	switch {
	case errors.Is(err, errTooLarge) && !strings.HasPrefix(n, "-"):
		return decimal.Decimal{}, Errorf(path, "amount %s is beyond %s", n, maxAmount)
	case errors.Is(err, errTooLarge), err == nil && d.IsNegative():
		return decimal.Decimal{}, Errorf(path, "amount %s is negative", n)
	case errors.Is(err, errTooFine):
		return decimal.Decimal{}, Errorf(path, "amount %s has more than two decimals", n)
	case err != nil:
		return decimal.Decimal{}, Errorf(path, "%s is not an amount in euros", n)
	}
	d, err = checkAmount(d, n)
	if err != nil {
		return decimal.Decimal{}, Errorf(path, "%v", err)
	}
	return d, nil
}

// AmountCents reads an amount in euros as Amount does, in cents.
func AmountCents(raw json.RawMessage, path string) (Cents, error) {
	d, err := Amount(raw, path)
	if err != nil {
		return 0, err
	}
	c, ok := CentsOf(d)
	if !ok { // Amount refuses what is finer than the cent or beyond 10¹² €
		return 0, Errorf(path, "amount %s is not a whole number of cents", d)
	}
	return c, nil
}

// Index formats path[i].
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// Key formats path.key.
func Key(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

func kind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}
