package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/game"
)

// The game leases (migration 00013): which node of several sharing this
// store owns each live game (live.Hub with a bus). Every change is a
// compare-and-set on the row read in the same transaction, so that two nodes
// racing for one lease cannot both win, on SQLite (whose writes are
// serialized, across processes too) as on a database with row locks.

// TakeLease gives the lease of game gameID to node until now+ttl when it is free,
// expired or node's already, and reports whether it did. prev is the lease
// as it was (zero when there was none): its holder when refused, and when
// taken over, the instant its holder was last known to run (Renewed).
func (s *Store) TakeLease(ctx context.Context, gameID, node string, now time.Time, ttl time.Duration) (prev game.Lease, ok bool, err error) {
	err = s.write(ctx, func(tx *sql.Tx) error {
		prev, ok = game.Lease{}, false
		var renewed, expires int64
		err := tx.QueryRowContext(ctx, `SELECT node, renewed_ms, expires_ms FROM game_leases WHERE game_id = $1`, gameID).
			Scan(&prev.Node, &renewed, &expires)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := tx.ExecContext(ctx, `INSERT INTO game_leases (game_id, node, renewed_ms, expires_ms)
				VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO NOTHING`, gameID, node, ms(now), ms(now.Add(ttl)))
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			ok = n == 1
			return err
		case err != nil:
			return err
		}
		prev.Renewed, prev.Expires = fromMS(renewed), fromMS(expires)
		if prev.Node != node && expires > ms(now) {
			return nil // held by a node that runs
		}
		res, err := tx.ExecContext(ctx, `UPDATE game_leases SET node = $1, renewed_ms = $2, expires_ms = $3
			WHERE game_id = $4 AND node = $5 AND expires_ms = $6`, node, ms(now), ms(now.Add(ttl)), gameID, prev.Node, expires)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	if err != nil {
		return game.Lease{}, false, fmt.Errorf("store: take lease of %s: %w", gameID, err)
	}
	return prev, ok, nil
}

// RenewLeases extends every lease node holds to now+ttl and returns the
// games they are for: a game missing from them was taken by another node
// (node had let its lease expire), and node must stop running it.
func (s *Store) RenewLeases(ctx context.Context, node string, now time.Time, ttl time.Duration) ([]string, error) {
	var held []string
	err := s.write(ctx, func(tx *sql.Tx) error {
		held = held[:0]
		if _, err := tx.ExecContext(ctx, `UPDATE game_leases SET renewed_ms = $1, expires_ms = $2 WHERE node = $3`,
			ms(now), ms(now.Add(ttl)), node); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT game_id FROM game_leases WHERE node = $1`, node)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			held = append(held, id)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: renew leases of %s: %w", node, err)
	}
	return held, nil
}

// ReleaseLease gives up node's lease of game gameID: deleted once the game needs
// no owner (it is over and nobody watches it), or, with at set (a clean
// stop), expired at at, so that the next owner charges the clocks until
// then.
func (s *Store) ReleaseLease(ctx context.Context, gameID, node string, at time.Time) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if at.IsZero() {
			_, err = tx.ExecContext(ctx, `DELETE FROM game_leases WHERE game_id = $1 AND node = $2`, gameID, node)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE game_leases SET renewed_ms = $1, expires_ms = $1 WHERE game_id = $2 AND node = $3`,
				ms(at), gameID, node)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: release lease of %s: %w", gameID, err)
	}
	return nil
}

// Orphans returns the games being played that no node owns at now: no
// lease, or an expired one (their owner died or stopped).
func (s *Store) Orphans(ctx context.Context, now time.Time) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id
		WHERE g.status = 'started' AND (l.game_id IS NULL OR l.expires_ms <= $1)`, ms(now))
	if err != nil {
		return nil, fmt.Errorf("store: orphan games: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: orphan games: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: orphan games: %w", err)
	}
	return out, nil
}

// TakeLease is Store.TakeLease (live.Leases).
func (ls LiveStore) TakeLease(ctx context.Context, gameID, node string, now time.Time, ttl time.Duration) (game.Lease, bool, error) {
	return ls.S.TakeLease(ctx, gameID, node, now, ttl)
}

// RenewLeases is Store.RenewLeases (live.Leases).
func (ls LiveStore) RenewLeases(ctx context.Context, node string, now time.Time, ttl time.Duration) ([]string, error) {
	return ls.S.RenewLeases(ctx, node, now, ttl)
}

// ReleaseLease is Store.ReleaseLease (live.Leases).
func (ls LiveStore) ReleaseLease(ctx context.Context, gameID, node string, at time.Time) error {
	return ls.S.ReleaseLease(ctx, gameID, node, at)
}

// Lease is Store.Lease (live.Leases).
func (ls LiveStore) Lease(ctx context.Context, gameID string) (game.Lease, error) {
	return ls.S.Lease(ctx, gameID)
}

// Orphans is Store.Orphans (live.Leases).
func (ls LiveStore) Orphans(ctx context.Context, now time.Time) ([]string, error) {
	return ls.S.Orphans(ctx, now)
}

// Lease returns the lease of game gameID (zero when it has none).
func (s *Store) Lease(ctx context.Context, gameID string) (game.Lease, error) {
	var l game.Lease
	var renewed, expires int64
	err := s.r.QueryRowContext(ctx, `SELECT node, renewed_ms, expires_ms FROM game_leases WHERE game_id = $1`, gameID).
		Scan(&l.Node, &renewed, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return game.Lease{}, nil
	case err != nil:
		return game.Lease{}, fmt.Errorf("store: lease of %s: %w", gameID, err)
	}
	l.Renewed, l.Expires = fromMS(renewed), fromMS(expires)
	return l, nil
}
