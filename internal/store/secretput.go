package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
)

// PutSecret keeps value under name (copy-db carries the secrets a server
// kept in files beside its SQLite database into the new database this
// way). A secret already kept under name with the same value is fine; one
// with another value is an error, since overwriting it would invalidate
// whatever it signs or seals.
func (s *Store) PutSecret(ctx context.Context, name string, value []byte) error {
	var cur []byte
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO secrets (name, value, created_ms) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
			name, value, ms(s.now())); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&cur)
	})
	if err != nil {
		return fmt.Errorf("store: secret %s: %w", name, err)
	}
	if !bytes.Equal(cur, value) {
		return fmt.Errorf("store: secret %s: the database keeps another value already; it was left as it was", name)
	}
	return nil
}
