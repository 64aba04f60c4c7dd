-- Game reviews: every game that ends on the server gets a review
-- job, and an imported game one on request; the review's workers take the
-- pending jobs, played games first, and store each review beside its job.
-- A job taken but not finished when the server stopped is pending again at
-- the next start (Store.ResumeReviews).

-- +goose Up
CREATE TABLE reviews (
    game_id      TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    priority     INTEGER NOT NULL,              -- 0: a game played here, 1: an imported game (reviewed after every played one)
    status       TEXT    NOT NULL,              -- pending, running, done or failed
    requested_by TEXT    NOT NULL DEFAULT '',   -- who asked for an imported game's review ("u:<id>" or "g:<name>"); '' for a played game
    queued_ms    BIGINT  NOT NULL,
    started_ms   BIGINT  NOT NULL DEFAULT 0,
    done_ms      BIGINT  NOT NULL DEFAULT 0,
    settings     TEXT    NOT NULL DEFAULT '',   -- the search of every ply, e.g. "depth 8"
    data         TEXT    NOT NULL DEFAULT ''    -- the review (JSON, package review), or why it failed
);
-- The queue: the pending jobs in the order the workers take them (the
-- rowid, which every index holds, orders the jobs of one millisecond).
CREATE INDEX reviews_queue ON reviews (priority, queued_ms) WHERE status = 'pending';
CREATE INDEX reviews_requested ON reviews (requested_by) WHERE status = 'pending';

-- +goose Down
DROP INDEX reviews_requested;
DROP INDEX reviews_queue;
DROP TABLE reviews;
