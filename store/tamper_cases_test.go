package store

import (
	"encoding/json"
	"fmt"
	"strings"

	"tapis/game"
)

// tamperings are the 29 tamperings of issue 21, made with the database's
// own tools, as an insider without the house's key would, and a few more:
// each is named by verify. Where the issue groups several, each is one
// case (its name says which of the 29 it is).
func tamperings(f *soldStore) []tampering {
	win, losing, lastAnn, lastBob := f.win, f.losing, f.n["ann"], f.n["bob"]
	sql := func(statements ...string) func(d tamperDB) {
		return func(d tamperDB) {
			for _, s := range statements {
				d.exec(s)
			}
		}
	}
	// shiftAnn shifts ann's balances from her purchase number from on.
	shiftAnn := func(from int, cents int) string {
		return fmt.Sprintf(`UPDATE purchases SET before_cents = before_cents + %d, after_cents = after_cents + %d WHERE account = 'ann' AND number >= %d`, cents, cents, from)
	}
	return []tampering{
		{name: "01 a second deposit added (+1000 €)", do: func(d tamperDB) { d.addDeposit("ann", 100000) },
			want: []string{`deposit 3 of account "ann" carries no signature: the house never signed it`}},
		{name: "02 a deposit inserted mid-history", do: func(d tamperDB) {
			d.exec(`INSERT INTO deposits (account, n, amount, after_purchase, at) VALUES ('bob', 2, 100000, 10, 1)`)
			d.exec(`UPDATE purchases SET before_cents = before_cents + 100000, after_cents = after_cents + 100000 WHERE account = 'bob' AND number > 10`)
			d.exec(`UPDATE accounts SET balance = balance + 100000, deposited = deposited + 100000, deposits = 2 WHERE name = 'bob'`)
			d.rewrite(nil)
		}, want: []string{`account "bob": its record`, "its history was rewritten"}},
		{name: "03 the first deposit raised, the balance chain shifted to match", do: func(d tamperDB) {
			d.exec(`UPDATE deposits SET amount = amount + 100000 WHERE account = 'ann' AND n = 1`)
			d.exec(shiftAnn(1, 100000))
			d.exec(`UPDATE accounts SET balance = balance + 100000, deposited = deposited + 100000 WHERE name = 'ann'`)
			d.rewrite(nil)
		}, want: []string{`account "ann": its record`, "its history was rewritten"}},
		{name: "04 an account's last purchase deleted, its block's counter rolled back", do: sql(
			fmt.Sprintf(`UPDATE accounts SET balance = (SELECT before_cents FROM purchases WHERE account = 'ann' AND number = %[1]d),
				head = (SELECT prev FROM purchases WHERE account = 'ann' AND number = %[1]d), purchases = purchases - 1, seq = seq - 1 WHERE name = 'ann'`, lastAnn),
			fmt.Sprintf(`UPDATE blocks SET sold = sold - 1 WHERE game = 'vegas' AND number = (SELECT block FROM purchases WHERE account = 'ann' AND number = %d)`, lastAnn),
			fmt.Sprintf(`DELETE FROM purchases WHERE account = 'ann' AND number = %d`, lastAnn)),
			want: []string{`account "ann": head `, "which the store no longer holds: its history was rolled back"}},
		{name: "05 the lot tables changed (1 jackpot instead of 2)", do: fewerJackpots,
			want: []string{"the emission's lot tables are not the ones sealed"}},
		{name: "05 the lot tables changed in the sealed copy too", do: func(d tamperDB) {
			fewerJackpots(d)
			var sealed map[string]any
			var text, tables string
			if err := d.db.QueryRow(`SELECT sealed, tables FROM emission`).Scan(&text, &tables); err != nil {
				d.t.Fatal(err)
			}
			dec := json.NewDecoder(strings.NewReader(text))
			dec.UseNumber()
			if err := dec.Decode(&sealed); err != nil {
				d.t.Fatal(err)
			}
			sealed["tables"] = tables
			b, _ := json.Marshal(sealed)
			d.exec(`UPDATE emission SET sealed = $1`, string(b))
		}, want: []string{"the emission's seal is not its sealed copy's signature"}},
		{name: "06 emission.qa flipped to 1 on the house's store", do: sql(`UPDATE emission SET qa = 1`),
			want: []string{"the emission's QA flag is 1, sealed as 0 (the house's)"}},
		{name: "07 the open-blocks setting changed", do: sql(`UPDATE emission SET open_blocks = 5`),
			want: []string{"the emission's open blocks is 5, sealed as 2"}},
		{name: "08 a shown flag reset", do: sql(`UPDATE purchases SET shown = 0 WHERE account = 'ann' AND number = 1`),
			want: []string{"purchase ann#1: unit vegas:3:1:1 is marked neither shown nor left, a head marked it shown: its mark was reset"}},
		{name: "08 a shown flag set", do: sql(fmt.Sprintf(`UPDATE purchases SET shown = 1 WHERE account = 'ann' AND number = %d`, lastAnn)),
			want: []string{fmt.Sprintf("purchase ann#%d: its mark shown carries no signature", lastAnn)}},
		{name: "08 a left flag changed to shown", do: sql(fmt.Sprintf(`UPDATE purchases SET shown = 1 WHERE account = 'cy' AND number = %d`, f.left)),
			want: []string{fmt.Sprintf("purchase cy#%d: its mark shown: its signature is not the house key's", f.left)}},
		{name: "09 a balance raised", do: sql(`UPDATE accounts SET balance = balance + 100000 WHERE name = 'bob'`),
			want: []string{`account "bob": balance`, "its deposits and purchases give"}},
		{name: "10 a balance raised with the deposited total", do: sql(`UPDATE accounts SET balance = balance + 100000, deposited = deposited + 100000 WHERE name = 'bob'`),
			want: []string{`account "bob": `, "deposited, its deposits add up to"}},
		{name: "11 a prize raised", do: sql(fmt.Sprintf(`UPDATE purchases SET prize = prize + 100000, after_cents = after_cents + 100000 WHERE account = 'ann' AND number = %d`, win)),
			want: []string{fmt.Sprintf("purchase ann#%d: unit", win), "its block's seed gives"}},
		{name: "12 a prize raised, the whole balance chain rewritten", do: func(d tamperDB) {
			d.exec(fmt.Sprintf(`UPDATE purchases SET prize = prize + 100000 WHERE account = 'ann' AND number = %d`, win))
			d.exec(fmt.Sprintf(`UPDATE purchases SET after_cents = after_cents + 100000 WHERE account = 'ann' AND number = %d`, win))
			d.exec(shiftAnn(win+1, 100000))
			d.exec(`UPDATE accounts SET balance = balance + 100000 WHERE name = 'ann'`)
			d.rewrite(nil)
		}, want: []string{`account "ann": its record`, "its history was rewritten"}},
		{name: "13 a layout swapped for another that pays the same", do: sql(fmt.Sprintf(`UPDATE purchases SET layout = (SELECT p.layout FROM purchases p
			WHERE p.game = 'vegas' AND p.tier = purchases.tier AND p.unit <> purchases.unit ORDER BY p.unit LIMIT 1) WHERE account = 'bob' AND number = %d`, losing)),
			want: []string{fmt.Sprintf("purchase bob#%d: unit", losing), "layout is not the one its block's seed deals"}},
		{name: "14 a tier changed", do: sql(fmt.Sprintf(`UPDATE purchases SET tier = 0 WHERE account = 'bob' AND number = %d`, losing)),
			want: []string{fmt.Sprintf("purchase bob#%d: unit", losing), "pays 0 €, recorded as the lot of 40000 €; its block's seed gives 0 €, no lot (a losing unit)"}},
		{name: "15 a stake changed", do: sql(`UPDATE purchases SET stake_cents = 100 WHERE account = 'bob' AND number = 2`),
			want: []string{"purchase bob#2: 1 staked on a unit of vegas:3"}},
		{name: "16 a unit name changed", do: sql(`UPDATE purchases SET unit = 'vegas:3:1:59' WHERE account = 'ann' AND number = 1`),
			want: []string{`purchase ann#1: unit "vegas:3:1:59" is serial 1 of block vegas:3:1`}},
		{name: "17 a purchase deleted mid-history", do: sql(`DELETE FROM purchases WHERE account = 'bob' AND number = 5`),
			want: []string{`account "bob": purchase 6 follows purchase 4`}},
		{name: "18 a commitment changed", do: sql(`UPDATE blocks SET commitment = (SELECT b.commitment FROM blocks b WHERE b.game = 'vegas' AND b.number = 4)
			WHERE game = 'vegas' AND number = 3`),
			want: []string{"block vegas:3:3: commitment", "is not its seed's"}},
		{name: "19 a revealed seed changed", do: sql(`UPDATE blocks SET seed = '` + strings.Repeat("ab", 32) + `' WHERE game = 'vegas' AND number = 1`),
			want: []string{"block vegas:3:1: revealed seed abab"}},
		{name: "20 the master seed changed", do: sql(`UPDATE emission SET seed = '` + game.SeedFrom(99).String() + `'`),
			want: []string{"the emission's master seed is not the one its seal commits to"}},
		{name: "21 a block's sold counter raised", do: sql(`UPDATE blocks SET sold = sold + 1 WHERE game = 'vegas' AND number = 3`),
			want: []string{"block vegas:3:3: 22 units sold, 21 recorded"}},
		{name: "22 a block's sold counter lowered", do: sql(`UPDATE blocks SET sold = sold - 1 WHERE game = 'vegas' AND number = 3`),
			want: []string{"block vegas:3:3: 20 units sold, 21 recorded"}},
		{name: "23 purchase times shifted", do: sql(`UPDATE purchases SET at = at + 1000000 WHERE account = 'ann' AND number = 3`),
			want: []string{"purchase ann#3: its recorded hash is not its content's: changed since it was recorded"}},
		{name: "24 purchase times shifted before the block's commitment", do: sql(`UPDATE purchases SET at = 0 WHERE account = 'ann' AND number = 3`),
			want: []string{"purchase ann#3: sold before block vegas:3:1's commitment"}},
		{name: "25 a winning purchase moved to another account", do: sql(
			fmt.Sprintf(`UPDATE purchases SET account = 'bob', number = %d WHERE account = 'ann' AND number = %d`, lastBob+1, win),
			`UPDATE accounts SET purchases = purchases + 1 WHERE name = 'bob'`),
			want: []string{fmt.Sprintf("purchase bob#%d: its recorded hash is not its content's", lastBob+1)}},
		{name: "26 a serial sold twice", do: sql(`DROP INDEX purchases_serial`,
			fmt.Sprintf(`INSERT INTO purchases (account, number, game, stake, block, serial, label, unit, tier, stake_cents, prize, before_cents, after_cents, layout, at, seq, prev, hash, sig)
				SELECT 'cy', %d, game, stake, block, serial, label, unit, tier, stake_cents, prize, before_cents, after_cents, layout, at, seq, prev, hash, sig
				FROM purchases WHERE account = 'ann' AND number = %d`, f.n["cy"]+1, win),
			`UPDATE accounts SET purchases = purchases + 1 WHERE name = 'cy'`),
			want: []string{"of block vegas:3:", "sold twice"}},
		{name: "27 a forced unit planted in the house's store", do: func(d tamperDB) { d.plantForced("bob") },
			want: []string{fmt.Sprintf("purchase bob#%d: forced unit yams:2:QA:1 in the house's emission, which sells none", lastBob+1)}},
		{name: "28 a negative balance", do: sql(`UPDATE accounts SET balance = -500 WHERE name = 'bob'`),
			want: []string{`account "bob": a negative balance, -5`}},
		{name: "29 the schema version bumped", do: sql(fmt.Sprintf(`INSERT INTO tapis_migrations (version_id, is_applied) VALUES (%d, true)`, SchemaVersion+1)),
			refused: fmt.Sprintf("schema version %d is newer than this tapis's (%d)", SchemaVersion+1, SchemaVersion)},
		{name: "29 the schema version bumped in tapis_schema", do: sql(fmt.Sprintf(`UPDATE tapis_schema SET version = %d`, SchemaVersion+1)),
			want: []string{fmt.Sprintf("the store's schema version is %d in tapis_schema, its migrations say %d: changed by hand", SchemaVersion+1, SchemaVersion)}},

		// More than the 29.
		{name: "the format changed", do: sql(`UPDATE emission SET format = 3`),
			want: []string{"the emission's format is 3, sealed as 2"}},
		{name: "the seed commitment changed", do: sql(`UPDATE emission SET commitment = '` + strings.Repeat("0", 64) + `'`),
			want: []string{"the emission's seed commitment is not the one sealed"}},
		{name: "a deposit added with no hash", do: sql(`INSERT INTO deposits (account, n, amount, after_purchase, at) VALUES ('cy', 2, 100000, 10, 1)`),
			want: []string{`deposit 2 of account "cy": its recorded hash is not its content's`}},
		{name: "a purchase added with no place in the chain", do: sql(fmt.Sprintf(`INSERT INTO purchases (account, number, game, stake, block, serial, label, unit, tier, stake_cents, prize, before_cents, after_cents, layout, at)
				SELECT 'cy', %d, game, stake, NULL, 9, 'QA', 'yams:1:QA:9', tier, stake_cents, prize, before_cents, after_cents, layout, at
				FROM purchases WHERE account = 'bob' AND number = %d`, f.n["cy"]+1, lastBob)),
			want: []string{fmt.Sprintf("purchase cy#%d: recorded as record 0 of its account's history", f.n["cy"]+1)}},
		{name: "a block's opening unsigned", do: sql(`UPDATE blocks SET opened_sig = NULL WHERE game = 'vegas' AND number = 2`),
			want: []string{"block vegas:3:2's opening carries no signature"}},
		{name: "a block's closing time changed", do: sql(`UPDATE blocks SET closed = closed + 1 WHERE game = 'vegas' AND number = 1`),
			want: []string{"block vegas:3:1's closing: its signature is not the house key's"}},
		{name: "a head removed", do: sql(`DELETE FROM heads WHERE n = 2`),
			want: []string{"head 2 is missing"}},
		{name: "a head's body changed", do: sql(`UPDATE heads SET body = REPLACE(body, '"shown":1', '"shown":2') WHERE n = 1`),
			want: []string{"head 1: its recorded hash is not its content's"}},
		{name: "an account's head changed", do: sql(`UPDATE accounts SET head = (SELECT head FROM accounts WHERE name = 'bob') WHERE name = 'ann'`),
			want: []string{`account "ann": the hash it ends with is not its last record's`}},
	}
}

// fewerJackpots changes the emission's lot table of Vegas at 3 €: one
// winning unit less in its first lot of several (the regulation's Vegas
// has 2 jackpots; the small tables, one), one losing unit more.
func fewerJackpots(d tamperDB) {
	d.t.Helper()
	var text string
	if err := d.db.QueryRow(`SELECT tables FROM emission`).Scan(&text); err != nil {
		d.t.Fatal(err)
	}
	var tables map[string]tableJSON
	if err := json.Unmarshal([]byte(text), &tables); err != nil {
		d.t.Fatal(err)
	}
	t := tables["vegas:3"]
	i := 0
	for t.Lots[i].Count < 2 {
		i++
	}
	t.Lots[i].Count--
	t.Lots[len(t.Lots)-1].Count++
	tables["vegas:3"] = t
	b, err := json.Marshal(tables)
	if err != nil {
		d.t.Fatal(err)
	}
	d.exec(`UPDATE emission SET tables = $1`, string(b))
}
