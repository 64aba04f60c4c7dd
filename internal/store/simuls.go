package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/game"
)

// Simul is a simul as stored (migration 00016): package simul owns its
// meaning and writes each change through (CreateSimul, AddSimulPlayer,
// RemoveSimulPlayer, StartSimul, DeleteSimulsBefore), so that a restarted
// server finds its simuls as they were.
type Simul struct {
	ID        string
	Host      game.Seat
	Ruleset   string
	TC        string // as clock.TimeControl writes it
	Max       int
	HostWhite bool
	Rated     bool
	Started   bool
	Created   time.Time
	// Players are the participants in the order they joined (a user or a
	// guest: the tables keep no engine), and Games[i] the game of
	// Players[i] once the simul has started ("" before; read back with
	// one for each player).
	Players []game.Seat
	Games   []string
}

// CreateSimul stores a new simul, its participants (if any) included.
func (s *Store) CreateSimul(ctx context.Context, sm Simul) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		h := sm.Host
		_, err := tx.ExecContext(ctx, `INSERT INTO simuls (id, host_seat, host_user_id, host_name, host_guest, host_rating,
			ruleset, tc, max_players, host_white, rated, started, created_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
			sm.ID, h.ID, h.UserID, h.Name, boolInt(h.Guest), h.Rating, sm.Ruleset, sm.TC, sm.Max,
			boolInt(sm.HostWhite), boolInt(sm.Rated), boolInt(sm.Started), ms(sm.Created))
		if unique, _ := constraint(err); unique {
			return fmt.Errorf("store: simul %s: %w", sm.ID, ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("store: create simul: %w", err)
		}
		for i, p := range sm.Players {
			var g string
			if i < len(sm.Games) {
				g = sm.Games[i]
			}
			if err := insertSimulPlayer(ctx, tx, sm.ID, i+1, p, g); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertSimulPlayer(ctx context.Context, tx *sql.Tx, id string, n int, p game.Seat, gameID string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO simul_players (simul_id, n, seat, user_id, name, guest, rating, game_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, n, p.ID, p.UserID, p.Name, boolInt(p.Guest), p.Rating, gameID)
	if unique, fk := constraint(err); unique {
		return fmt.Errorf("store: simul %s: player %s or board %d: %w", id, p.ID, n, ErrConflict)
	} else if fk {
		return fmt.Errorf("store: simul %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: simul %s: add player: %w", id, err)
	}
	return nil
}

// simulNotStarted answers ErrNotFound when there is no simul id and
// ErrConflict when it has started.
func simulNotStarted(ctx context.Context, tx *sql.Tx, id string) error {
	var started int
	err := tx.QueryRowContext(ctx, `SELECT started FROM simuls WHERE id = $1`, id).Scan(&started)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: simul %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: simul %s: %w", id, err)
	}
	if started != 0 {
		return fmt.Errorf("store: simul %s has started: %w", id, ErrConflict)
	}
	return nil
}

// AddSimulPlayer adds participant p to simul id after the others:
// ErrConflict when he is in it already or it has started, ErrNotFound
// when there is no such simul.
func (s *Store) AddSimulPlayer(ctx context.Context, id string, p game.Seat) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := simulNotStarted(ctx, tx, id); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(n), 0) FROM simul_players WHERE simul_id = $1`, id).Scan(&n); err != nil {
			return fmt.Errorf("store: simul %s: %w", id, err)
		}
		return insertSimulPlayer(ctx, tx, id, n+1, p, "")
	})
}

// RemoveSimulPlayer takes participant seat out of simul id, which has not
// started (ErrConflict otherwise); the boards after his move up one, so
// that they stay 1, 2, … in the order of joining. Removing one who is not
// in it is no error.
func (s *Store) RemoveSimulPlayer(ctx context.Context, id, seat string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := simulNotStarted(ctx, tx, id); err != nil {
			return err
		}
		var n int
		err := tx.QueryRowContext(ctx, `SELECT n FROM simul_players WHERE simul_id = $1 AND seat = $2`, id, seat).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("store: simul %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM simul_players WHERE simul_id = $1 AND n = $2`, id, n); err != nil {
			return fmt.Errorf("store: simul %s: remove player: %w", id, err)
		}
		// One row at a time in board order: the primary key (simul_id, n)
		// is checked per row, and n-1 is free once the row before moved.
		rows, err := tx.QueryContext(ctx, `SELECT n FROM simul_players WHERE simul_id = $1 AND n > $2 ORDER BY n`, id, n)
		if err != nil {
			return fmt.Errorf("store: simul %s: %w", id, err)
		}
		var later []int
		for rows.Next() {
			var m int
			if err := rows.Scan(&m); err != nil {
				rows.Close()
				return fmt.Errorf("store: simul %s: %w", id, err)
			}
			later = append(later, m)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("store: simul %s: %w", id, err)
		}
		for _, m := range later {
			if _, err := tx.ExecContext(ctx, `UPDATE simul_players SET n = $1 WHERE simul_id = $2 AND n = $3`, m-1, id, m); err != nil {
				return fmt.Errorf("store: simul %s: renumber: %w", id, err)
			}
		}
		return nil
	})
}

