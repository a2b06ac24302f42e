package store

import (
	"database/sql"
	"encoding/json"
	"time"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"

	"github.com/shopspring/decimal"
)

// What an insider who knows how the store chains its records does to
// cover a change: every hash computed again from the records' columns (no
// key needed), and, holding the house's key, everything signed again.

// seal returns the hash of the emission's seal, as its sealed copy reads.
func (d tamperDB) seal() ledger.Hash {
	d.t.Helper()
	var sealed string
	if err := d.db.QueryRow(`SELECT sealed FROM emission`).Scan(&sealed); err != nil {
		d.t.Fatal(err)
	}
	var s ledger.Seal
	if err := json.Unmarshal([]byte(sealed), &s); err != nil {
		d.t.Fatal(err)
	}
	return s.Hash()
}

// chainRecord is a record of an account's chain as its columns hold it.
type chainRecord struct {
	number int // the purchase's number, or the deposit's
	rec    ledger.Record
}

func (r chainRecord) deposit() bool {
	_, ok := r.rec.(ledger.Deposit)
	return ok
}

// records reads an account's records, in the order of its chain.
func (d tamperDB) records(account string) []chainRecord {
	d.t.Helper()
	var deposits []ledger.Deposit
	rows, err := d.db.Query(d.eng.q(`SELECT n, amount, after_purchase, at FROM deposits WHERE account = $1 ORDER BY n`), account)
	if err != nil {
		d.t.Fatal(err)
	}
	for rows.Next() {
		dep := ledger.Deposit{Account: account}
		if err := rows.Scan(&dep.N, &dep.Amount, &dep.After, &dep.At); err != nil {
			d.t.Fatal(err)
		}
		deposits = append(deposits, dep)
	}
	rows.Close()
	var out []chainRecord
	credit := func(n int) {
		for len(deposits) > 0 && deposits[0].After <= n {
			out = append(out, chainRecord{deposits[0].N, deposits[0]})
			deposits = deposits[1:]
		}
	}
	rows, err = d.db.Query(d.eng.q(`SELECT number, unit, block, serial, label, tier, stake_cents, prize, before_cents, after_cents, layout, at
		FROM purchases WHERE account = $1 ORDER BY number`), account)
	if err != nil {
		d.t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		p := ledger.Purchase{Account: account}
		var block sql.NullInt64
		var label sql.NullString
		if err := rows.Scan(&p.Number, &p.Unit, &block, &p.Serial, &label, &p.Tier, &p.Stake, &p.Prize, &p.Before, &p.After, &p.Layout, &p.At); err != nil {
			d.t.Fatal(err)
		}
		p.Block, p.Label = block.Int64, label.String
		credit(p.Number - 1)
		out = append(out, chainRecord{p.Number, p})
	}
	credit(int(^uint(0) >> 1))
	return out
}

// accounts returns the store's accounts.
func (d tamperDB) accounts() []string {
	d.t.Helper()
	rows, err := d.db.Query(`SELECT name FROM accounts ORDER BY name`)
	if err != nil {
		d.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			d.t.Fatal(err)
		}
		out = append(out, name)
	}
	return out
}

// rewrite rebuilds every account's chain from its records' columns: their
// places and hashes, the account's last. With the house's key, it signs
// every record again, and rebuilds every head over the new chains (an
// account's place past the end of its chain now names its last record),
// chained and signed again.
func (d tamperDB) rewrite(key *ledger.Key) {
	d.t.Helper()
	seal := d.seal()
	chains := map[string][]ledger.Hash{}
	for _, a := range d.accounts() {
		prev := ledger.Genesis(seal, a)
		var hashes []ledger.Hash
		for i, r := range d.records(a) {
			seq := int64(i + 1)
			h := ledger.Link(seal, prev, seq, r.rec)
			var sig []byte
			if key != nil {
				s := key.Sign(h)
				sig = s[:]
			}
			if r.deposit() {
				if key != nil {
					d.exec(`UPDATE deposits SET seq = $1, hash = $2, sig = $3 WHERE account = $4 AND n = $5`, seq, h[:], sig, a, r.number)
				} else {
					d.exec(`UPDATE deposits SET seq = $1, hash = $2 WHERE account = $3 AND n = $4`, seq, h[:], a, r.number)
				}
			} else if key != nil {
				d.exec(`UPDATE purchases SET seq = $1, prev = $2, hash = $3, sig = $4 WHERE account = $5 AND number = $6`, seq, prev[:], h[:], sig, a, r.number)
			} else {
				d.exec(`UPDATE purchases SET seq = $1, prev = $2, hash = $3 WHERE account = $4 AND number = $5`, seq, prev[:], h[:], a, r.number)
			}
			hashes = append(hashes, h)
			prev = h
		}
		d.exec(`UPDATE accounts SET seq = $1, head = $2 WHERE name = $3`, len(hashes), prev[:], a)
		chains[a] = hashes
	}
	if key != nil {
		d.resignHeads(*key, seal, chains)
	}
}

