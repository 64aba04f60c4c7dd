-- The fair-play evidence: one row per side of a game the detector judged
-- (internal/fairplay; game.FairPlay). Written by the review workers after a
-- rated game's review, read by the moderators' queue and pages; never shown
-- to the player it is about.

-- +goose Up
CREATE TABLE fairplay (
    game_id     TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side        TEXT    NOT NULL,             -- white or black
    user_id     BIGINT  NOT NULL DEFAULT 0,   -- 0: a guest or the engine
    rating      INTEGER NOT NULL DEFAULT 0,   -- the player's rating before the game
    moves       INTEGER NOT NULL,             -- the moves judged
    agree1      REAL    NOT NULL,
    agree3      REAL    NOT NULL,
    mean_loss   REAL    NOT NULL,
    score       REAL    NOT NULL,    -- z-score against the expected for the rating
    ipr         INTEGER NOT NULL,
    flag        INTEGER NOT NULL DEFAULT 0,   -- 1: flagged at the model's default threshold
    computed_ms BIGINT  NOT NULL,
    PRIMARY KEY (game_id, side)
);
CREATE INDEX fairplay_user ON fairplay (user_id, computed_ms);
CREATE INDEX fairplay_flagged ON fairplay (computed_ms) WHERE flag = 1;

-- +goose Down
DROP INDEX fairplay_flagged;
DROP INDEX fairplay_user;
DROP TABLE fairplay;
