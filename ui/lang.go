package ui

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"tapis/wallet"
)

// Lang is the language of the screen: "fr" or "en".
type Lang string

// The two languages.
const (
	French  Lang = "fr"
	English Lang = "en"
)

// ParseLang reads a --lang value.
func ParseLang(s string) (Lang, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "fr":
		return French, nil
	case "en":
		return English, nil
	}
	return "", fmt.Errorf("language %q is not fr or en", s)
}

// text is what the screen says, in one language. French uses the
// regulations' own words.
type text struct {
	lang Lang
	m    map[string]string
}

func newText(l Lang) text {
	if l == French {
		return text{l, french()}
	}
	return text{English, english()}
}

// get returns the text of a key; a missing key shows itself, so that a
// golden test catches it.
func (t text) get(key string) string {
	if s, ok := t.m[key]; ok {
		return s
	}
	return "‹" + key + "›"
}

// f formats the text of a key.
func (t text) f(key string, args ...any) string { return fmt.Sprintf(t.get(key), args...) }

// count formats the text of a key about n things: the key's ".one" form
// when n is 1 and it has one.
func (t text) count(key string, n int, args ...any) string {
	if _, ok := t.m[key+".one"]; ok && n == 1 {
		key += ".one"
	}
	return t.f(key, args...)
}

// money writes an amount as players of the language read it.
func (t text) money(d decimal.Decimal) string { return wallet.Format(d, string(t.lang)) }

// signed writes an amount with its sign, for the session's net result.
func (t text) signed(d decimal.Decimal) string {
	if d.IsPositive() {
		return "+" + t.money(d)
	}
	return t.money(d)
}

