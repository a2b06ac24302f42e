package lottery

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// PlaylistItem is one unit of a demo playlist: a game, a stake, and how it
// is forced (a lot of the table, or an exact layout).
type PlaylistItem struct {
	Game  Game
	Stake decimal.Decimal
	Force Force
}

// ReadPlaylist reads a demo playlist: JSON lines, each a layout (as for
// `tapis score`) or a lot, {"game":"yams","stake":"1","prize":"5000"}, where
// the prize must be a lot of the game's table at the stake, or 0. An error
// names the line and the field; nothing is returned then. A playlist of more
// than MaxRecords units is refused as soon as the one past it is read.
func ReadPlaylist(r io.Reader) ([]PlaylistItem, error) {
	var items []PlaylistItem
	var first error
	err := ReadWhile(r, func(e Entry) bool {
		if len(items) == MaxRecords {
			first = fmt.Errorf("line %d: the playlist holds more than %d units, the most it may", e.Line, MaxRecords)
			return false
		}
		item, err := playlistItem(e)
		if err != nil {
			first = err
			return false
		}
		items = append(items, item)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("reading the playlist: %w", err)
	}
	if first != nil {
		return nil, first
	}
	if len(items) == 0 {
		return nil, errors.New("the playlist holds no unit")
	}
	return items, nil
}

// playlistItem reads one entry of a playlist: a layout, or a lot.
func playlistItem(e Entry) (PlaylistItem, error) {
	switch {
	case e.Err == nil:
		l := e.Layout
		g, _ := Find(l.Game())
		return PlaylistItem{Game: g, Stake: l.Stake(), Force: Force{Layout: &l}}, nil
	case e.Raw == nil:
		// Not JSON at all: say so, as tapis score does.
		return PlaylistItem{}, fmt.Errorf("line %d: %w", e.Line, e.Err)
	}
	return lotItem(e.Line, e.Raw)
}

// lotItem reads a playlist line that is not a layout: it must be a lot.
func lotItem(line int, raw json.RawMessage) (PlaylistItem, error) {
	fields, err := game.Object(raw, "")
	if err != nil {
		return PlaylistItem{}, fmt.Errorf("line %d: want a layout or a lot", line)
	}
	if _, ok := fields["prize"]; !ok {
		// Not a lot: report the layout's own error.
		_, lerr := Parse(raw)
		return PlaylistItem{}, fmt.Errorf("line %d: %v", line, lerr)
	}
	name, err := game.String(fields["game"], "game")
	if err != nil {
		return PlaylistItem{}, fmt.Errorf("line %d: %v", line, err)
	}
	g, err := Find(name)
	if err != nil {
		return PlaylistItem{}, fmt.Errorf("line %d: game: %v", line, err)
	}
	stake := g.DefaultStake
	if raw, ok := fields["stake"]; ok {
		s, err := game.Amount(raw, "stake")
		if err != nil {
			return PlaylistItem{}, fmt.Errorf("line %d: %v", line, err)
		}
		if stake, err = g.Stake(s.String()); err != nil {
			return PlaylistItem{}, fmt.Errorf("line %d: %v", line, err)
		}
	}
	prize, err := game.Amount(fields["prize"], "prize")
	if err != nil {
		return PlaylistItem{}, fmt.Errorf("line %d: %v", line, err)
	}
	table, _ := g.Table(stake)
	tier, ok := table.Tier(prize)
	if !ok {
		return PlaylistItem{}, fmt.Errorf("line %d: prize: %s is not a lot of %s at %s", line, prize, g.Name, stake)
	}
	return PlaylistItem{Game: g, Stake: stake, Force: Force{Tier: &tier}}, nil
}

// DefaultPlaylist is the demo's built-in playlist: Yam's and Vegas in turn,
// losing units and small, medium and top lots, at every Yam's stake.
func DefaultPlaylist() []PlaylistItem {
	y, v := Yams(), Vegas()
	half, one, two := decimal.RequireFromString("0.5"), decimal.NewFromInt(1), decimal.NewFromInt(2)
	lots := []struct {
		g     Game
		stake decimal.Decimal
		prize int64 // in cents
	}{
		{y, one, 300}, {v, v.DefaultStake, 500}, {y, two, 0}, {v, v.DefaultStake, 5000},
		{y, half, 500}, {v, v.DefaultStake, 0}, {y, one, 2000}, {v, v.DefaultStake, 20000},
		{y, two, 100000}, {v, v.DefaultStake, 1000}, {y, one, 100}, {v, v.DefaultStake, 100000},
		{y, half, 250000}, {v, v.DefaultStake, 300}, {y, one, 500000}, {v, v.DefaultStake, 4000000},
	}
	var out []PlaylistItem
	for _, l := range lots {
		table, _ := l.g.Table(l.stake)
		tier, ok := table.Tier(decimal.New(l.prize, -2))
		if !ok {
			continue // not a lot: never play it as another one
		}
		out = append(out, PlaylistItem{Game: l.g, Stake: l.stake, Force: Force{Tier: &tier}})
	}
	return out
}
