-- PostgreSQL: the twin of ../00032_fairplay_deep.sql (same number, same columns).
-- The fair-play evidence's deeper search (internal/fairplay, docs/fairplay.md):
-- how many of a side's judged moves had the review's depth-10 best move,
-- and the share of those the side played. The row's score already counts
-- them; these are for the moderators reading it.

-- +goose Up
ALTER TABLE fairplay ADD COLUMN deep       INTEGER NOT NULL DEFAULT 0; -- judged moves with the deeper search's move
ALTER TABLE fairplay ADD COLUMN agree_deep REAL    NOT NULL DEFAULT 0; -- the share of those that were it

-- +goose Down
ALTER TABLE fairplay DROP COLUMN agree_deep;
ALTER TABLE fairplay DROP COLUMN deep;
