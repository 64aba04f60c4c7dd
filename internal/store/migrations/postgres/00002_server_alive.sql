-- PostgreSQL: the twin of ../00002_server_alive.sql (same number, same tables).
-- When the server last ran, so that a restart charges the clocks the time
-- used before it stopped and forgives only the downtime (see live.Hub.Resume).

-- +goose Up
CREATE TABLE server_alive (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    at_ms BIGINT  NOT NULL -- the last heartbeat, or the instant of a clean stop
);

-- +goose Down
DROP TABLE server_alive;
