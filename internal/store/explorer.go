package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/explorer"
	"github.com/toguz/toguz/internal/game"
)

// The opening explorer's tables (migrations 8 and 15): per tree (the site's
// games, or one player's as one colour), position, bucket (category, rating
// band, month) and move, the games' counts, results, ratings and the
// highest rated and most recent game (explorer); and the same over every
// month (explorer_sum). A finished game adds a row or a count to both, at
// most explorer.MaxPly positions of each of its trees, inside the
// transaction that finishes or imports it, so the tree is never behind the
// games. A query reads, for one position, only the rows of the buckets its
// filter selects: a query without dates reads explorer_sum (at most 6
// categories × 10 bands × 9 moves rows), one with dates seeks in explorer to
// each category and band selected and reads the months of its range. (The
// key used to lead with the move, so that every query read every row of its
// position: the start position's 9,049 rows of 100,000 generated games,
// 13,544 of a million, the explorer's slowest percent.)

// Which games the tree holds: finished with a result, played here between
// people (engine games would fill the tree with the engine's book) or
// imported.
func explorerCounts(g Game, result toguz.Result) bool {
	return result != toguz.NoResult && g.Players[0].Engine == 0 && g.Players[1].Engine == 0
}

// explorerGame is a finished game as the tree reads it.
type explorerGame struct {
	id     string
	start  toguz.Position
	moves  []toguz.Move
	result toguz.Result
	cat    int
	rating int // the players' average rating before the game; 0 when either had none
	dateMS int64
	month  int
	users  [2]int64
}

// SiteTree is the tree of every game of the site.
const SiteTree = 0

// PlayerTree is the tree of one account's games as colour c.
func PlayerTree(userID int64, c toguz.Player) int64 { return 2*userID + int64(c) }

// sqlExplorerAdd adds a row of a game to the explorer table, or a count to
// its row. SQLite runs one a row, 120 a game: a statement of many rows
// (from a JSON array, or many VALUES) took more of its CPU than the
// statements it saved (docs/architecture.md).
const sqlExplorerAdd = `INSERT INTO explorer (tree, pos, cat, band, month, move, games, white, draws, black, rating_sum, rated, top, last)
	VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11, $12, $13)
	ON CONFLICT (tree, pos, cat, band, month, move) DO UPDATE SET games = games + 1,
		white = white + excluded.white, draws = draws + excluded.draws, black = black + excluded.black,
		rating_sum = rating_sum + excluded.rating_sum, rated = rated + excluded.rated,
		top = max(top, excluded.top), last = max(last, excluded.last)`

// sqlExplorerSumAdd is sqlExplorerAdd's row of explorer_sum: the same
// bucket but for the month.
const sqlExplorerSumAdd = `INSERT INTO explorer_sum (tree, pos, cat, band, move, games, white, draws, black, rating_sum, rated, top, last)
	VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $11, $12)
	ON CONFLICT (tree, pos, cat, band, move) DO UPDATE SET games = games + 1,
		white = white + excluded.white, draws = draws + excluded.draws, black = black + excluded.black,
		rating_sum = rating_sum + excluded.rating_sum, rated = rated + excluded.rated,
		top = max(top, excluded.top), last = max(last, excluded.last)`

// sqlExplorerAddPG and sqlExplorerSumAddPG are sqlExplorerAdd and
// sqlExplorerSumAdd for PostgreSQL, whose upsert names the stored row by
// its table, whose max of two values is GREATEST, and which types the
// arguments of a SELECT's columns only when told.
const sqlExplorerAddPG = `INSERT INTO explorer (tree, pos, cat, band, month, move, games, white, draws, black, rating_sum, rated, top, last)
	SELECT (r ->> 0)::bigint, (r ->> 1)::bigint, $2::integer, $3::integer, $4::integer, (r ->> 2)::integer, 1,
		$5::integer, $6::integer, $7::integer, $8::bigint, $9::integer, $10::text, $11::text FROM jsonb_array_elements($1::jsonb) AS r
	ON CONFLICT (tree, pos, cat, band, month, move) DO UPDATE SET games = explorer.games + 1,
		white = explorer.white + excluded.white, draws = explorer.draws + excluded.draws, black = explorer.black + excluded.black,
		rating_sum = explorer.rating_sum + excluded.rating_sum, rated = explorer.rated + excluded.rated,
		top = GREATEST(explorer.top, excluded.top), last = GREATEST(explorer.last, excluded.last)`

