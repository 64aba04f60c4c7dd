-- PostgreSQL: the twin of ../00014_secrets.sql (same number, same table).
-- Secrets every node of a site must share, made once by whichever node
-- needs one first: the key that signs guest tokens when several nodes share
-- the database.

-- +goose Up
CREATE TABLE secrets (
    name       TEXT   PRIMARY KEY,
    value      BYTEA  NOT NULL,
    created_ms BIGINT NOT NULL
);

-- +goose Down
DROP TABLE secrets;
