package cli

import (
	"flag"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tapis/store"
	"tapis/text"
)

// maxOpenBlocks bounds --open-blocks: each block on sale costs a seller
// one byte a unit of memory (its draw order).
const maxOpenBlocks = 64

// checkStoreFlags checks --store, --account, --open-blocks and
// --house-key, which the game and simulate share: a store or a journal, an
// account and a count of blocks only with a store, the house's key only
// with one or the other.
func checkStoreFlags(fs *flag.FlagSet, url, journal string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := checkHouseKey(fs.Lookup("house-key")); err != nil {
		return err
	}
	if set["house-key"] && url == "" && journal == "" {
		return usagef("--house-key goes with --store or --journal: the house signs what they record")
	}
	if url == "" {
		for _, name := range []string{"account", "open-blocks"} {
			if set[name] {
				return usagef("--%s goes with --store: it names an account or blocks of a shared store", name)
			}
		}
		if set["store"] {
			return usagef("--store is empty: want sqlite:PATH, a path ending in .db, or postgres://…")
		}
		return nil
	}
	if journal != "" {
		return usagef("--store and --journal: a session keeps one of them")
	}
	if err := checkStoreURL(url); err != nil {
		return err
	}
	if f := fs.Lookup("account"); f != nil {
		if set["account"] && f.Value.String() == "" {
			return usagef("--account is empty: want 1 to 64 printable characters")
		}
		if err := checkAccount(f.Value.String()); err != nil {
			return err
		}
	}
	if f := fs.Lookup("open-blocks"); f != nil && set["open-blocks"] {
		if k, err := strconv.Atoi(f.Value.String()); err != nil || k < 1 || k > maxOpenBlocks {
			return usagef("--open-blocks %s: want 1 to %d", text.Printable(f.Value.String()), maxOpenBlocks)
		}
	}
	return nil
}

// checkHouseKey refuses an empty --house-key.
func checkHouseKey(f *flag.Flag) error {
	if f != nil && f.Value.String() == "" {
		return usagef("--house-key is empty: want a file")
	}
	return nil
}

// houseKeyUsage is what --house-key's help says, after where it is.
const houseKeyUsage = "the house's signing key `FILE` (ed25519, mode 0600; keep a copy, off the store's machine): made for a new store"

// checkAccount checks an account's name: empty for the default, else 1 to
// 64 printable characters.
func checkAccount(name string) error {
	if name == "" {
		return nil
	}
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > 64 || strings.TrimSpace(name) != name {
		return usagef("--account %s: want 1 to 64 printable characters, not starting or ending with a space", text.Printable(name))
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return usagef("--account %s: want 1 to 64 printable characters", text.Printable(name))
		}
	}
	return nil
}

// checkStoreURL refuses a --store that names no store tapis can open, in
// one line, a password in it hidden.
func checkStoreURL(url string) error {
	if !store.IsURL(url) {
		return usagef("--store %s: want sqlite:PATH, a path ending in .db, or postgres://…", text.Printable(store.Redact(url)))
	}
	return nil
}
