package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Session is a server-side login session. Only a hash of the cookie's token
// is stored, so a copy of the database does not log anybody in.
type Session struct {
	TokenHash string // hex SHA-256 of the token (see auth)
	UserID    int64
	Created   time.Time
	Expires   time.Time
}

// CreateSession stores a session; ErrNotFound when the user does not exist.
func (s *Store) CreateSession(ctx context.Context, sess Session) error {
	return s.writeGame(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)`,
			sess.TokenHash, sess.UserID, ms(sess.Created), ms(sess.Expires))
		switch unique, fk := constraint(err); {
		case fk:
			return fmt.Errorf("session for user %d: %w", sess.UserID, ErrNotFound)
		case unique:
			return fmt.Errorf("session: %w", ErrConflict)
		case err != nil:
			return fmt.Errorf("store: create session: %w", err)
		}
		return nil
	})
}

// SessionByTokenHash returns the session, expired or not, or ErrNotFound.
func (s *Store) SessionByTokenHash(ctx context.Context, tokenHash string) (Session, error) {
	defer s.observe("session", time.Now())
	sess := Session{TokenHash: tokenHash}
	var created, expires int64
	err := s.r.QueryRowContext(ctx, `SELECT user_id, created_ms, expires_ms FROM sessions WHERE token_hash = $1`, tokenHash).
		Scan(&sess.UserID, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("session: %w", ErrNotFound)
	}
	sess.Created, sess.Expires = fromMS(created), fromMS(expires)
	return sess, err
}

// DeleteSession deletes a session (logout); deleting a missing one is no error.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash)
		return err
	})
}

// DeleteUserSessions logs a user out everywhere.
func (s *Store) DeleteUserSessions(ctx context.Context, userID int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1`, userID)
		return err
	})
}

// DeleteExpiredSessions deletes the sessions expired at now and returns how many.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires_ms <= $1`, ms(now))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// sessionBatch bounds the expired sessions deleted in one transaction, so
// that a sweep never holds the writer for long.
const sessionBatch = 1000

// SweepSessions deletes the sessions expired at now, at most batch (1000
// when 0 or less) to a transaction, until none is left, and returns how many.
func (s *Store) SweepSessions(ctx context.Context, now time.Time, batch int) (int64, error) {
	if batch <= 0 {
		batch = sessionBatch
	}
	var total int64
	for {
		var n int64
		err := s.write(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash IN
				(SELECT token_hash FROM sessions WHERE expires_ms <= $1 LIMIT $2)`, ms(now), batch)
			if err != nil {
				return fmt.Errorf("store: sweep sessions: %w", err)
			}
			n, err = res.RowsAffected()
			return err
		})
		total += n
		if err != nil || n < int64(batch) {
			return total, err
		}
	}
}

// sweepSessions runs SweepSessions every interval until Close.
func (s *Store) sweepSessions(every time.Duration) {
	s.tick(every, s.swept, func() {
		// An error is retried at the next tick; a write after Close
		// returns ErrClosed at once.
		s.SweepSessions(context.Background(), s.now(), 0)
	})
}

// tick calls fn every interval until Close, then closes done.
func (s *Store) tick(every time.Duration, done chan struct{}, fn func()) {
	defer close(done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
			fn()
		}
	}
}
