-- Events on the site (internal/events): tournaments with their entries,
-- rounds and pairings, their arbiters and the log of the arbiters' actions;
-- and the repetition rule of a game (an event's option, 0: off), which a
-- restarted server must apply to the event's games as before.
-- The settings are a JSON object that package events reads and writes; the
-- rows an event can grow by are bounded by its caps (players, rounds).

-- +goose Up
ALTER TABLE games ADD COLUMN repetition INTEGER NOT NULL DEFAULT 0;

CREATE TABLE events (
    id          TEXT    PRIMARY KEY,
    creator_id  INTEGER NOT NULL REFERENCES users (id),
    name        TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    settings    TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('upcoming', 'running', 'finished')),
    published   INTEGER NOT NULL DEFAULT 0, -- the results are shown up to this round
    created_ms  BIGINT  NOT NULL,
    start_ms    BIGINT  NOT NULL,
    ended_ms    BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX events_status ON events (status, start_ms);

CREATE TABLE event_arbiters (
    event_id TEXT    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users (id),
    PRIMARY KEY (event_id, user_id)
);

CREATE TABLE event_entries (
    event_id   TEXT    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    start_no   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    rating     INTEGER NOT NULL DEFAULT 0,
    birth_year INTEGER NOT NULL DEFAULT 0,
    sex        TEXT    NOT NULL DEFAULT '',
    withdrawn  INTEGER NOT NULL DEFAULT 0,
    paused     INTEGER NOT NULL DEFAULT 0, -- an arena's player not to be paired until he comes back
    joined_ms  BIGINT  NOT NULL,
    PRIMARY KEY (event_id, start_no),
    UNIQUE (event_id, user_id)
);

CREATE TABLE event_rounds (
    event_id  TEXT    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round     INTEGER NOT NULL,
    paired_ms BIGINT  NOT NULL,
    PRIMARY KEY (event_id, round)
);

-- One game of a round: start numbers, Black 0 for the bye; the result as
-- the arbiter types it (tournament.ParseResult), '' while it is played.
CREATE TABLE event_pairings (
    event_id  TEXT    NOT NULL,
    round     INTEGER NOT NULL,
    board     INTEGER NOT NULL,
    white     INTEGER NOT NULL,
    black     INTEGER NOT NULL,
    game_id   TEXT    NOT NULL DEFAULT '',
    result    TEXT    NOT NULL DEFAULT '',
    berserk   TEXT    NOT NULL DEFAULT '', -- an arena's: 'w', 'b', 'wb'
    PRIMARY KEY (event_id, round, board),
    FOREIGN KEY (event_id, round) REFERENCES event_rounds (event_id, round) ON DELETE CASCADE
);
CREATE INDEX event_pairings_game ON event_pairings (game_id);

CREATE TABLE event_log (
    id       INTEGER PRIMARY KEY,
    event_id TEXT    NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    at_ms    BIGINT  NOT NULL,
    user_id  INTEGER NOT NULL,
    action   TEXT    NOT NULL,
    detail   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX event_log_event ON event_log (event_id, id);

-- +goose Down
DROP TABLE event_log;
DROP TABLE event_pairings;
DROP TABLE event_rounds;
DROP TABLE event_entries;
DROP TABLE event_arbiters;
DROP TABLE events;
ALTER TABLE games DROP COLUMN repetition;
