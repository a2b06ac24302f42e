// Package journal is the local game's store: one account, in memory or on
// a JSON-lines journal, behind store.Store beside the SQL store. The store
// sells from a shop and settles in a wallet of its own, and writes every
// purchase to the journal, synced to disk, before anything is revealed, so
// that the game can be taken up again after a crash without a purchase
// lost or doubled. A journal is sealed and signed as the SQL store's
// emission is (package ledger): its start record holds the seal, and every
// line is a link of one chain, signed with the house's key (chain.go), so
// that a line edited, inserted, deleted or moved is named, and each
// purchase has its receipt (Receipts). The journal's format (Record,
// ReadLines) and its checker (Verify) are here too: anyone can check
// afterwards, from the journal alone, that closed blocks were drawn as
// committed and that every line is as the key sealed in it wrote it.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/text"
)

// Version is the journal format written by this program, the only one it
// reads. Format 3 holds a 256-bit master seed, from which each block's seed
// is derived by HMAC-SHA256 (game.Seed.Block), a sealed start record and a
// signed chain of lines. Formats 1 and 2 held 64-bit seeds that dealt
// otherwise and signed nothing: this tapis neither sells from nor checks
// them (oldFormat).
const Version = 3

// Kinds of journal records.
const (
	KindStart   = "start"   // the first line: format, seed, starting balance, account, seal
	KindCommit  = "commit"  // a block's commitment, before its first sale
	KindBuy     = "buy"     // a purchase, settled: stake debited, prize credited
	KindShown   = "shown"   // a unit fully revealed
	KindReveal  = "reveal"  // an exhausted block's seed
	KindDeposit = "deposit" // money added to the wallet: written by no version, refused when read
)

// Record is one line of the journal. Every record is a link of the
// journal's chain: Prev is the link of the line before it (the start
// record's, its account's genesis), Sig the house's signature of its own
// hash (chain.go says what each kind hashes).
type Record struct {
	Kind       string          `json:"kind"`
	Time       time.Time       `json:"time"`
	Version    int             `json:"v,omitempty"`
	Seed       string          `json:"seed,omitempty"`       // start: the master seed
	Balance    string          `json:"balance,omitempty"`    // start: starting balance, the account's first deposit
	Account    string          `json:"account,omitempty"`    // start: the one account
	Seal       json.RawMessage `json:"seal,omitempty"`       // start: the seal's signed copy (ledger.Seal's JSON)
	SealSig    string          `json:"seal_sig,omitempty"`   // start: the house's signature of the seal
	Block      string          `json:"block,omitempty"`      // commit, reveal: GAME:STAKE:BLOCK
	Commitment string          `json:"commitment,omitempty"` // commit: SHA-256 of the block seed
	Units      int64           `json:"units,omitempty"`      // commit: the block's units
	BlockSeed  string          `json:"block_seed,omitempty"` // reveal: the block seed
	Seq        int             `json:"seq,omitempty"`        // buy: the purchase's number, from 1
	Unit       string          `json:"unit,omitempty"`       // buy, shown
	Forced     bool            `json:"forced,omitempty"`     // buy: a forced unit (QA, demo)
	Tier       int             `json:"tier,omitempty"`       // buy: its prize's tier in its lot table (0, the first lot's, left out), -1 for a prize no lot pays
	Stake      string          `json:"stake,omitempty"`      // buy
	Prize      string          `json:"prize,omitempty"`      // buy
	Before     string          `json:"before,omitempty"`     // buy: balance before
	After      string          `json:"after,omitempty"`      // buy: balance after
	Layout     json.RawMessage `json:"layout,omitempty"`     // buy: the unit as dealt
	Prev       string          `json:"prev,omitempty"`       // every record: the link of the line before it
	Sig        string          `json:"sig,omitempty"`        // every record: the house's signature of its hash
}

// Line is a record and the line it was read from.
type Line struct {
	N      int
	Record Record
	// A purchase's layout, read with its record (Record.Layout is then
	// left empty), when one typed decode of the line could tell it valid.
	layout lottery.Layout
	read   bool   // layout is the purchase's
	raw    []byte // then the layout's JSON as the line writes it: good until the next line is read
	// The line's Prev and Sig, read, when it ends with them as tapis
	// writes every line (tail; Record.Prev and Sig are then left empty).
	prev ledger.Hash
	sig  ledger.Sig
	tail bool
}

// maxLine bounds one journal line.
const maxLine = 1 << 20

// ReadLines reads the records of a journal. Each record is written whole
// with its newline, then synced, so a crash while writing leaves at most an
// unterminated last line: when it holds a whole record (only its newline
// missing) it is read, otherwise it is left out and torn gives its number
// (0 when there is none); good is the length of the lines read. Any
// terminated line that is not a record is an error naming it, and so is a
// line longer than 1 MiB, found as soon as that much of it is read; the
// lines before it are returned with it. A UTF-8 byte-order mark at the
// start is skipped. ReadLines holds every record: Open and Verify read a
// journal of any length line by line, in little memory.
func ReadLines(r io.Reader) (lines []Line, good int64, torn int, err error) {
	jr := newJournalReader(r, true)
	for {
		l, ok, err := jr.next()
		if err != nil {
			var p Problem
			if !errors.As(err, &p) {
				return nil, 0, 0, err
			}
			return lines, jr.good, 0, err
		}
		if !ok {
			return lines, jr.good, jr.torn, nil
		}
		lines = append(lines, l)
	}
}

