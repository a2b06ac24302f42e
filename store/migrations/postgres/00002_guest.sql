-- Schema version 2: the store says which accounts are guests (serve's
-- keyless players), kept only once they bought.

-- +goose Up
ALTER TABLE accounts ADD COLUMN guest INTEGER NOT NULL DEFAULT 0;
UPDATE tapis_schema SET version = 2;
