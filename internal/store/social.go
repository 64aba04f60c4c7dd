package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/clock"
)

// TakeBack keeps the first plies moves of a started game, deletes the
// others and stores clk (nil: leave the clock alone) as its clock state, in
// one transaction. ErrConflict when the game is not started or has fewer
// than plies moves; ErrNotFound when it does not exist.
func (s *Store) TakeBack(ctx context.Context, gameID string, plies int, clk *clock.State) error {
	if plies < 0 {
		return fmt.Errorf("game %s: take back to ply %d: %w", gameID, plies, ErrConflict)
	}
	return s.writeGame(ctx, func(tx *sql.Tx) error {
		last, err := s.lastPly(ctx, tx, gameID, "take back in")
		if err != nil {
			return err
		}
		if plies > last {
			return fmt.Errorf("game %s has %d plies, not %d: %w", gameID, last, plies, ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = $1 AND ply > $2`, gameID, plies); err != nil {
			return fmt.Errorf("store: take back in %s: %w", gameID, err)
		}
		if clk != nil {
			return s.saveClock(ctx, tx, gameID, *clk)
		}
		return nil
	})
}

// Report is a chat message reported by someone.
type Report struct {
	ID           int64
	Reporter     string // the reporter's identity (u:<id>, g:<guest name>)
	ReporterName string
	Reported     string // the name shown with the message
	GameID       string // "" for the lobby
	Room         string // players, spectators or lobby
	Message      string
	// Verified: the server found the message among the room's recent
	// ones when it was reported (a report of an older message, or one the
	// reporter made up, is not).
	Verified bool
	Created  time.Time
}

// AddReport stores r and returns its id.
func (s *Store) AddReport(ctx context.Context, r Report) (int64, error) {
	if r.Created.IsZero() {
		r.Created = s.now()
	}
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO reports (reporter, reporter_name, reported, game_id, room, message, verified, created_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			r.Reporter, r.ReporterName, r.Reported, r.GameID, r.Room, r.Message, boolInt(r.Verified), ms(r.Created)).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("store: add report: %w", err)
	}
	return id, nil
}

// Reports returns at most limit reports, the newest first, skipping offset.
func (s *Store) Reports(ctx context.Context, limit, offset int) ([]Report, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, reporter, reporter_name, reported, game_id, room, message, verified, created_ms
		FROM reports ORDER BY created_ms DESC, id DESC LIMIT $1 OFFSET $2`, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
		var created int64
		var verified int
		if err := rows.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Reported, &r.GameID, &r.Room, &r.Message, &verified, &created); err != nil {
			return nil, fmt.Errorf("store: reports: %w", err)
		}
		r.Created, r.Verified = fromMS(created), verified != 0
		out = append(out, r)
	}
	return out, rows.Err()
}
