package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"tapis/store"
	"tapis/store/journal"
	"tapis/text"
)

// verify checks a journal: every line against the ones before it, and every
// closed block against its revealed seed.
func verify(env Env, args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	path := fs.String("journal", "", "the journal to check")
	url := fs.String("store", "", "the store to check: sqlite:PATH, PATH.db or postgres://…")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	pos, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "verify", err)
	}
	if *url != "" {
		if *path != "" || len(pos) > 0 {
			return fail(env, "verify", usagef("--store and a journal: verify checks one of them"))
		}
		return verifyStore(env, *url, *asJSON)
	}
	if len(pos) > 0 && *path == "" {
		*path, pos = pos[0], pos[1:]
	}
	if len(pos) > 0 {
		return fail(env, "verify", usagef("unexpected argument %q: verify checks one journal", pos[0]))
	}
	if *path == "" {
		return fail(env, "verify", usagef("--journal FILE or --store URL is required"))
	}
	f, err := os.Open(*path)
	if err != nil {
		return fail(env, "verify", usagef("%v", err))
	}
	defer f.Close()
	// A journal holds its master seed: one that others may read is
	// refused here as the game refuses it.
	if info, err := f.Stat(); err != nil {
		return fail(env, "verify", usagef("%v", err))
	} else if err := store.PrivateMode("journal", *path, info.Mode()); err != nil {
		return fail(env, "verify", usagef("%v", err))
	}
	rep, err := journal.Verify(f, nil)
	if err != nil {
		return fail(env, "verify", usagef("%v", err))
	}
	if *asJSON {
		type problem struct {
			Line    int    `json:"line"`
			Problem string `json:"problem"`
		}
		out := struct {
			Journal   string    `json:"journal"`
			OK        bool      `json:"ok"`
			Purchases int       `json:"purchases"`
			Blocks    int       `json:"blocks"`
			Closed    int       `json:"closed"`
			Checked   int64     `json:"checked"`
			Torn      int       `json:"torn_line,omitempty"`
			Forced    int64     `json:"forced"`
			Empty     bool      `json:"empty,omitempty"`
			Problems  []problem `json:"problems"`
		}{Journal: *path, OK: rep.OK(), Purchases: rep.Purchases, Blocks: rep.Blocks, Closed: rep.Closed,
			Checked: rep.Checked, Torn: rep.Torn, Forced: rep.Forced, Empty: rep.Empty, Problems: []problem{}}
		for _, p := range rep.Problems {
			out.Problems = append(out.Problems, problem{p.Line, p.Msg})
		}
		b, _ := json.Marshal(out)
		fmt.Fprintf(env.Stdout, "%s\n", b)
	} else {
		if rep.Empty {
			fmt.Fprintf(env.Stdout, "journal %s is empty: a new journal, nothing to check\n", text.Printable(*path))
			return ExitOK
		}
		if rep.Refused { // another format: one line, nothing counted
			fmt.Fprintf(env.Stderr, "tapis verify: %s: %s\n", text.Printable(*path), rep.Problems[0])
			return ExitInvalid
		}
		fmt.Fprintf(env.Stdout, "journal %s: %s, %s committed, %d closed (%s dealt again from the seed and found as recorded)\n",
			text.Printable(*path), count(rep.Purchases, "purchase"), count(rep.Blocks, "block"), rep.Closed, count(rep.Checked, "unit"))
		if rep.Torn > 0 {
			fmt.Fprintf(env.Stdout, "line %d was cut short by a crash and is not counted\n", rep.Torn)
		}
		if rep.Forced > 0 {
			fmt.Fprintf(env.Stdout, "%s: a QA journal, whose balance proves nothing (forced units come from no block and pay what QA chose)\n",
				count(rep.Forced, "forced unit"))
		}
		for _, p := range rep.Problems {
			fmt.Fprintf(env.Stdout, "line %d: %s\n", p.Line, text.Printable(p.Msg))
		}
		if rep.OK() {
			fmt.Fprintln(env.Stdout, "ok: nothing in the journal contradicts it")
		}
	}
	if !rep.OK() {
		fmt.Fprintf(env.Stderr, "tapis verify: %s: %s found\n", text.Printable(*path), count(len(rep.Problems), "problem"))
		return ExitInvalid
	}
	return ExitOK
}

// count writes a number of things: "1 purchase", "2 purchases".
func count[N int | int64](n N, thing string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// verifyStore checks a whole store: every unit against its block's seed,
// every account's balance.
func verifyStore(env Env, url string, asJSON bool) int {
	ctx := context.Background()
	st, err := store.Open(ctx, url, store.Options{Existing: true})
	if err != nil {
		return fail(env, "verify", usagef("%v", err))
	}
	defer st.Close()
	rep, err := st.Verify(ctx)
	if err != nil {
		return fail(env, "verify", err)
	}
	where := text.Printable(store.Redact(url))
	if asJSON {
		out := struct {
			Store     string   `json:"store"`
			OK        bool     `json:"ok"`
			Accounts  int64    `json:"accounts"`
			Purchases int64    `json:"purchases"`
			Blocks    int64    `json:"blocks"`
			Closed    int64    `json:"closed"`
			Checked   int64    `json:"checked"`
			Forced    int64    `json:"forced"`
			OwnTables []string `json:"own_tables,omitempty"`
			Problems  []string `json:"problems"`
			More      int64    `json:"more_problems,omitempty"`
		}{OwnTables: rep.OwnTables, Store: where, OK: rep.OK(), Accounts: rep.Accounts, Purchases: rep.Purchases, Blocks: rep.Blocks,
			Closed: rep.Closed, Checked: rep.Checked, Forced: rep.Forced, Problems: []string{}, More: rep.More}
		for _, p := range rep.Problems {
			out.Problems = append(out.Problems, text.Printable(p))
		}
		b, _ := json.Marshal(out)
		fmt.Fprintf(env.Stdout, "%s\n", b)
	} else {
		fmt.Fprintf(env.Stdout, "store %s: %s by %s, %s opened, %d sold out (%s dealt again from their blocks' seeds and found as recorded)\n",
			where, count(rep.Purchases, "purchase"), count(rep.Accounts, "account"), count(rep.Blocks, "block"), rep.Closed, count(rep.Checked, "unit"))
		if rep.Forced > 0 {
			fmt.Fprintf(env.Stdout, "%s: QA units, which come from no block and pay what QA chose\n", count(rep.Forced, "forced unit"))
		}
		if len(rep.OwnTables) > 0 {
			fmt.Fprintf(env.Stdout, "a test emission: lot tables other than the regulation's for %s\n", strings.Join(rep.OwnTables, ", "))
		}
		for _, p := range rep.Problems {
			fmt.Fprintln(env.Stdout, text.Printable(p))
		}
		if rep.More > 0 {
			fmt.Fprintf(env.Stdout, "and %s more\n", count(rep.More, "problem"))
		}
		if rep.OK() {
			fmt.Fprintln(env.Stdout, "ok: nothing in the store contradicts it")
		}
	}
	if !rep.OK() {
		fmt.Fprintf(env.Stderr, "tapis verify: %s: %s found\n", where, count(int64(len(rep.Problems))+rep.More, "problem"))
		return ExitInvalid
	}
	return ExitOK
}
