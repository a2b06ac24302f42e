package yams

import (
	"encoding/json"
	"strconv"

	"github.com/shopspring/decimal"

	"tapis/game"
)

type unitJSON struct {
	Game  string `json:"game"`
	Stake string `json:"stake"`
	Cups  [3]Cup `json:"cups"`
}

// MarshalJSON writes the unit in the layout format of interface.md.
func (u Unit) MarshalJSON() ([]byte, error) {
	return json.Marshal(unitJSON{Game: Name, Stake: u.Stake.String(), Cups: u.Cups})
}

// ParseUnit reads a Yam's layout from its decoded top-level fields. Errors
// name the field at fault ("cups[1][4]: die 7 is not between 1 and 6").
func ParseUnit(fields map[string]json.RawMessage) (*Unit, error) {
	u := &Unit{Stake: decimal.NewFromInt(1)}
	if raw, ok := fields["stake"]; ok {
		s, err := game.Amount(raw, "stake")
		if err != nil {
			return nil, err
		}
		if !ValidStake(s) {
			return nil, game.Errorf("stake", "%s is not one of 0.5, 1, 2", s)
		}
		u.Stake = s
	}
	cups, err := game.Array(fields["cups"], "cups", 3, "cups")
	if err != nil {
		return nil, err
	}
	for i, rc := range cups {
		p := game.Index("cups", i)
		dice, err := game.Array(rc, p, 5, "dice")
		if err != nil {
			return nil, err
		}
		for j, rd := range dice {
			v, err := game.Int(rd, game.Index(p, j), "die", 1, 6)
			if err != nil {
				return nil, err
			}
			u.Cups[i][j] = uint8(v)
		}
	}
	return u, nil
}

// MarshalJSON writes the score in the format of interface.md, as
// json.Marshal writes it.
func (s Score) MarshalJSON() ([]byte, error) { return s.AppendJSON(make([]byte, 0, 192)), nil }

// AppendJSON appends what MarshalJSON writes to b: a writer of many scores
// keeps one buffer.
func (s Score) AppendJSON(b []byte) []byte {
	b = append(b, `{"game":`...)
	b = game.AppendJSONString(b, Name)
	b = game.AppendJSONString(append(b, `,"stake":`...), s.Stake.String())
	b = append(b, `,"cups":[`...)
	for i, c := range s.Combinations {
		if i > 0 {
			b = append(b, ',')
		}
		b = game.AppendJSONString(append(b, `{"combination":`...), c.String())
		b = append(strconv.AppendInt(append(b, `,"points":`...), int64(c.Points()), 10), '}')
	}
	b = strconv.AppendInt(append(b, `],"points":`...), int64(s.Points), 10)
	b = game.AppendJSONString(append(b, `,"prize":`...), s.Prize.String())
	return append(b, '}')
}