func english() map[string]string {
	return map[string]string{
		"journal.torn":       "Journal: line %d, cut short by a crash, dropped (an unfinished record)",
		"journal.shown":      "The journal will note the unit as shown once it can (%s)",
		"journal.balance":    "--balance is for a new journal: this one goes on with its own balance",
		"quit.ask":           "A unit is being revealed: q again to quit; it stays in your history",
		"refused":            "Purchase refused: %s",
		"refused.journal":    "Refused: the journal could not be written (%s)",
		"pay.quit":           " · q: quit",
		"pay.empty":          "Wallet empty (stakes from %[2]s)",
		"pay.below":          "Balance %s, below the smallest stake (%s)",
		"pay.ticket":         "Balance %s, a ticket costs %s · esc then 1: Yam's from %s",
		"pay.stake":          "Balance %s too low for %s · ←: lower stake",
		"elsewhere.vegas":    "Your Vegas ticket is still to scratch: esc, then %d",
		"elsewhere.yams":     "Your Yam's! unit is still to roll: esc, then %d",
		"summary.unrevealed": "unrevealed %d",
		"key.enter":          "enter",
		"key.space":          "space",
		"key.esc":            "esc",
		"k.interrupt":        "quit at once",
		"k.suspend":          "suspend",
		"k.open":             "open",
		"k.switch":           "other game",
		"help.mouse.history": "Mouse: click a row to see its unit again; the wheel scrolls the list.",
		"help.mouse.rules":   "Mouse: the wheel scrolls the rules.",
		"help.mouse.vegas":   "Mouse: click the button to buy; click or drag over a surface to scratch it.",
		"help.mouse.yams":    "Mouse: click a stake, Play, Auto, or a mat to roll its cup.",
		"help.mouse.menu":    "Mouse: click an entry to open it.",
		"v.results":          "Results",
		"v.bets":             "Bets",
		"qa.seed":            "QA seed %d",
		"qa.block":           "%s %s block %d #%d",
		"qa.leftn":           "left %d",
		"qa.lots":            "lots %s",
		"qa.losingn":         "losing %d",
		"yams":               "Yam's!",
		"vegas":              "Vegas",
		"history":            "History",
		"rules":              "Rules",
		"help":               "Help",
		"quit":               "Quit",
		"balance":            "Balance",
		"net":                "Net",
		"time":               "Time",
		"menu.hint":          "Choose a game",
		"stake":              "Stake",
		"play":               "Play",
		"auto":               "Auto",
		"mat":                "Mat %d",
		"combos":             "Combinations",
		"winnings":           "Winnings at %s",
		"points":             "points",
		"pts":                "%d pts",
		"total":              "Total: %d points",
		"won":                "You win %s",
		"lost":               "No win this time",
		"roll.hint":          "Roll each cup: 1 2 3 or click",
		"buy.hint":           "Choose your stake, then Play or Auto",
		"small":              "Please enlarge the window to at least %d×%d (now %d×%d)",
		"small.quit":         "; q quits",
		"replay":             "REPLAY",
		"bigwin":             "BIG WIN",
		"hugewin":            "JACKPOT",
		"c.none":             "nothing",
		"c.pair":             "pair",
		"c.two_pairs":        "two pairs",
		"c.three":            "three of a kind",
		"c.full":             "full house",
		"c.small":            "small straight",
		"c.four":             "four of a kind",
		"c.large":            "large straight",
		"c.yams":             "yam's",
		"hist.empty":         "No unit played yet.",
		"hist.unit":          "Unit",
		"hist.stake":         "Stake",
		"hist.prize":         "Prize",
		"hist.before":        "Before",
		"hist.after":         "After",
		"hist.hint":          "enter: show it again",
		"hist.hidden":        "to reveal",
		"hist.unshown":       "Not revealed yet: its result shows on its game's screen",
		"summary":            "played %d · staked %s · won %s · balance %s",
		"rules.yams":         yamsRulesEN,
		"or":                 "or",
		"rules.vegas":        vegasRulesEN,
		"lot":                "Lot",
		"count":              "Per block",
		"chance":             "Chance",
		"rtp":                "Return to player: %s %% of stakes",
		"k.quit":             "quit",
		"k.help":             "help",
		"k.menu":             "menu",
		"k.history":          "history",
		"k.stake":            "stake",
		"k.play":             "play",
		"k.auto":             "auto",
		"k.roll":             "roll cup",
		"k.move":             "move",
		"k.choose":           "choose",
		"k.scroll":           "scroll",
		"k.pages":            "page",
		"k.ends":             "start/end",
		"k.back":             "back",
		"k.show":             "show",
		"k.surface":          "surface",
		"k.scratch":          "scratch",
		"k.scratchall":       "scratch all",
		"k.buy":              "buy",
		"k.force":            "force",
		"qa.next":            "next %s: %s",
		"qa.nototal":         "no three cups make %q points",
		"qa.othergame":       "line %d: a %s layout, not this game's",
		"qa.nolayout":        "%s holds no layout",
		"qa.file":            "%s (%d layouts)",
		"qa.file.one":        "%s (%d layout)",
		"qa.notloaded":       "Nothing loaded: fix these errors first (%d valid layouts)",
		"qa.notloaded.one":   "Nothing loaded: fix these errors first (%d valid layout)",
		"qa.notanumber":      "%q is not a number of points",
		"qa.more":            "… and %d more errors",
		"qa.more.one":        "… and %d more error",
		"qa.dropped":         "%s (its first %d layouts: the rest is left out)",
		"qa.loading":         "reading the file… (esc stops)",
		"qa.title":           "QA forcing · %s at %s",
		"qa.mode.lot":        "Lot",
		"qa.mode.points":     "Points",
		"qa.mode.combos":     "Combinations",
		"qa.mode.surfaces":   "Surfaces",
		"qa.mode.file":       "File",
		"commit.title":       "Block commitments",
		"commit.about":       "Each block's seed fixes its draws. Its SHA-256 is published before the block's first sale; the seed itself once the block is sold out. tapis verify checks them.",
		"commit.block":       "at %s, block %d:",
		"commit.revealed":    "block %s, sold out, seed:",
		"recovered":          "Your last session left this unit unrevealed: it is paid, reveal it",
		"replay.title":       "replay",
		"replay.said":        "%d invalid: listed when you quit",
		"replay.said.one":    "%d invalid: listed when you quit",
		"replay.leftout":     "the first %d only",
		"demo.on":            "DEMO · any key to play",
		"replay.line":        "line %d",
		"k.page":             "previous/next layout",
		"k.next":             "next layout",
		"k.prev":             "previous layout",
		"k.first":            "first layout",
		"k.last":             "last layout",
		"k.stats":            "stats",
		"stats":              "Stats",
		"buying":             "Buying…",
		"qa.losing":          "losing",
		"qa.seq":             "%s %s: block %d, %d sold",
		"qa.left":            "left in the block",
		"qa.of":              "(%d of %d)",
		"qa.points.ask":      "Exact points total of the three cups (0 to 150):",
		"qa.file.ask":        "Layout file (JSON or JSON lines, as for tapis score):",
		"qa.hint.lot":        "↑↓ lot · enter: the next purchase plays it · tab: mode · esc: close",
		"qa.hint.points":     "type the total · enter · tab: mode · esc: close",
		"qa.hint.combos":     "←→ cup · ↑↓ combination · enter · tab: mode · esc: close",
		"qa.hint.surfaces":   "↑↓ lot · ←→ which surfaces win · enter · tab: mode · esc: close",
		"qa.hint.file":       "type the path · enter loads it · tab: mode · esc: close",
		"v.buy":              "Buy a ticket · %s",
		"v.hint":             "1-4/tab choose · space scratches · drag the mouse · a scratches all",
		"v.lot":              "Ticket's lot: %s",
		"v.lot0":             "Ticket's lot: none",
		"v.next":             "enter: next ticket",
		"v.scratchhere":      "SCRATCH HERE",
		"v.none":             "no win",
		"v.mise":             "Bet %d",
		"v.throw":            "Throw %d",
		"v.gain":             "Gain",
		"v.community":        "Community cards",
		"v.hand":             "Your cards",
		"v.bonus":            "Bonus",
		"s.roulette":         "Roulette",
		"s.craps":            "Craps",
		"s.poker":            "Poker",
		"s.jackpot":          "Jackpot",
		"bet.even":           "EVEN",
		"bet.odd":            "ODD",
		"bet.red":            "RED",
		"bet.black":          "BLACK",
		"bet.low":            "LOW",
		"bet.high":           "HIGH",
		"p.pair":             "pair",
		"p.two_pairs":        "two pairs",
		"p.three_of_a_kind":  "three of a kind",
		"p.full_house":       "full house",
		"p.four_of_a_kind":   "four of a kind",
		"j.cherry":           "one cherry",
		"j.star":             "three stars",
		"j.bell":             "three bells",
		"j.bar":              "three BAR",
		"j.crown":            "three crowns",
		"j.seven":            "three 7",
		"sym.seven":          "7",
		"sym.crown":          "CROWN",
		"sym.bar":            "BAR",
		"sym.bell":           "BELL",
		"sym.star":           "STAR",
		"sym.cherry":         "CHERRY",
	}
}

