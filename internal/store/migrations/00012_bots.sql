-- The bot and board API (docs/api.md, "Bot and board API"): personal access
-- tokens with their scopes, stored as the hex SHA-256 of the token (the token
-- itself is shown once, when made); an account upgraded to a bot, and its
-- opt-in to the computer ladder (/bots). Challenges live in memory, as seeks
-- do: a restart forgets them, never games.

-- +goose Up
ALTER TABLE users ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN ladder INTEGER NOT NULL DEFAULT 0;

CREATE TABLE tokens (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hash        TEXT    NOT NULL UNIQUE,
    description TEXT    NOT NULL,
    scopes      TEXT    NOT NULL, -- space-separated, as lichess writes them
    created_ms  BIGINT  NOT NULL,
    used_ms     BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX tokens_user ON tokens (user_id);
CREATE INDEX users_ladder ON users (ladder) WHERE ladder = 1;

-- +goose Down
DROP INDEX users_ladder;
DROP TABLE tokens;
ALTER TABLE users DROP COLUMN ladder;
ALTER TABLE users DROP COLUMN bot;
