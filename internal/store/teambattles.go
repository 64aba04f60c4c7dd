package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// TeamBattle is an arena (internal/events) whose entrants play for their
// teams: the sum of each team's Leaders best scores ranks the teams.
type TeamBattle struct {
	EventID   string
	TeamID    string // the team whose leader made it
	Leaders   int
	CreatedBy int64
	Created   time.Time
	Teams     []BattleTeam // by name
}

// BattleTeam is a team of a battle, named as it was when the battle was
// made.
type BattleTeam struct {
	ID, Name string
}

// CreateTeamBattle stores battle b with its teams (its maker's bound is
// counted before its arena is made: CountTeamWrite).
func (s *Store) CreateTeamBattle(ctx context.Context, b TeamBattle) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO team_battles (event_id, team_id, leaders, created_by, created_ms) VALUES ($1, $2, $3, $4, $5)`,
			b.EventID, b.TeamID, b.Leaders, b.CreatedBy, ms(s.now())); err != nil {
			return fmt.Errorf("store: team battle: %w", err)
		}
		for _, t := range b.Teams {
			if _, err := tx.ExecContext(ctx, `INSERT INTO team_battle_teams (event_id, team_id, name) VALUES ($1, $2, $3)`, b.EventID, t.ID, t.Name); err != nil {
				return fmt.Errorf("store: team battle's team: %w", err)
			}
		}
		return nil
	})
}

func (s *Store) battles(ctx context.Context, q string, args ...any) ([]TeamBattle, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: team battles: %w", err)
	}
	var out []TeamBattle
	for rows.Next() {
		var b TeamBattle
		var created int64
		if err := rows.Scan(&b.EventID, &b.TeamID, &b.Leaders, &b.CreatedBy, &created); err != nil {
			rows.Close()
			return nil, err
		}
		b.Created = fromMS(created)
		out = append(out, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Teams, err = s.battleTeams(ctx, out[i].EventID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) battleTeams(ctx context.Context, event string) ([]BattleTeam, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT team_id, name FROM team_battle_teams WHERE event_id = $1 ORDER BY name, team_id`, event)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BattleTeam
	for rows.Next() {
		var t BattleTeam
		if err := rows.Scan(&t.ID, &t.Name); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// GetTeamBattle returns the battle of event id (ErrNotFound when the
// event is none).
func (s *Store) GetTeamBattle(ctx context.Context, event string) (TeamBattle, error) {
	bs, err := s.battles(ctx, `SELECT event_id, team_id, leaders, created_by, created_ms FROM team_battles WHERE event_id = $1`, event)
	if err != nil {
		return TeamBattle{}, err
	}
	if len(bs) == 0 {
		return TeamBattle{}, fmt.Errorf("store: team battle %s: %w", event, ErrNotFound)
	}
	return bs[0], nil
}

// TeamBattlesOf returns limit battles team plays in from offset, the
// newest first.
func (s *Store) TeamBattlesOf(ctx context.Context, team string, offset, limit int) ([]TeamBattle, error) {
	return s.battles(ctx, `SELECT b.event_id, b.team_id, b.leaders, b.created_by, b.created_ms FROM team_battles b
		JOIN team_battle_teams t ON t.event_id = b.event_id AND t.team_id = $1
		ORDER BY b.created_ms DESC, b.event_id LIMIT $2 OFFSET $3`, team, limit, offset)
}

// TeamBattlePlayers returns the team each entrant of battle event plays
// for.
func (s *Store) TeamBattlePlayers(ctx context.Context, event string) (map[int64]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT user_id, team_id FROM team_battle_players WHERE event_id = $1`, event)
	if err != nil {
		return nil, fmt.Errorf("store: team battle players: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var team string
		if err := rows.Scan(&id, &team); err != nil {
			return nil, err
		}
		out[id] = team
	}
	return out, rows.Err()
}

// EnterTeamBattle records the team user id plays for in battle event: the
// one he entered with before, or the first (by name) of the battle's teams
// he is a member of. ErrNotFound when he is a member of none.
func (s *Store) EnterTeamBattle(ctx context.Context, event string, userID int64) (string, error) {
	var team string
	err := s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT team_id FROM team_battle_players WHERE event_id = $1 AND user_id = $2`, event, userID).Scan(&team)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT t.team_id FROM team_battle_teams t JOIN team_members m ON m.team_id = t.team_id AND m.user_id = $2
			WHERE t.event_id = $1 ORDER BY t.name, t.team_id LIMIT 1`, event, userID).Scan(&team)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: %d in no team of battle %s: %w", userID, event, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO team_battle_players (event_id, user_id, team_id) VALUES ($1, $2, $3)`, event, userID, team)
		return err
	})
	return team, err
}
