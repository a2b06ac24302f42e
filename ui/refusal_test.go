package ui

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/store"
)

// TestStoreFailureSaysWhatIsKnown: a purchase the store does not take is
// said in the player's words, that nothing was bought, never with the
// store's own (its address, the purchase's number, its query); bought
// elsewhere meanwhile, likewise. Nothing is bought, and the next try
// buys.
func TestStoreFailureSaysWhatIsKnown(t *testing.T) {
	down := fmt.Errorf("store postgres://tapis@10.0.0.5:5432/tapis: failed to connect to user=tapis database=tapis: purchase ann#1: %w",
		&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")})
	elsewhere := fmt.Errorf("purchase ann#1 was vegas:3:1:88: %w", store.ErrOtherPurchase)
	for _, c := range []struct {
		lang Lang
		err  error
		want string
	}{
		{English, down, "The game cannot reach its store: nothing was bought; try again in a moment"},
		{English, fmt.Errorf("store: reading account \"ann\": %w", store.ErrNoAccount), "The purchase could not be made: nothing was bought; try again in a moment"},
		{French, fmt.Errorf("purchase ann#1: %w", store.ErrLeaseLost), "Ce compte a acheté ailleurs entre-temps : rien n'a été acheté ici ; réessayez"},
		{French, down, "Le jeu ne joint pas sa réserve : rien n'a été acheté ; réessayez dans un instant"},
		{English, elsewhere, "This account bought elsewhere meanwhile: nothing was bought here; try again"},
		{French, elsewhere, "Ce compte a acheté ailleurs entre-temps : rien n'a été acheté ici ; réessayez"},
	} {
		m, s := limited(t, c.lang)
		s.fail = c.err
		press(m, "enter")
		settle(m)
		screen := plain(m)
		if !strings.Contains(screen, c.want) || m.Totals().Played != 0 || !m.Balance().Equal(decimal.NewFromInt(100)) {
			t.Fatalf("%v: %d played, balance %s, want the line %q:\n%s", c.err, m.Totals().Played, m.Balance(), c.want, screen)
		}
		for _, internal := range []string{"10.0.0.5", "ann#1", "postgres", "vegas:3:1:88", "user="} {
			if strings.Contains(screen, internal) {
				t.Errorf("%q reached the player:\n%s", internal, screen)
			}
		}
		s.fail = nil
		press(m, "enter")
		settle(m)
		if m.Totals().Played != 1 || strings.Contains(plain(m), c.want) {
			t.Errorf("the store back, enter bought %d; the line still shows:\n%s", m.Totals().Played, plain(m))
		}
	}
}
