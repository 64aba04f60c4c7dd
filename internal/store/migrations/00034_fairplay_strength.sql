-- The fair-play evidence's strength test (internal/fairplay, docs/fairplay.md):
-- the z-score of "played like a stronger player than the rating", beside
-- the score. A side is flagged when either reaches the threshold; a row
-- judged before the test keeps 0 (no evidence either way).

-- +goose Up
ALTER TABLE fairplay ADD COLUMN strength REAL NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE fairplay DROP COLUMN strength;
