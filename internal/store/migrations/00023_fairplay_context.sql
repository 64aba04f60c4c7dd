-- The fair-play evidence's context: whether the game was rated (an account's
-- play compared between its rated and casual games) and how the time of its
-- judged moves followed their difficulty (internal/fairplay).

-- +goose Up
ALTER TABLE fairplay ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE fairplay ADD COLUMN timed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE fairplay ADD COLUMN time_corr REAL NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE fairplay DROP COLUMN time_corr;
ALTER TABLE fairplay DROP COLUMN timed;
ALTER TABLE fairplay DROP COLUMN rated;
