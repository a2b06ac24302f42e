package vegas

import (
	"encoding/json"
	"strconv"
	"strings"

	"tapis/game"
)

// Names of the chips' values in layouts; French words are accepted too.
var (
	betWords = [Kinds - 1][2][]string{
		{{"even", "pair"}, {"odd", "impair"}},
		{{"red", "rouge"}, {"black", "noir"}},
		{{"low", "manque"}, {"high", "passe"}},
	}
	symbolWords = [Symbols][]string{{"seven", "7"}, {"crown", "couronne"}, {"bar"},
		{"bell", "cloche"}, {"star", "etoile", "étoile"}, {"cherry", "cerise"}}
)

// BetName returns the layout word for the value v of a parity, colour or half
// chip ("even", "black", "low").
func BetName(k Kind, v int) string { return betWords[k][v][0] }

type rouletteJSON struct {
	Number  int `json:"number"`
	Amounts struct {
		Parity string `json:"parity"`
		Color  string `json:"color"`
		Half   string `json:"half"`
		Number string `json:"number"`
	} `json:"amounts"`
	Bets struct {
		Parity string `json:"parity"`
		Color  string `json:"color"`
		Half   string `json:"half"`
		Number int    `json:"number"`
	} `json:"bets"`
}

type throwJSON struct {
	Dice   [2]int `json:"dice"`
	Amount string `json:"amount"`
}

type pokerJSON struct {
	Hand      []string `json:"hand"`
	Community []string `json:"community"`
}

type jackpotJSON struct {
	Reels [3]string `json:"reels"`
	Bonus string    `json:"bonus"`
}

type ticketJSON struct {
	Game     string       `json:"game"`
	Roulette rouletteJSON `json:"roulette"`
	Craps    [3]throwJSON `json:"craps"`
	Poker    pokerJSON    `json:"poker"`
	Jackpot  jackpotJSON  `json:"jackpot"`
}

// MarshalJSON writes the ticket in the layout format of interface.md.
func (t Ticket) MarshalJSON() ([]byte, error) {
	out := ticketJSON{Game: Name}
	ro := &t.Roulette
	out.Roulette.Number = ro.Number
	a, b := &out.Roulette.Amounts, &out.Roulette.Bets
	a.Parity, a.Color = ro.Amounts[ParityKind].String(), ro.Amounts[ColorKind].String()
	a.Half, a.Number = ro.Amounts[HalfKind].String(), ro.Amounts[NumberKind].String()
	b.Parity, b.Color = BetName(ParityKind, ro.Bets[ParityKind]), BetName(ColorKind, ro.Bets[ColorKind])
	b.Half, b.Number = BetName(HalfKind, ro.Bets[HalfKind]), ro.Bets[NumberKind]
	for i, th := range t.Craps {
		out.Craps[i] = throwJSON{Dice: th.Dice, Amount: th.Amount.String()}
	}
	for _, c := range t.Poker.Hand {
		out.Poker.Hand = append(out.Poker.Hand, c.String())
	}
	for _, c := range t.Poker.Community {
		out.Poker.Community = append(out.Poker.Community, c.String())
	}
	for i, s := range t.Jackpot.Reels {
		out.Jackpot.Reels[i] = s.String()
	}
	out.Jackpot.Bonus = t.Jackpot.Bonus.String()
	return json.Marshal(out)
}

// ParseTicket reads a Vegas layout from its decoded top-level fields. Errors
// name the field at fault ("poker.hand[1]: card Ah appears twice").
func ParseTicket(fields map[string]json.RawMessage) (*Ticket, error) {
	t := &Ticket{}
	if raw, ok := fields["stake"]; ok {
		s, err := game.Amount(raw, "stake")
		if err != nil {
			return nil, err
		}
		if !s.Equal(Price()) {
			return nil, game.Errorf("stake", "%s is not the ticket's price, 3", s)
		}
	}
	if err := parseRoulette(fields["roulette"], &t.Roulette); err != nil {
		return nil, err
	}
	if err := parseCraps(fields["craps"], &t.Craps); err != nil {
		return nil, err
	}
	if err := parsePoker(fields["poker"], &t.Poker); err != nil {
		return nil, err
	}
	if err := parseJackpot(fields["jackpot"], &t.Jackpot); err != nil {
		return nil, err
	}
	return t, nil
}

func parseRoulette(raw json.RawMessage, r *Roulette) error {
	m, err := game.Object(raw, "roulette")
	if err != nil {
		return err
	}
	if r.Number, err = game.Int(m["number"], "roulette.number", "number", 1, 36); err != nil {
		return err
	}
	amounts, err := game.Object(m["amounts"], "roulette.amounts")
	if err != nil {
		return err
	}
	bets, err := game.Object(m["bets"], "roulette.bets")
	if err != nil {
		return err
	}
	for k := range Kinds {
		p := "roulette.amounts." + k.String()
		if r.Amounts[k], err = game.AmountCents(amounts[k.String()], p); err != nil {
			return err
		}
		p = "roulette.bets." + k.String()
		if k == NumberKind {
			if r.Bets[k], err = game.Int(bets[k.String()], p, "number", 1, 36); err != nil {
				return err
			}
			continue
		}
		w, err := game.String(bets[k.String()], p)
		if err != nil {
			return err
		}
		v, ok := lookup(betWords[k][:], w)
		if !ok {
			return game.Errorf(p, "%q is not %s or %s", w, betWords[k][0][0], betWords[k][1][0])
		}
		r.Bets[k] = v
	}
	return nil
}

