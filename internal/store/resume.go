package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// MarkAlive records that the server ran at t (a heartbeat, or the instant of
// a clean stop).
func (s *Store) MarkAlive(ctx context.Context, t time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error { return markAlive(ctx, tx, t) })
}

func markAlive(ctx context.Context, tx *sql.Tx, t time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO server_alive (id, at_ms) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms`, ms(t))
	if err != nil {
		return fmt.Errorf("store: mark alive: %w", err)
	}
	return nil
}

// LastAlive returns the instant last recorded by MarkAlive; zero when none.
func (s *Store) LastAlive(ctx context.Context) (time.Time, error) {
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT at_ms FROM server_alive WHERE id = 1`).Scan(&at)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("store: last alive: %w", err)
	}
	return fromMS(at), nil
}

// SaveClocks stores the clock state of each game of clocks and marks the
// server alive at alive, in one transaction.
func (s *Store) SaveClocks(ctx context.Context, clocks map[string]clock.State, alive time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		for id, st := range clocks {
			if err := s.saveClock(ctx, tx, id, st); err != nil {
				return err
			}
		}
		return markAlive(ctx, tx, alive)
	})
}

// StartedGame is what the start-up sweep reads of a game being played: no
// moves, no names.
type StartedGame struct {
	ID          string
	TimeControl clock.TimeControl
	Engine      [2]int // each side's engine level; 0 for a person
	Plies       int
	Last        time.Time // the last move, or the start when none
}

// StartedGames returns every game being played, read in one query.
func (s *Store) StartedGames(ctx context.Context) ([]StartedGame, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT g.id, g.time_control, g.white_engine, g.black_engine,
		g.created_ms, g.started_ms,
		COALESCE((SELECT MAX(m.ply) FROM moves m WHERE m.game_id = g.id), 0),
		COALESCE((SELECT m.played_ms FROM moves m WHERE m.game_id = g.id ORDER BY m.ply DESC LIMIT 1), 0)
		FROM games g WHERE g.status = 'started'`)
	if err != nil {
		return nil, fmt.Errorf("store: started games: %w", err)
	}
	defer rows.Close()
	var out []StartedGame
	for rows.Next() {
		var g StartedGame
		var tc string
		var created, started, last int64
		if err := rows.Scan(&g.ID, &tc, &g.Engine[0], &g.Engine[1], &created, &started, &g.Plies, &last); err != nil {
			return nil, fmt.Errorf("store: started games: %w", err)
		}
		if g.TimeControl, err = clock.ParseStored(tc); err != nil {
			return nil, fmt.Errorf("store: game %s is corrupt: %w", g.ID, err)
		}
		g.Last = fromMS(max(last, started, created))
		out = append(out, g)
	}
	return out, rows.Err()
}

// abortBatch bounds the games aborted in one transaction, so that the
// start-up sweep never holds the writer for long.
const abortBatch = 500

// AbortGames aborts at the instant at those of the games ids that are still
// being played (their clocks stop), abortBatch to a transaction, and
// returns how many it aborted.
func (s *Store) AbortGames(ctx context.Context, ids []string, at time.Time) (int, error) {
	return s.abortGames(ctx, ids, at, abortBatch)
}

func (s *Store) abortGames(ctx context.Context, ids []string, at time.Time, batch int) (int, error) {
	n := 0
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), batch)]
		ids = ids[len(chunk):]
		ph, ph2 := make([]string, len(chunk)), make([]string, len(chunk))
		args := make([]any, 0, len(chunk)+1)
		args = append(args, ms(at))
		for i, id := range chunk {
			ph[i], ph2[i] = fmt.Sprintf("$%d", i+2), fmt.Sprintf("$%d", i+1)
			args = append(args, id)
		}
		in, in2 := `(`+strings.Join(ph, ", ")+`)`, `(`+strings.Join(ph2, ", ")+`)`
		err := s.write(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE games SET status = 'aborted', result = '*', termination = 'none',
				ended_ms = $1 WHERE status = 'started' AND id IN `+in, args...)
			if err != nil {
				return fmt.Errorf("store: abort games: %w", err)
			}
			k, _ := res.RowsAffected()
			if _, err := tx.ExecContext(ctx, `UPDATE game_clocks SET running = 0, stopped = 1 WHERE game_id IN `+in2, args[1:]...); err != nil {
				return fmt.Errorf("store: abort games: %w", err)
			}
			n += int(k)
			return nil
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// EndAbandoned aborts at at, without loading them, the games being played
// that a says were abandoned by the instant by.
func (ls LiveStore) EndAbandoned(ctx context.Context, a live.Abandonment, by, at time.Time) (int, error) {
	games, err := ls.S.StartedGames(ctx)
	if err != nil {
		return 0, err
	}
	var dead []string
	for _, g := range games {
		spec := game.Spec{TC: g.TimeControl, White: game.Seat{Engine: g.Engine[0]}, Black: game.Seat{Engine: g.Engine[1]}}
		if t, ok := a.At(&spec, g.Plies, g.Last); ok && !t.After(by) {
			dead = append(dead, g.ID)
		}
	}
	return ls.S.AbortGames(ctx, dead, at)
}

// LastAlive returns the instant the server last recorded it ran.
func (ls LiveStore) LastAlive(ctx context.Context) (time.Time, error) { return ls.S.LastAlive(ctx) }

// MarkAlive records that the server runs at t.
func (ls LiveStore) MarkAlive(ctx context.Context, t time.Time) error { return ls.S.MarkAlive(ctx, t) }

// SaveClocks stores the clocks of resumed games and marks the server alive.
func (ls LiveStore) SaveClocks(ctx context.Context, clocks map[string]clock.State, alive time.Time) error {
	defer ls.S.observe("save_clocks", time.Now())
	return ls.S.SaveClocks(ctx, clocks, alive)
}