// journalReader reads a journal's records one line at a time, as
// ReadLines describes, with one typed decode a line into storage it keeps
// from one line to the next. A line that decode cannot tell (one that is
// not a record, or whose layout is not valid) is read again as the record
// it is, field by field, so that what is said of it is the same.
type journalReader struct {
	n     int   // the lines read
	good  int64 // their length
	torn  int   // the last line, cut short by a crash, or 0
	end   bool  // the journal is read
	raw   bool  // every line read field by field, its layout kept as JSON
	goOn  bool  // a line that is no record is a Problem, and reading goes on (verify)
	in    recordFields
	dec   lottery.Decoder
	body  []byte           // a line but its chain's members (chainTail), decoded in their stead
	lines *text.LineReader // the journal's lines, each good until the next is read
}

// recordFields are a journal line as one typed decode reads it.
type recordFields struct {
	Kind       string               `json:"kind"`
	Time       time.Time            `json:"time"`
	Version    int                  `json:"v"`
	Seed       string               `json:"seed"`
	Balance    string               `json:"balance"`
	Account    string               `json:"account"`
	Seal       json.RawMessage      `json:"seal"`
	SealSig    string               `json:"seal_sig"`
	Block      string               `json:"block"`
	Commitment string               `json:"commitment"`
	Units      int64                `json:"units"`
	BlockSeed  string               `json:"block_seed"`
	Seq        int                  `json:"seq"`
	Unit       string               `json:"unit"`
	Forced     bool                 `json:"forced"`
	Tier       int                  `json:"tier"`
	Stake      string               `json:"stake"`
	Prize      string               `json:"prize"`
	Before     string               `json:"before"`
	After      string               `json:"after"`
	Layout     lottery.LayoutFields `json:"layout"`
	Prev       string               `json:"prev"`
	Sig        string               `json:"sig"`
}

// recordKeys are the member names of a journal line, its layout's
// included.
var recordKeys = lottery.KeysOf(recordFields{})

func newJournalReader(r io.Reader, raw bool) *journalReader {
	br := bufio.NewReaderSize(r, 64<<10)
	jr := &journalReader{lines: text.NewLineReader(br, maxLine), raw: raw}
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		br.Discard(len(bom))
		jr.good = int64(len(bom))
	}
	return jr
}

// next returns the next record, or false at the end of the journal. Its
// error is a Problem for a line that is not a record, or the reader's
// failure; nothing is read after it, but after a line that is no record
// when goOn is set.
func (jr *journalReader) next() (Line, bool, error) {
	if jr.end {
		return Line{}, false, nil
	}
	jr.n++
	n := jr.n
	line, err := jr.lines.ReadLine()
	switch {
	case errors.Is(err, text.ErrLineTooLong):
		jr.end = true
		return Line{}, false, Problem{n, "longer than 1 MiB: not a journal record"}
	case err != nil && !errors.Is(err, io.EOF):
		jr.end = true
		return Line{}, false, fmt.Errorf("reading the journal: %w", err)
	case len(line) == 0:
		jr.end = true
		return Line{}, false, nil
	}
	l, whole := jr.decode(n, bytes.TrimSuffix(line, []byte("\n")))
	switch {
	case line[len(line)-1] != '\n' && !whole:
		jr.end, jr.torn = true, n
		return Line{}, false, nil
	case !whole:
		jr.end = !jr.goOn
		return Line{}, false, Problem{n, "not a journal record"}
	}
	jr.good += int64(len(line))
	return l, true, nil
}

// decode reads a line as one record, and reports whether it is one.
func (jr *journalReader) decode(n int, text []byte) (Line, bool) {
	if !jr.raw {
		if l, ok := jr.fast(n, text); ok {
			return l, l.Record.Kind != ""
		}
	}
	l := Line{N: n}
	whole := decodeStrict(text, &l.Record) == nil && l.Record.Kind != ""
	return l, whole
}

