package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Secret returns the secret kept under name, storing make's value first
// when there is none. Several stores on one database (nodes) that ask at
// once all get the value the first of them stored: the insert does
// nothing when another's is there, and the value is read back.
func (s *Store) Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error) {
	var v []byte
	err := s.r.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	fresh, err := make()
	if err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO secrets (name, value, created_ms) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
			name, fresh, ms(s.now())); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&v)
	})
	if err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	return v, nil
}
