package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/store"
)

// TestGuestTold: a guest's menu says their account ends with the
// connection, and how to keep one; a player with a key reads neither.
func TestGuestTold(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		m, _ := limited(t, lang)
		m.common.guest = "ssh -i KEY -t -p 23234 stand.local"
		press(m, "esc")
		if m.Screen() != MenuScreen {
			t.Fatalf("esc opened %d", m.Screen())
		}
		want := map[Lang][]string{English: {"Guest: your account ends with the connection", "To keep one, connect with a key: ssh -i KEY -t -p 23234 stand.local"},
			French: {"Invité : votre compte se termine avec la connexion", "Pour en garder un, connectez-vous avec une clé : ssh -i KEY -t -p 23234 stand.local"}}[lang]
		for _, w := range want {
			if !strings.Contains(plain(m), w) {
				t.Errorf("%s: the guest's menu does not say %q:\n%s", lang, w, plain(m))
			}
		}
	}
	m, _ := limited(t, English)
	press(m, "esc")
	if strings.Contains(plain(m), "Guest") {
		t.Errorf("a player with an account is told they are a guest:\n%s", plain(m))
	}
}

// TestLossLimitNoStake: when the limit refuses every stake, the line says
// when the first purchase of any will be, and names the help line; at
// 80 columns its number at least.
func TestLossLimitNoStake(t *testing.T) {
	m, s := limited(t, English)
	s.refuse = &store.LossLimitError{Limit: decimal.NewFromInt(5), Loss: decimal.NewFromInt(6), Until: fixedTime.Add(3 * time.Hour),
		None: true, First: fixedTime.Add(2 * time.Hour)}
	send(m, sizeMsg(130, 40))
	press(m, "enter")
	if want := "Loss limit (€5 in 24 h): no purchase of any stake before 22:00 · help: Joueurs Info Service 09 74 75 13 13"; !strings.Contains(plain(m), want) {
		t.Fatalf("the refusal does not say %q:\n%s", want, plain(m))
	}
	s.refuse.First = fixedTime.Add(5 * time.Hour) // 01:00, tomorrow
	send(m, sizeMsg(80, 24))
	press(m, "enter")
	if want := "Loss limit: no purchase of any stake before tomorrow 01:00 · help 09 74 75 13 13"; !strings.Contains(plain(m), want) {
		t.Fatalf("at 80 columns the refusal does not say %q:\n%s", want, plain(m))
	}
}

// TestStandMessages: a pause is told in the header and refuses the buy
// keys; an announcement shows until its time, then the header is back.
func TestStandMessages(t *testing.T) {
	m, _ := limited(t, English)
	send(m, StandMsg{Paused: true})
	if !strings.Contains(plain(m), "Sales are paused by the stand") {
		t.Fatalf("paused, the header does not say so:\n%s", plain(m))
	}
	press(m, "enter")
	if m.Totals().Played != 0 || !strings.Contains(plain(m), "no purchase for now") {
		t.Fatalf("paused, enter bought %d:\n%s", m.Totals().Played, plain(m))
	}
	send(m, StandMsg{Announcement: "Free coffee at the bar", Until: fixedTime.Add(time.Minute)})
	if !strings.Contains(plain(m), "Free coffee at the bar") {
		t.Fatalf("the announcement does not show:\n%s", plain(m))
	}
	if strings.Contains(plain(m), "no purchase for now") {
		t.Fatalf("resumed, the pause's refusal still shows (a stand host found it there 5 s after resume):\n%s", plain(m))
	}
	press(m, "enter")
	if m.Totals().Played != 1 {
		t.Fatalf("resumed, enter bought %d", m.Totals().Played)
	}
	send(m, StandMsg{Announcement: "Free coffee at the bar", Until: fixedTime})
	if strings.Contains(plain(m), "Free coffee") || !strings.Contains(plain(m), "Balance") {
		t.Fatalf("the announcement past its time still shows:\n%s", plain(m))
	}
}

// TestRealityCheckHelpLine: the reality check names the help line, in
// the player's language.
func TestRealityCheckHelpLine(t *testing.T) {
	for lang, want := range map[Lang]string{English: "help: Joueurs Info Service 09 74 75 13 13", French: "aide : Joueurs Info Service 09 74 75 13 13"} {
		m := checked(t, lang)
		after(m, 30*time.Minute)
		if !checking(m) || !strings.Contains(plain(m), want) {
			t.Errorf("%s: the reality check does not say %q:\n%s", lang, want, plain(m))
		}
	}
}

// TestPausedRevealsWhatWasBought: paused, a unit bought in an earlier
// session is still offered and revealed; only a new purchase is refused.
func TestPausedRevealsWhatWasBought(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	m := journaled(t, path)
	press(m, "enter") // bought, left covered
	m.Close()

	m = journaled(t, path)
	send(m, StandMsg{Paused: true})
	if !strings.Contains(plain(m), "it is paid, reveal it") {
		t.Fatalf("the unit bought is not offered:\n%s", plain(m))
	}
	press(m, "a")
	settle(m)
	if got := m.Summary(); strings.Contains(got, "unrevealed") || strings.Contains(plain(m), "no purchase for now") {
		t.Fatalf("paused, the unit bought was not revealed: %q\n%s", got, plain(m))
	}
	press(m, "enter")
	if !strings.Contains(plain(m), "no purchase for now") || m.Totals().Played != 0 {
		t.Fatalf("paused, a new purchase was made (%d):\n%s", m.Totals().Played, plain(m))
	}
}

// TestLongAnnouncementIsSeenCut: an announcement wider than the screen
// (up to 120 characters are taken) shows its start and ends with « … »
// where the screen cuts it, at 80 and 100 columns; at 130 it shows whole.
func TestLongAnnouncementIsSeenCut(t *testing.T) {
	said := "Café offert au bar jusqu'à 18 h : venez nous voir au stand B12, tirage du gros lot à 19 h précises, bonne chance !"
	m, _ := limited(t, French)
	send(m, StandMsg{Announcement: said, Until: fixedTime.Add(time.Minute)})
	for _, w := range []int{80, 100} {
		send(m, sizeMsg(w, 30))
		header := strings.TrimSpace(strings.SplitN(plain(m), "\n", 2)[0])
		if !strings.HasPrefix(header, "Café offert au bar") || !strings.HasSuffix(header, "…") {
			t.Errorf("at %d columns the announcement reads %q, want its start and « … » where it is cut", w, header)
		}
	}
	send(m, sizeMsg(130, 30))
	if header := strings.TrimSpace(strings.SplitN(plain(m), "\n", 2)[0]); header != said {
		t.Errorf("at 130 columns the announcement reads %q, want it whole", header)
	}
}