func french() map[string]string {
	return map[string]string{
		"journal.torn":       "Journal : ligne %d, tronquée par un arrêt brutal, ignorée (inachevée)",
		"journal.shown":      "Le journal notera l'unité comme révélée dès qu'il le pourra (%s)",
		"journal.balance":    "--balance vaut pour un nouveau journal : celui-ci garde son solde",
		"quit.ask":           "Révélation en cours : q encore pour quitter ; l'unité reste dans l'historique",
		"refused":            "Achat refusé : %s",
		"refused.journal":    "Refusé : le journal n'a pas pu être écrit (%s)",
		"pay.quit":           " · q : quitter",
		"pay.empty":          "Porte-monnaie vide (mises dès %[2]s)",
		"pay.below":          "Solde %s, sous la plus petite mise (%s)",
		"pay.ticket":         "Solde %s, un ticket coûte %s · échap puis 1 : Yam's dès %s",
		"pay.stake":          "Solde %s insuffisant pour %s · ← : mise plus basse",
		"elsewhere.vegas":    "Votre ticket Vegas reste à gratter : échap, puis %d",
		"elsewhere.yams":     "Votre partie de Yam's ! reste à lancer : échap, puis %d",
		"summary.unrevealed": "non révélées %d",
		"key.enter":          "entrée",
		"key.space":          "espace",
		"key.esc":            "échap",
		"k.interrupt":        "quitter aussitôt",
		"k.suspend":          "suspendre",
		"k.open":             "ouvrir",
		"k.switch":           "autre jeu",
		"help.mouse.history": "Souris : cliquez une ligne pour revoir son unité ; la molette fait défiler la liste.",
		"help.mouse.rules":   "Souris : la molette fait défiler les règles.",
		"help.mouse.vegas":   "Souris : cliquez le bouton pour acheter ; cliquez ou glissez sur une surface pour la gratter.",
		"help.mouse.yams":    "Souris : cliquez une mise, Jouer, Auto, ou un tapis pour lancer son gobelet.",
		"help.mouse.menu":    "Souris : cliquez une entrée pour l'ouvrir.",
		"v.results":          "Résultats",
		"v.bets":             "Mises",
		"qa.seed":            "QA graine %d",
		"qa.block":           "%s %s bloc %d n°%d",
		"qa.leftn":           "restent %d",
		"qa.lots":            "lots %s",
		"qa.losingn":         "perdantes %d",
		"yams":               "Yam's !",
		"vegas":              "Vegas",
		"history":            "Historique",
		"rules":              "Règles",
		"help":               "Aide",
		"quit":               "Quitter",
		"balance":            "Solde",
		"net":                "Bilan",
		"time":               "Temps",
		"menu.hint":          "Choisissez un jeu",
		"stake":              "Mise",
		"play":               "Jouer",
		"auto":               "Auto",
		"mat":                "Tapis %d",
		"combos":             "Combinaisons",
		"winnings":           "Gains pour %s",
		"points":             "points",
		"pts":                "%d pts",
		"total":              "Total : %d points",
		"won":                "Vous gagnez %s",
		"lost":               "Pas de gain cette fois",
		"roll.hint":          "Lancez chaque gobelet : 1 2 3 ou clic",
		"buy.hint":           "Choisissez votre mise, puis Jouer ou Auto",
		"small":              "Agrandissez la fenêtre à %d×%d au moins (actuellement %d×%d)",
		"small.quit":         " ; q pour quitter",
		"replay":             "REVOIR",
		"bigwin":             "GROS GAIN",
		"hugewin":            "JACKPOT",
		"c.none":             "rien",
		"c.pair":             "paire",
		"c.two_pairs":        "double paire",
		"c.three":            "brelan",
		"c.full":             "full",
		"c.small":            "petite suite",
		"c.four":             "carré",
		"c.large":            "grande suite",
		"c.yams":             "yam's",
		"hist.empty":         "Aucune partie jouée pour l'instant.",
		"hist.unit":          "Unité",
		"hist.stake":         "Mise",
		"hist.prize":         "Gain",
		"hist.before":        "Avant",
		"hist.after":         "Après",
		"hist.hint":          "entrée : la revoir",
		"hist.hidden":        "à révéler",
		"hist.unshown":       "Pas encore révélée : son résultat s'affiche sur l'écran de son jeu",
		"summary":            "parties %d · misé %s · gagné %s · solde %s",
		"rules.yams":         yamsRulesFR,
		"or":                 "ou",
		"rules.vegas":        vegasRulesFR,
		"lot":                "Lot",
		"count":              "Par bloc",
		"chance":             "Chance",
		"rtp":                "Taux de retour aux joueurs : %s %% des mises",
		"k.quit":             "quitter",
		"k.help":             "aide",
		"k.menu":             "menu",
		"k.history":          "historique",
		"k.stake":            "mise",
		"k.play":             "jouer",
		"k.auto":             "auto",
		"k.roll":             "lancer",
		"k.move":             "choisir",
		"k.choose":           "valider",
		"k.scroll":           "défiler",
		"k.pages":            "page",
		"k.ends":             "début/fin",
		"k.back":             "retour",
		"k.show":             "revoir",
		"k.surface":          "surface",
		"k.scratch":          "gratter",
		"k.scratchall":       "tout gratter",
		"k.buy":              "achat",
		"k.force":            "forcer",
		"qa.next":            "prochaine %s : %s",
		"qa.nototal":         "aucun triplet de gobelets ne fait %q points",
		"qa.othergame":       "ligne %d : une disposition de %s, pas de ce jeu",
		"qa.nolayout":        "%s ne contient aucune disposition",
		"qa.file":            "%s (%d dispositions)",
		"qa.file.one":        "%s (%d disposition)",
		"qa.notloaded":       "Rien de chargé : corrigez d'abord ces erreurs (%d dispositions valides)",
		"qa.notloaded.one":   "Rien de chargé : corrigez d'abord ces erreurs (%d disposition valide)",
		"qa.notanumber":      "%q n'est pas un nombre de points",
		"qa.more":            "… et %d erreurs de plus",
		"qa.more.one":        "… et %d erreur de plus",
		"qa.dropped":         "%s (ses %d premières dispositions : la suite est laissée)",
		"qa.loading":         "lecture du fichier… (échap l'arrête)",
		"qa.title":           "Forçage QA · %s à %s",
		"qa.mode.lot":        "Lot",
		"qa.mode.points":     "Points",
		"qa.mode.combos":     "Combinaisons",
		"qa.mode.surfaces":   "Surfaces",
		"qa.mode.file":       "Fichier",
		"commit.title":       "Engagements des blocs",
		"commit.about":       "La graine de chaque bloc fixe ses tirages. Son SHA-256 est publié avant la première vente du bloc ; la graine elle-même une fois le bloc épuisé. tapis verify les vérifie.",
		"commit.block":       "à %s, bloc %d :",
		"commit.revealed":    "bloc %s, épuisé, graine :",
		"recovered":          "Unité payée lors de la dernière session, non révélée : révélez-la",
		"replay.title":       "revoir",
		"replay.said":        "%d invalides : listées en quittant",
		"replay.said.one":    "%d invalide : listée en quittant",
		"replay.leftout":     "les %d premières seulement",
		"demo.on":            "DÉMO · une touche pour jouer",
		"replay.line":        "ligne %d",
		"k.page":             "disposition précédente/suivante",
		"k.next":             "disposition suivante",
		"k.prev":             "disposition précédente",
		"k.first":            "première disposition",
		"k.last":             "dernière disposition",
		"k.stats":            "statistiques",
		"stats":              "Statistiques",
		"buying":             "Achat…",
		"qa.losing":          "perdant",
		"qa.seq":             "%s %s : bloc %d, %d vendues",
		"qa.left":            "restent au bloc",
		"qa.of":              "(%d sur %d)",
		"qa.points.ask":      "Total exact des points des trois gobelets (0 à 150) :",
		"qa.file.ask":        "Fichier de dispositions (JSON ou lignes JSON, comme pour tapis score) :",
		"qa.hint.lot":        "↑↓ lot · entrée : le prochain achat le joue · tab : mode · échap : fermer",
		"qa.hint.points":     "tapez le total · entrée · tab : mode · échap : fermer",
		"qa.hint.combos":     "←→ gobelet · ↑↓ combinaison · entrée · tab : mode · échap : fermer",
		"qa.hint.surfaces":   "↑↓ lot · ←→ surfaces gagnantes · entrée · tab : mode · échap : fermer",
		"qa.hint.file":       "tapez le chemin · entrée le charge · tab : mode · échap : fermer",
		"v.buy":              "Acheter un ticket · %s",
		"v.hint":             "1-4/tab choisir · espace gratte · glissez la souris · a gratte tout",
		"v.lot":              "Lot du ticket : %s",
		"v.lot0":             "Lot du ticket : aucun",
		"v.next":             "entrée : ticket suivant",
		"v.scratchhere":      "GRATTEZ ICI",
		"v.none":             "perdu",
		"v.mise":             "Mise %d",
		"v.throw":            "Lancer %d",
		"v.gain":             "Gain",
		"v.community":        "Cartes communes",
		"v.hand":             "Vos cartes",
		"v.bonus":            "Bonus",
		"s.roulette":         "Roulette",
		"s.craps":            "Craps",
		"s.poker":            "Poker",
		"s.jackpot":          "Jackpot",
		"bet.even":           "PAIR",
		"bet.odd":            "IMPAIR",
		"bet.red":            "ROUGE",
		"bet.black":          "NOIR",
		"bet.low":            "MANQUE",
		"bet.high":           "PASSE",
		"p.pair":             "paire",
		"p.two_pairs":        "deux paires",
		"p.three_of_a_kind":  "brelan",
		"p.full_house":       "full",
		"p.four_of_a_kind":   "carré",
		"j.cherry":           "une cerise",
		"j.star":             "trois étoiles",
		"j.bell":             "trois cloches",
		"j.bar":              "trois BAR",
		"j.crown":            "trois couronnes",
		"j.seven":            "trois 7",
		"sym.seven":          "7",
		"sym.crown":          "COURONNE",
		"sym.bar":            "BAR",
		"sym.bell":           "CLOCHE",
		"sym.star":           "ÉTOILE",
		"sym.cherry":         "CERISE",
	}
}

