// Package journal is the local game's store: one account, in memory or on
// a JSON-lines journal, behind store.Store beside the SQL store. The store
// sells from a shop and settles in a wallet of its own, and writes every
// purchase to the journal, synced to disk, before anything is revealed, so
// that the game can be taken up again after a crash without a purchase
// lost or doubled. The journal's format (Record, ReadLines) and its
// checker (Verify) are here too: anyone can check afterwards, from the
// journal alone, that closed blocks were drawn as committed.
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
	"tapis/text"
)

// Version is the journal format written by this program, the only one it
// reads. Format 2 deals units with multiply-shift draws: the same seed deals
// other layouts than format 1 did.
const Version = 2

// Kinds of journal records.
const (
	KindStart   = "start"   // the first line: format, seed, starting balance
	KindCommit  = "commit"  // a block's commitment, before its first sale
	KindBuy     = "buy"     // a purchase, settled: stake debited, prize credited
	KindShown   = "shown"   // a unit fully revealed
	KindReveal  = "reveal"  // an exhausted block's seed
	KindDeposit = "deposit" // money added to the wallet: written by no version, refused when read
)

// Record is one line of the journal.
type Record struct {
	Kind       string          `json:"kind"`
	Time       time.Time       `json:"time"`
	Version    int             `json:"v,omitempty"`
	Seed       string          `json:"seed,omitempty"`       // start: the master seed
	Balance    string          `json:"balance,omitempty"`    // start: starting balance
	Block      string          `json:"block,omitempty"`      // commit, reveal: GAME:STAKE:BLOCK
	Commitment string          `json:"commitment,omitempty"` // commit: SHA-256 of the block seed
	BlockSeed  string          `json:"block_seed,omitempty"` // reveal: the block seed
	Seq        int             `json:"seq,omitempty"`        // buy: the purchase's number, from 1
	Unit       string          `json:"unit,omitempty"`       // buy, shown
	Forced     bool            `json:"forced,omitempty"`     // buy: a forced unit (QA, demo)
	Stake      string          `json:"stake,omitempty"`      // buy
	Prize      string          `json:"prize,omitempty"`      // buy
	Before     string          `json:"before,omitempty"`     // buy: balance before
	After      string          `json:"after,omitempty"`      // buy: balance after
	Layout     json.RawMessage `json:"layout,omitempty"`     // buy: the unit as dealt
}

// Line is a record and the line it was read from.
type Line struct {
	N      int
	Record Record
	// A purchase's layout, read with its record (Record.Layout is then
	// left empty), when one typed decode of the line could tell it valid.
	layout lottery.Layout
	read   bool // layout is the purchase's
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
	in    recordFields
	dec   lottery.Decoder
	lines *text.LineReader // the journal's lines, each good until the next is read
}

// recordFields are a journal line as one typed decode reads it.
type recordFields struct {
	Kind       string               `json:"kind"`
	Time       time.Time            `json:"time"`
	Version    int                  `json:"v"`
	Seed       string               `json:"seed"`
	Balance    string               `json:"balance"`
	Block      string               `json:"block"`
	Commitment string               `json:"commitment"`
	BlockSeed  string               `json:"block_seed"`
	Seq        int                  `json:"seq"`
	Unit       string               `json:"unit"`
	Forced     bool                 `json:"forced"`
	Stake      string               `json:"stake"`
	Prize      string               `json:"prize"`
	Before     string               `json:"before"`
	After      string               `json:"after"`
	Layout     lottery.LayoutFields `json:"layout"`
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
// failure; nothing is read after it.
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
		jr.end = true
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
	if jr.dec.Decode(text, in) != nil || !recordKeys.Plain(text) {
		return Line{}, false
	}
	l := Line{N: n, Record: Record{Kind: in.Kind, Time: in.Time, Version: in.Version, Seed: in.Seed, Balance: in.Balance,
		Block: in.Block, Commitment: in.Commitment, BlockSeed: in.BlockSeed, Seq: in.Seq, Unit: in.Unit, Forced: in.Forced,
		Stake: in.Stake, Prize: in.Prize, Before: in.Before, After: in.After}}
	if in.Kind != KindBuy {
		return l, true
	}
	if l.layout, l.read = in.Layout.Layout(); !l.read {
		return Line{}, false // its layout is read field by field, which says what is wrong
	}
	return l, true
}

// readLayout reads a purchase's layout: the one read with its record, or
// its JSON, field by field.
func (l *Line) readLayout() (lottery.Layout, error) {
	if l.read {
		return l.layout, nil
	}
	return lottery.Parse(l.Record.Layout)
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