const sqlExplorerSumAddPG = `INSERT INTO explorer_sum (tree, pos, cat, band, move, games, white, draws, black, rating_sum, rated, top, last)
	SELECT (r ->> 0)::bigint, (r ->> 1)::bigint, $2::integer, $3::integer, (r ->> 2)::integer, 1,
		$4::integer, $5::integer, $6::integer, $7::bigint, $8::integer, $9::text, $10::text FROM jsonb_array_elements($1::jsonb) AS r
	ON CONFLICT (tree, pos, cat, band, move) DO UPDATE SET games = explorer_sum.games + 1,
		white = explorer_sum.white + excluded.white, draws = explorer_sum.draws + excluded.draws, black = explorer_sum.black + excluded.black,
		rating_sum = explorer_sum.rating_sum + excluded.rating_sum, rated = explorer_sum.rated + excluded.rated,
		top = GREATEST(explorer_sum.top, excluded.top), last = GREATEST(explorer_sum.last, excluded.last)`

// addExplorer adds a game to its trees, in the writer's transaction tx.
func (s *Store) addExplorer(ctx context.Context, tx *sql.Tx, g explorerGame) error {
	w, d, b := explorer.Counts(g.result)
	band := explorer.Band(g.rating)
	var rsum, rated int64
	if g.rating > 0 {
		rsum, rated = int64(g.rating), 1
	}
	ref := explorer.Ref{ID: g.id, Rating: g.rating, DateMS: g.dateMS}
	top, last := ref.TopKey(), ref.LastKey()
	trees := []int64{SiteTree}
	for c, u := range g.users {
		if u != 0 {
			trees = append(trees, PlayerTree(u, toguz.Player(c)))
		}
	}
	// The rows. A position met twice in one game counts the game once.
	var seen [explorer.MaxPly]uint64
	n := 0
	rows := make([]explorerRow, 0, explorer.MaxPly*len(trees))
	explorer.Walk(g.start, g.moves, func(key uint64, m toguz.Move) {
		if slices.Contains(seen[:n], key) {
			return
		}
		seen[n] = key
		n++
		for _, t := range trees {
			rows = append(rows, explorerRow{t, int64(key), int64(m)})
		}
	})
	if n == 0 {
		return nil
	}
	game := []any{g.cat, band, g.month, w, d, b, rsum, rated, top, last}
	sum := append([]any{g.cat, band}, game[3:]...) // explorer_sum's: no month
	if s.pg {
		return s.addExplorerPG(ctx, tx, g.id, rows, game, sum)
	}
	// Each row's values boxed once, for both tables.
	boxed := make([]any, 0, 3*len(rows))
	for _, r := range rows {
		boxed = append(boxed, r.tree, r.pos, r.move)
	}
	// One argument list a table, the game's values boxed once: tree, pos,
	// the first k of game (its bucket), the move, the rest of game.
	add := func(st *sql.Stmt, game []any, k int) error {
		st = s.txStmt(ctx, tx, st)
		args := slices.Concat([]any{nil, nil}, game[:k], []any{nil}, game[k:])
		for i := 0; i < len(boxed); i += 3 {
			args[0], args[1], args[2+k] = boxed[i], boxed[i+1], boxed[i+2]
			if _, err := st.ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("store: explorer: game %s: %w", g.id, err)
			}
		}
		return nil
	}
	if err := add(s.stmtExplorerAdd, game, 3); err != nil {
		return err
	}
	return add(s.stmtExplorerSumAdd, sum, 2)
}

// explorerRow is one of a game's rows in the explorer's tables: the tree,
// the position and the move played from it.
type explorerRow struct{ tree, pos, move int64 }

