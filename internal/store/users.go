package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// User is an account.
type User struct {
	ID           int64
	Name         string // as the user wrote it; unique regardless of case
	PasswordHash string // argon2id PHC string
	Created      time.Time
	Lang         string // the interface language the user chose (an i18n tag); "" when none
}

// nameKey is the form in which names are unique.
func nameKey(name string) string { return strings.ToLower(name) }

// CreateUser stores a new account. The name is stored verbatim (the caller
// validates it); a name taken in any case fails with ErrDuplicateName.
func (s *Store) CreateUser(ctx context.Context, name, passwordHash string) (User, error) {
	u := User{Name: name, PasswordHash: passwordHash, Created: s.now().UTC().Truncate(time.Millisecond)}
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx,
			`INSERT INTO users (name, name_key, password_hash, created_ms) VALUES ($1, $2, $3, $4) RETURNING id`,
			name, nameKey(name), passwordHash, ms(u.Created)).Scan(&u.ID)
	})
	if err != nil {
		if unique, _ := constraint(err); unique {
			return User{}, fmt.Errorf("user %q: %w", name, ErrDuplicateName)
		}
		return User{}, fmt.Errorf("store: create user %q: %w", name, err)
	}
	return u, nil
}

const userColumns = `id, name, password_hash, created_ms, lang`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	var created int64
	err := row.Scan(&u.ID, &u.Name, &u.PasswordHash, &created, &u.Lang)
	u.Created = fromMS(created)
	return u, err
}

// UserByID returns the user with that id, or ErrNotFound.
func (s *Store) UserByID(ctx context.Context, id int64) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	return u, err
}

// UserByName returns the user with that name in any case, or ErrNotFound.
func (s *Store) UserByName(ctx context.Context, name string) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE name_key = $1`, nameKey(name)))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("user %q: %w", name, ErrNotFound)
	}
	return u, err
}

// SetPasswordHash replaces a user's password hash (a new password, or a
// rehash with stronger parameters).
func (s *Store) SetPasswordHash(ctx context.Context, id int64, hash string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2`, hash, id)
		if err != nil {
			return fmt.Errorf("store: set password of user %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("user %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// SetLang stores the interface language a user chose (the caller checks
// that it is one of the site's; "" forgets the choice).
func (s *Store) SetLang(ctx context.Context, id int64, lang string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET lang = $1 WHERE id = $2`, lang, id)
		if err != nil {
			return fmt.Errorf("store: set language of user %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("user %d: %w", id, ErrNotFound)
		}
		return nil
	})
}
