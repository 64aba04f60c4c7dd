-- The first schema. Times are milliseconds since the Unix epoch (BIGINT),
-- durations milliseconds, booleans 0/1 integers, so that the same SQL runs on
-- PostgreSQL later.

-- +goose Up
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL UNIQUE, -- lower-cased name: names are unique regardless of case
    password_hash TEXT    NOT NULL,        -- argon2id PHC string
    created_ms    BIGINT  NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT    PRIMARY KEY, -- hex SHA-256 of the cookie's token; the token itself is never stored
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL,
    expires_ms BIGINT  NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_ms);

CREATE TABLE games (
    id            TEXT    PRIMARY KEY,
    -- Each side is a user, or a guest or engine named by *_name (and *_engine, the level).
    white_user_id INTEGER REFERENCES users (id),
    white_name    TEXT    NOT NULL DEFAULT '',
    white_engine  INTEGER NOT NULL DEFAULT 0,
    black_user_id INTEGER REFERENCES users (id),
    black_name    TEXT    NOT NULL DEFAULT '',
    black_engine  INTEGER NOT NULL DEFAULT 0,
    rules         TEXT    NOT NULL,
    start_fen     TEXT    NOT NULL DEFAULT '', -- '' is the start position of the rules
    time_control  TEXT    NOT NULL,            -- clock.TimeControl.String
    rated         INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL CHECK (status IN ('created', 'started', 'ended', 'aborted')),
    result        TEXT    NOT NULL DEFAULT '*',
    termination   TEXT    NOT NULL DEFAULT 'none',
    white_rating  INTEGER NOT NULL DEFAULT 0, -- ratings before a rated game and their changes
    white_diff    INTEGER NOT NULL DEFAULT 0,
    black_rating  INTEGER NOT NULL DEFAULT 0,
    black_diff    INTEGER NOT NULL DEFAULT 0,
    created_ms    BIGINT  NOT NULL,
    started_ms    BIGINT  NOT NULL DEFAULT 0,
    ended_ms      BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX games_white ON games (white_user_id, created_ms);
CREATE INDEX games_black ON games (black_user_id, created_ms);
CREATE INDEX games_status ON games (status);

-- The moves are the source of truth of a game: its position is replayed from them.
CREATE TABLE moves (
    game_id   TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    hole      INTEGER NOT NULL CHECK (hole BETWEEN 1 AND 9),
    played_ms BIGINT  NOT NULL,
    clock_ms  BIGINT  NOT NULL DEFAULT -1, -- the mover's time left after the move; -1 without clock
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE game_clocks (
    game_id  TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    white_ms BIGINT  NOT NULL,
    black_ms BIGINT  NOT NULL,
    turn     INTEGER NOT NULL, -- 0 White, 1 Black
    running  INTEGER NOT NULL,
    since_ms BIGINT  NOT NULL, -- when the running clock started
    stopped  INTEGER NOT NULL
);

CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    rd         REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_ms BIGINT  NOT NULL,
    PRIMARY KEY (user_id, category)
);
CREATE INDEX ratings_board ON ratings (category, rating);

CREATE TABLE rating_history (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT    NOT NULL,
    game_id    TEXT    REFERENCES games (id) ON DELETE SET NULL,
    rating     REAL    NOT NULL,
    rd         REAL    NOT NULL,
    volatility REAL    NOT NULL,
    at_ms      BIGINT  NOT NULL
);
CREATE INDEX rating_history_user ON rating_history (user_id, category, at_ms);

-- +goose Down
DROP TABLE rating_history;
DROP TABLE ratings;
DROP TABLE game_clocks;
DROP TABLE moves;
DROP TABLE games;
DROP TABLE sessions;
DROP TABLE users;
