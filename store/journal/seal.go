package journal

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"tapis/game"
	"tapis/ledger"
)

// FormatError is a journal of another format than this tapis's, refused
// unread: it is no Problem to list (verify says the same one line).
type FormatError struct {
	Version int // the format its start record names
}

// Error writes "line 1: journal format N, …", as verify says it.
func (e *FormatError) Error() string { return "line 1: " + oldFormat(e.Version) }

// oldFormat says what a journal of another format than this tapis's is,
// and that this tapis neither sells from it nor checks it: the same seed
// deals other units in each.
func oldFormat(v int) string {
	if v > Version {
		return fmt.Sprintf("journal format %d, written by a newer tapis: this tapis reads format %d only; open or verify it with the tapis that wrote it", v, Version)
	}
	return fmt.Sprintf("journal format %d, written by an older tapis (64-bit seeds, which deal otherwise, and nothing signed): this tapis neither sells from it nor checks it; open or verify it with the tapis that wrote it", v)
}

// checkSeal reads the start record's seal and checks it: signed by the key
// sealed in it, of this tapis's format, committing to the journal's seed,
// holding the lot tables it is checked against, one block open a sequence,
// made when the start record was. It returns the hash the start record
// follows: the account's genesis, or its own Prev once the seal was named
// (a seal changed changes the genesis: that is said once).
func (st *state) checkSeal(l Line, seed game.Seed) ledger.Hash {
	r := l.Record
	var seal ledger.Seal
	if len(r.Seal) == 0 || json.Unmarshal(r.Seal, &seal) != nil {
		st.bad(l.N, "the start record holds no seal that reads: no signature in the journal can be checked")
		return ledger.Hash{}
	}
	st.seal, st.sealHash, st.qa = seal, seal.Hash(), seal.QA
	st.links.key = seal.Key
	st.genesis = ledger.Genesis(st.sealHash, r.Account)
	want := st.genesis
	if sig, ok := parseSig([]byte(r.SealSig)); !ok || !seal.Key.Verify(st.sealHash, sig) {
		st.bad(l.N, "the seal is not signed by the key sealed in it: the seal was changed after it was signed")
		want, _, _, _ = l.links()
	}
	if seal.Format != ledger.Format {
		st.bad(l.N, "the seal is of format %d, this tapis seals format %d", seal.Format, ledger.Format)
	}
	if st.seeded && seed.Commitment() != seal.Commitment {
		st.bad(l.N, "the master seed is not the one the seal commits to: the seed was changed")
	}
	switch {
	case st.tablesErr != nil:
		st.bad(l.N, "the lot tables it is checked against: %v", st.tablesErr)
	case seal.Tables != st.sealed:
		st.bad(l.N, "the lot tables sealed are not the ones the journal is checked against")
	}
	if seal.OpenBlocks != 1 {
		st.bad(l.N, "the seal opens %d blocks of each sequence side by side: a journal sells from one", seal.OpenBlocks)
	}
	if seal.Created != r.Time.UnixNano() {
		st.bad(l.N, "the start record's time %s is not the one sealed (%s)", r.Time.Format(time.RFC3339Nano), time.Unix(0, seal.Created).UTC().Format(time.RFC3339Nano))
	}
	return want
}

// parseHash reads a hash as ledger.Hash.String writes it, 64 hexadecimal
// digits, without allocating.
func parseHash(s []byte) (ledger.Hash, bool) {
	var h ledger.Hash
	return h, decodeHex(h[:], s)
}

// parseSig reads a signature as ledger.Sig.String writes it.
func parseSig(s []byte) (ledger.Sig, bool) {
	var sig ledger.Sig
	return sig, decodeHex(sig[:], s)
}

// decodeHex decodes s, hexadecimal digits, into all of dst.
func decodeHex(dst []byte, s []byte) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	n, err := hex.Decode(dst, s)
	return err == nil && n == len(dst)
}
