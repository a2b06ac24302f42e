package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"tapis/ledger"
	"tapis/store"
	"tapis/text"
)

// storeCheck is what `tapis verify --store` is asked.
type storeCheck struct {
	url   string
	key   string   // --key: the house's public key, or a file holding it
	heads []string // --heads: files of heads and receipts
	json  bool
}

// verifyStore checks a whole store: its seal, every unit against its
// block's seed, every account's chain and balance, its heads; and the heads
// and receipts given, against its history.
func verifyStore(env Env, c storeCheck) int {
	var key ledger.PublicKey
	if c.key != "" {
		var err error
		if key, err = ledger.ReadPublicKey(c.key); err != nil {
			return fail(env, "verify", usagef("%v", err))
		}
	}
	var given ledger.Tokens
	for _, path := range c.heads {
		toks, err := readTokens(path)
		if err != nil {
			return fail(env, "verify", usagef("%v", err))
		}
		given.Receipts = append(given.Receipts, toks.Receipts...)
		given.Heads = append(given.Heads, toks.Heads...)
	}
	ctx := context.Background()
	// An audit opens a store whose seal is broken, to name what broke it.
	st, err := store.Open(ctx, c.url, store.Options{Existing: true, Audit: true, HouseKey: key})
	if err != nil {
		return fail(env, "verify", usagef("%v", err))
	}
	defer st.Close()
	rep, err := st.VerifyGiven(ctx, given)
	if err != nil {
		return fail(env, "verify", err)
	}
	where := text.Printable(store.Redact(c.url))
	if c.json {
		printStoreJSON(env, where, &rep)
	} else {
		printStoreReport(env, where, &rep)
	}
	if !rep.OK() {
		fmt.Fprintf(env.Stderr, "tapis verify: %s: %s found\n", where, count(int64(len(rep.Problems))+rep.More, "problem"))
		return ExitInvalid
	}
	return ExitOK
}

// readTokens reads the heads and receipts of a file given to --heads.
func readTokens(path string) (ledger.Tokens, error) {
	p := text.Printable(path)
	f, err := os.Open(path)
	if err != nil {
		return ledger.Tokens{}, fmt.Errorf("--heads %s: %w", p, err)
	}
	defer f.Close()
	t, err := ledger.Read(f)
	if err != nil {
		return ledger.Tokens{}, fmt.Errorf("--heads %s: %v", p, err)
	}
	if len(t.Heads)+len(t.Receipts) == 0 {
		return ledger.Tokens{}, fmt.Errorf("--heads %s: no head nor receipt in it (lines {\"head\":…} or {\"receipt\":…})", p)
	}
	return t, nil
}

// printStoreReport writes the report for a reader.
func printStoreReport(env Env, where string, rep *store.Report) {
	w := env.Stdout
	fmt.Fprintf(w, "store %s: %s by %s, %s opened, %d sold out (%s dealt again from their blocks' seeds and found as recorded)\n",
		where, count(rep.Purchases, "purchase"), count(rep.Accounts, "account"), count(rep.Blocks, "block"), rep.Closed, count(rep.Checked, "unit"))
	switch {
	case len(rep.SealProblems) > 0:
		fmt.Fprintf(w, "seal: broken, %s (below)\n", count(int64(len(rep.SealProblems)), "problem"))
	case rep.KeyGiven:
		fmt.Fprintf(w, "seal: ok, by the house's key %s (--key)\n", fingerprint(rep.Key))
	default:
		fmt.Fprintf(w, "seal: ok, by the key the store names, %s: give the house's with --key to know it is the house's\n", fingerprint(rep.Key))
	}
	fmt.Fprintf(w, "history: %s, %d covered by %s", count(rep.Records, "record"), rep.Covered, count(rep.Heads, "signed head"))
	if rep.Heads > 0 {
		fmt.Fprintf(w, " (the last, head %d)", rep.LastHead)
	}
	fmt.Fprintf(w, ", %d signed one by one\n", rep.Signed)
	if rep.GivenHeads+rep.GivenReceipts > 0 {
		fmt.Fprintf(w, "given: %s and %s; %d and %d found as the store holds them\n",
			count(rep.GivenHeads, "head"), count(rep.GivenReceipts, "receipt"), rep.FoundHeads, rep.FoundReceipts)
	}
	if rep.Foreign > 0 {
		fmt.Fprintf(w, "given: %d heads or receipts of another emission than this store's, not checked\n", rep.Foreign)
	}
	if rep.Forced > 0 {
		fmt.Fprintf(w, "%s: QA units, which come from no block and pay what QA chose\n", count(rep.Forced, "forced unit"))
	}
	if len(rep.OwnTables) > 0 {
		fmt.Fprintf(w, "a test emission: lot tables other than the regulation's for %s\n", strings.Join(rep.OwnTables, ", "))
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(w, text.Printable(p))
	}
	if rep.More > 0 {
		fmt.Fprintf(w, "and %s more\n", count(rep.More, "problem"))
	}
	if rep.OK() {
		fmt.Fprintln(w, "ok: nothing in the store contradicts it")
	}
}

// printStoreJSON writes the report as one JSON object.
func printStoreJSON(env Env, where string, rep *store.Report) {
	out := struct {
		Store         string   `json:"store"`
		OK            bool     `json:"ok"`
		Accounts      int64    `json:"accounts"`
		Purchases     int64    `json:"purchases"`
		Blocks        int64    `json:"blocks"`
		Closed        int64    `json:"closed"`
		Checked       int64    `json:"checked"`
		Forced        int64    `json:"forced"`
		OwnTables     []string `json:"own_tables,omitempty"`
		SealOK        bool     `json:"seal_ok"`
		SealProblems  []string `json:"seal_problems"`
		Key           string   `json:"key"`
		KeyGiven      bool     `json:"key_given"`
		Records       int64    `json:"records"`
		Covered       int64    `json:"covered"`
		Signed        int64    `json:"signed"`
		Heads         int64    `json:"heads"`
		LastHead      int64    `json:"last_head"`
		GivenHeads    int64    `json:"given_heads"`
		GivenReceipts int64    `json:"given_receipts"`
		FoundHeads    int64    `json:"found_heads"`
		FoundReceipts int64    `json:"found_receipts"`
		Problems      []string `json:"problems"`
		More          int64    `json:"more_problems,omitempty"`
	}{Store: where, OK: rep.OK(), Accounts: rep.Accounts, Purchases: rep.Purchases, Blocks: rep.Blocks,
		Closed: rep.Closed, Checked: rep.Checked, Forced: rep.Forced, OwnTables: rep.OwnTables,
		SealOK: len(rep.SealProblems) == 0, SealProblems: []string{}, Key: fingerprint(rep.Key), KeyGiven: rep.KeyGiven,
		Records: rep.Records, Covered: rep.Covered, Signed: rep.Signed, Heads: rep.Heads, LastHead: rep.LastHead,
		GivenHeads: rep.GivenHeads, GivenReceipts: rep.GivenReceipts, FoundHeads: rep.FoundHeads, FoundReceipts: rep.FoundReceipts,
		Problems: []string{}, More: rep.More}
	for _, p := range rep.SealProblems {
		out.SealProblems = append(out.SealProblems, text.Printable(p))
	}
	for _, p := range rep.Problems {
		out.Problems = append(out.Problems, text.Printable(p))
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(env.Stdout, "%s\n", b)
}

// fingerprint names a key by its fingerprint; "none" when there is none.
func fingerprint(k ledger.PublicKey) string {
	if !k.Valid() {
		return "none"
	}
	return k.Fingerprint()
}
