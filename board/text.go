package board

import (
	"github.com/shopspring/decimal"

	safe "tapis/text"
	"tapis/ui"
	"tapis/wallet"
)

// text is what the board says, in one language.
type text struct {
	lang  ui.Lang
	m     safe.Catalog
	games map[string]string // the games' names, by registry name
}

func newText(l ui.Lang) text {
	t := text{ui.English, english(), ui.GameNames(l)}
	if l == ui.French {
		t.lang, t.m = ui.French, french()
	}
	return t
}

// get returns the text of a key; a missing key shows itself, so that a
// test catches it.
func (t text) get(key string) string { return t.m.Get(key) }

// f formats the text of a key.
func (t text) f(key string, args ...any) string { return t.m.F(key, args...) }

// count formats the text of a key about n things: its ".one" form when n is 1.
func (t text) count(key string, n int, args ...any) string { return t.m.Count(key, n, args...) }

// number writes a whole number as the language groups its thousands.
func (t text) number(n int64) string {
	return wallet.Number(decimal.NewFromInt(n), 0, string(t.lang))
}

// money writes an amount as players read it: to the cent, without the
// cents when it is a whole number of euros (a prize of « 2 500 € »).
func (t text) money(d decimal.Decimal) string {
	if d.IsInteger() {
		n := wallet.Number(d.Abs(), 0, string(t.lang))
		if t.lang == ui.French {
			return n + " €"
		}
		return "€" + n
	}
	return wallet.Format(d, string(t.lang))
}

// gameName is a game's name as the game's screens write it.
func (t text) gameName(name string) string {
	if n, ok := t.games[name]; ok {
		return n
	}
	return name
}

func french() safe.Catalog {
	return safe.Catalog{
		"title":             "tapis · tableau en direct",
		"players":           "%s joueurs",
		"players.one":       "%s joueur",
		"rate":              "%s achats/min",
		"rate.one":          "%s achat/min",
		"crowd.players":     "joueurs en ce moment",
		"crowd.players.one": "joueur en ce moment",
		"crowd.rate":        "achats par minute",
		"crowd.rate.one":    "achat par minute",
		"reading":           "Lecture de l'émission…",
		"join":              "Pour jouer",
		"join.scan":         "scannez, ou tapez :",
		"lots":              "Lots restants",
		"lots.none":         "plus aucun lot gagnant",
		"in.block":          "dans le bloc n° %s",
		"in.blocks":         "dans les blocs n° %s",
		"in.many":           "dans %d blocs",
		"none.open":         "pas encore de bloc : la première vente en ouvre",
		"wins":              "Plus gros gains du jour (%d× la mise et plus)",
		"wins.short":        "Gros gains du jour",
		"wins.none":         "aucun encore aujourd'hui",
		"sales":             "Achats par minute",
		"sales.short":       "achats/min",
		"since":             "depuis %s",
		"window":            "%d dernières minutes",
		"peak":              "max %s/min",
		"help":              "q quitter · lecture seule, mis à jour chaque seconde",
		"help.short":        "q quitter",
		"paused":            "En pause : l'émission ne répond pas ; le tableau reprend dès qu'elle répond",
		"paused.short":      "En pause",
		"stand.paused":      "Ventes suspendues par le stand : les parties en cours se terminent",
		"small":             "Le tableau demande au moins %d×%d (ici %d×%d). q quitter",
	}
}

func english() safe.Catalog {
	return safe.Catalog{
		"title":             "tapis · live board",
		"players":           "%s players",
		"players.one":       "%s player",
		"rate":              "%s sales/min",
		"rate.one":          "%s sale/min",
		"crowd.players":     "players now",
		"crowd.players.one": "player now",
		"crowd.rate":        "sales a minute",
		"crowd.rate.one":    "sale a minute",
		"reading":           "Reading the emission…",
		"join":              "How to play",
		"join.scan":         "scan, or type:",
		"lots":              "Top prizes left",
		"lots.none":         "no winning lot left",
		"in.block":          "left in block %s",
		"in.blocks":         "left in blocks %s",
		"in.many":           "left in %d blocks",
		"none.open":         "no block opened yet: the first sale opens them",
		"wins":              "Biggest wins today (%d× the stake and more)",
		"wins.short":        "Biggest wins today",
		"wins.none":         "none yet today",
		"sales":             "Sales per minute",
		"sales.short":       "sales/min",
		"since":             "since %s",
		"window":            "last %d minutes",
		"peak":              "peak %s/min",
		"help":              "q quit · read-only, refreshed every second",
		"help.short":        "q quit",
		"paused":            "Paused: the emission does not answer; the board goes on when it does",
		"paused.short":      "Paused",
		"stand.paused":      "Paused: sales are stopped by the stand, the games under way finish",
		"small":             "The board needs at least %d×%d (now %d×%d). q quits",
	}
}
