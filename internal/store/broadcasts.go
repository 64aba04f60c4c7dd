package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Broadcast is an over-the-board event relayed on the site (migration
// 00006): its owner (the broadcaster), name, ruleset and number of rounds.
type Broadcast struct {
	ID        int64
	OwnerID   int64
	OwnerName string
	Name      string
	Ruleset   string
	Rounds    int
	Created   time.Time
	// TRF is each uploaded round's TRF, by round (only Load fills it).
	TRF map[int]string
	// Games are the games of every round, by round and board (only Load
	// fills it).
	Games []BroadcastGame
}

// BroadcastGame is one game of a broadcast's round, its plies the score
// sheet's.
type BroadcastGame struct {
	ID     int64
	Round  int
	Board  int
	White  string
	Black  string
	Result string
	Plies  []string
}

// CreateBroadcast stores a new broadcast of b.OwnerID, unless he already
// has max of them (ErrLimit), and returns its id.
func (s *Store) CreateBroadcast(ctx context.Context, b Broadcast, max int) (int64, error) {
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM broadcasts WHERE owner_id = $1`, b.OwnerID).Scan(&n); err != nil {
			return fmt.Errorf("store: count broadcasts: %w", err)
		}
		if n >= max {
			return fmt.Errorf("store: broadcasts of user %d: %w", b.OwnerID, ErrLimit)
		}
		// RETURNING, not LastInsertId: PostgreSQL's driver has none.
		err := tx.QueryRowContext(ctx, `INSERT INTO broadcasts (owner_id, name, ruleset, rounds, created_ms) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			b.OwnerID, b.Name, b.Ruleset, b.Rounds, ms(s.now())).Scan(&id)
		if err != nil {
			return fmt.Errorf("store: create broadcast: %w", err)
		}
		return nil
	})
	return id, err
}

// Broadcasts returns the newest broadcasts, at most limit.
func (s *Store) Broadcasts(ctx context.Context, limit int) ([]Broadcast, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT b.id, b.owner_id, u.name, b.name, b.ruleset, b.rounds, b.created_ms
		FROM broadcasts b JOIN users u ON u.id = b.owner_id ORDER BY b.id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: broadcasts: %w", err)
	}
	defer rows.Close()
	var out []Broadcast
	for rows.Next() {
		var b Broadcast
		var created int64
		if err := rows.Scan(&b.ID, &b.OwnerID, &b.OwnerName, &b.Name, &b.Ruleset, &b.Rounds, &created); err != nil {
			return nil, fmt.Errorf("store: broadcasts: %w", err)
		}
		b.Created = fromMS(created)
		out = append(out, b)
	}
	return out, rows.Err()
}

// LoadBroadcast returns broadcast id with its rounds' TRFs and its games
// with their plies, or ErrNotFound.
func (s *Store) LoadBroadcast(ctx context.Context, id int64) (*Broadcast, error) {
	b := &Broadcast{ID: id, TRF: map[int]string{}}
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT b.owner_id, u.name, b.name, b.ruleset, b.rounds, b.created_ms
		FROM broadcasts b JOIN users u ON u.id = b.owner_id WHERE b.id = $1`, id).
		Scan(&b.OwnerID, &b.OwnerName, &b.Name, &b.Ruleset, &b.Rounds, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("broadcast %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: broadcast %d: %w", id, err)
	}
	b.Created = fromMS(created)
	rows, err := s.r.QueryContext(ctx, `SELECT round, trf FROM broadcast_rounds WHERE broadcast_id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("store: broadcast %d rounds: %w", id, err)
	}
	for rows.Next() {
		var r int
		var trf string
		if err := rows.Scan(&r, &trf); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: broadcast %d rounds: %w", id, err)
		}
		b.TRF[r] = trf
	}
	rows.Close()
	rows, err = s.r.QueryContext(ctx, `SELECT g.id, g.round, g.board, g.white, g.black, g.result, coalesce(p.notation, '')
		FROM broadcast_games g LEFT JOIN broadcast_plies p ON p.game_id = g.id
		WHERE g.broadcast_id = $1 ORDER BY g.round, g.board, p.ply`, id)
	if err != nil {
		return nil, fmt.Errorf("store: broadcast %d games: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var g BroadcastGame
		var ply string
		if err := rows.Scan(&g.ID, &g.Round, &g.Board, &g.White, &g.Black, &g.Result, &ply); err != nil {
			return nil, fmt.Errorf("store: broadcast %d games: %w", id, err)
		}
		if n := len(b.Games); n == 0 || b.Games[n-1].ID != g.ID {
			b.Games = append(b.Games, g)
		}
		if ply != "" {
			last := &b.Games[len(b.Games)-1]
			last.Plies = append(last.Plies, ply)
		}
	}
	return b, rows.Err()
}

