package server

import (
	"fmt"
	"time"

	"tapis/ui"
)

// line is one of the lines a session is told before it is closed, written
// on its standard error in the player's language.
type line int

// The lines.
const (
	_               line = iota
	lineCommand          // a command was asked for: %s the ssh command line to play, twice
	lineNoTerminal       // no PTY: %s the ssh command line to play
	lineFull             // %d players already
	lineBoardsFull       // %d boards already
	lineElsewhere        // the account has a session already
	lineClosing          // the server is shutting down
	lineIdle             // %s the idle timeout
	lineBoardIdle        // a board's idle timeout: %s
	lineUnavailable      // the store did not open the account
	lineBye              // the player quit: %s their session's outcome
	lineClosed           // the server closed the game: %s their session's outcome
	lineStopped          // the store was changed under the server: sales are stopped
	lineStoppedBye       // the same, as a game ends: %s their session's outcome
	lineKeyed            // how a player with a key finds their account again
	lineGuest            // a guest's account ends with the connection
	lineKicked           // the stand's host ended the game: %s their session's outcome
)

// linesIn returns the lines in a language: French, or English.
func linesIn(lang ui.Lang) map[line]string {
	if lang == ui.French {
		return map[line]string{
			lineCommand:     "tapis : ce serveur sert le jeu et n'exécute aucune commande que board : connectez-vous avec %s, ou %s board",
			lineNoTerminal:  "tapis : le jeu demande un terminal : connectez-vous avec %s",
			lineFull:        "tapis : le serveur est complet (joueurs au plus : %d) ; réessayez dans un moment",
			lineBoardsFull:  "tapis : assez de tableaux sont ouverts (%d au plus) ; réessayez dans un moment",
			lineElsewhere:   "tapis : ce compte joue déjà ailleurs (une autre session avec la même clé) ; fermez-la d'abord",
			lineClosing:     "tapis : le serveur ferme ; réessayez plus tard",
			lineIdle:        "tapis : session fermée après %s sans une touche ; vos achats vous attendent à la prochaine visite",
			lineBoardIdle:   "tapis : tableau fermé après %s sans une touche",
			lineUnavailable: "tapis : votre compte ne peut pas s'ouvrir pour l'instant ; réessayez plus tard",
			lineBye:         "tapis : merci d'avoir joué ! %s",
			lineClosed:      "tapis : le serveur ferme : %s",
			lineStopped:     "tapis : les ventes sont arrêtées : la réserve a été modifiée à l'insu de ce serveur",
			lineStoppedBye:  "tapis : les ventes sont arrêtées, la réserve a été modifiée à l'insu de ce serveur : %s",
			lineKeyed:       "Votre compte est votre clé : revenez avec la même pour retrouver solde, historique et unités non révélées",
			lineGuest:       "Vous jouiez en invité : ce compte se termine avec la connexion",
			lineKicked:      "tapis : le stand a fermé votre partie : %s",
		}
	}
	return map[line]string{
		lineCommand:     "tapis: this server plays the game and runs no command but board: connect with %s, or %s board",
		lineNoTerminal:  "tapis: the game needs a terminal: connect with %s",
		lineFull:        "tapis: the server is full (players at most: %d); try again in a moment",
		lineBoardsFull:  "tapis: enough boards are open (%d at most); try again in a moment",
		lineElsewhere:   "tapis: this account is playing elsewhere (another session with the same key); close that one first",
		lineClosing:     "tapis: the server is closing; try again later",
		lineIdle:        "tapis: closed after %s without a key; anything bought waits for your next visit",
		lineBoardIdle:   "tapis: board closed after %s without a key",
		lineUnavailable: "tapis: your account cannot be opened now; try again later",
		lineBye:         "tapis: thanks for playing! %s",
		lineClosed:      "tapis: the server is closing: %s",
		lineStopped:     "tapis: sales are stopped: the store was changed under this server",
		lineStoppedBye:  "tapis: sales are stopped, the store was changed under this server: %s",
		lineKeyed:       "Your account is your key: come back with the same one to find your balance, history and unrevealed units",
		lineGuest:       "You played as a guest: this account ends with the connection",
		lineKicked:      "tapis: the stand closed your game: %s",
	}
}

// say writes a line in a language, with its arguments.
func (l line) say(lang ui.Lang, args ...any) string {
	return fmt.Sprintf(linesIn(lang)[l], args...)
}

// minutes writes a duration as a person reads it: 30 min, or 90s.
func minutes(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return d.String()
}

// goodbye is the line a player reads once their game is over: l (lineBye
// or lineClosed) with their session's outcome, then what becomes of their
// account.
func goodbye(lang ui.Lang, l line, o ui.Outcome, guest bool) string {
	account := lineKeyed
	if guest {
		account = lineGuest
	}
	return l.say(lang, o.Line(lang)) + ". " + account.say(lang)
}
