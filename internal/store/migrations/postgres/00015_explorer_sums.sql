-- PostgreSQL: the twin of ../00015_explorer_sums.sql (same number, same
-- tables): explorer keyed (tree, pos, cat, band, month, move), so that a
-- filter seeks to each category and band it selects, and explorer_sum, the
-- same sums over every month, for the queries without dates.

-- +goose Up
ALTER TABLE explorer DROP CONSTRAINT explorer_pkey;
ALTER TABLE explorer ADD PRIMARY KEY (tree, pos, cat, band, month, move);

CREATE TABLE explorer_sum (
    tree       BIGINT  NOT NULL,
    pos        BIGINT  NOT NULL,
    cat        INTEGER NOT NULL,
    band       INTEGER NOT NULL,
    move       INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    white      INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    black      INTEGER NOT NULL,
    rating_sum BIGINT  NOT NULL,
    rated      INTEGER NOT NULL,
    top        TEXT    NOT NULL,
    last       TEXT    NOT NULL,
    PRIMARY KEY (tree, pos, cat, band, move)
);
INSERT INTO explorer_sum (tree, pos, cat, band, move, games, white, draws, black, rating_sum, rated, top, last)
    SELECT tree, pos, cat, band, move, SUM(games), SUM(white), SUM(draws), SUM(black), SUM(rating_sum), SUM(rated), MAX(top), MAX(last)
    FROM explorer GROUP BY tree, pos, cat, band, move;

-- +goose Down
DROP TABLE explorer_sum;
ALTER TABLE explorer DROP CONSTRAINT explorer_pkey;
ALTER TABLE explorer ADD PRIMARY KEY (tree, pos, move, cat, band, month);