// AddBroadcastGame adds a game (round, board, players) to broadcast
// bid: ErrConflict when the board of the round is taken.
func (s *Store) AddBroadcastGame(ctx context.Context, bid int64, g BroadcastGame) (int64, error) {
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO broadcast_games (broadcast_id, round, board, white, black) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			bid, g.Round, g.Board, g.White, g.Black).Scan(&id)
		if unique, fk := constraint(err); unique {
			return fmt.Errorf("store: board %d of round %d: %w", g.Board, g.Round, ErrConflict)
		} else if fk {
			return fmt.Errorf("store: broadcast %d: %w", bid, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: add broadcast game: %w", err)
		}
		return nil
	})
	return id, err
}

// AppendBroadcastPlies appends plies to game id of broadcast bid, which
// must have had exactly from plies (ErrConflict otherwise: someone else
// appended first), and sets its result when result is not "".
func (s *Store) AppendBroadcastPlies(ctx context.Context, bid, id int64, from int, plies []string, result string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var n int
		err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM broadcast_plies WHERE game_id = g.id) FROM broadcast_games g
			WHERE g.id = $1 AND g.broadcast_id = $2`, id, bid).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: broadcast game %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: broadcast game %d: %w", id, err)
		}
		if n != from {
			return fmt.Errorf("store: broadcast game %d has %d plies, not %d: %w", id, n, from, ErrConflict)
		}
		for i, p := range plies {
			if _, err := tx.ExecContext(ctx, `INSERT INTO broadcast_plies (game_id, ply, notation) VALUES ($1, $2, $3)`, id, from+i+1, p); err != nil {
				return fmt.Errorf("store: broadcast game %d ply %d: %w", id, from+i+1, err)
			}
		}
		if result != "" {
			if _, err := tx.ExecContext(ctx, `UPDATE broadcast_games SET result = $1 WHERE id = $2`, result, id); err != nil {
				return fmt.Errorf("store: broadcast game %d result: %w", id, err)
			}
		}
		return nil
	})
}

// SaveBroadcastRound replaces round r of broadcast bid: its TRF and all
// its games with their plies.
func (s *Store) SaveBroadcastRound(ctx context.Context, bid int64, r int, trf string, games []BroadcastGame) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO broadcast_rounds (broadcast_id, round, trf) VALUES ($1, $2, $3)
			ON CONFLICT (broadcast_id, round) DO UPDATE SET trf = excluded.trf`, bid, r, trf)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("store: broadcast %d: %w", bid, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: broadcast %d round %d: %w", bid, r, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM broadcast_games WHERE broadcast_id = $1 AND round = $2`, bid, r); err != nil {
			return fmt.Errorf("store: broadcast %d round %d: %w", bid, r, err)
		}
		for _, g := range games {
			var id int64
			err := tx.QueryRowContext(ctx, `INSERT INTO broadcast_games (broadcast_id, round, board, white, black, result) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
				bid, r, g.Board, g.White, g.Black, g.Result).Scan(&id)
			if err != nil {
				return fmt.Errorf("store: broadcast %d round %d board %d: %w", bid, r, g.Board, err)
			}
			for i, p := range g.Plies {
				if _, err := tx.ExecContext(ctx, `INSERT INTO broadcast_plies (game_id, ply, notation) VALUES ($1, $2, $3)`, id, i+1, p); err != nil {
					return fmt.Errorf("store: broadcast game %d ply %d: %w", id, i+1, err)
				}
			}
		}
		return nil
	})
}
