-- The opening explorer's tail: the query of a position read every
-- row of it (up to 9 moves × 6 categories × 10 bands × the months of data:
-- 9,049 rows for the start position of a million games), whatever the
-- filter, because the key led with the move. Two changes bound it:
--   - explorer is keyed (tree, pos, cat, band, month, move), so that a filter
--     seeks to each category and band it selects and reads only the months
--     of its range;
--   - explorer_sum holds the same sums over every month, keyed (tree, pos,
--     cat, band, move): a query without dates (the page's default) reads at
--     most 6 × 10 × 9 = 540 rows.
-- See internal/store/explorer.go.

-- +goose Up
CREATE TABLE explorer_new (
    tree       BIGINT  NOT NULL,
    pos        BIGINT  NOT NULL,
    cat        INTEGER NOT NULL,
    band       INTEGER NOT NULL,
    month      INTEGER NOT NULL,
    move       INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    white      INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    black      INTEGER NOT NULL,
    rating_sum BIGINT  NOT NULL,
    rated      INTEGER NOT NULL,
    top        TEXT    NOT NULL,
    last       TEXT    NOT NULL,
    PRIMARY KEY (tree, pos, cat, band, month, move)
) WITHOUT ROWID;
INSERT INTO explorer_new (tree, pos, cat, band, month, move, games, white, draws, black, rating_sum, rated, top, last)
    SELECT tree, pos, cat, band, month, move, games, white, draws, black, rating_sum, rated, top, last FROM explorer;
DROP TABLE explorer;
ALTER TABLE explorer_new RENAME TO explorer;

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
) WITHOUT ROWID;
INSERT INTO explorer_sum (tree, pos, cat, band, move, games, white, draws, black, rating_sum, rated, top, last)
    SELECT tree, pos, cat, band, move, SUM(games), SUM(white), SUM(draws), SUM(black), SUM(rating_sum), SUM(rated), MAX(top), MAX(last)
    FROM explorer GROUP BY tree, pos, cat, band, move;

-- +goose Down
DROP TABLE explorer_sum;
CREATE TABLE explorer_old (
    tree       BIGINT  NOT NULL,
    pos        BIGINT  NOT NULL,
    move       INTEGER NOT NULL,
    cat        INTEGER NOT NULL,
    band       INTEGER NOT NULL,
    month      INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    white      INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    black      INTEGER NOT NULL,
    rating_sum BIGINT  NOT NULL,
    rated      INTEGER NOT NULL,
    top        TEXT    NOT NULL,
    last       TEXT    NOT NULL,
    PRIMARY KEY (tree, pos, move, cat, band, month)
) WITHOUT ROWID;
INSERT INTO explorer_old (tree, pos, move, cat, band, month, games, white, draws, black, rating_sum, rated, top, last)
    SELECT tree, pos, move, cat, band, month, games, white, draws, black, rating_sum, rated, top, last FROM explorer;
DROP TABLE explorer;
ALTER TABLE explorer_old RENAME TO explorer;
