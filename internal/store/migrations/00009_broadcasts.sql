-- Broadcasts (internal/server/broadcast.go): an over-the-board event
-- relayed on the site by its broadcaster, round by round. A round keeps
-- the TRF it was uploaded with ('' when its games were entered by hand);
-- a game its board, players and result; its plies are the score sheet as
-- the arbiter entered it, one row a ply, each checked by the rules
-- library before it is stored. The server bounds the broadcasts of an
-- account, the games of a round and the plies of a game.

-- +goose Up
CREATE TABLE broadcasts (
    id         INTEGER PRIMARY KEY,
    owner_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    ruleset    TEXT    NOT NULL,
    rounds     INTEGER NOT NULL,
    created_ms BIGINT  NOT NULL
);
CREATE INDEX broadcasts_owner ON broadcasts (owner_id);

CREATE TABLE broadcast_rounds (
    broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    round        INTEGER NOT NULL,
    trf          TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (broadcast_id, round)
);

CREATE TABLE broadcast_games (
    id           INTEGER PRIMARY KEY,
    broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    round        INTEGER NOT NULL,
    board        INTEGER NOT NULL,
    white        TEXT    NOT NULL,
    black        TEXT    NOT NULL,
    result       TEXT    NOT NULL DEFAULT '',
    UNIQUE (broadcast_id, round, board)
);

CREATE TABLE broadcast_plies (
    game_id  INTEGER NOT NULL REFERENCES broadcast_games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL, -- 1, 2, …
    notation TEXT    NOT NULL, -- the score sheet's ply, e.g. 76 or 36x
    PRIMARY KEY (game_id, ply)
);

-- +goose Down
DROP TABLE broadcast_plies;
DROP TABLE broadcast_games;
DROP TABLE broadcast_rounds;
DROP TABLE broadcasts;
