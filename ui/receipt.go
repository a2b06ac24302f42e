package ui

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/ledger"
)

// receiptKey is the line of a unit's receipt, w cells wide.
type receiptKey struct {
	w    int
	seq  int64
	hash ledger.Hash
	sig  ledger.Sig
	key  string
}

// receiptLayer is what the history's detail says of a unit's receipt, on
// row y of the body: its place in the account's history, the beginning of
// its hash and the key that signed it, the fingerprint the board and the
// log print (the words shortened, then the line cut, when the window is
// narrow). A receipt that does not check against the key it names says
// so. The check is arithmetic, made once: no I/O.
func (c *common) receiptLayer(body area, y int, r *ledger.Receipt) layer {
	d := drawn(c, receiptKey{body.w, r.Seq, r.Hash, r.Sig, r.Key}, func() string {
		key, err := ledger.ParsePublicKey(r.Key)
		if err == nil {
			err = r.Check(key)
		}
		if err != nil {
			return fit(body.w, 1, lipgloss.PlaceHorizontal(body.w, lipgloss.Center, c.st.bad.Render(ansi.Truncate(c.t.f("hist.receipt.bad", r.Seq), body.w, "…"))))
		}
		hash, fp := r.Hash.String()[:16], key.Fingerprint()
		s := c.t.f("hist.receipt", r.Seq, hash, fp)
		if lipgloss.Width(s) > body.w {
			s = c.t.f("hist.receipt.short", r.Seq, hash, fp)
		}
		return fit(body.w, 1, lipgloss.PlaceHorizontal(body.w, lipgloss.Center, c.st.dim.Render(ansi.Truncate(s, body.w, "…"))))
	})
	return place(area{body.x, y, body.w, 1}, d)
}
