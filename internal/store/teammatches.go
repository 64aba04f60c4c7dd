package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// TeamMatch is a match of two teams over Boards boards: team A plays
// White on the odd boards. Lineups[0] is A's players by board, [1] B's;
// Games the game of each board once it started ("" before).
type TeamMatch struct {
	ID           string
	TeamA, TeamB string
	NameA, NameB string
	Boards       int
	TC           string
	Rated        bool
	CreatedBy    int64
	Created      time.Time
	Started      time.Time // zero until it starts
	Lineups      [2][]MatchPlayer
	Games        []string
}

// MatchPlayer is a player of a lineup.
type MatchPlayer struct {
	UserID int64
	Name   string
}

// CreateTeamMatch stores match m (its ID made here); its maker may make
// perDay matches a day (ErrLimit).
func (s *Store) CreateTeamMatch(ctx context.Context, m TeamMatch, perDay int) (TeamMatch, error) {
	id, err := s.newID()
	if err != nil {
		return m, err
	}
	m.ID, m.Created = id, s.now().UTC().Truncate(time.Millisecond)
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := s.countWrite(ctx, tx, m.CreatedBy, "match", perDay); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO team_matches (id, team_a, team_b, name_a, name_b, boards, tc, rated, created_by, created_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, id, m.TeamA, m.TeamB, m.NameA, m.NameB, m.Boards, m.TC, boolInt(m.Rated), m.CreatedBy, ms(m.Created))
		return err
	})
	return m, err
}

func (s *Store) matches(ctx context.Context, q string, args ...any) ([]TeamMatch, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: team matches: %w", err)
	}
	var out []TeamMatch
	for rows.Next() {
		var m TeamMatch
		var rated int
		var created, started int64
		if err := rows.Scan(&m.ID, &m.TeamA, &m.TeamB, &m.NameA, &m.NameB, &m.Boards, &m.TC, &rated, &m.CreatedBy, &created, &started); err != nil {
			rows.Close()
			return nil, err
		}
		m.Rated, m.Created, m.Started = rated != 0, fromMS(created), fromMS(started)
		out = append(out, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := s.matchDetails(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) matchDetails(ctx context.Context, m *TeamMatch) error {
	rows, err := s.r.QueryContext(ctx, `SELECT p.team_id, p.user_id, u.name FROM team_match_players p JOIN users u ON u.id = p.user_id
		WHERE p.match_id = $1 ORDER BY p.board`, m.ID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var team string
		var p MatchPlayer
		if err := rows.Scan(&team, &p.UserID, &p.Name); err != nil {
			rows.Close()
			return err
		}
		side := 0
		if team == m.TeamB {
			side = 1
		}
		m.Lineups[side] = append(m.Lineups[side], p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	m.Games = make([]string, m.Boards)
	rows, err = s.r.QueryContext(ctx, `SELECT board, game_id FROM team_match_games WHERE match_id = $1`, m.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var board int
		var id string
		if err := rows.Scan(&board, &id); err != nil {
			return err
		}
		if board >= 1 && board <= m.Boards {
			m.Games[board-1] = id
		}
	}
	return rows.Err()
}

const matchColumns = `id, team_a, team_b, name_a, name_b, boards, tc, rated, created_by, created_ms, started_ms`

// GetTeamMatch returns match id with its lineups and games (ErrNotFound).
func (s *Store) GetTeamMatch(ctx context.Context, id string) (TeamMatch, error) {
	ms, err := s.matches(ctx, `SELECT `+matchColumns+` FROM team_matches WHERE id = $1`, id)
	if err != nil {
		return TeamMatch{}, err
	}
	if len(ms) == 0 {
		return TeamMatch{}, fmt.Errorf("store: team match %s: %w", id, ErrNotFound)
	}
	return ms[0], nil
}

// TeamMatchesOf returns limit matches team plays from offset, the newest
// first.
func (s *Store) TeamMatchesOf(ctx context.Context, team string, offset, limit int) ([]TeamMatch, error) {
	return s.matches(ctx, `SELECT `+matchColumns+` FROM team_matches WHERE team_a = $1 OR team_b = $1
		ORDER BY created_ms DESC, id LIMIT $2 OFFSET $3`, team, limit, offset)
}

// SetMatchLineup replaces team's lineup of match id by users, board 1
// first; ErrConflict once the match started.
func (s *Store) SetMatchLineup(ctx context.Context, id, team string, users []int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var started int64
		if err := tx.QueryRowContext(ctx, `SELECT started_ms FROM team_matches WHERE id = $1`, id).Scan(&started); err != nil {
			return fmt.Errorf("store: team match %s: %w", id, notFound(err))
		}
		if started != 0 {
			return fmt.Errorf("store: team match %s started: %w", id, ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM team_match_players WHERE match_id = $1 AND team_id = $2`, id, team); err != nil {
			return err
		}
		for i, u := range users {
			if _, err := tx.ExecContext(ctx, `INSERT INTO team_match_players (match_id, team_id, board, user_id) VALUES ($1, $2, $3, $4)`, id, team, i+1, u); err != nil {
				return err
			}
		}
		return nil
	})
}

// StartTeamMatch marks match id started now, once: ErrConflict when it
// had started.
func (s *Store) StartTeamMatch(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE team_matches SET started_ms = $2 WHERE id = $1 AND started_ms = 0`, id, ms(s.now()))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: team match %s started: %w", id, ErrConflict)
		}
		return nil
	})
}

// SetMatchGame records the game of board of match id.
func (s *Store) SetMatchGame(ctx context.Context, id string, board int, gameID string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO team_match_games (match_id, board, game_id) VALUES ($1, $2, $3)`, id, board, gameID)
		return err
	})
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