// StartSimul marks simul id started with games[i] the game of its
// participant on board i+1 (as many as it has: ErrConflict otherwise).
func (s *Store) StartSimul(ctx context.Context, id string, games []string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE simuls SET started = 1 WHERE id = $1`, id)
		if err != nil {
			return fmt.Errorf("store: start simul %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("store: start simul %s: %w", id, err)
		} else if n == 0 {
			return fmt.Errorf("store: simul %s: %w", id, ErrNotFound)
		}
		var players int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM simul_players WHERE simul_id = $1`, id).Scan(&players); err != nil {
			return fmt.Errorf("store: start simul %s: %w", id, err)
		}
		if players != len(games) {
			return fmt.Errorf("store: simul %s: %d games for %d players: %w", id, len(games), players, ErrConflict)
		}
		for i, g := range games {
			if _, err := tx.ExecContext(ctx, `UPDATE simul_players SET game_id = $1 WHERE simul_id = $2 AND n = $3`, g, id, i+1); err != nil {
				return fmt.Errorf("store: start simul %s: %w", id, err)
			}
		}
		return nil
	})
}

// Simuls returns the stored simuls made at or after since, oldest first,
// each with its participants by board.
func (s *Store) Simuls(ctx context.Context, since time.Time) ([]Simul, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, host_seat, host_user_id, host_name, host_guest, host_rating,
		ruleset, tc, max_players, host_white, rated, started, created_ms FROM simuls WHERE created_ms >= $1
		ORDER BY created_ms, id`, ms(since))
	if err != nil {
		return nil, fmt.Errorf("store: simuls: %w", err)
	}
	var out []Simul
	idx := map[string]int{}
	for rows.Next() {
		var sm Simul
		var guest, white, rated, started int
		var created int64
		h := &sm.Host
		if err := rows.Scan(&sm.ID, &h.ID, &h.UserID, &h.Name, &guest, &h.Rating, &sm.Ruleset, &sm.TC, &sm.Max,
			&white, &rated, &started, &created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: simuls: %w", err)
		}
		h.Guest, sm.HostWhite, sm.Rated, sm.Started, sm.Created = guest != 0, white != 0, rated != 0, started != 0, fromMS(created)
		idx[sm.ID] = len(out)
		out = append(out, sm)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: simuls: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	rows, err = s.r.QueryContext(ctx, `SELECT p.simul_id, p.seat, p.user_id, p.name, p.guest, p.rating, p.game_id
		FROM simul_players p JOIN simuls s ON s.id = p.simul_id WHERE s.created_ms >= $1 ORDER BY p.simul_id, p.n`, ms(since))
	if err != nil {
		return nil, fmt.Errorf("store: simul players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, gameID string
		var p game.Seat
		var guest int
		if err := rows.Scan(&id, &p.ID, &p.UserID, &p.Name, &guest, &p.Rating, &gameID); err != nil {
			return nil, fmt.Errorf("store: simul players: %w", err)
		}
		p.Guest = guest != 0
		if i, ok := idx[id]; ok {
			out[i].Players = append(out[i].Players, p)
			out[i].Games = append(out[i].Games, gameID)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: simul players: %w", err)
	}
	return out, nil
}

// DeleteSimulsBefore deletes the simuls made before t, their participants
// with them, and returns how many.
func (s *Store) DeleteSimulsBefore(ctx context.Context, t time.Time) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		// Their players go with them (ON DELETE CASCADE).
		res, err := tx.ExecContext(ctx, `DELETE FROM simuls WHERE created_ms < $1`, ms(t))
		if err != nil {
			return fmt.Errorf("store: delete simuls: %w", err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}
