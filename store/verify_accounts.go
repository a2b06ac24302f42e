package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/text"
)

// accountRow is an account as the store records it.
type accountRow struct {
	balance, deposited game.Cents
	purchases          int
	seq                int64
	head               []byte
}

// deposit is a credit to an account, after its purchase number after, as
// the store records it.
type deposit struct {
	n, after  int
	amount    game.Cents
	at, seq   int64
	hash, sig []byte
}

// record is the deposit as its account's chain holds it.
func (d deposit) record(account string) ledger.Deposit {
	return ledger.Deposit{Account: account, N: d.n, Amount: d.amount, After: d.after, At: d.at}
}

// verifyAccounts reads each account's deposits and purchases in order:
// their chain, and the balance they give.
func (s *SQL) verifyAccounts(ctx context.Context, q querier, r *Report, c *ledgerCheck) error {
	deposits, err := readDeposits(ctx, q)
	if err != nil {
		return err
	}
	accounts, err := readAccounts(ctx, q)
	if err != nil {
		return err
	}
	r.Accounts = int64(len(accounts))

	rows, err := q.QueryContext(ctx, `SELECT account, number, game, stake, block, serial, label, unit, tier, stake_cents, prize,
		before_cents, after_cents, layout, at, seq, prev, hash, shown
		FROM purchases ORDER BY account, number`)
	if err != nil {
		return fmt.Errorf("store: reading its purchases: %w", err)
	}
	defer rows.Close()
	var (
		name    string
		last    int
		balance game.Cents
		ds      []deposit
		w       *chain
	)
	// credit adds the deposits made after purchase n, each the account's
	// next record.
	credit := func(n int) {
		for len(ds) > 0 && ds[0].after <= n {
			balance += ds[0].amount
			w.deposit(ds[0])
			ds = ds[1:]
		}
	}
	end := func() {
		if w == nil {
			return
		}
		credit(int(^uint(0) >> 1))
		a, ok := accounts[name]
		switch {
		case !ok:
			r.bad("account %q: purchases, and no account", name)
		case a.purchases != last:
			r.bad("account %q: %d purchases recorded, the account counts %d", name, last, a.purchases)
		case a.balance != balance:
			r.bad("account %q: balance %s, its deposits and purchases give %s", name, a.balance, balance)
		}
		if sum := total(deposits[name]); ok && a.deposited != sum {
			r.bad("account %q: %s deposited, its deposits add up to %s", name, a.deposited, sum)
		}
		w.end(a, ok)
		delete(accounts, name)
		delete(deposits, name)
	}
	var seqs seqReader
	// The game, stake and hash of each row are read in place (sql.RawBytes),
	// and its account's name made a string once an account. Its signatures
	// are read once the purchases are, and only those no head stands for
	// (checkLater): most records are covered by a head.
	for rows.Next() {
		var account, g, stake, prev, hash sql.RawBytes
		var unit, layout string
		var number, tier, shown int
		var block, seq sql.NullInt64
		var serial, at int64
		var label sql.NullString
		var staked, prize, before, after game.Cents
		if err := rows.Scan(&account, &number, &g, &stake, &block, &serial, &label, &unit, &tier, &staked, &prize,
			&before, &after, &layout, &at, &seq, &prev, &hash, &shown); err != nil {
			return fmt.Errorf("store: reading its purchases: %w", err)
		}
		if w == nil || string(account) != name {
			end()
			name, last, balance = string(account), 0, 0
			ds = deposits[name]
			w = c.chain(r, name)
		}
		r.Purchases++
		who := recordName{account: name, n: number}
		if number != last+1 {
			r.bad("account %q: purchase %d follows purchase %d", name, number, last)
		}
		last = number
		credit(number - 1)
		if before != balance {
			r.bad("%s: balance before %s, the account held %s", who, before, balance)
		}
		if after != before-staked+prize {
			r.bad("%s: %s - %s + %s is not %s", who, before, staked, prize, after)
		}
		if before < staked {
			r.bad("%s: a stake of %s on a balance of %s", who, staked, before)
		}
		balance = after
		rec := ledger.Purchase{Account: name, Number: number, Unit: unit, Block: block.Int64, Serial: serial, Label: label.String,
			Tier: tier, Stake: staked, Prize: prize, Before: before, After: after, Layout: layout, At: at}
		if !bytes.Equal(prev, w.prev[:]) {
			r.bad("%s: the hash it records of the record before it is not its history's: its receipt does not check", who)
		}
		if h, sign := w.record(who, seq.Int64, rec, hash); sign {
			c.later = append(c.later, sigCheck{what: who.String(), h: h, account: name, number: number})
		}
		if h, sign := w.mark(who, unit, shown); sign {
			c.later = append(c.later, sigCheck{what: who.String() + ": its mark " + markName(shown), h: h, account: name, number: number, mark: true})
		}
		key, gm, err := seqs.read(g, stake)
		if err != nil {
			r.bad("%s: %v", who, err)
			continue
		}
		if want, _ := game.CentsOf(key.Stake); staked != want {
			r.bad("%s: %s staked on a unit of %s", who, staked, key)
		}
		if !block.Valid {
			s.verifyForced(r, who, key, gm, unit, label, serial, prize, layout)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: reading its purchases: %w", err)
	}
	end()
	rows.Close()
	if err := s.checkLater(ctx, q, r, c); err != nil {
		return err
	}
	if err := resetMarks(ctx, q, r); err != nil {
		return err
	}
	names := make([]string, 0, len(accounts))
	for name := range accounts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names { // accounts that never bought
		a := accounts[name]
		sum := total(deposits[name])
		if a.purchases != 0 || a.balance != sum || a.deposited != sum {
			r.bad("account %q: balance %s, deposited %s, %d purchases; its deposits give %s and none were recorded", name, a.balance, a.deposited, a.purchases, sum)
		}
		w := c.chain(r, name)
		for _, d := range deposits[name] {
			w.deposit(d)
		}
		w.end(a, true)
		delete(deposits, name)
	}
	names = names[:0]
	for name := range deposits {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		r.bad("account %q: deposits, and no account", name)
	}
	return nil
}

// verifyForced checks a forced unit: sold by a QA emission only, paying
// what its layout scores, named by its game, stake, label and rank.
func (s *SQL) verifyForced(r *Report, who recordName, key game.SeqKey, gm lottery.Game, unit string, label sql.NullString, serial int64, prize game.Cents, layout string) {
	r.Forced++
	if !s.emission.QA {
		r.bad("%s: forced unit %s in the house's emission, which sells none", who, text.Printable(unit))
	}
	l, err := lottery.Parse([]byte(layout))
	if err != nil || l.Game() != gm.Name || l.Score().Cents() != prize {
		r.bad("%s: forced unit %s does not pay its recorded %s", who, text.Printable(unit), prize)
	}
	// Its name is GAME:STAKE:LABEL:N, as lottery.Sold.Name writes it.
	id, forced, err := lottery.ParseName(unit)
	if err != nil || forced == nil || id.Seq().String() != key.String() || !label.Valid || forced.Label != label.String || forced.Serial != serial {
		r.bad("%s: forced unit %s is not named by its game, stake, label and rank", who, text.Printable(unit))
	}
}

// readDeposits reads every deposit, by account, in order.
func readDeposits(ctx context.Context, q querier) (map[string][]deposit, error) {
	deposits := map[string][]deposit{}
	rows, err := q.QueryContext(ctx, `SELECT account, n, amount, after_purchase, at, seq, hash, sig FROM deposits ORDER BY account, n`)
	if err != nil {
		return nil, fmt.Errorf("store: reading its deposits: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var d deposit
		var account string
		var seq sql.NullInt64
		if err := rows.Scan(&account, &d.n, &d.amount, &d.after, &d.at, &seq, &d.hash, &d.sig); err != nil {
			return nil, fmt.Errorf("store: reading its deposits: %w", err)
		}
		d.seq = seq.Int64
		deposits[account] = append(deposits[account], d)
	}
	return deposits, rows.Err()
}

// readAccounts reads every account.
func readAccounts(ctx context.Context, q querier) (map[string]accountRow, error) {
	accounts := map[string]accountRow{}
	rows, err := q.QueryContext(ctx, `SELECT name, balance, deposited, purchases, seq, head FROM accounts`)
	if err != nil {
		return nil, fmt.Errorf("store: reading its accounts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var a accountRow
		if err := rows.Scan(&name, &a.balance, &a.deposited, &a.purchases, &a.seq, &a.head); err != nil {
			return nil, fmt.Errorf("store: reading its accounts: %w", err)
		}
		accounts[name] = a
	}
	return accounts, rows.Err()
}

// total adds deposits up.
func total(ds []deposit) game.Cents {
	var sum game.Cents
	for _, d := range ds {
		sum += d.amount
	}
	return sum
}

// recordName names a record in a problem: made a string only for one.
type recordName struct {
	account string
	n       int // the purchase's number, or the deposit's
	deposit bool
}

func (n recordName) String() string {
	if n.deposit {
		return fmt.Sprintf("deposit %d of account %q", n.n, n.account)
	}
	return "purchase " + PurchaseID(n.account, n.n)
}

// chain follows an account's chain of records as they are read, in order.
type chain struct {
	c        *ledgerCheck
	r        *Report
	account  string
	deposits int         // the number of its last deposit read
	seq      int64       // the place of its last record read
	prev     ledger.Hash // its hash as recorded (as its content gives it when none is)
	places   []place     // what heads and receipts show of it, by place, not yet reached
	covered  int64       // the last place a signed head covers
	marksOf  uint64      // its part in the keys of its marks (markSet.account)
}

// chain starts following an account's chain.
func (c *ledgerCheck) chain(r *Report, account string) *chain {
	w := &chain{c: c, r: r, account: account, prev: ledger.Genesis(c.seal, account), places: c.places[account],
		covered: c.covered[account], marksOf: c.marks.account(account)}
	delete(c.places, account)
	return w
}

// deposit checks a deposit, the account's next record.
func (w *chain) deposit(d deposit) {
	what := recordName{account: w.account, n: d.n, deposit: true}
	if d.n != w.deposits+1 {
		w.r.bad("%s follows its deposit %d", what, w.deposits)
	}
	w.deposits = d.n
	if d.amount < 0 || d.amount == 0 && d.n > 1 { // a first deposit may be 0: an account opened empty
		w.r.bad("%s: an amount of %s", what, d.amount)
	}
	if h, sign := w.record(what, d.seq, d.record(w.account), d.hash); sign {
		w.c.signed(w.r, what.String(), h, d.sig)
	}
}

// record checks the account's next record: its place as recorded, its
// hash as recorded against the one its content gives after the record
// before, and what heads and receipts show at its place. It returns its
// hash, and whether its signature is to be checked: no signed head covers
// it.
//
// A change is named once, where it is, not at every record after it:
// records missing before a record are named, and the chain followed on
// from the place it is recorded at (the hash it follows being the missing
// one's, its own is named too); a record out of place (inserted) is named,
// and the chain followed on without it.
func (w *chain) record(what recordName, seq int64, rec ledger.Record, hashCol []byte) (ledger.Hash, bool) {
	r := w.r
	r.Records++
	next := w.seq + 1
	place, inserted := next, false
	switch {
	case seq == next:
	case seq == next+1:
		r.bad("%s: record %d of account %q's history, before it, is missing", what, next, w.account)
	case seq > next:
		r.bad("%s: records %d to %d of account %q's history, before it, are missing", what, next, seq-1, w.account)
	default:
		r.bad("%s: recorded as record %d of its account's history, after its record %d", what, seq, w.seq)
		inserted = true
	}
	if seq > next {
		place = seq
	}
	h := ledger.Link(w.c.seal, w.prev, place, rec)
	var stored ledger.Hash
	intact := len(hashCol) == len(stored) && copy(stored[:], hashCol) > 0 && stored == h
	sign := false
	switch {
	case !intact:
		r.bad("%s: its recorded hash is not its content's: changed since it was recorded", what)
	case place <= w.covered:
		r.Covered++
	default:
		r.Signed++
		sign = true
	}
	if inserted {
		return h, sign
	}
	if len(hashCol) == len(stored) {
		w.prev = stored
	} else {
		w.prev = h
	}
	w.seq = place
	for len(w.places) > 0 && w.places[0].seq <= w.seq {
		p := w.places[0]
		w.places = w.places[1:]
		switch {
		case p.seq < w.seq:
			p.gone(r, w.account, "which the store no longer holds")
		case p.hash != h:
			p.differs(r, w.account)
		case p.head == 0:
			r.FoundReceipts++
		}
	}
	return h, sign
}

// end checks the account's row ends its chain, and names what heads and
// receipts show beyond its end.
func (w *chain) end(a accountRow, held bool) {
	if held && a.balance < 0 {
		w.r.bad("account %q: a negative balance, %s", w.account, a.balance)
	}
	if held {
		switch {
		case a.seq != w.seq:
			w.r.bad("account %q: %d records in its history, the account counts %d", w.account, w.seq, a.seq)
		case !slices.Equal(a.head, w.prev[:]):
			w.r.bad("account %q: the hash it ends with is not its last record's", w.account)
		}
	}
	for _, p := range w.places {
		p.gone(w.r, w.account, "which the store no longer holds")
	}
}

// mark checks a purchase's mark, shown or left: the last one a signed head
// gave its unit, or else signed: it returns what its signature signs, and
// whether it is to be checked. A unit marked neither that a head marked
// was reset.
func (w *chain) mark(who recordName, unit string, shown int) (ledger.Hash, bool) {
	r, c := w.r, w.c
	inHead, ok, back := c.marks.get(w.marksOf, unit)
	if back {
		r.bad("%s: unit %s was marked shown by a head, and left by a later one: a unit shown is never left, its mark was put back", who, text.Printable(unit))
	}
	switch {
	case ok && inHead == ledger.Shown && shown == ledger.Left:
		r.bad("%s: unit %s is marked left, a head marked it shown: a unit shown is never left, its mark was put back", who, text.Printable(unit))
	case shown == 0 && ok:
		r.bad("%s: unit %s is marked neither shown nor left, a head marked it %s: its mark was reset", who, text.Printable(unit), markName(inHead))
	case shown == 0:
	case shown != ledger.Shown && shown != ledger.Left:
		r.bad("%s: unit %s is marked %d, which is no mark", who, text.Printable(unit), shown)
	case ok && inHead == shown:
	default:
		return ledger.Mark{Account: w.account, Unit: unit, Value: shown}.Hash(c.seal), true
	}
	return ledger.Hash{}, false
}

// sigCheck is a signature to check once the purchases are read, when
// the connection is free to read it: of a purchase no signed head covers,
// or of a mark no signed head gave.
type sigCheck struct {
	what    string
	h       ledger.Hash
	account string
	number  int
	mark    bool // its shown mark's signature, not its own
}

// checkLater reads and checks the signatures left to check.
func (s *SQL) checkLater(ctx context.Context, q querier, r *Report, c *ledgerCheck) error {
	for _, l := range c.later {
		query := `SELECT sig FROM purchases WHERE account = $1 AND number = $2`
		if l.mark {
			query = `SELECT shown_sig FROM purchases WHERE account = $1 AND number = $2`
		}
		var sig []byte
		if err := q.QueryRowContext(ctx, s.engine.q(query), l.account, l.number).Scan(&sig); err != nil {
			return fmt.Errorf("store: reading purchase %s's signature: %w", PurchaseID(l.account, l.number), err)
		}
		c.signed(r, l.what, l.h, sig)
	}
	c.later = nil
	return nil
}

// markName names a mark.
func markName(v int) string {
	if v == ledger.Left {
		return "left"
	}
	return "shown"
}

// resetMarks names the units marked neither shown nor left whose mark the
// house signed: a mark reset (its signature left behind). The index of
// units being revealed (shown = 0) finds them.
func resetMarks(ctx context.Context, q querier, r *Report) error {
	rows, err := q.QueryContext(ctx, `SELECT account, number, unit FROM purchases WHERE shown = 0 AND shown_sig IS NOT NULL ORDER BY account, number`)
	if err != nil {
		return fmt.Errorf("store: reading its marks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var account, unit string
		var number int
		if err := rows.Scan(&account, &number, &unit); err != nil {
			return fmt.Errorf("store: reading its marks: %w", err)
		}
		r.bad("%s: unit %s is marked neither shown nor left, and carries the house's signature of a mark: its mark was reset", recordName{account: account, n: number}, text.Printable(unit))
	}
	return rows.Err()
}
