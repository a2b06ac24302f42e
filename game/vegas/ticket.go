// Package vegas holds the rules of « Vegas », the 3 € scratch ticket: its
// four surfaces (Roulette, Craps, Poker, Jackpot, art. 4), how each one and
// the whole ticket score, its lot table (art. 3), and the dealer that shows a
// drawn lot (rulings V1 to V9).
package vegas

import (
	"fmt"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// Name is the game's name in unit identities and layouts.
const Name = "vegas"

// BlockUnits is the number of tickets in a block (art. 2).
const BlockUnits = 1_500_000

// Price returns the price of a ticket (art. 2): 3 €.
func Price() decimal.Decimal { return decimal.NewFromInt(3) }

// lots is the lot table of art. 3, in whole euros, highest first.
var lots = [...]struct{ euros, count int64 }{
	{40_000, 2}, {10_000, 2}, {1_000, 25}, {200, 500}, {50, 13_000},
	{25, 30_000}, {10, 47_000}, {5, 151_000}, {3, 100_000},
}

// Losing is the tier of losing tickets in the Vegas table.
const Losing = len(lots)

// Table returns the lot table of a block (art. 3).
func Table() *game.Table {
	t := &game.Table{Units: BlockUnits}
	for _, l := range lots {
		t.Lots = append(t.Lots, game.Lot{Prize: decimal.NewFromInt(l.euros), Count: l.count})
	}
	return t
}

// Cumulative reports whether a lot, in euros, is only reached by adding the
// wins of two or more surfaces (art. 3, second paragraph; ruling V5).
func Cumulative(euros int64) bool {
	switch euros {
	case 40_000, 10_000, 200, 50, 25, 10:
		return true
	}
	return false
}

// Ticket is a Vegas ticket as the player sees it once scratched: four
// independent surfaces (surfaces de jeu, art. 4.1).
type Ticket struct {
	Roulette Roulette
	Craps    Craps
	Poker    Poker
	Jackpot  Jackpot
}

// Surface names one of the four surfaces.
type Surface uint8

// The four surfaces, in the order of art. 4.
const (
	RouletteSurface Surface = iota // 1re surface « Roulette »
	CrapsSurface                   // 2e surface « Craps »
	PokerSurface                   // 3e surface « Poker »
	JackpotSurface                 // 4e surface « Jackpot »
	Surfaces                       // number of surfaces
)

var surfaceNames = [Surfaces]string{"roulette", "craps", "poker", "jackpot"}

// String returns the surface's name in layouts ("roulette").
func (s Surface) String() string {
	if s >= Surfaces {
		return fmt.Sprintf("Surface(%d)", uint8(s))
	}
	return surfaceNames[s]
}

// Kind is one of the four results read on the roulette (art. 4.2.2): the
// parity, the colour, manque or passe, and the number.
type Kind uint8

// The four kinds of roulette result, in the order of the bet chips Mise 1 to 4.
const (
	ParityKind Kind = iota // Mise 1 « Pair/Impair »
	ColorKind              // Mise 2 « Rouge/Noir »
	HalfKind               // Mise 3 « Manque/Passe »
	NumberKind             // Mise 4 « Numéro »
	Kinds                  // number of kinds
)

var kindNames = [Kinds]string{"parity", "color", "half", "number"}

// String returns the kind's name in layouts ("parity").
func (k Kind) String() string {
	if k >= Kinds {
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
	return kindNames[k]
}

// Roulette is the first surface (art. 4.2): the wheel's spin on a number, an
// amount for each of the four results it gives, and the four bet chips.
// Bets[ParityKind] is 0 for even (pair) or 1 for odd (impair); Bets[ColorKind]
// is 0 for red (rouge) or 1 for black (noir); Bets[HalfKind] is 0 for low
// (manque, 1-18) or 1 for high (passe, 19-36); Bets[NumberKind] is a number
// from 1 to 36.
type Roulette struct {
	Number  int               // the wheel's number, 1 to 36
	Amounts [Kinds]game.Cents // the amount of each result
	Bets    [Kinds]int        // the four chips (Mise 1 to 4)
}

// Result returns the wheel's result of a kind, coded as the bets are.
func (r *Roulette) Result(k Kind) int { return Outcome(r.Number, k) }

var red = [37]bool{1: true, 3: true, 5: true, 7: true, 9: true, 12: true, 14: true, 16: true,
	18: true, 19: true, 21: true, 23: true, 25: true, 27: true, 30: true, 32: true, 34: true, 36: true}

// Red reports whether number n is red on a European wheel (ruling V1).
func Red(n int) bool { return n >= 0 && n <= 36 && red[n] }

// outcomes holds Outcome for the numbers of the wheel, 0 to 36.
var outcomes = func() (t [37][Kinds]int) {
	for n := range t {
		for k := range Kinds {
			t[n][k] = Outcome(n, k)
		}
	}
	return t
}()

// Outcome returns the result of kind k that number n gives, coded as bets.
func Outcome(n int, k Kind) int {
	switch k {
	case ParityKind:
		return n % 2
	case ColorKind:
		if Red(n) {
			return 0
		}
		return 1
	case HalfKind:
		if n <= 18 {
			return 0
		}
		return 1
	}
	return n
}

// Throw is one throw of the Craps surface (lancer, art. 4.3): two dice and
// the amount of its Gain chip.
type Throw struct {
	Dice   [2]int
	Amount game.Cents
}

// Craps is the second surface (art. 4.3): three throws.
type Craps [3]Throw

// Symbol is a symbol of the Jackpot reels (art. 4.5.2).
type Symbol uint8

// The six symbols, from the highest case to the cerise.
const (
	Seven  Symbol = iota // « 7 »
	Crown                // « couronne »
	Bar                  // « BAR »
	Bell                 // « cloche »
	Star                 // « étoile »
	Cherry               // « cerise »
	Symbols
)

var symbolNames = [Symbols]string{"seven", "crown", "bar", "bell", "star", "cherry"}

// String returns the symbol's name in layouts ("crown").
func (s Symbol) String() string {
	if s >= Symbols {
		return fmt.Sprintf("Symbol(%d)", uint8(s))
	}
	return symbolNames[s]
}

// Jackpot is the fourth surface (art. 4.5): three reels and the Bonus reel.
type Jackpot struct {
	Reels [3]Symbol
	Bonus Symbol
}

// Card is a playing card: Rank()*4 + Suit().
type Card uint8

// Ranks and suits as written in layouts: rank 2 to A (T for ten), suit h d s c
// (cœur, carreau, pique, trèfle).
const (
	rankLetters = "23456789TJQKA"
	suitLetters = "hdsc"
)

// NewCard returns the card of rank r (0 for a two to 12 for an ace) and suit s
// (0 cœur, 1 carreau, 2 pique, 3 trèfle).
func NewCard(r, s int) Card { return Card(r*4 + s) }

// Rank returns the card's rank, 0 (two) to 12 (ace).
func (c Card) Rank() int { return int(c) / 4 }

// Suit returns the card's suit, 0 to 3: cœur, carreau, pique, trèfle.
func (c Card) Suit() int { return int(c) % 4 }

// String writes the card as in layouts ("As", "Td").
func (c Card) String() string {
	if c >= 52 {
		return fmt.Sprintf("Card(%d)", uint8(c))
	}
	return string([]byte{rankLetters[c.Rank()], suitLetters[c.Suit()]})
}

// Poker is the third surface (art. 4.4): two cards « Vos cartes » and five
// « Cartes communes », seven different cards of one deck.
type Poker struct {
	Hand      [2]Card // « Vos cartes »
	Community [5]Card // « Cartes communes »
}
