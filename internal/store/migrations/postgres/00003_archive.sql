-- PostgreSQL: the twin of ../00003_archive.sql (same number, same tables).
-- The archive: imported games are stored beside the played ones,
-- and both are searched by player, date, result, ruleset and opening.
-- An account remembers the language it chose.

-- +goose Up
ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT ''; -- '' : none chosen (Accept-Language decides)

ALTER TABLE games ADD COLUMN source      TEXT   NOT NULL DEFAULT 'play'; -- 'play' (on this server) or 'import'
ALTER TABLE games ADD COLUMN import_hash TEXT;                           -- the canonical hash of an imported game; NULL for a played one
ALTER TABLE games ADD COLUMN imported_by TEXT   NOT NULL DEFAULT '';     -- who stored it ("u:<id>" or "a:<address>"), for the daily bound
ALTER TABLE games ADD COLUMN date_ms     BIGINT NOT NULL DEFAULT 0;      -- when it was played: created_ms, or the record's Date (0: unknown)
ALTER TABLE games ADD COLUMN white_key   TEXT   NOT NULL DEFAULT '';     -- lower-cased white_name, for the search by player
ALTER TABLE games ADD COLUMN black_key   TEXT   NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN opening     TEXT   NOT NULL DEFAULT '';     -- the first holes played, "7 3 2 " (each followed by a space), for the search by opening
ALTER TABLE games ADD COLUMN tags        TEXT   NOT NULL DEFAULT '';     -- an imported record's tags (JSON), given back by its export

UPDATE games SET date_ms = created_ms, white_key = lower(white_name), black_key = lower(black_name);
UPDATE games SET opening = COALESCE((SELECT string_agg(CAST(hole AS TEXT) || ' ', '' ORDER BY ply) FROM moves m
    WHERE m.game_id = games.id AND m.ply <= 20), '') WHERE status = 'ended';

CREATE UNIQUE INDEX games_import_hash ON games (import_hash);
CREATE INDEX games_imported_by ON games (imported_by, created_ms);
-- The archive's indexes hold only the finished games (partial indexes,
-- which PostgreSQL has too), and games_status gives way to two partial
-- indexes of the few games not finished: an index of every status would
-- otherwise serve the search's status = 'ended', a scan of every game.
DROP INDEX games_status;
CREATE INDEX games_created ON games (created_ms) WHERE status = 'created';
CREATE INDEX games_started ON games (created_ms) WHERE status = 'started';
-- Each ends with (date_ms, id), the search's order, so that a page is
-- read in order from the index without sorting what matches.
CREATE INDEX games_archive ON games (date_ms, id) WHERE status = 'ended';
CREATE INDEX games_white_key ON games (white_key, date_ms, id) WHERE status = 'ended';
CREATE INDEX games_black_key ON games (black_key, date_ms, id) WHERE status = 'ended';
CREATE INDEX games_white_date ON games (white_user_id, date_ms, id) WHERE status = 'ended';
CREATE INDEX games_black_date ON games (black_user_id, date_ms, id) WHERE status = 'ended';
CREATE INDEX games_result ON games (result, date_ms, id) WHERE status = 'ended';
CREATE INDEX games_rules ON games (rules, date_ms, id) WHERE status = 'ended';
CREATE INDEX games_opening ON games (opening) WHERE status = 'ended';

-- +goose Down
DROP INDEX games_rules;
DROP INDEX games_result;
DROP INDEX games_started;
DROP INDEX games_created;
CREATE INDEX games_status ON games (status);
DROP INDEX games_opening;
DROP INDEX games_black_date;
DROP INDEX games_white_date;
DROP INDEX games_black_key;
DROP INDEX games_white_key;
DROP INDEX games_archive;
DROP INDEX games_imported_by;
DROP INDEX games_import_hash;
ALTER TABLE games DROP COLUMN tags;
ALTER TABLE games DROP COLUMN opening;
ALTER TABLE games DROP COLUMN black_key;
ALTER TABLE games DROP COLUMN white_key;
ALTER TABLE games DROP COLUMN date_ms;
ALTER TABLE games DROP COLUMN imported_by;
ALTER TABLE games DROP COLUMN import_hash;
ALTER TABLE games DROP COLUMN source;
ALTER TABLE users DROP COLUMN lang;