// The rules in short: the stakes, prices, prizes and points are filled in
// from the lot tables, written as each language writes amounts; no amount
// is written here (TestRulesAmountsFromTables).
const yamsRulesEN = `Choose your stake (%[1]s), then Play or Auto. The stake is debited and the prize is fixed at once; rolling only shows it.
Three mats, each with a cup of five dice. With Play, roll each cup in the order you like; with Auto, they roll by themselves.
Each cup scores only its highest combination (the table below). The three cups' points are added, and the total pays a multiple of the stake: exactly %[2]d pays the top lot, below %[3]d or above %[4]d nothing.`

const yamsRulesFR = `Choisissez votre mise (%[1]s), puis Jouer ou Auto. La mise est débitée et le gain fixé aussitôt ; les lancers ne font que le montrer.
Trois tapis de jeu, chacun avec un gobelet de cinq dés. Avec Jouer, lancez chaque gobelet dans l'ordre de votre choix ; avec Auto, ils se lancent seuls.
Par tapis, seule la combinaison la plus élevée compte (le tableau ci-dessous). Les points des trois tapis s'additionnent, et le total fait gagner un multiple de la mise : %[2]d tout juste le gros lot, moins de %[3]d ou plus de %[4]d rien.`

const vegasRulesEN = `A %[1]s ticket with four surfaces to scratch; the ticket's lot is the sum of its winning surfaces.
Roulette: a chip equal to the wheel's result of its kind (even/odd, red/black, low/high, number) wins that result's amount.
Craps: a throw whose two dice make 7 wins its amount.
Poker (hearts ♥, diamonds ♦, spades ♠, clubs ♣): with at least one of Your cards and the community cards: pair %[2]s, two pairs %[3]s, three of a kind %[4]s, full house %[5]s, four of a kind %[6]s.
Jackpot: the three reels and the Bonus reel: three 7 %[7]s, three crowns %[8]s, three BAR %[9]s, three bells %[10]s, three stars %[11]s, one single cherry %[12]s.`

const vegasRulesFR = `Un ticket à %[1]s avec quatre surfaces à gratter ; le lot du ticket est la somme de ses surfaces gagnantes.
Roulette : une mise identique au résultat de la roulette (Pair/Impair, Rouge/Noir, Manque/Passe, Numéro) gagne la somme de ce résultat.
Craps : un lancer dont les deux dés font 7 gagne sa somme.
Poker (cœur ♥, carreau ♦, pique ♠, trèfle ♣) : avec au moins une de Vos cartes et les Cartes communes : paire %[2]s, deux paires %[3]s, brelan %[4]s, full %[5]s, carré %[6]s.
Jackpot : les trois rouleaux et le rouleau Bonus : trois 7 %[7]s, trois couronnes %[8]s, trois BAR %[9]s, trois cloches %[10]s, trois étoiles %[11]s, une seule cerise %[12]s.`
