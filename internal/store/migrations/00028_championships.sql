-- Events with sections (internal/sections): a championship of several
-- sections and disciplines, each section an over-the-board Swiss or round
-- robin run from the arbiter's desk.
--
-- A championship is one aggregate written whole: doc is its JSON (the
-- settings, the register entries it took, each section's TRF-16 text, the
-- corrections' log, the reports submitted). version counts the writes: a
-- write names the version it read and fails if another came between.

-- +goose Up
CREATE TABLE championships (
    id         TEXT    NOT NULL PRIMARY KEY,
    creator    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    status     TEXT    NOT NULL, -- upcoming, running, finished
    version    INTEGER NOT NULL,
    doc        TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL,
    updated_ms BIGINT  NOT NULL
);
CREATE INDEX championships_created ON championships (created_ms);

-- +goose Down
DROP TABLE championships;