// fast reads a line with one typed decode, when that reads what reading
// it field by field would.
func (jr *journalReader) fast(n int, text []byte) (Line, bool) {
	in := &jr.in
	in.Layout.Reset()
	layout := in.Layout
	*in = recordFields{Layout: layout}
	// The chain's members, long and last, are taken as they are written,
	// and the rest decoded: they come last, so they win over any of the
	// same name before them, as they do in a decode of the whole line.
	body := text
	k, prev, sig, tail := chainTail(text)
	if tail {
		jr.body = append(append(jr.body[:0], text[:k]...), '}')
		body = jr.body
	}
	if jr.dec.Decode(body, in) != nil || !recordKeys.Plain(body) {
		return Line{}, false
	}
	l := Line{N: n, Record: Record{Kind: in.Kind, Time: in.Time, Version: in.Version, Seed: in.Seed, Balance: in.Balance,
		Account: in.Account, SealSig: in.SealSig,
		Block: in.Block, Commitment: in.Commitment, Units: in.Units, BlockSeed: in.BlockSeed, Seq: in.Seq, Unit: in.Unit, Forced: in.Forced, Tier: in.Tier,
		Stake: in.Stake, Prize: in.Prize, Before: in.Before, After: in.After, Prev: in.Prev, Sig: in.Sig}}
	if tail {
		l.Record.Prev, l.Record.Sig, l.prev, l.sig, l.tail = "", "", prev, sig, true
	}
	if len(in.Seal) > 0 {
		l.Record.Seal = in.Seal // the decode's own copy
	}
	if in.Kind != KindBuy {
		return l, true
	}
	raw, ok := memberValue(text, "layout")
	if !ok {
		return Line{}, false
	}
	if l.layout, l.read = in.Layout.Layout(); !l.read {
		return Line{}, false // its layout is read field by field, which says what is wrong
	}
	l.raw = raw
	return l, true
}

// chainTail reports whether a line ends as tapis ends every line, with its
// Prev and Sig: `,"prev":"` 64 hexadecimal digits `","sig":"` 128 of them
// `"}`. It returns where that tail starts, and the two values read.
func chainTail(text []byte) (k int, prev ledger.Hash, sig ledger.Sig, ok bool) {
	const p, s, end = `,"prev":"`, `","sig":"`, `"}`
	n := len(p) + 2*len(prev) + len(s) + 2*len(sig) + len(end)
	if len(text) <= n {
		return 0, prev, sig, false
	}
	k = len(text) - n
	t := text[k:]
	ph, st := t[len(p):len(p)+2*len(prev)], t[len(p)+2*len(prev):]
	sh := st[len(s) : len(s)+2*len(sig)]
	if string(t[:len(p)]) != p || string(st[:len(s)]) != s || string(t[n-len(end):]) != end ||
		!decodeHex(prev[:], ph) || !decodeHex(sig[:], sh) {
		return 0, prev, sig, false
	}
	return k, prev, sig, true
}

// links returns the line's Prev and Sig, each with whether it reads.
func (l *Line) links() (prev ledger.Hash, pok bool, sig ledger.Sig, sok bool) {
	if l.tail {
		return l.prev, true, l.sig, true
	}
	prev, pok = parseHash([]byte(l.Record.Prev))
	sig, sok = parseSig([]byte(l.Record.Sig))
	return prev, pok, sig, sok
}

// readLayout reads a purchase's layout: the one read with its record, or
// its JSON, field by field.
func (l *Line) readLayout() (lottery.Layout, error) {
	if l.read {
		return l.layout, nil
	}
	return lottery.Parse(l.Record.Layout)
}

// layoutJSON returns a purchase's layout as its line writes it: what its
// hash covers. It is good until the next line is read.
func (l *Line) layoutJSON() []byte {
	if l.read {
		return l.raw
	}
	return l.Record.Layout
}

// bom is the UTF-8 byte-order mark that some editors write first.
var bom = []byte("\xef\xbb\xbf")

func decodeStrict(text []byte, rec *Record) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(rec); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one value")
	}
	return nil
}

// memberValue returns the bytes of the value of the member name of the
// JSON object text, as the text writes it: what a json.RawMessage of that
// member holds. It reads text as one object whose names have no escapes
// (Keys.Plain told so) and reports false for anything else, or when the
// object has no such member.
func memberValue(text []byte, name string) ([]byte, bool) {
	i := skipSpace(text, 0)
	if i >= len(text) || text[i] != '{' {
		return nil, false
	}
	for i++; ; {
		i = skipSpace(text, i)
		if i >= len(text) || text[i] != '"' {
			return nil, false
		}
		end := bytes.IndexByte(text[i+1:], '"')
		if end < 0 {
			return nil, false
		}
		key := text[i+1 : i+1+end]
		i = skipSpace(text, i+end+2)
		if i >= len(text) || text[i] != ':' {
			return nil, false
		}
		from := skipSpace(text, i+1)
		to, ok := skipValue(text, from)
		if !ok {
			return nil, false
		}
		if string(key) == name {
			return text[from:to], true
		}
		i = skipSpace(text, to)
		if i >= len(text) || text[i] != ',' {
			return nil, false
		}
		i++
	}
}

// skipSpace returns the first index from i that is not JSON white space.
func skipSpace(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just after the JSON value that starts at i:
// a string, an object or an array (strings inside them skipped whole), or
// a number or literal, which ends at the next delimiter.
func skipValue(text []byte, i int) (int, bool) {
	depth, start := 0, i
	for ; i < len(text); i++ {
		switch c := text[i]; c {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			if i >= len(text) {
				return 0, false
			}
			if depth == 0 {
				return i + 1, true
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i, i > start
			}
			if depth--; depth == 0 {
				return i + 1, true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, i > start
			}
		}
	}
	return i, depth == 0
}
