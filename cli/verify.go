package cli

import (
	"encoding/json"
	"errors"
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
	key := fs.String("key", "", "the house's public key (ssh-ed25519 AAAA…, or a file holding it): a store's\nsignatures are checked against it; without it, against the key its emission names")
	var heads filesFlag
	fs.Var(&heads, "heads", "a file of heads and receipts (one a line: a seller's log, tapis receipt's\noutput) to check against the store's history; given again, each file")
	pos, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "verify", err)
	}
	if *url != "" {
		if *path != "" || len(pos) > 0 {
			return fail(env, "verify", usagef("--store and a journal: verify checks one of them"))
		}
		return verifyStore(env, storeCheck{url: *url, key: *key, heads: heads, json: *asJSON})
	}
	if *key != "" || len(heads) > 0 {
		return fail(env, "verify", usagef("--key and --heads check a store's history: give --store URL"))
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

// filesFlag is a flag given once for each file: --heads log1 --heads log2.
type filesFlag []string

func (f *filesFlag) String() string { return strings.Join(*f, ",") }

func (f *filesFlag) Set(v string) error {
	if v == "" {
		return errors.New("a file is needed")
	}
	*f = append(*f, v)
	return nil
}
