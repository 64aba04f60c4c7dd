-- Secrets every node of a site must share, made once by whichever node
-- needs one first: the key that signs guest tokens when several nodes share
-- a PostgreSQL database (a node's own file would make each node's guests
-- strangers to the others).

-- +goose Up
CREATE TABLE secrets (
    name       TEXT   PRIMARY KEY,
    value      BLOB   NOT NULL,
    created_ms BIGINT NOT NULL
);

-- +goose Down
DROP TABLE secrets;
