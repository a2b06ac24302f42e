package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// TopWindow is how far back the board's biggest wins go: a day, which the
// board cuts at its own midnight.
const TopWindow = 24 * time.Hour

// topWins reads the biggest wins of the window before now that players
// have seen (or left), from every block, closed or not: what a board
// starting mid-day has not watched. It runs once, at a poller's first
// poll; the wins found after are added as they come (addTop).
func (p *Poller) topWins(ctx context.Context, now time.Time) ([]Win, error) {
	rows, err := p.s.db.QueryContext(ctx, p.s.engine.q(`SELECT game, stake, block, serial, prize, at FROM purchases
		WHERE at >= $1 AND block IS NOT NULL AND shown <> 0 AND prize >= $2 * stake_cents
		ORDER BY prize DESC, at DESC LIMIT $3`), now.Add(-TopWindow).UnixNano(), BigWinFactor, p.keep)
	if err != nil {
		return nil, fmt.Errorf("store %s: reading the day's biggest wins: %w", p.s.where, oneLine{err})
	}
	defer rows.Close()
	var out []Win
	for rows.Next() {
		var g, stake string
		var block, serial, prize, at int64
		if err := rows.Scan(&g, &stake, &block, &serial, &prize, &at); err != nil {
			return nil, fmt.Errorf("store %s: reading the day's biggest wins: %w", p.s.where, err)
		}
		seq, err := game.ReadSeqKey(g, stake)
		if err != nil {
			return nil, fmt.Errorf("store %s: a unit of %s:%s: %w", p.s.where, g, stake, err)
		}
		unit := game.UnitID{Game: seq.Game, Stake: seq.Stake, Block: block, Serial: serial}
		out = append(out, Win{Unit: unit, Prize: decimal.New(prize, -2), At: time.Unix(0, at).UTC()})
	}
	return out, rows.Err()
}

// addTop adds wins to the biggest of the window before now: the highest
// prizes first, the latest first among equal prizes, each unit once, keep
// at most.
func (p *Poller) addTop(now time.Time, wins []Win) {
	cut := now.Add(-TopWindow)
	p.top = slices.DeleteFunc(append(p.top, wins...), func(w Win) bool { return w.At.Before(cut) })
	slices.SortFunc(p.top, func(a, b Win) int {
		return cmp.Or(b.Prize.Cmp(a.Prize), b.At.Compare(a.At), cmp.Compare(a.Unit.String(), b.Unit.String()))
	})
	p.top = slices.CompactFunc(p.top, func(a, b Win) bool { return a.Unit.String() == b.Unit.String() })
	if len(p.top) > p.keep {
		p.top = p.top[:p.keep]
	}
}
