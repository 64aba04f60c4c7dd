package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// TeamBroadcast is a leaders' message to every member of a team, kept
// until each is told (internal/team tells them in the order of their ids,
// in batches): After is the last member told so far.
type TeamBroadcast struct {
	ID         int64
	TeamID     string
	TeamName   string
	SenderID   int64
	SenderName string
	Body       string
	Created    time.Time
	After      int64
}

// AddTeamBroadcast counts b's sender's message to his team (perDay of
// them a day, ErrLimit past) and keeps b to be told, in one transaction;
// it returns b's id.
func (s *Store) AddTeamBroadcast(ctx context.Context, b TeamBroadcast, perDay int) (int64, error) {
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := s.countWrite(ctx, tx, b.SenderID, "message:"+b.TeamID, perDay); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `INSERT INTO team_broadcasts (team_id, team_name, sender_id, sender_name, body, created_ms)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, b.TeamID, b.TeamName, b.SenderID, b.SenderName, b.Body, ms(s.now())).Scan(&id)
	})
	if _, fk := constraint(err); fk {
		return 0, fmt.Errorf("store: message to team %s: %w", b.TeamID, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("store: message to team %s: %w", b.TeamID, err)
	}
	return id, nil
}

// ClaimTeamBroadcast takes the oldest message no worker holds (none ever
// did, or its lease is past) and holds it for lease; ErrNotFound when
// there is none.
func (s *Store) ClaimTeamBroadcast(ctx context.Context, lease time.Duration) (TeamBroadcast, error) {
	var b TeamBroadcast
	err := s.write(ctx, func(tx *sql.Tx) error {
		now := s.now()
		var created int64
		err := tx.QueryRowContext(ctx, `SELECT id, team_id, team_name, sender_id, sender_name, body, created_ms, after_user
			FROM team_broadcasts WHERE lease_ms < $1 ORDER BY id LIMIT 1`, ms(now)).
			Scan(&b.ID, &b.TeamID, &b.TeamName, &b.SenderID, &b.SenderName, &b.Body, &created, &b.After)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		b.Created = fromMS(created)
		_, err = tx.ExecContext(ctx, `UPDATE team_broadcasts SET lease_ms = $2 WHERE id = $1`, b.ID, ms(now.Add(lease)))
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("store: claim a team's message: %w", err)
	}
	return b, err
}

// TeamBroadcastTold records that message id's members up to after are
// told and holds it for lease more; done (every member told) deletes it.
func (s *Store) TeamBroadcastTold(ctx context.Context, id, after int64, lease time.Duration, done bool) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if done {
			_, err := tx.ExecContext(ctx, `DELETE FROM team_broadcasts WHERE id = $1`, id)
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE team_broadcasts SET after_user = $2, lease_ms = $3 WHERE id = $1`, id, after, ms(s.now().Add(lease)))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: team message %d told: %w", id, err)
	}
	return nil
}

// TeamMemberIDsAfter returns the accounts of team's members whose ids
// follow after, at most limit, in the order of their ids.
func (s *Store) TeamMemberIDsAfter(ctx context.Context, team string, after int64, limit int) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT user_id FROM team_members WHERE team_id = $1 AND user_id > $2 ORDER BY user_id LIMIT $3`, team, after, limit)
	if err != nil {
		return nil, fmt.Errorf("store: members of team %s: %w", team, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
