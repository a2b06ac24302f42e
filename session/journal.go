// Package session keeps a player's session: the shop that sells units, the
// wallet, and the journal that records every purchase on disk before
// anything is revealed, so that a session can be taken up again after a
// crash without a purchase lost or doubled, and anyone can check afterwards
// that closed blocks were drawn as committed.
package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

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
// start is skipped.
func ReadLines(r io.Reader) (lines []Line, good int64, torn int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		br.Discard(len(bom))
		good = int64(len(bom))
	}
	for n := 1; ; n++ {
		line, err := text.ReadLine(br, maxLine)
		switch {
		case errors.Is(err, text.ErrLineTooLong):
			return lines, good, 0, Problem{n, "longer than 1 MiB: not a journal record"}
		case err != nil && !errors.Is(err, io.EOF):
			return nil, 0, 0, fmt.Errorf("reading the journal: %w", err)
		case len(line) == 0:
			return lines, good, 0, nil
		}
		var rec Record
		whole := decodeStrict(bytes.TrimSuffix(line, []byte("\n")), &rec) == nil && rec.Kind != ""
		switch {
		case line[len(line)-1] != '\n' && !whole:
			return lines, good, n, nil
		case !whole:
			return lines, good, 0, Problem{n, "not a journal record"}
		}
		lines = append(lines, Line{N: n, Record: rec})
		good += int64(len(line))
	}
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
