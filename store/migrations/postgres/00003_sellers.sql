-- Schema version 3: who holds each account (sellers: the lock is the
-- engine's, this is for the seller it refuses); the units never shown of
-- sessions over are left (shown = 2), as sessions ending do now; the
-- indexes of an account's purchases by time (the loss limit's window) and
-- of the units being revealed (shown = 0).

-- +goose Up
CREATE TABLE sellers (
	account TEXT PRIMARY KEY,
	pid INTEGER NOT NULL,
	host TEXT NOT NULL,
	since BIGINT NOT NULL,
	token TEXT NOT NULL,
	seen BIGINT NOT NULL);

UPDATE purchases SET shown = 2 WHERE shown = 0;

CREATE INDEX purchases_at ON purchases (account, at);
CREATE INDEX purchases_revealing ON purchases (account, number) WHERE shown = 0;

UPDATE tapis_schema SET version = 3;
