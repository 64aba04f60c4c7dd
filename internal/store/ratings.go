package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/rating"
)

// Perf is a user's rating in one category.
type Perf struct {
	Category rating.Category
	rating.Rating
	Games   int       // rated games played in the category
	Updated time.Time // the last rated game; zero when none
}

// RatingPoint is one step of a user's rating history.
type RatingPoint struct {
	At     time.Time
	GameID string // "" when the game was deleted
	rating.Rating
}

// LeaderboardEntry is one line of a leaderboard.
type LeaderboardEntry struct {
	UserID int64
	Name   string
	Perf
}

func perfTx(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, userID int64, cat rating.Category) (Perf, error) {
	p := Perf{Category: cat, Rating: rating.Default()}
	var updated int64
	err := q.QueryRowContext(ctx, `SELECT rating, rd, volatility, games, updated_ms FROM ratings WHERE user_id = $1 AND category = $2`,
		userID, cat.String()).Scan(&p.Rating.Rating, &p.RD, &p.Volatility, &p.Games, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil
	}
	p.Updated = fromMS(updated)
	return p, err
}

// Perf returns a user's rating in a category: the default rating when he has
// not played in it.
func (s *Store) Perf(ctx context.Context, userID int64, cat rating.Category) (Perf, error) {
	return perfTx(ctx, s.r, userID, cat)
}

// Perfs returns a user's rating in every category of the people's games
// (rating.Categories), indexed by category.
func (s *Store) Perfs(ctx context.Context, userID int64) ([len(rating.Categories)]Perf, error) {
	var ps [len(rating.Categories)]Perf
	for _, c := range rating.Categories {
		ps[c] = Perf{Category: c, Rating: rating.Default()}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT category, rating, rd, volatility, games, updated_ms FROM ratings WHERE user_id = $1`, userID)
	if err != nil {
		return ps, fmt.Errorf("store: ratings of %d: %w", userID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var p Perf
		var cat string
		var updated int64
		if err := rows.Scan(&cat, &p.Rating.Rating, &p.RD, &p.Volatility, &p.Games, &updated); err != nil {
			return ps, err
		}
		c, err := rating.ParseCategory(cat)
		if err != nil {
			return ps, fmt.Errorf("store: ratings of %d: %w", userID, err)
		}
		if c.IsBot() {
			continue // the bots' categories: Bots
		}
		p.Category, p.Updated = c, fromMS(updated)
		ps[c] = p
	}
	return ps, rows.Err()
}

// RatingHistory returns a user's ratings in a category after each rated game, oldest first.
func (s *Store) RatingHistory(ctx context.Context, userID int64, cat rating.Category) ([]RatingPoint, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT at_ms, COALESCE(game_id, ''), rating, rd, volatility FROM rating_history
		WHERE user_id = $1 AND category = $2 ORDER BY at_ms, id`, userID, cat.String())
	if err != nil {
		return nil, fmt.Errorf("store: rating history of %d: %w", userID, err)
	}
	defer rows.Close()
	var h []RatingPoint
	for rows.Next() {
		var p RatingPoint
		var at int64
		if err := rows.Scan(&at, &p.GameID, &p.Rating.Rating, &p.RD, &p.Volatility); err != nil {
			return nil, err
		}
		p.At = fromMS(at)
		h = append(h, p)
	}
	return h, rows.Err()
}

// Leaderboard returns the best ratings of a category whose deviation is at
// most maxRD (lichess lists rating.RankableRD), best first, at most limit;
// accounts the moderators marked or closed are not listed.
func (s *Store) Leaderboard(ctx context.Context, cat rating.Category, maxRD float64, limit int) ([]LeaderboardEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT u.id, u.name, r.rating, r.rd, r.volatility, r.games, r.updated_ms
		FROM ratings r JOIN users u ON u.id = r.user_id
		WHERE r.category = $1 AND r.rd <= $2 AND NOT EXISTS (SELECT 1 FROM closed_accounts c WHERE c.user_id = r.user_id)
		AND NOT EXISTS (SELECT 1 FROM mod_accounts m WHERE m.user_id = u.id AND (m.engine = 1 OR m.booster = 1 OR m.closed = 1))
		ORDER BY r.rating DESC, u.id LIMIT $3`, cat.String(), maxRD, limit)
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard %v: %w", cat, err)
	}
	defer rows.Close()
	var es []LeaderboardEntry
	for rows.Next() {
		e := LeaderboardEntry{Perf: Perf{Category: cat}}
		var updated int64
		if err := rows.Scan(&e.UserID, &e.Name, &e.Rating.Rating, &e.RD, &e.Volatility, &e.Games, &updated); err != nil {
			return nil, err
		}
		e.Updated = fromMS(updated)
		es = append(es, e)
	}
	return es, rows.Err()
}

// rate updates both players' ratings for a finished rated game inside tx.
func rate(ctx context.Context, tx *sql.Tx, g Game, cat rating.Category, f Finish) (before, diff [2]int, err error) {
	var perfs [2]Perf
	for pl := range perfs {
		if perfs[pl], err = perfTx(ctx, tx, g.Players[pl].UserID, cat); err != nil {
			return before, diff, fmt.Errorf("store: rate game %s: %w", g.ID, err)
		}
	}
	score := 0.5
	switch f.Result {
	case toguz.WhiteWins:
		score = 1
	case toguz.BlackWins:
		score = 0
	}
	var after [2]rating.Rating
	after[0], after[1] = rating.Lichess().Game(perfs[0].Rating, perfs[1].Rating, score,
		[2]float64{rating.Periods(perfs[0].Updated, f.At), rating.Periods(perfs[1].Updated, f.At)})
	for pl, p := range perfs {
		uid, r := g.Players[pl].UserID, after[pl]
		_, err := tx.ExecContext(ctx, `INSERT INTO ratings (user_id, category, rating, rd, volatility, games, updated_ms)
			VALUES ($1, $2, $3, $4, $5, 1, $6)
			ON CONFLICT (user_id, category) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
			volatility = excluded.volatility, games = ratings.games + 1, updated_ms = excluded.updated_ms`,
			uid, cat.String(), r.Rating, r.RD, r.Volatility, ms(f.At))
		if err == nil {
			_, err = tx.ExecContext(ctx, `INSERT INTO rating_history (user_id, category, game_id, rating, rd, volatility, at_ms)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, uid, cat.String(), g.ID, r.Rating, r.RD, r.Volatility, ms(f.At))
		}
		if err != nil {
			return before, diff, fmt.Errorf("store: rate game %s: %w", g.ID, err)
		}
		before[pl] = p.Int()
		diff[pl] = int(math.Round(r.Rating)) - p.Int()
	}
	return before, diff, nil
}
