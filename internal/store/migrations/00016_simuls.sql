-- Simuls (internal/server/simul.go): one host against many on the site.
-- A simul keeps its settings, its host's seat and its participants' seats
-- in the order they joined (n = 1, 2, …), each with the id of his live
-- game once the host has started it (the games themselves are stored as
-- every live game is). A seat's id is live.Seat's ("u:<id>" or
-- "g:<guest id>"), so that guests' simuls survive a restart as well. The
-- server writes each change through and deletes a simul when it expires
-- (simulKeep), and bounds their number (maxSimuls, maxSimulsPerHost) and
-- their participants (maxSimulPlayers).

-- +goose Up
CREATE TABLE simuls (
    id           TEXT    PRIMARY KEY,
    host_seat    TEXT    NOT NULL,
    host_user_id BIGINT  NOT NULL DEFAULT 0, -- 0 for a guest
    host_name    TEXT    NOT NULL,
    host_guest   INTEGER NOT NULL DEFAULT 0,
    host_rating  INTEGER NOT NULL DEFAULT 0,
    ruleset      TEXT    NOT NULL,
    tc           TEXT    NOT NULL, -- as clock.TimeControl writes it, "-" for none
    max_players  INTEGER NOT NULL,
    host_white   INTEGER NOT NULL,
    rated        INTEGER NOT NULL DEFAULT 0,
    started      INTEGER NOT NULL DEFAULT 0,
    created_ms   BIGINT  NOT NULL
);
CREATE INDEX simuls_created ON simuls (created_ms);

CREATE TABLE simul_players (
    simul_id TEXT    NOT NULL REFERENCES simuls (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL, -- the board, in the order of joining
    seat     TEXT    NOT NULL,
    user_id  BIGINT  NOT NULL DEFAULT 0,
    name     TEXT    NOT NULL,
    guest    INTEGER NOT NULL DEFAULT 0,
    rating   INTEGER NOT NULL DEFAULT 0,
    game_id  TEXT    NOT NULL DEFAULT '', -- '' until the simul starts
    PRIMARY KEY (simul_id, n),
    UNIQUE (simul_id, seat)
);

-- +goose Down
DROP TABLE simul_players;
DROP TABLE simuls;
