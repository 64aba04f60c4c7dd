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
	// Lease is until when (Unix ms) the worker that claimed it holds it:
	// what it records must name it (TeamBroadcastTold).
	Lease int64
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
		b.Created, b.Lease = fromMS(created), ms(now.Add(lease))
		_, err = tx.ExecContext(ctx, `UPDATE team_broadcasts SET lease_ms = $2 WHERE id = $1`, b.ID, b.Lease)
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("store: claim a team's message: %w", err)
	}
	return b, err
}

// TeamBroadcastTold records that b's members up to after are told and
// holds b for lease more (b.Lease becomes the new lease); done (every
// member told) deletes it. A worker whose lease another took since (it
// stalled past it) gets ErrConflict and records nothing: the other goes
// on.
func (s *Store) TeamBroadcastTold(ctx context.Context, b *TeamBroadcast, after int64, lease time.Duration, done bool) error {
	next := ms(s.now().Add(lease))
	err := s.write(ctx, func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		if done {
			res, err = tx.ExecContext(ctx, `DELETE FROM team_broadcasts WHERE id = $1 AND lease_ms = $2`, b.ID, b.Lease)
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE team_broadcasts SET after_user = $3, lease_ms = $4 WHERE id = $1 AND lease_ms = $2`, b.ID, b.Lease, after, next)
		}
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrConflict
		}
		return nil
	})
	if errors.Is(err, ErrConflict) {
		return fmt.Errorf("store: team message %d is held by another worker: %w", b.ID, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("store: team message %d told: %w", b.ID, err)
	}
	b.After, b.Lease = after, next
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
