-- Schema version 5: what the stand's host set for every server of the
-- store (ssh HOST pause, resume, announce): one row, the latest change
-- (changed, by the store's clock, in nanoseconds), which every server
-- reads with its presence and follows.

-- +goose Up
CREATE TABLE stand (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	paused INTEGER NOT NULL,
	announce TEXT NOT NULL,
	until BIGINT NOT NULL,
	changed BIGINT NOT NULL);

UPDATE tapis_schema SET version = 5;
