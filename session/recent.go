package session

import (
	"time"

	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/wallet"
)

// Played is a unit bought in the session: the purchase as the wallet
// settled it and the unit as the shop sold it, to be listed and shown again.
type Played struct {
	Op   wallet.Operation // number, name, stake, prize, balances
	Sold lottery.Sold     // identity (game, stake; block and serial, or forced label and rank), tier, prize, layout
	Time time.Time        // when it was bought, by the store's clock, as a journal records it
	Line int              // the journal line that records it; 0 on a store that keeps no lines
	// Receipt is the purchase's receipt, signed by the house, as the
	// store returned it: nil from a store that signs nothing (the game
	// in memory).
	Receipt *ledger.Receipt
}
