package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"tapis/game"
	"tapis/ledger"
)

// emissionRow is the emission as its row holds it, sealed copy and seal
// included.
type emissionRow struct {
	seed       string
	open, qa   int
	tables     string
	created    int64
	format     int
	commitment sql.NullString
	houseKey   sql.NullString
	sealed     sql.NullString
	seal       []byte
}

const selectEmission = `SELECT seed, open_blocks, qa, tables, created, format, commitment, house_key, sealed, seal FROM emission WHERE id = 1`

// same reports whether two rows of the emission are the same, field by
// field (a field added to the row is compared here too).
func (r emissionRow) same(o emissionRow) bool {
	return r.seed == o.seed && r.open == o.open && r.qa == o.qa && r.tables == o.tables && r.created == o.created &&
		r.format == o.format && r.commitment == o.commitment && r.houseKey == o.houseKey && r.sealed == o.sealed &&
		bytes.Equal(r.seal, o.seal)
}

func (r *emissionRow) scan(row scanner) error {
	return row.Scan(&r.seed, &r.open, &r.qa, &r.tables, &r.created, &r.format, &r.commitment, &r.houseKey, &r.sealed, &r.seal)
}

// sealOf returns the seal of a new emission.
func sealOf(e *Emission, tables string, key ledger.PublicKey) ledger.Seal {
	return ledger.Seal{Format: ledger.Format, Commitment: e.seed.Commitment(), Tables: tables, QA: e.QA,
		OpenBlocks: e.OpenBlocks, Created: e.Created.UnixNano(), Key: key}
}

// sealProblems names what of the emission's row differs from its signed
// copy, or breaks its seal: each column the seal fixes is compared with
// the copy, the copy with its signature, the master seed with the
// commitment sealed. want, when valid, is the house's key as the seller or
// the auditor knows it: a store sealed by another key is named. It returns
// the sealed copy as it reads.
func (r emissionRow) sealProblems(seed game.Seed, want ledger.PublicKey) (ledger.Seal, []string) {
	var out []string
	var seal ledger.Seal
	if !r.sealed.Valid || json.Unmarshal([]byte(r.sealed.String), &seal) != nil {
		return seal, []string{"the emission's sealed copy is missing or does not read: the emission cannot be checked"}
	}
	var sig ledger.Sig
	if len(r.seal) != len(sig) {
		out = append(out, "the emission's seal is missing or not a signature")
	} else if copy(sig[:], r.seal); !seal.Key.Verify(seal.Hash(), sig) {
		out = append(out, "the emission's seal is not its sealed copy's signature by the key sealed with it: the sealed copy was changed")
	}
	if want.Valid() && !want.Equal(seal.Key) {
		out = append(out, fmt.Sprintf("the emission was sealed by the key %s, not the house's %s", seal.Key.Fingerprint(), want.Fingerprint()))
	}
	differs := func(what, now, sealed string) {
		out = append(out, fmt.Sprintf("the emission's %s is %s, sealed as %s: changed after it was sealed", what, now, sealed))
	}
	if r.format != seal.Format {
		differs("format", strconv.Itoa(r.format), strconv.Itoa(seal.Format))
	}
	if r.tables != seal.Tables {
		out = append(out, "the emission's lot tables are not the ones sealed: changed after it was sealed")
	}
	if (r.qa != 0) != seal.QA {
		differs("QA flag", strconv.Itoa(r.qa), map[bool]string{true: "1 (a QA emission)", false: "0 (the house's)"}[seal.QA])
	}
	if r.open != seal.OpenBlocks {
		differs("open blocks", strconv.Itoa(r.open), strconv.Itoa(seal.OpenBlocks))
	}
	if r.created != seal.Created {
		differs("creation time", strconv.FormatInt(r.created, 10), strconv.FormatInt(seal.Created, 10))
	}
	sealedCommitment := hex.EncodeToString(seal.Commitment[:])
	if r.commitment.String != sealedCommitment {
		out = append(out, "the emission's seed commitment is not the one sealed: changed after it was sealed")
	}
	if c := seed.Commitment(); c != seal.Commitment {
		out = append(out, "the emission's master seed is not the one its seal commits to: the seed was changed")
	}
	if k, err := ledger.ParsePublicKey(r.houseKey.String); err != nil || !k.Equal(seal.Key) {
		out = append(out, "the emission's house key is not the one sealed: changed after it was sealed")
	}
	return seal, out
}

// sealedCopy returns the emission's sealed copy, and whether it is intact:
// it reads, and its seal is its signature by the key sealed with it. An
// intact copy says what the emission was made with, whatever its columns
// say now.
func (r emissionRow) sealedCopy() (ledger.Seal, bool) {
	var seal ledger.Seal
	var sig ledger.Sig
	if !r.sealed.Valid || json.Unmarshal([]byte(r.sealed.String), &seal) != nil || len(r.seal) != len(sig) {
		return seal, false
	}
	copy(sig[:], r.seal)
	return seal, seal.Key.Verify(seal.Hash(), sig)
}

// houseKey returns the key a seller signs with: the one given, or the
// one in the key file (made there for a new emission when create is set).
func houseKey(o Options, create bool) (ledger.Key, error) {
	k, err := ledger.Resolve(o.Key, o.KeyFile, create)
	if errors.Is(err, ledger.ErrNoKey) {
		return k, errors.New("a seller needs the house's key (--house-key FILE)")
	}
	return k, err
}

// readEmission reads the emission's row.
func readEmission(ctx context.Context, r runner) (emissionRow, error) {
	var row emissionRow
	err := row.scan(r.row(ctx, selectEmission))
	return row, err
}
