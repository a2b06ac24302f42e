package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
	"tapis/store"
)

// receiptModel is a game on a store that signs, sized w×h, where ann
// bought a Yam's unit and a Vegas ticket, both revealed, and opened the
// history.
func receiptModel(t *testing.T, lang Lang, w, h int) *Model {
	t.Helper()
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"),
		store.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(42), SeedSet: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := newOnStore(Options{Lang: lang, Balance: decimal.NewFromInt(100), Start: YamsScreen}, st, "ann")
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { m.till.session.Close() })
	send(m, sizeMsg(w, h))
	press(m, "a")
	settle(m)
	press(m, "esc", "2", "enter", "a")
	settle(m)
	press(m, "h")
	if m.Screen() != HistoryScreen || len(m.till.session.Recent()) != 2 {
		t.Fatalf("screen %d, %d units bought:\n%s", m.Screen(), len(m.till.session.Recent()), plain(m))
	}
	return m
}

// TestHistoryShowsTheReceipt: the detail of a unit of the history shows
// its receipt, where the frame draws it: its place in the account's
// history, the beginning of its hash and the house key's fingerprint, the
// words shorter on a narrow window.
func TestHistoryShowsTheReceipt(t *testing.T) {
	fp := ledger.PublicTestKey().Public().Fingerprint()
	for _, lang := range []Lang{French, English} {
		for _, size := range sizes {
			m := receiptModel(t, lang, size[0], size[1])
			recent := m.till.session.Recent()
			// The newest first: the ticket, then the Yam's unit (ann's
			// chain: her deposit, then the two purchases).
			for i, keys := range [][]string{{"enter"}, {"esc", "down", "enter"}} {
				press(m, keys...)
				r := recent[len(recent)-1-i].Receipt
				if r == nil || r.Seq != int64(3-i) {
					t.Fatalf("unit %d: receipt %v", i, r)
				}
				hash := r.Hash.String()[:16]
				want := map[Lang]string{
					French:  "Reçu · écriture " + itoa(int(r.Seq)) + " · " + hash + " · clé de la maison " + fp,
					English: "Receipt · record " + itoa(int(r.Seq)) + " · " + hash + " · house key " + fp,
				}[lang]
				if size[0] < 100 { // cut to the window
					want = want[:strings.Index(want, "SHA256:")+len("SHA256:")]
				}
				frame := plain(m)
				if !strings.Contains(frame, want) {
					t.Errorf("%s %s, unit %d: no %q in the detail:\n%s", lang, sizeName(size), i, want, frame)
				}
				if !strings.Contains(frame, m.t.get("replay")) {
					t.Errorf("%s %s, unit %d: not the replay:\n%s", lang, sizeName(size), i, frame)
				}
			}
		}
	}
	// Wide enough, it says who signed it in full.
	m := receiptModel(t, English, 130, 40)
	press(m, "enter")
	if want := "Receipt · account record 3 · "; !strings.Contains(plain(m), want) || !strings.Contains(plain(m), "signed by the house key "+fp) {
		t.Errorf("no %q and the key in full:\n%s", want, plain(m))
	}
}

// TestHistoryReceiptThatDoesNotCheck: a receipt whose signature is not the
// key's it names is said so, not passed for the house's.
func TestHistoryReceiptThatDoesNotCheck(t *testing.T) {
	m := receiptModel(t, English, 80, 24)
	r := m.till.session.Recent()[1].Receipt
	r.Sig[0] ^= 1
	press(m, "enter")
	if frame := plain(m); !strings.Contains(frame, "Receipt · record 3: it does not check against the key it names") || strings.Contains(frame, "house key") {
		t.Errorf("a receipt changed:\n%s", frame)
	}
}

// TestHistoryNoReceiptInMemory: the game in memory keeps no receipt, and
// its history's detail shows none.
func TestHistoryNoReceiptInMemory(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	press(m, "a")
	settle(m)
	press(m, "h", "enter")
	if frame := plain(m); !strings.Contains(frame, "REPLAY") || strings.Contains(frame, "Receipt") {
		t.Errorf("the game in memory's detail:\n%s", frame)
	}
}
