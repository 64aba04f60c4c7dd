-- Puzzles (internal/puzzle): each puzzle's Glicko-2 rating, each account's
-- puzzle rating (separate from its game ratings), and every rated attempt.
-- A puzzle's row is made at its first attempt, from the puzzle's initial
-- rating; guests are not rated and leave no rows.

-- +goose Up
CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT   PRIMARY KEY,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   BIGINT NOT NULL DEFAULT 0,
    solved     BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE puzzle_players (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   BIGINT NOT NULL DEFAULT 0,
    solved     BIGINT NOT NULL DEFAULT 0,
    last_ms    BIGINT NOT NULL
);

CREATE TABLE puzzle_attempts (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    puzzle_id  TEXT    NOT NULL,
    solved     INTEGER NOT NULL,
    at_ms      BIGINT  NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL
);
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, at_ms);

-- +goose Down
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_players;
DROP TABLE puzzle_ratings;
