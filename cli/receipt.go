package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"tapis/ledger"
	"tapis/session"
	"tapis/store"
	"tapis/store/journal"
	"tapis/text"
	"tapis/wallet"
)

// receiptSource is a store that gives an account's receipts, oldest
// first: the SQL store, and the game's journal.
type receiptSource interface {
	Receipts(ctx context.Context, account string) ([]ledger.Receipt, error)
}

// receiptStream is a store that gives them one at a time, holding one:
// the SQL store, whose accounts may hold a million purchases.
type receiptStream interface {
	EachReceipt(ctx context.Context, account string, f func(ledger.Receipt) error) error
}

// receiptTimeout bounds reading a store's receipts.
const receiptTimeout = 10 * time.Minute

// receipt runs tapis receipt: the receipts of an account of a store or a
// journal, one JSON line each, for the player to keep; or, as tapis
// receipt verify, checks receipts and heads offline against the house's
// public key. Printing opens the store to read it, needing no key, and
// creates nothing: exit 2 for a bad flag, a store or journal that cannot
// be opened, or an account it does not hold; 1 when reading fails midway.
func receipt(env Env, args []string) int {
	if len(args) > 0 && args[0] == "verify" {
		return receiptVerify(env, args[1:])
	}
	fs := flag.NewFlagSet("receipt", flag.ContinueOnError)
	url := fs.String("store", "", "the store `URL` to read (sqlite:PATH, PATH.db, postgres://…); it must exist")
	path := fs.String("journal", "", "the game's journal `FILE` to read")
	account := fs.String("account", "", "the account `NAME` whose receipts to print (default local)")
	pos, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "receipt", err)
	}
	switch {
	case len(pos) > 0:
		return fail(env, "receipt", usagef("unexpected argument %q: receipt reads --store URL or --journal FILE (receipt verify FILE checks receipts)", text.Printable(pos[0])))
	case *url != "" && *path != "":
		return fail(env, "receipt", usagef("--store and --journal: receipt reads one of them"))
	case *url == "" && *path == "":
		return fail(env, "receipt", usagef("--store URL or --journal FILE is required"))
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "account" })
	if set && *account == "" {
		return fail(env, "receipt", usagef("--account is empty: want 1 to 64 printable characters"))
	}
	if err := checkAccount(*account); err != nil {
		return fail(env, "receipt", err)
	}
	if *account == "" {
		*account = session.DefaultAccount
	}
	ctx, cancel := context.WithTimeout(context.Background(), receiptTimeout)
	defer cancel()
	src, closeSrc, err := openReceipts(ctx, *url, *path, *account)
	if err != nil {
		return fail(env, "receipt", err)
	}
	defer closeSrc()
	out := bufio.NewWriter(env.Stdout)
	n := 0
	write := func(r ledger.Receipt) error {
		n++
		_, err := out.Write(append(text.JSONSafe([]byte(r.String())), '\n'))
		return err
	}
	if st, ok := src.(receiptStream); ok {
		err = st.EachReceipt(ctx, *account, write)
	} else {
		var rs []ledger.Receipt
		rs, err = src.Receipts(ctx, *account)
		for _, r := range rs {
			if err = write(r); err != nil {
				break
			}
		}
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	switch {
	case errors.Is(err, store.ErrNoAccount):
		// serve's players are named by their key (SHA256:…) or as guests
		// (guest-…), as its log's "played" lines say.
		return fail(env, "receipt", usagef("%v (--account NAME: serve's players are their key's SHA256: fingerprint or guest-…, as its log says)", err))
	case err != nil:
		return fail(env, "receipt", err)
	case n == 0:
		fmt.Fprintf(env.Stderr, "tapis receipt: account %s has bought nothing yet\n", text.Printable(*account))
	}
	return ExitOK
}

