-- The leaders' messages to all members of a team (internal/team), kept
-- until every member is told: a worker tells the members in the order of
-- their ids, in batches, and records after each batch the last member
-- told (after_user), so that a restart goes on from there. lease_ms is
-- until when a worker holds the message (0: none); a worker that stopped
-- without finishing leaves it to be taken again once its lease is past.
-- The row is deleted once every member is told.

-- +goose Up
CREATE TABLE team_broadcasts (
    id          INTEGER PRIMARY KEY,
    team_id     TEXT    NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    team_name   TEXT    NOT NULL,
    sender_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sender_name TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    created_ms  BIGINT  NOT NULL,
    after_user  INTEGER NOT NULL DEFAULT 0,
    lease_ms    BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX team_broadcasts_lease ON team_broadcasts (lease_ms, id);

-- +goose Down
DROP TABLE team_broadcasts;
