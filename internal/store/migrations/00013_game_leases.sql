-- Which server node owns each live game when several nodes share the store
-- (live.Hub with a bus, docs/architecture.md "Several nodes"). A node takes a
-- lease with a conditional write (free, expired, or already its own), renews
-- its leases every second or so and loses them when it stops renewing: the
-- next node to take an expired lease resumes the game, charging the clocks
-- until renewed_ms (the owner was last known to run then).

-- +goose Up
CREATE TABLE game_leases (
    game_id    TEXT   PRIMARY KEY,
    node       TEXT   NOT NULL,
    renewed_ms BIGINT NOT NULL, -- when the owner last took or renewed it
    expires_ms BIGINT NOT NULL  -- another node may take it from then on
);
CREATE INDEX game_leases_node ON game_leases (node);

-- +goose Down
DROP TABLE game_leases;
