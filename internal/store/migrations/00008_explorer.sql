-- The opening explorer: the moves played from each position of
-- the first plies (explorer.MaxPly) of the finished games, summed per
-- bucket (time-control category, rating band, month) so that a query
-- reads a few rows per move instead of a row per game. See
-- internal/store/explorer.go.

-- +goose Up
CREATE TABLE explorer (
    tree       BIGINT  NOT NULL, -- 0: the site's games; 2*user_id + colour (0 White, 1 Black): one player's games as that colour
    pos        BIGINT  NOT NULL, -- toguz.Position.Key() of the position (it covers the ruleset), as a signed 64-bit integer
    move       INTEGER NOT NULL, -- the hole played from it, 1..9
    cat        INTEGER NOT NULL, -- explorer.CatCode: 0 none (imported, untimed), 1 + rating.Category
    band       INTEGER NOT NULL, -- explorer.Band of the players' average rating before the game (0: none)
    month      INTEGER NOT NULL, -- explorer.Month of the game's date, year*12 + month-1 (0: unknown)
    games      INTEGER NOT NULL,
    white      INTEGER NOT NULL, -- White's wins
    draws      INTEGER NOT NULL,
    black      INTEGER NOT NULL, -- Black's wins
    rating_sum BIGINT  NOT NULL, -- the sum of the average ratings of the rated games
    rated      INTEGER NOT NULL, -- how many of the games had ratings
    top        TEXT    NOT NULL, -- the highest rated game (explorer.Ref.TopKey: its greatest value wins)
    last       TEXT    NOT NULL, -- the most recent game (explorer.Ref.LastKey)
    PRIMARY KEY (tree, pos, move, cat, band, month)
) WITHOUT ROWID;

-- The finished games not yet in the tree: the games of a database older
-- than the table, which Open adds in batches (the SQL cannot replay moves).
CREATE TABLE explorer_pending (game_id TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO explorer_pending (game_id) SELECT id FROM games WHERE status = 'ended';

-- +goose Down
DROP TABLE explorer_pending;
DROP TABLE explorer;