// openReceipts opens the store at url, or the journal at path, to read an
// account's receipts, and returns it with what closes it. A store is
// opened as a reader (no key, nothing created); a journal must exist, and
// an empty one is not opened (it would be written a first line).
func openReceipts(ctx context.Context, url, path, account string) (receiptSource, func(), error) {
	if url != "" {
		if err := checkStoreURL(url); err != nil {
			return nil, nil, err
		}
		st, err := store.Open(ctx, url, store.Options{Existing: true})
		if err != nil {
			return nil, nil, usagef("%v", err)
		}
		return st, func() { st.Close() }, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if info.IsDir() {
		return nil, nil, usagef("journal %s is a directory", text.Printable(path))
	}
	if err := store.PrivateMode("journal", path, info.Mode()); err != nil {
		return nil, nil, usagef("%v", err)
	}
	if info.Size() == 0 {
		return nil, nil, usagef("journal %s is empty: nothing was bought on it", text.Printable(path))
	}
	return journalReceipts(path), func() {}, nil
}

// journalReceipts reads a journal's receipts without opening it: a
// reader, it needs no key and writes nothing.
type journalReceipts string

func (path journalReceipts) Receipts(ctx context.Context, account string) ([]ledger.Receipt, error) {
	f, err := os.Open(string(path))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return journal.ReadReceipts(ctx, f, nil)
}

// receiptVerify runs tapis receipt verify FILE|- --key PUB: each receipt
// and head of the file (ledger.Read: one a line, as tapis receipt prints
// them; a seller's log as it is) checked offline against the house's
// public key, a line for each. Exit 0 when every one checks, 1 when one
// does not or the file holds none, naming its line; 2 for unusable
// arguments, a file that cannot be opened, or no --key.
func receiptVerify(env Env, args []string) int {
	const cmd = "receipt verify"
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	keyArg := fs.String("key", "", "the house's public `KEY`: ssh-ed25519 AAAA…, or the .pub file holding it (the log's first lines and the board print it)")
	pos, err := parse(env, fs, args)
	if err != nil {
		return fail(env, cmd, err)
	}
	switch {
	case len(pos) == 0:
		return fail(env, cmd, usagef("FILE (or - for standard input) is required: the receipts to check"))
	case len(pos) > 1:
		return fail(env, cmd, usagef("unexpected argument %q: receipt verify checks one file", text.Printable(pos[1])))
	case *keyArg == "":
		return fail(env, cmd, usagef("--key is required: the house's public key (ssh-ed25519 AAAA… or a .pub file)"))
	}
	key, err := ledger.ReadPublicKey(*keyArg)
	if err != nil {
		return fail(env, cmd, usagef("%v", err))
	}
	name := pos[0]
	var r io.Reader = env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(env, cmd, usagef("%v", err))
		}
		defer f.Close()
		if info, err := f.Stat(); err != nil {
			return fail(env, cmd, usagef("%v", err))
		} else if info.IsDir() {
			return fail(env, cmd, usagef("%s is a directory", text.Printable(name)))
		}
		r = f
	} else {
		name = "standard input"
	}
	toks, readErr := ledger.Read(r)
	out := bufio.NewWriter(env.Stdout)
	defer out.Flush()
	var failed []int // the lines of the tokens that do not check
	for i, j := 0, 0; i < len(toks.Receipts) || j < len(toks.Heads); {
		var line int
		verdict := "ok"
		if j == len(toks.Heads) || (i < len(toks.Receipts) && toks.ReceiptLines[i] < toks.HeadLines[j]) {
			rc := toks.Receipts[i]
			line = toks.ReceiptLines[i]
			if err := rc.Check(key); err != nil {
				verdict = text.Printable(err.Error())
			}
			fmt.Fprintf(out, "line %d: %s, stake %s, prize %s, account %s record %d: %s\n", line, text.Printable(rc.Unit),
				wallet.Format(rc.Stake, "en"), wallet.Format(rc.Prize, "en"), text.Printable(rc.Account), rc.Seq, verdict)
			i++
		} else {
			h := toks.Heads[j]
			line = toks.HeadLines[j]
			if h.Check(key) != nil {
				verdict = "its signature is not the house key's"
			}
			fmt.Fprintf(out, "line %d: head %d: %s\n", line, h.N, verdict)
			j++
		}
		if verdict != "ok" {
			failed = append(failed, line)
		}
	}
	total := len(toks.Receipts) + len(toks.Heads)
	switch {
	case readErr != nil:
		out.Flush()
		fmt.Fprintf(env.Stderr, "tapis %s: %s: %s (the %d receipts and heads before it are listed)\n", cmd, text.Printable(name),
			text.Printable(readErr.Error()), total)
		return ExitInvalid
	case len(failed) > 0:
		out.Flush()
		does := "does"
		if len(failed) > 1 {
			does = "do"
		}
		fmt.Fprintf(env.Stderr, "tapis %s: %s: %s %s not check against the house key %s (%d of %d)\n",
			cmd, text.Printable(name), linesOf(failed), does, key.Fingerprint(), len(failed), total)
		return ExitInvalid
	case total == 0:
		fmt.Fprintf(env.Stderr, "tapis %s: %s holds no receipt or head (one a line, as tapis receipt prints them)\n", cmd, text.Printable(name))
		return ExitInvalid
	}
	fmt.Fprintf(out, "ok: %s and %s, signed by the house key %s\n", count(len(toks.Receipts), "receipt"), count(len(toks.Heads), "head"), key.Fingerprint())
	return ExitOK
}

// linesOf names the lines at fault: the first few, and how many more.
func linesOf(lines []int) string {
	const shown = 5
	var b strings.Builder
	b.WriteString("line")
	if len(lines) > 1 {
		b.WriteString("s")
	}
	for i, l := range lines[:min(len(lines), shown)] {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", l)
	}
	if len(lines) > shown {
		fmt.Fprintf(&b, " and %d more", len(lines)-shown)
	}
	return b.String()
}
