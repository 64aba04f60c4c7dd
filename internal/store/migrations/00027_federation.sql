-- The federations' register (internal/federation): federations and their
-- configuration (the ranks and the norms that earn them, the rating
-- regulations), their officers, clubs, players with their ranks, the
-- events' reports and the published rating lists.
--
-- A published list (fed_lists and its fed_list_entries) never changes:
-- the next list is computed from the reports, a corrected report
-- replacing its earlier version, so that corrections reach the next list.
-- Dates are ISO days (YYYY-MM-DD); a list's date is the first of a month.

-- +goose Up
CREATE TABLE fed_federations (
    code       TEXT    NOT NULL PRIMARY KEY,  -- "KAZ", "KGZ", "WTKF", "KAZ-KZO"
    level      TEXT    NOT NULL,              -- world, national, regional
    parent     TEXT    NOT NULL DEFAULT '',   -- the code of the body above, "" none
    names      TEXT    NOT NULL,              -- JSON: language → name
    founded    INTEGER NOT NULL DEFAULT 0,    -- the year, 0 unknown
    ranks      TEXT    NOT NULL DEFAULT '',   -- JSON: the ranks and norms ("" the defaults)
    rules      TEXT    NOT NULL DEFAULT '',   -- JSON: the rating regulations ("" FIDE's)
    created_ms BIGINT  NOT NULL
);

CREATE TABLE fed_officers (
    federation TEXT    NOT NULL REFERENCES fed_federations (code) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    granted_ms BIGINT  NOT NULL,
    PRIMARY KEY (federation, user_id)
);
CREATE INDEX fed_officers_user ON fed_officers (user_id);

CREATE TABLE fed_clubs (
    federation TEXT NOT NULL REFERENCES fed_federations (code) ON DELETE CASCADE,
    code       TEXT NOT NULL,
    name       TEXT NOT NULL,
    city       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (federation, code)
);

CREATE TABLE fed_players (
    id         TEXT    NOT NULL PRIMARY KEY,  -- the federation id, never reused
    federation TEXT    NOT NULL REFERENCES fed_federations (code),
    name_cyrl  TEXT    NOT NULL,
    name_latn  TEXT    NOT NULL,
    birth_year INTEGER NOT NULL DEFAULT 0,
    sex        TEXT    NOT NULL,              -- m, f
    club       TEXT    NOT NULL DEFAULT '',
    title      TEXT    NOT NULL DEFAULT '',   -- an international title's code
    user_id    INTEGER NOT NULL DEFAULT 0,    -- the linked site account, 0 none
    created_ms BIGINT  NOT NULL
);
CREATE INDEX fed_players_federation ON fed_players (federation, name_latn);
CREATE UNIQUE INDEX fed_players_user ON fed_players (user_id) WHERE user_id <> 0;

CREATE TABLE fed_player_ranks (
    player  TEXT NOT NULL REFERENCES fed_players (id) ON DELETE CASCADE,
    rank    TEXT NOT NULL,                    -- a code of the federation's ranks
    awarded TEXT NOT NULL,                    -- the day it was awarded
    event   TEXT NOT NULL DEFAULT '',         -- the event that earned it
    PRIMARY KEY (player, rank)
);

CREATE TABLE fed_claims (
    player     TEXT    NOT NULL REFERENCES fed_players (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL,
    PRIMARY KEY (player, user_id)
);
CREATE INDEX fed_claims_user ON fed_claims (user_id);

CREATE TABLE fed_reports (
    federation   TEXT    NOT NULL REFERENCES fed_federations (code),
    event        TEXT    NOT NULL,
    discipline   TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    start_day    TEXT    NOT NULL,
    end_day      TEXT    NOT NULL,
    arbiter      BIGINT  NOT NULL DEFAULT 0,
    games        TEXT    NOT NULL,            -- JSON: the games by federation ids
    version      INTEGER NOT NULL DEFAULT 1,  -- 2 and up: corrected
    submitted_ms BIGINT  NOT NULL,
    PRIMARY KEY (federation, event, discipline)
);
CREATE INDEX fed_reports_end ON fed_reports (federation, discipline, end_day);

CREATE TABLE fed_lists (
    federation   TEXT    NOT NULL REFERENCES fed_federations (code),
    discipline   TEXT    NOT NULL,
    day          TEXT    NOT NULL,
    imported     INTEGER NOT NULL DEFAULT 0,  -- 1: imported, the base the next lists start from
    published_ms BIGINT  NOT NULL,
    PRIMARY KEY (federation, discipline, day)
);

CREATE TABLE fed_list_entries (
    federation  TEXT    NOT NULL,
    discipline  TEXT    NOT NULL,
    day         TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    rating      INTEGER NOT NULL,
    change      INTEGER NOT NULL DEFAULT 0,   -- since the list before
    period      INTEGER NOT NULL DEFAULT 0,   -- rated games in the period
    games       INTEGER NOT NULL DEFAULT 0,   -- rated games in all
    k           INTEGER NOT NULL DEFAULT 0,   -- the K of the next period
    reached     INTEGER NOT NULL DEFAULT 0,   -- 1: the rating has reached the top K's threshold
    PRIMARY KEY (federation, discipline, day, player),
    FOREIGN KEY (federation, discipline, day) REFERENCES fed_lists (federation, discipline, day) ON DELETE CASCADE
);
CREATE INDEX fed_list_entries_player ON fed_list_entries (player, discipline, day);

-- +goose Down
DROP TABLE fed_list_entries;
DROP TABLE fed_lists;
DROP TABLE fed_reports;
DROP TABLE fed_claims;
DROP TABLE fed_player_ranks;
DROP TABLE fed_players;
DROP TABLE fed_clubs;
DROP TABLE fed_officers;
DROP TABLE fed_federations;
