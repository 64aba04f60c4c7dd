-- Moderation (internal/moderation): the moderators, the reports of games
-- and accounts (by players and by the detectors), each account's marks,
-- the moderators' notes, warnings, appeals, the audit log of every action,
-- and the consequences of a mark: the games voided and the rating points
-- refunded to the opponents (one row per game and opponent, so that a
-- refund is never applied twice).

-- +goose Up
CREATE TABLE moderators (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    granted_ms BIGINT  NOT NULL
);

CREATE TABLE mod_reports (
    id          INTEGER PRIMARY KEY,
    target_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL DEFAULT 0,  -- 0: a detector
    reason      TEXT    NOT NULL,            -- cheating, sandbagging, boosting, abuse, other
    note        TEXT    NOT NULL DEFAULT '',
    game_id     TEXT    NOT NULL DEFAULT '',
    addr        TEXT    NOT NULL DEFAULT '', -- the reporter's address key, for the bound per address
    weight      REAL    NOT NULL DEFAULT 1,
    open        INTEGER NOT NULL DEFAULT 1,
    created_ms  BIGINT  NOT NULL
);
CREATE INDEX mod_reports_open ON mod_reports (target_id, open);
CREATE INDEX mod_reports_reporter ON mod_reports (reporter_id, created_ms);
CREATE INDEX mod_reports_addr ON mod_reports (addr, created_ms);

-- One row per account a moderator or a detector has dealt with.
CREATE TABLE mod_accounts (
    user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    engine      INTEGER NOT NULL DEFAULT 0,
    booster     INTEGER NOT NULL DEFAULT 0,
    closed      INTEGER NOT NULL DEFAULT 0,
    muted       INTEGER NOT NULL DEFAULT 0,
    resolved_ms BIGINT  NOT NULL DEFAULT 0, -- reports before this were dealt with
    updated_ms  BIGINT  NOT NULL
);

-- The audit log: every moderator's action (who, what, on whom, when, why).
CREATE TABLE mod_actions (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mod_id     INTEGER NOT NULL DEFAULT 0, -- 0: the operator's command line or a detector
    action     TEXT    NOT NULL,
    reason     TEXT    NOT NULL DEFAULT '',
    created_ms BIGINT  NOT NULL
);
CREATE INDEX mod_actions_user ON mod_actions (user_id, created_ms);
CREATE INDEX mod_actions_created ON mod_actions (created_ms);

CREATE TABLE mod_notes (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mod_id     INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL
);
CREATE INDEX mod_notes_user ON mod_notes (user_id, created_ms);

CREATE TABLE mod_warnings (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    text       TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL,
    seen_ms    BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX mod_warnings_user ON mod_warnings (user_id, seen_ms);

-- An appeal: once per mark (the action that set it).
CREATE TABLE mod_appeals (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action_id  INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL,
    decision   TEXT    NOT NULL DEFAULT '', -- '', upheld or lifted
    mod_id     INTEGER NOT NULL DEFAULT 0,
    decided_ms BIGINT  NOT NULL DEFAULT 0,
    UNIQUE (user_id, action_id)
);

CREATE TABLE mod_voided (
    game_id    TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    created_ms BIGINT  NOT NULL
);

CREATE TABLE mod_refunds (
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   TEXT    NOT NULL,
    points     INTEGER NOT NULL,
    created_ms BIGINT  NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- +goose Down
DROP TABLE mod_refunds;
DROP TABLE mod_voided;
DROP TABLE mod_appeals;
DROP TABLE mod_warnings;
DROP TABLE mod_notes;
DROP TABLE mod_actions;
DROP TABLE mod_accounts;
DROP TABLE mod_reports;
DROP TABLE moderators;
