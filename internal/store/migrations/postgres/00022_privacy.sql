-- PostgreSQL: the twin of ../00022_privacy.sql (same number, same tables).
-- Privacy and safety, and leaving (internal/privacy): each account's
-- privacy settings and kid mode, the users it blocks, the closed accounts
-- and the data exports taken.
--
-- privacy_settings has a row only for an account that changed a setting
-- (no row: the defaults, everyone may). kid_locked_by is the coach whose
-- class locked kid mode on (0: the account's own choice). A closed account
-- keeps its users row, so that its name is never taken again; its games
-- name it by neutral_name from then on.

-- +goose Up
CREATE TABLE privacy_settings (
    user_id          BIGINT  NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    challenge        TEXT    NOT NULL DEFAULT 'everyone', -- everyone, rating, friends, nobody
    challenge_rating INTEGER NOT NULL DEFAULT 0,          -- the least rating of "rating"
    message          TEXT    NOT NULL DEFAULT 'everyone', -- everyone, friends, nobody
    follow           TEXT    NOT NULL DEFAULT 'everyone', -- everyone, nobody
    online           TEXT    NOT NULL DEFAULT 'everyone', -- everyone, friends, nobody
    kid              INTEGER NOT NULL DEFAULT 0,
    kid_locked_by    BIGINT  NOT NULL DEFAULT 0,
    updated_ms       BIGINT  NOT NULL
);

CREATE TABLE blocks (
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE, -- who blocks
    blocked_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);

CREATE TABLE closed_accounts (
    user_id      BIGINT  NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    neutral_name TEXT    NOT NULL UNIQUE,
    closed_ms    BIGINT  NOT NULL
);

CREATE TABLE data_exports (
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    started_ms BIGINT  NOT NULL
);
CREATE INDEX data_exports_user ON data_exports (user_id, started_ms);

-- +goose Down
DROP TABLE data_exports;
DROP TABLE closed_accounts;
DROP TABLE blocks;
DROP TABLE privacy_settings;
