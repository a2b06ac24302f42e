-- Schema version 4: the emission of format 2 (256-bit seeds, HMAC-derived
-- block seeds, commitments bound to their block) and its tamper-evident
-- history. The emission is sealed (its seal signs its format, the
-- commitment of its master seed, its tables, QA or house, its open blocks,
-- when it was made and the house's public key). Each account's deposits
-- and purchases are a chain (seq, hash; the account keeps its last) and
-- each is signed, as is each mark of a unit shown or left and each block
-- opened or closed. Heads, signed every few seconds by each seller, chain
-- what the sellers recorded.
--
-- A store holding an emission of an older format is never migrated: its
-- first seller refuses it (see store/schema.go); this runs on new stores.

-- +goose Up
ALTER TABLE emission ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
ALTER TABLE emission ADD COLUMN commitment TEXT;
ALTER TABLE emission ADD COLUMN house_key TEXT;
ALTER TABLE emission ADD COLUMN sealed TEXT;
ALTER TABLE emission ADD COLUMN seal BLOB;

ALTER TABLE accounts ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN head BLOB;

ALTER TABLE deposits ADD COLUMN seq BIGINT;
ALTER TABLE deposits ADD COLUMN hash BLOB;
ALTER TABLE deposits ADD COLUMN sig BLOB;

ALTER TABLE purchases ADD COLUMN seq BIGINT;
ALTER TABLE purchases ADD COLUMN prev BLOB;
ALTER TABLE purchases ADD COLUMN hash BLOB;
ALTER TABLE purchases ADD COLUMN sig BLOB;
ALTER TABLE purchases ADD COLUMN shown_sig BLOB;

ALTER TABLE blocks ADD COLUMN opened_sig BLOB;
ALTER TABLE blocks ADD COLUMN closed_sig BLOB;

CREATE TABLE heads (
	n BIGINT PRIMARY KEY,
	prev BLOB NOT NULL,
	hash BLOB NOT NULL,
	sig BLOB NOT NULL,
	seller TEXT NOT NULL,
	at BIGINT NOT NULL,
	body TEXT NOT NULL);

UPDATE tapis_schema SET version = 4;