// resignHeads rebuilds every head over the accounts' chains, and signs it.
func (d tamperDB) resignHeads(key ledger.Key, seal ledger.Hash, chains map[string][]ledger.Hash) {
	d.t.Helper()
	type row struct {
		h    ledger.Head
		body string
	}
	rows, err := d.db.Query(`SELECT n, seller, at, body FROM heads ORDER BY n`)
	if err != nil {
		d.t.Fatal(err)
	}
	var heads []row
	for rows.Next() {
		var r row
		r.h.Seal = seal
		if err := rows.Scan(&r.h.N, &r.h.Seller, &r.h.At, &r.body); err != nil {
			d.t.Fatal(err)
		}
		heads = append(heads, r)
	}
	rows.Close()
	prev := seal
	for _, r := range heads {
		body, err := ledger.DecodeBody(r.body)
		if err != nil {
			d.t.Fatal(err)
		}
		var accounts []ledger.AccountHead
		for _, a := range body.Accounts {
			chain := chains[a.Account]
			if len(chain) == 0 {
				continue
			}
			a.Seq = min(a.Seq, int64(len(chain)))
			a.Hash = chain[a.Seq-1]
			accounts = append(accounts, a)
		}
		body.Accounts = accounts
		r.h.Body, r.h.Prev = body, prev
		text, err := ledger.EncodeBody(body)
		if err != nil {
			d.t.Fatal(err)
		}
		hash := r.h.Hash()
		sig := key.Sign(r.h.Statement())
		d.exec(`UPDATE heads SET prev = $1, hash = $2, sig = $3, body = $4 WHERE n = $5`, prev[:], hash[:], sig[:], text, r.h.N)
		prev = hash
	}
}

// appendRecord adds a record at the end of an account's chain, its hash
// computed as a seller's would be, unsigned (the insider has no key): the
// account's place and last hash follow it.
func (d tamperDB) appendRecord(account string, rec ledger.Record) ledger.Hash {
	d.t.Helper()
	var seq int64
	var head []byte
	if err := d.db.QueryRow(d.eng.q(`SELECT seq, head FROM accounts WHERE name = $1`), account).Scan(&seq, &head); err != nil {
		d.t.Fatal(err)
	}
	var prev ledger.Hash
	copy(prev[:], head)
	seq++
	h := ledger.Link(d.seal(), prev, seq, rec)
	switch r := rec.(type) {
	case ledger.Deposit:
		d.exec(`INSERT INTO deposits (account, n, amount, after_purchase, at, seq, hash) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			account, r.N, int64(r.Amount), r.After, r.At, seq, h[:])
		d.exec(`UPDATE accounts SET balance = balance + $1, deposited = deposited + $1, deposits = deposits + 1 WHERE name = $2`, int64(r.Amount), account)
	case ledger.Purchase:
		d.exec(`INSERT INTO purchases (account, number, game, stake, block, serial, label, unit, tier, stake_cents, prize, before_cents, after_cents, layout, at, seq, prev, hash)
			VALUES ($1, $2, 'yams', '2', NULL, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
			account, r.Number, r.Serial, r.Label, r.Unit, r.Tier, int64(r.Stake), int64(r.Prize), int64(r.Before), int64(r.After), r.Layout, r.At, seq, prev[:], h[:])
		d.exec(`UPDATE accounts SET balance = $1, purchases = $2 WHERE name = $3`, int64(r.After), r.Number, account)
	}
	d.exec(`UPDATE accounts SET seq = $1, head = $2 WHERE name = $3`, seq, h[:], account)
	return h
}

// addDeposit adds a deposit to an account, after its last purchase.
func (d tamperDB) addDeposit(account string, amount game.Cents) {
	d.t.Helper()
	n := d.one(`SELECT deposits FROM accounts WHERE name = $1`, account)
	after := d.one(`SELECT purchases FROM accounts WHERE name = $1`, account)
	d.appendRecord(account, ledger.Deposit{Account: account, N: int(n) + 1, Amount: amount, After: int(after), At: time.Now().UnixNano()})
}

// plantForced sells an account a forced Yam's jackpot at 2 €, as a QA
// store would.
func (d tamperDB) plantForced(account string) {
	d.t.Helper()
	tier := 0
	stake := decimal.NewFromInt(2)
	sold, err := lottery.NewShop(game.SeedFrom(1)).Force(lottery.Yams(), stake, lottery.Force{Tier: &tier}, "QA")
	if err != nil {
		d.t.Fatal(err)
	}
	layout, err := sold.Layout.MarshalJSON()
	if err != nil {
		d.t.Fatal(err)
	}
	prize, _ := game.CentsOf(sold.Unit.Prize)
	var before, number int64
	if err := d.db.QueryRow(d.eng.q(`SELECT balance, purchases FROM accounts WHERE name = $1`), account).Scan(&before, &number); err != nil {
		d.t.Fatal(err)
	}
	bc := game.Cents(before)
	d.appendRecord(account, ledger.Purchase{Account: account, Number: int(number) + 1, Unit: sold.Name(), Serial: sold.Forced.Serial,
		Label: "QA", Tier: tier, Stake: 200, Prize: prize, Before: bc, After: bc - 200 + prize, Layout: string(layout), At: time.Now().UnixNano()})
}
