-- Schema version 1: the emission, its blocks, the accounts, their deposits
-- and purchases, and the players each tapis serve has connected (for the
-- board). Amounts are in cents, times in nanoseconds since 1970 (UTC).
--
-- tapis_schema says the version to the tapis before goose (they read
-- nothing else); each migration keeps it.
--
-- tapis never migrates a store down: no migration has a Down.

-- +goose Up
CREATE TABLE tapis_schema (version INTEGER NOT NULL);
INSERT INTO tapis_schema (version) VALUES (1);

CREATE TABLE emission (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	seed TEXT NOT NULL,
	open_blocks INTEGER NOT NULL,
	qa INTEGER NOT NULL DEFAULT 0,
	tables TEXT NOT NULL,
	created BIGINT NOT NULL);

CREATE TABLE blocks (
	game TEXT NOT NULL,
	stake TEXT NOT NULL,
	number BIGINT NOT NULL,
	units BIGINT NOT NULL,
	sold BIGINT NOT NULL DEFAULT 0,
	commitment TEXT NOT NULL,
	seed TEXT,
	opened BIGINT NOT NULL,
	closed BIGINT,
	PRIMARY KEY (game, stake, number));

CREATE TABLE accounts (
	name TEXT PRIMARY KEY,
	balance BIGINT NOT NULL,
	deposited BIGINT NOT NULL,
	purchases INTEGER NOT NULL DEFAULT 0,
	deposits INTEGER NOT NULL DEFAULT 0,
	created BIGINT NOT NULL);

CREATE TABLE deposits (
	account TEXT NOT NULL REFERENCES accounts (name),
	n INTEGER NOT NULL,
	amount BIGINT NOT NULL,
	after_purchase INTEGER NOT NULL,
	at BIGINT NOT NULL,
	PRIMARY KEY (account, n));

CREATE TABLE purchases (
	account TEXT NOT NULL REFERENCES accounts (name),
	number INTEGER NOT NULL,
	game TEXT NOT NULL,
	stake TEXT NOT NULL,
	block BIGINT,
	serial BIGINT NOT NULL,
	label TEXT,
	unit TEXT NOT NULL,
	tier INTEGER NOT NULL,
	stake_cents BIGINT NOT NULL,
	prize BIGINT NOT NULL,
	before_cents BIGINT NOT NULL,
	after_cents BIGINT NOT NULL,
	layout TEXT NOT NULL,
	at BIGINT NOT NULL,
	shown INTEGER NOT NULL DEFAULT 0,
	attempt TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (account, number));

CREATE UNIQUE INDEX purchases_serial ON purchases (game, stake, block, serial) WHERE block IS NOT NULL;

CREATE TABLE servers (
	id TEXT PRIMARY KEY,
	players INTEGER NOT NULL,
	seen BIGINT NOT NULL);
