package vegas

import (
	"strings"

	"tapis/game"
)

// TicketFields are a Vegas layout's own fields as one typed encoding/json
// decode reads them: the fast path of ParseTicket, which still reads the
// layouts this path cannot tell valid, to name the field at fault. Its
// storage is kept from one decode to the next (Reset).
type TicketFields struct {
	Roulette rouletteJSON  `json:"roulette"`
	Craps    []throwFields `json:"craps"`
	Poker    pokerFields   `json:"poker"`
	Jackpot  jackpotFields `json:"jackpot"`

	amounts map[string]game.Cents // the amounts read, as written: tickets use few
}

// maxAmounts bounds the amounts TicketFields keeps read.
const maxAmounts = 256

type throwFields struct {
	Dice   []int  `json:"dice"`
	Amount string `json:"amount"`
}

type pokerFields struct {
	Hand      []string `json:"hand"`
	Community []string `json:"community"`
}

type jackpotFields struct {
	Reels []string `json:"reels"`
	Bonus string   `json:"bonus"`
}

// Reset empties the fields for the next decode, keeping their storage. A
// decode fills the elements of a list it meets in place, and leaves a null
// element, or a member a throw leaves out, as it finds them: every element
// kept is cleared.
func (f *TicketFields) Reset() {
	f.Roulette = rouletteJSON{} // the roulette as MarshalJSON writes it
	all := f.Craps[:cap(f.Craps)]
	for i := range all {
		clear(all[i].Dice[:cap(all[i].Dice)])
		all[i] = throwFields{Dice: all[i].Dice[:0]}
	}
	f.Craps = all[:0]
	f.Poker.Hand, f.Poker.Community, f.Jackpot.Reels = empty(f.Poker.Hand), empty(f.Poker.Community), empty(f.Jackpot.Reels)
	f.Jackpot.Bonus = ""
}

// empty clears a list's storage, and returns it without elements.
func empty[T any](s []T) []T {
	clear(s[:cap(s)])
	return s[:0]
}

// Ticket returns the ticket the fields hold, and true, when ParseTicket
// would read the same (its stake is the caller's to check). Otherwise it
// returns false, and ParseTicket says what is wrong.
func (f *TicketFields) Ticket() (*Ticket, bool) {
	t := &Ticket{}
	if !f.roulette(&t.Roulette) || !f.craps(&t.Craps) || !f.poker(&t.Poker) || !f.jackpot(&t.Jackpot) {
		return nil, false
	}
	return t, true
}

func (f *TicketFields) roulette(r *Roulette) bool {
	in := &f.Roulette
	if in.Number < 1 || in.Number > 36 || in.Bets.Number < 1 || in.Bets.Number > 36 {
		return false
	}
	r.Number, r.Bets[NumberKind] = in.Number, in.Bets.Number
	amounts := [Kinds]string{in.Amounts.Parity, in.Amounts.Color, in.Amounts.Half, in.Amounts.Number}
	for k, s := range amounts {
		a, ok := f.amount(s)
		if !ok {
			return false
		}
		r.Amounts[k] = a
	}
	bets := [NumberKind]string{in.Bets.Parity, in.Bets.Color, in.Bets.Half}
	for k, w := range bets {
		v, ok := lookup(betWords[k][:], w)
		if !ok {
			return false
		}
		r.Bets[k] = v
	}
	return true
}

func (f *TicketFields) craps(c *Craps) bool {
	if len(f.Craps) != len(c) {
		return false
	}
	for i, th := range f.Craps {
		if len(th.Dice) != len(c[i].Dice) {
			return false
		}
		for j, d := range th.Dice {
			if d < 1 || d > 6 {
				return false
			}
			c[i].Dice[j] = d
		}
		a, ok := f.amount(th.Amount)
		if !ok {
			return false
		}
		c[i].Amount = a
	}
	return true
}

func (f *TicketFields) poker(p *Poker) bool {
	in := &f.Poker
	if len(in.Hand) != len(p.Hand) || len(in.Community) != len(p.Community) {
		return false
	}
	var seen [52]bool
	read := func(words []string, into []Card) bool {
		for i, w := range words {
			c, ok := readCard(w)
			if !ok || seen[c] {
				return false
			}
			seen[c] = true
			into[i] = c
		}
		return true
	}
	return read(in.Hand, p.Hand[:]) && read(in.Community, p.Community[:])
}

func (f *TicketFields) jackpot(j *Jackpot) bool {
	in := &f.Jackpot
	if len(in.Reels) != len(j.Reels) {
		return false
	}
	for i, w := range in.Reels {
		v, ok := lookup(symbolWords[:], w)
		if !ok {
			return false
		}
		j.Reels[i] = Symbol(v)
	}
	v, ok := lookup(symbolWords[:], in.Bonus)
	j.Bonus = Symbol(v)
	return ok
}

// Equal reports whether two tickets show the same: MarshalJSON writes the
// same of both.
func (t *Ticket) Equal(o *Ticket) bool {
	a, b := &t.Roulette, &o.Roulette
	if a.Number != b.Number || a.Bets != b.Bets || t.Poker != o.Poker || t.Jackpot != o.Jackpot {
		return false
	}
	for k := range a.Amounts {
		if a.Amounts[k] != b.Amounts[k] {
			return false
		}
	}
	for i := range t.Craps {
		if t.Craps[i].Dice != o.Craps[i].Dice || t.Craps[i].Amount != o.Craps[i].Amount {
			return false
		}
	}
	return true
}

// amount reads an amount as game.ParsePlainAmount does, once for each
// amount written alike: a decimal does not change, and may be shared.
func (f *TicketFields) amount(s string) (game.Cents, bool) {
	if a, ok := f.amounts[s]; ok {
		return a, true
	}
	d, err := game.ParsePlainAmount(s)
	if err != nil {
		return 0, false
	}
	a, ok := game.CentsOf(d) // finer than the cent: the field-by-field reader names it
	if !ok {
		return 0, false
	}
	if f.amounts == nil {
		f.amounts = map[string]game.Cents{}
	}
	if len(f.amounts) < maxAmounts {
		f.amounts[s] = a
	}
	return a, true
}

// readCard is ParseCard, without its work for a card of two letters.
func readCard(s string) (Card, bool) {
	if len(s) != 2 {
		return ParseCard(s)
	}
	r := strings.IndexByte(rankLetters, upper(s[0]))
	u := strings.IndexByte(suitLetters, lower(s[1]))
	if r < 0 || u < 0 {
		return 0, false
	}
	return NewCard(r, u), true
}

// upper returns an ASCII letter in upper case, any other byte as it is.
func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// lower returns an ASCII letter in lower case, any other byte as it is.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}
