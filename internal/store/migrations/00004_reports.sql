-- Reports of chat messages (the report button): who reported whom, for
-- which message, in which game's room or the lobby's, and when. An admin
-- lists them with `toguz reports` (Store.Reports).

-- +goose Up
CREATE TABLE reports (
    id         INTEGER PRIMARY KEY,
    reporter   TEXT    NOT NULL, -- the reporter's identity: u:<user id> or g:<guest name>
    reporter_name TEXT NOT NULL,
    reported   TEXT    NOT NULL, -- the name shown with the message
    game_id    TEXT    NOT NULL DEFAULT '', -- '' for the lobby's room
    room       TEXT    NOT NULL,             -- players, spectators or lobby
    message    TEXT    NOT NULL,
    verified   INTEGER NOT NULL DEFAULT 0, -- 1: the message was among the room's recent ones when reported
    created_ms BIGINT  NOT NULL
);
CREATE INDEX reports_created ON reports (created_ms);

-- +goose Down
DROP TABLE reports;