// addExplorerPG is addExplorer's upserts on PostgreSQL: one statement a
// table, its rows as a JSON array of [tree, pos, move]: a statement a row
// was a round trip to the server a row, 120 a game.
func (s *Store) addExplorerPG(ctx context.Context, tx *sql.Tx, id string, rows []explorerRow, game, sum []any) error {
	js := make([]byte, 0, 48*len(rows))
	js = append(js, '[')
	for i, r := range rows {
		if i > 0 {
			js = append(js, ',')
		}
		js = append(js, '[')
		js = strconv.AppendInt(js, r.tree, 10)
		js = append(js, ',')
		js = strconv.AppendInt(js, r.pos, 10)
		js = append(js, ',')
		js = strconv.AppendInt(js, r.move, 10)
		js = append(js, ']')
	}
	js = append(js, ']')
	for _, q := range []struct {
		st   *sql.Stmt
		args []any
	}{{s.stmtExplorerAdd, game}, {s.stmtExplorerSumAdd, sum}} {
		if _, err := s.txStmt(ctx, tx, q.st).ExecContext(ctx, append([]any{string(js)}, q.args...)...); err != nil {
			return fmt.Errorf("store: explorer: game %s: %w", id, err)
		}
	}
	return nil
}

// explorerGameOf reads game id's moves in tx for the tree. The game is as
// it is stored after its end (g), rating its players' average before it.
func explorerGameOf(ctx context.Context, tx *sql.Tx, g Game, rating int) (explorerGame, error) {
	start, err := startPosition(g)
	if err != nil {
		return explorerGame{}, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT hole FROM moves WHERE game_id = $1 AND ply <= $2 ORDER BY ply`, g.ID, explorer.MaxPly)
	if err != nil {
		return explorerGame{}, fmt.Errorf("store: explorer: moves of %s: %w", g.ID, err)
	}
	defer rows.Close()
	var moves []toguz.Move
	for rows.Next() {
		var h int
		if err := rows.Scan(&h); err != nil {
			return explorerGame{}, fmt.Errorf("store: explorer: moves of %s: %w", g.ID, err)
		}
		moves = append(moves, toguz.Move(h))
	}
	if err := rows.Err(); err != nil {
		return explorerGame{}, fmt.Errorf("store: explorer: moves of %s: %w", g.ID, err)
	}
	date := g.Date
	if date.IsZero() && g.Source == SourcePlay {
		date = g.Created
	}
	eg := explorerGame{id: g.ID, start: start, moves: moves, result: g.Result, cat: explorer.CatCode(g.TimeControl),
		rating: rating, dateMS: ms(date), month: explorer.Month(date)}
	for c, p := range g.Players {
		eg.users[c] = p.UserID
	}
	return eg, nil
}

func startPosition(g Game) (toguz.Position, error) {
	if g.StartFEN != "" {
		p, _, err := toguz.ParseFEN(g.StartFEN, g.Rules)
		if err != nil {
			return toguz.Position{}, fmt.Errorf("store: game %s: start: %w", g.ID, err)
		}
		return p, nil
	}
	p, err := toguz.NewPosition(g.Rules)
	if err != nil {
		return toguz.Position{}, fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	return p, nil
}

// averageRating is the players' average rating before a rated game; 0
// when either had none.
func averageRating(before [2]int) int {
	if before[0] <= 0 || before[1] <= 0 {
		return 0
	}
	return (before[0] + before[1] + 1) / 2
}

// explorerPendingBatch is how many older games one transaction of the
// backfill adds, so that live writes wait little between them.
const explorerPendingBatch = 200

// addPendingExplorer adds the finished games that migration 5 found (the
// games older than the tree) in batches; Open calls it, and it returns when
// none is left.
func (s *Store) addPendingExplorer(ctx context.Context) error {
	for {
		done := false
		err := s.write(ctx, func(tx *sql.Tx) error {
			rows, err := tx.QueryContext(ctx, `SELECT game_id FROM explorer_pending LIMIT $1`, explorerPendingBatch)
			if err != nil {
				return fmt.Errorf("store: explorer backfill: %w", err)
			}
			var ids []string
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return fmt.Errorf("store: explorer backfill: %w", err)
				}
				ids = append(ids, id)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("store: explorer backfill: %w", err)
			}
			done = len(ids) == 0
			for _, id := range ids {
				g, err := scanGame(tx.QueryRowContext(ctx, gameSelect+`WHERE g.id = $1`, id))
				if err != nil && !errors.Is(err, sql.ErrNoRows) {
					return err
				}
				if err == nil && g.Status == game.Ended && explorerCounts(g, g.Result) {
					eg, err := explorerGameOf(ctx, tx, g, averageRating(g.RatingBefore))
					if err != nil {
						return err
					}
					if err := s.addExplorer(ctx, tx, eg); err != nil {
						return err
					}
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM explorer_pending WHERE game_id = $1`, id); err != nil {
					return fmt.Errorf("store: explorer backfill: %w", err)
				}
			}
			return nil
		})
		if err != nil || done {
			return err
		}
	}
}

