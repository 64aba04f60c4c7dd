package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Championship is an event with sections as stored (migration 00028):
// package sections owns its meaning and writes it whole. Version counts
// the writes; Doc is the aggregate's JSON.
type Championship struct {
	ID      string
	Creator int64
	Name    string
	Status  string
	Version int
	Doc     []byte
	Created time.Time
	Updated time.Time
}

// SaveChampionship writes c whole. c.Version is the version it was read
// at (0: a new championship) and becomes the next; a write that another
// came before fails with ErrConflict, so that no change is lost.
func (s *Store) SaveChampionship(ctx context.Context, c *Championship) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if c.Version == 0 {
			_, err := tx.ExecContext(ctx, `INSERT INTO championships (id, creator, name, status, version, doc, created_ms, updated_ms)
				VALUES ($1, $2, $3, $4, 1, $5, $6, $7)`, c.ID, c.Creator, c.Name, c.Status, string(c.Doc), ms(c.Created), ms(c.Updated))
			if unique, _ := constraint(err); unique {
				return fmt.Errorf("store: championship %s: %w", c.ID, ErrConflict)
			}
			if err != nil {
				return fmt.Errorf("store: championship %s: %w", c.ID, err)
			}
			c.Version = 1
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE championships SET name = $1, status = $2, version = version + 1, doc = $3, updated_ms = $4
			WHERE id = $5 AND version = $6`, c.Name, c.Status, string(c.Doc), ms(c.Updated), c.ID, c.Version)
		if err != nil {
			return fmt.Errorf("store: championship %s: %w", c.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("store: championship %s at version %d: %w", c.ID, c.Version, ErrConflict)
		}
		c.Version++
		return nil
	})
}

// Championship reads one championship, or ErrNotFound.
func (s *Store) Championship(ctx context.Context, id string) (Championship, error) {
	c := Championship{ID: id}
	var doc string
	var created, updated int64
	err := s.r.QueryRowContext(ctx, `SELECT creator, name, status, version, doc, created_ms, updated_ms FROM championships WHERE id = $1`, id).
		Scan(&c.Creator, &c.Name, &c.Status, &c.Version, &doc, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("store: championship %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("store: championship %s: %w", id, err)
	}
	c.Doc, c.Created, c.Updated = []byte(doc), fromMS(created), fromMS(updated)
	return c, nil
}

// Championships lists the newest championships first, without their
// documents, at most limit.
func (s *Store) Championships(ctx context.Context, limit int) ([]Championship, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, creator, name, status, version, created_ms, updated_ms FROM championships
		ORDER BY created_ms DESC, id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: championships: %w", err)
	}
	defer rows.Close()
	var out []Championship
	for rows.Next() {
		var c Championship
		var created, updated int64
		if err := rows.Scan(&c.ID, &c.Creator, &c.Name, &c.Status, &c.Version, &created, &updated); err != nil {
			return nil, fmt.Errorf("store: championships: %w", err)
		}
		c.Created, c.Updated = fromMS(created), fromMS(updated)
		out = append(out, c)
	}
	return out, rows.Err()
}
