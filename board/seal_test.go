package board

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
	"tapis/ui"
)

// TestBoardShowsTheSeal: the board shows the fingerprint of the house's
// key and the store's last signed head (its number, the first 16 hex
// digits of its hash, its time), on one line when the screen is wide
// enough, on two otherwise; before any head, that none is signed yet.
func TestBoardShowsTheSeal(t *testing.T) {
	b := sample(t)
	b.HouseKey = ledger.PublicTestKey().Public()
	hash, err := ledger.ParseHash("0123456789abcdef" + strings.Repeat("ff", 24))
	if err != nil {
		t.Fatal(err)
	}
	b.Head = &store.BoardHead{N: 1234, Hash: hash, At: at.Add(-2 * time.Second)}
	fp := b.HouseKey.Fingerprint()
	for _, c := range []struct {
		lang ui.Lang
		w, h int
		want []string
	}{
		{ui.English, 80, 24, []string{"house key " + fp, "signed head 1,234 · 0123456789abcdef · 14:32:03"}},
		{ui.French, 80, 24, []string{"clé de la maison " + fp, "tête signée n° 1 234 · 0123456789abcdef · 14:32:03"}},
		{ui.English, 200, 50, []string{"house key " + fp + " · signed head 1,234 · 0123456789abcdef · 14:32:03"}},
		{ui.French, 130, 40, []string{"clé de la maison " + fp + " · tête signée n° 1 234 · 0123456789abcdef · 14:32:03"}},
	} {
		frame := draw(t, fixed{b: b, ok: true}, c.lang, c.w, c.h)
		fits(t, frame, c.w, c.h)
		for _, want := range c.want {
			if !strings.Contains(frame, want) {
				t.Errorf("%s %d×%d: no %q in\n%s", c.lang, c.w, c.h, want, frame)
			}
		}
		if strings.Contains(frame, "0123456789abcdefff") {
			t.Errorf("%s %d×%d: more than 16 hex digits of the head's hash:\n%s", c.lang, c.w, c.h, frame)
		}
	}
	b.Head = nil
	if frame := draw(t, fixed{b: b, ok: true}, ui.English, 80, 24); !strings.Contains(frame, "no head signed yet") {
		t.Errorf("no head yet:\n%s", frame)
	}
}

// TestBoardReadsTheSealFromTheStore: a board of a real store shows the
// key its emission is sealed with, and the last head a seller signed, as
// the store's heads table holds it.
func TestBoardReadsTheSealFromTheStore(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "tapis.db")
	st, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey(), Tables: store.SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		if _, err := st.Sell(ctx, store.Purchase{Account: "ann", Number: n, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SignHead(ctx); err != nil {
		t.Fatal(err)
	}
	head, ok := st.LastHead()
	if !ok {
		t.Fatal("no head signed")
	}
	reader, err := store.Open(ctx, url, store.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	b, err := reader.NewPoller(Keep).Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b.Head == nil || b.Head.N != head.N || b.Head.Hash != head.Hash || !b.HouseKey.Equal(ledger.PublicTestKey().Public()) {
		t.Fatalf("the poll read head %+v and key %s; the seller signed %+v", b.Head, b.HouseKey, head)
	}
	frame := draw(t, fixed{b: b, ok: true}, ui.English, 200, 50)
	want := fmt.Sprintf("house key %s · signed head %d · %s · %s", ledger.PublicTestKey().Public().Fingerprint(),
		head.N, head.Hash.String()[:16], b.Head.At.UTC().Format("15:04:05"))
	if !strings.Contains(frame, want) {
		t.Errorf("no %q in\n%s", want, frame)
	}
}