// ExplorerQuery asks for the moves played from a position.
type ExplorerQuery struct {
	Pos    uint64 // toguz.Position.Key()
	Tree   int64  // SiteTree, or PlayerTree(user, colour)
	Filter explorer.Filter
}

// Explorer returns the moves played from q.Pos in the games of q.Tree that
// pass q.Filter, with the highest rated and the most recent games.
func (s *Store) Explorer(ctx context.Context, q ExplorerQuery) (explorer.Answer, error) {
	query, args := explorerSQL(q)
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return explorer.Answer{}, fmt.Errorf("store: explorer: %w", err)
	}
	defer rows.Close()
	var a explorer.Answer
	for rows.Next() {
		var m explorer.Stats
		var mv int
		if err := rows.Scan(&mv, &m.Games, &m.White, &m.Draws, &m.Black, &m.RatingSum, &m.Rated, &m.Top, &m.Last); err != nil {
			return explorer.Answer{}, fmt.Errorf("store: explorer: %w", err)
		}
		m.Move = toguz.Move(mv)
		a.Moves = append(a.Moves, m)
	}
	if err := rows.Err(); err != nil {
		return explorer.Answer{}, fmt.Errorf("store: explorer: %w", err)
	}
	a.Finish()
	return a, nil
}

// explorerSQL is the query of q. Without dates it reads explorer_sum:
// every row of the position (at most 540) when nothing is filtered, else a
// seek to each category (all of them when only the rating is filtered) and
// the range of bands. With dates it reads explorer, where the categories
// and the bands are IN lists, never ranges, so that SQLite seeks to each
// (category, band) of the key and reads only the months of the range after
// it: a range on the band would end the key's use there.
func explorerSQL(q ExplorerQuery) (string, []any) {
	ints := func(lo, hi int) []int {
		var vs []int
		for v := lo; v <= hi; v++ {
			vs = append(vs, v)
		}
		return vs
	}
	in := func(vs []int) string {
		t := make([]string, len(vs))
		for i, v := range vs {
			t[i] = strconv.Itoa(v) // small integers the caller checked: no text of the request
		}
		return "(" + strings.Join(t, ",") + ")"
	}
	cats := q.Filter.Cats
	if len(cats) == 0 {
		cats = ints(0, explorer.Cats-1)
	}
	blo, bhi := q.Filter.Bands()
	where, args := `tree = $1 AND pos = $2`, []any{q.Tree, int64(q.Pos)}
	table := "explorer_sum"
	switch {
	case q.Filter.FromMonth > 0 || q.Filter.ToMonth > 0:
		mlo, mhi := q.Filter.Months()
		table = "explorer"
		where += ` AND cat IN ` + in(cats) + ` AND band IN ` + in(ints(blo, bhi)) + ` AND month BETWEEN $3 AND $4`
		args = append(args, mlo, mhi)
	case len(q.Filter.Cats) > 0 || blo > 0 || bhi < explorer.Bands-1:
		where += ` AND cat IN ` + in(cats) + ` AND band BETWEEN $3 AND $4`
		args = append(args, blo, bhi)
	}
	return `SELECT move, SUM(games), SUM(white), SUM(draws), SUM(black), SUM(rating_sum), SUM(rated),
		MAX(top), MAX(last) FROM ` + table + ` WHERE ` + where + ` GROUP BY move`, args
}

// GamesByID returns the stored games of ids (at most 100), in no order;
// the ids not stored are left out.
func (s *Store) GamesByID(ctx context.Context, ids []string) ([]Game, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if len(ids) > 100 {
		return nil, fmt.Errorf("store: games by id: %d ids, at most 100", len(ids))
	}
	ph := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		ph[i], args[i] = "$"+strconv.Itoa(i+1), id
	}
	return s.queryGames(ctx, `WHERE g.id IN (`+strings.Join(ph, ",")+`)`, args...)
}