func parseCraps(raw json.RawMessage, c *Craps) error {
	throws, err := game.Array(raw, "craps", 3, "throws")
	if err != nil {
		return err
	}
	for i, rt := range throws {
		p := game.Index("craps", i)
		m, err := game.Object(rt, p)
		if err != nil {
			return err
		}
		dice, err := game.Array(m["dice"], p+".dice", 2, "dice")
		if err != nil {
			return err
		}
		for j, rd := range dice {
			if c[i].Dice[j], err = game.Int(rd, game.Index(p+".dice", j), "die", 1, 6); err != nil {
				return err
			}
		}
		if c[i].Amount, err = game.AmountCents(m["amount"], p+".amount"); err != nil {
			return err
		}
	}
	return nil
}

func parsePoker(raw json.RawMessage, pk *Poker) error {
	m, err := game.Object(raw, "poker")
	if err != nil {
		return err
	}
	seen := map[Card]bool{}
	read := func(key string, n int, into []Card) error {
		p := "poker." + key
		cards, err := game.Array(m[key], p, n, "cards")
		if err != nil {
			return err
		}
		for i, rc := range cards {
			q := game.Index(p, i)
			s, err := game.String(rc, q)
			if err != nil {
				return err
			}
			c, ok := ParseCard(s)
			if !ok {
				return game.Errorf(q, "%q is not a card (rank 2-9 T J Q K A, then suit h d s c)", s)
			}
			if seen[c] {
				return game.Errorf(q, "card %s appears twice", c)
			}
			seen[c] = true
			into[i] = c
		}
		return nil
	}
	if err := read("hand", 2, pk.Hand[:]); err != nil {
		return err
	}
	return read("community", 5, pk.Community[:])
}

func parseJackpot(raw json.RawMessage, j *Jackpot) error {
	m, err := game.Object(raw, "jackpot")
	if err != nil {
		return err
	}
	reels, err := game.Array(m["reels"], "jackpot.reels", 3, "symbols")
	if err != nil {
		return err
	}
	symbol := func(raw json.RawMessage, p string) (Symbol, error) {
		w, err := game.String(raw, p)
		if err != nil {
			return 0, err
		}
		v, ok := lookup(symbolWords[:], w)
		if !ok {
			return 0, game.Errorf(p, "%q is not a symbol (seven crown bar bell star cherry)", w)
		}
		return Symbol(v), nil
	}
	for i, rs := range reels {
		if j.Reels[i], err = symbol(rs, game.Index("jackpot.reels", i)); err != nil {
			return err
		}
	}
	j.Bonus, err = symbol(m["bonus"], "jackpot.bonus")
	return err
}

// ParseCard reads a card written as in layouts: rank 2-9, T (or 10), J, Q, K,
// A, then suit h, d, s or c, in either case ("As", "td", "10h").
func ParseCard(s string) (Card, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if strings.HasPrefix(s, "10") {
		s = "T" + s[2:]
	}
	if len(s) != 2 {
		return 0, false
	}
	r := strings.IndexByte(rankLetters, s[0])
	u := strings.IndexByte(strings.ToUpper(suitLetters), s[1])
	if r < 0 || u < 0 {
		return 0, false
	}
	return NewCard(r, u), true
}

func lookup(words [][]string, w string) (int, bool) {
	w = strings.ToLower(strings.TrimSpace(w))
	for i, ws := range words {
		for _, x := range ws {
			if x == w {
				return i, true
			}
		}
	}
	return 0, false
}

// MarshalJSON writes the score in the format of interface.md, as
// json.Marshal writes it; the roulette lists the results won ("wins") and
// the craps the throws won, from 1.
func (s Score) MarshalJSON() ([]byte, error) { return s.AppendJSON(make([]byte, 0, 320)), nil }

// AppendJSON appends what MarshalJSON writes to b: a writer of many scores
// keeps one buffer.
func (s Score) AppendJSON(b []byte) []byte {
	b = append(b, `{"game":`...)
	b = game.AppendJSONString(b, Name)
	b = game.AppendJSONString(append(b, `,"surfaces":{"roulette":{"prize":`...), s.Roulette.Prize.String())
	b = append(b, `,"wins":[`...)
	sep := false
	for k := range Kinds {
		if s.Roulette.Wins[k] {
			if sep {
				b = append(b, ',')
			}
			b, sep = game.AppendJSONString(b, k.String()), true
		}
	}
	b = game.AppendJSONString(append(b, `]},"craps":{"prize":`...), s.Craps.Prize.String())
	b = append(b, `,"throws":[`...)
	sep = false
	for i, w := range s.Craps.Wins {
		if w {
			if sep {
				b = append(b, ',')
			}
			b, sep = strconv.AppendInt(b, int64(i+1), 10), true
		}
	}
	b = game.AppendJSONString(append(b, `]},"poker":{"prize":`...), s.Poker.Prize.String())
	b = game.AppendJSONString(append(b, `,"combination":`...), s.Poker.Combination.String())
	b = game.AppendJSONString(append(b, `},"jackpot":{"prize":`...), s.Jackpot.Prize.String())
	b = game.AppendJSONString(append(b, `,"combination":`...), s.Jackpot.Case.String())
	b = game.AppendJSONString(append(b, `}},"prize":`...), s.Prize.String())
	return append(b, '}')
}
