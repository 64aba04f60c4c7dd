package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// HandLease hands node from's lease of game gameID to node to, expired at
// at (the instant from stopped running the game): to takes it with
// TakeLease though it has expired, and the clocks are charged until at.
// Unlike a lease released as expired, from's renewals do not renew it
// (they renew from's leases only), and another node sees to as its
// holder. A lease that is not from's is left as it is.
func (s *Store) HandLease(ctx context.Context, gameID, from, to string, at time.Time) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE game_leases SET node = $1, renewed_ms = $2, expires_ms = $2 WHERE game_id = $3 AND node = $4`,
			to, ms(at), gameID, from)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: hand lease of %s to %s: %w", gameID, to, err)
	}
	return nil
}

// HandLease is Store.HandLease (live.Leases).
func (ls LiveStore) HandLease(ctx context.Context, gameID, from, to string, at time.Time) error {
	return ls.S.HandLease(ctx, gameID, from, to, at)
}
