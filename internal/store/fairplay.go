package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/game"
)

// PutFairPlay stores the evidence about one side of a game, replacing what
// an earlier judgement of the same side stored; ErrNotFound when the game
// does not exist.
func (s *Store) PutFairPlay(ctx context.Context, f game.FairPlay) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fairplay
			(game_id, side, user_id, rating, moves, agree1, agree3, mean_loss, score, ipr, flag, computed_ms,
				rated, timed, time_corr, deep, agree_deep, strength)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
			ON CONFLICT (game_id, side) DO UPDATE SET user_id = excluded.user_id, rating = excluded.rating,
				moves = excluded.moves, agree1 = excluded.agree1, agree3 = excluded.agree3,
				mean_loss = excluded.mean_loss, score = excluded.score, ipr = excluded.ipr,
				flag = excluded.flag, computed_ms = excluded.computed_ms, rated = excluded.rated,
				timed = excluded.timed, time_corr = excluded.time_corr, deep = excluded.deep,
				agree_deep = excluded.agree_deep, strength = excluded.strength`,
			f.GameID, f.Side, f.UserID, f.Rating, f.Moves, f.Agree1, f.Agree3, f.MeanLoss, f.Score, f.IPR,
			boolInt(f.Flag), ms(f.Computed), boolInt(f.Rated), f.Timed, f.TimeCorr, f.Deep, f.AgreeDeep, f.Strength)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("fair-play evidence of game %s: %w", f.GameID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: put fair-play evidence of game %s: %w", f.GameID, err)
		}
		return nil
	})
}

const fairPlayColumns = `game_id, side, user_id, rating, moves, agree1, agree3, mean_loss, score, ipr, flag, computed_ms,
	rated, timed, time_corr, deep, agree_deep, strength`

func scanFairPlay(rows *sql.Rows) ([]game.FairPlay, error) {
	defer rows.Close()
	var out []game.FairPlay
	for rows.Next() {
		var f game.FairPlay
		var flag, rated int
		var computed int64
		if err := rows.Scan(&f.GameID, &f.Side, &f.UserID, &f.Rating, &f.Moves, &f.Agree1, &f.Agree3,
			&f.MeanLoss, &f.Score, &f.IPR, &flag, &computed, &rated, &f.Timed, &f.TimeCorr, &f.Deep, &f.AgreeDeep, &f.Strength); err != nil {
			return nil, fmt.Errorf("store: fair-play evidence: %w", err)
		}
		f.Flag, f.Computed, f.Rated = flag != 0, fromMS(computed), rated != 0
		out = append(out, f)
	}
	return out, rows.Err()
}

// FairPlayByGame returns the evidence stored about the sides of a game
// (none, one or two rows), White's first.
func (s *Store) FairPlayByGame(ctx context.Context, gameID string) ([]game.FairPlay, error) {
	defer s.observe("fairplay_game", time.Now())
	rows, err := s.r.QueryContext(ctx, `SELECT `+fairPlayColumns+` FROM fairplay WHERE game_id = $1 ORDER BY side DESC`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: fair-play evidence of game %s: %w", gameID, err)
	}
	return scanFairPlay(rows)
}

// FairPlayByUser returns the evidence about an account's games, the most
// recently judged first, at most limit rows.
func (s *Store) FairPlayByUser(ctx context.Context, userID int64, limit int) ([]game.FairPlay, error) {
	defer s.observe("fairplay_user", time.Now())
	rows, err := s.r.QueryContext(ctx, `SELECT `+fairPlayColumns+` FROM fairplay WHERE user_id = $1
		ORDER BY computed_ms DESC, game_id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: fair-play evidence of user %d: %w", userID, err)
	}
	return scanFairPlay(rows)
}

// FairPlayFitGames returns a page of the rated games the fair-play model
// may learn from (`toguz fairplay fit -db`), in the order they were
// played, after the game (afterMS, afterID) of the previous page ("" for
// the first): games played here with a result between two people, so not
// a game with a guest, an engine's seat or a bot account, not a game a
// moderator voided, and not one of an account marked as an engine user or
// a booster (whose play is what the model must not learn as a person's).
func (s *Store) FairPlayFitGames(ctx context.Context, afterMS int64, afterID string, limit int) ([]Game, error) {
	if limit < 1 || limit > 1000 {
		return nil, fmt.Errorf("store: fair-play fit games: limit %d out of 1..1000", limit)
	}
	return s.queryGames(ctx, `WHERE g.status = 'ended' AND g.rated = 1 AND g.result != '*' AND g.source = 'play'
		AND g.white_user_id IS NOT NULL AND g.black_user_id IS NOT NULL
		AND g.white_engine = 0 AND g.black_engine = 0
		AND wu.bot = 0 AND bu.bot = 0
		AND NOT EXISTS (SELECT 1 FROM mod_voided v WHERE v.game_id = g.id)
		AND NOT EXISTS (SELECT 1 FROM mod_accounts m WHERE m.user_id IN (g.white_user_id, g.black_user_id)
			AND (m.engine = 1 OR m.booster = 1))
		AND (g.date_ms > $1 OR (g.date_ms = $1 AND g.id > $2))
		ORDER BY g.date_ms, g.id LIMIT $3`, afterMS, afterID, limit)
}
