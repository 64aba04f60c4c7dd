package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/mail"
)

// The store's side of internal/account and internal/mail (migration 19):
// e-mail addresses, the mailed links, the changes of address, the
// sessions' devices and the mail queue.

// Email is an account's address.
type Email struct {
	UserID   int64
	Address  string
	Verified time.Time // zero: not verified
}

// EmailKey is the form in which addresses are compared.
func EmailKey(address string) string { return strings.ToLower(strings.TrimSpace(address)) }

// SetEmail sets the address of user id, not verified unless verified is
// not zero; "" removes it.
func (s *Store) SetEmail(ctx context.Context, id int64, address string, verified time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if address == "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM user_emails WHERE user_id = $1`, id)
			return err
		}
		var v int64
		if !verified.IsZero() {
			v = ms(verified)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO user_emails (user_id, email, email_key, verified_ms) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, email_key = excluded.email_key, verified_ms = excluded.verified_ms`,
			id, address, EmailKey(address), v)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: set e-mail of user %d: %w", id, err)
		}
		return nil
	})
}

// EmailOf returns the address of user id, or ErrNotFound when he has none.
func (s *Store) EmailOf(ctx context.Context, id int64) (Email, error) {
	e := Email{UserID: id}
	var v int64
	err := s.r.QueryRowContext(ctx, `SELECT email, verified_ms FROM user_emails WHERE user_id = $1`, id).Scan(&e.Address, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return Email{}, fmt.Errorf("e-mail of user %d: %w", id, ErrNotFound)
	}
	if v != 0 {
		e.Verified = fromMS(v)
	}
	return e, err
}

// VerifyEmail marks the address of user id verified at t, if it is still
// address; ErrNotFound when it is not.
func (s *Store) VerifyEmail(ctx context.Context, id int64, address string, t time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE user_emails SET verified_ms = $1 WHERE user_id = $2 AND email_key = $3`, ms(t), id, EmailKey(address))
		if err != nil {
			return fmt.Errorf("store: verify e-mail of user %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("e-mail %q of user %d: %w", address, id, ErrNotFound)
		}
		return nil
	})
}

// AccountsByEmail returns up to limit accounts whose verified address is
// address, with their names, the oldest first.
func (s *Store) AccountsByEmail(ctx context.Context, address string, limit int) ([]User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userColumnsOf("u")+` FROM users u JOIN user_emails e ON e.user_id = u.id
		WHERE e.email_key = $1 AND e.verified_ms <> 0 ORDER BY u.id LIMIT $2`, EmailKey(address), limit)
	if err != nil {
		return nil, fmt.Errorf("store: accounts by e-mail: %w", err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

func userColumnsOf(alias string) string {
	cols := strings.Split(userColumns, ", ")
	for i, c := range cols {
		cols[i] = alias + "." + c
	}
	return strings.Join(cols, ", ")
}

// AccountLink is a mailed link of internal/account: only its token's hash.
type AccountLink struct {
	TokenHash string
	UserID    int64
	Purpose   string // verify, reset, email_old, email_new
	Email     string // the address it was sent to
	Created   time.Time
	Expires   time.Time
}

// CreateAccountLink stores a link; ErrNotFound when the user is missing.
func (s *Store) CreateAccountLink(ctx context.Context, l AccountLink) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO account_links (token_hash, user_id, purpose, email, created_ms, expires_ms)
			VALUES ($1, $2, $3, $4, $5, $6)`, l.TokenHash, l.UserID, l.Purpose, l.Email, ms(l.Created), ms(l.Expires))
		switch unique, fk := constraint(err); {
		case fk:
			return fmt.Errorf("link for user %d: %w", l.UserID, ErrNotFound)
		case unique:
			return fmt.Errorf("link: %w", ErrConflict)
		case err != nil:
			return fmt.Errorf("store: create link: %w", err)
		}
		return nil
	})
}

const linkColumns = `token_hash, user_id, purpose, email, created_ms, expires_ms`

func scanLink(row interface{ Scan(...any) error }) (AccountLink, error) {
	var l AccountLink
	var c, e int64
	err := row.Scan(&l.TokenHash, &l.UserID, &l.Purpose, &l.Email, &c, &e)
	l.Created, l.Expires = fromMS(c), fromMS(e)
	return l, err
}

// AccountLinkByHash returns the link of purpose live at now, without using
// it; ErrNotFound when there is none.
func (s *Store) AccountLinkByHash(ctx context.Context, hash, purpose string, now time.Time) (AccountLink, error) {
	l, err := scanLink(s.r.QueryRowContext(ctx, `SELECT `+linkColumns+` FROM account_links
		WHERE token_hash = $1 AND purpose = $2 AND expires_ms > $3`, hash, purpose, ms(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return AccountLink{}, fmt.Errorf("link: %w", ErrNotFound)
	}
	return l, err
}

// TakeAccountLink uses the link of purpose live at now: it is deleted and
// returned; ErrNotFound when there is none (unknown, used or expired). Of
// two requests with one link, one gets it.
func (s *Store) TakeAccountLink(ctx context.Context, hash, purpose string, now time.Time) (AccountLink, error) {
	var l AccountLink
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		l, err = scanLink(tx.QueryRowContext(ctx, `DELETE FROM account_links
			WHERE token_hash = $1 AND purpose = $2 AND expires_ms > $3 RETURNING `+linkColumns, hash, purpose, ms(now)))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("link: %w", ErrNotFound)
		}
		return err
	})
	return l, err
}

// DeleteAccountLinks deletes the links of user id for the purposes (all
// when none is named): a reset used ends the other reset links.
func (s *Store) DeleteAccountLinks(ctx context.Context, id int64, purposes ...string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if len(purposes) == 0 {
			_, err := tx.ExecContext(ctx, `DELETE FROM account_links WHERE user_id = $1`, id)
			return err
		}
		for _, p := range purposes {
			if _, err := tx.ExecContext(ctx, `DELETE FROM account_links WHERE user_id = $1 AND purpose = $2`, id, p); err != nil {
				return err
			}
		}
		return nil
	})
}

// CountAccountLinks counts the links made since t for user id (id 0: any
// user) or to address (""; any address), of the purposes (any when none).
// It bounds the mail one account or one address gets.
func (s *Store) CountAccountLinks(ctx context.Context, id int64, address string, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM account_links WHERE created_ms >= $1
		AND (CAST($2 AS BIGINT) = 0 OR user_id = $2) AND (CAST($3 AS TEXT) = '' OR lower(email) = $3)`, ms(since), id, EmailKey(address)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: count links: %w", err)
	}
	return n, nil
}

// SweepAccountLinks deletes the links expired at now, and the changes of
// address expired too.
func (s *Store) SweepAccountLinks(ctx context.Context, now time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM account_links WHERE expires_ms <= $1`, ms(now)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM email_changes WHERE expires_ms <= $1`, ms(now))
		return err
	})
}

// EmailChange is a change of address waiting for its confirmations.
type EmailChange struct {
	UserID       int64
	NewEmail     string
	OldOK, NewOK bool
	Expires      time.Time
}

// PutEmailChange starts (or starts again) a change of address.
func (s *Store) PutEmailChange(ctx context.Context, c EmailChange) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO email_changes (user_id, new_email, old_ok, new_ok, expires_ms) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (user_id) DO UPDATE SET new_email = excluded.new_email, old_ok = excluded.old_ok, new_ok = excluded.new_ok, expires_ms = excluded.expires_ms`,
			c.UserID, c.NewEmail, b2i(c.OldOK), b2i(c.NewOK), ms(c.Expires))
		if err != nil {
			return fmt.Errorf("store: change of e-mail of user %d: %w", c.UserID, err)
		}
		return nil
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// EmailChangeOf returns the change of address of user id live at now, or
// ErrNotFound.
func (s *Store) EmailChangeOf(ctx context.Context, id int64, now time.Time) (EmailChange, error) {
	c := EmailChange{UserID: id}
	var o, n int
	var e int64
	err := s.r.QueryRowContext(ctx, `SELECT new_email, old_ok, new_ok, expires_ms FROM email_changes WHERE user_id = $1 AND expires_ms > $2`,
		id, ms(now)).Scan(&c.NewEmail, &o, &n, &e)
	if errors.Is(err, sql.ErrNoRows) {
		return EmailChange{}, fmt.Errorf("change of e-mail of user %d: %w", id, ErrNotFound)
	}
	c.OldOK, c.NewOK, c.Expires = o == 1, n == 1, fromMS(e)
	return c, err
}

// ConfirmEmailChange records one side's confirmation (old: the old
// address's) of the change to newEmail and, when both sides have
// confirmed, sets the account's address, verified at now, and ends the
// change; done says it did. ErrNotFound when no such change is live.
func (s *Store) ConfirmEmailChange(ctx context.Context, id int64, newEmail string, old bool, now time.Time) (done bool, err error) {
	err = s.write(ctx, func(tx *sql.Tx) error {
		col := "new_ok"
		if old {
			col = "old_ok"
		}
		res, err := tx.ExecContext(ctx, `UPDATE email_changes SET `+col+` = 1 WHERE user_id = $1 AND lower(new_email) = $2 AND expires_ms > $3`,
			id, EmailKey(newEmail), ms(now))
		if err != nil {
			return fmt.Errorf("store: confirm change of e-mail: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("change of e-mail of user %d: %w", id, ErrNotFound)
		}
		var addr string
		err = tx.QueryRowContext(ctx, `SELECT new_email FROM email_changes WHERE user_id = $1 AND old_ok = 1 AND new_ok = 1`, id).Scan(&addr)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_emails (user_id, email, email_key, verified_ms) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, email_key = excluded.email_key, verified_ms = excluded.verified_ms`,
			id, addr, EmailKey(addr), ms(now)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM email_changes WHERE user_id = $1`, id); err != nil {
			return err
		}
		done = true
		return nil
	})
	return done, err
}

// DeleteEmailChange cancels a change of address.
func (s *Store) DeleteEmailChange(ctx context.Context, id int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM email_changes WHERE user_id = $1`, id)
		return err
	})
}

// SessionInfo is a session with its device, address and last use.
type SessionInfo struct {
	Session
	Device   string
	Addr     string
	LastSeen time.Time
}

// PutSessionDevice records the device and address of a session seen at t.
func (s *Store) PutSessionDevice(ctx context.Context, hash, device, addr string, t time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO session_devices (token_hash, device, addr, last_seen_ms) VALUES ($1, $2, $3, $4)
			ON CONFLICT (token_hash) DO UPDATE SET addr = excluded.addr, last_seen_ms = excluded.last_seen_ms`, hash, device, addr, ms(t))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("session: %w", ErrNotFound)
		}
		return err
	})
}

// UserSessions returns the live sessions of user id at now, the last used
// first.
func (s *Store) UserSessions(ctx context.Context, id int64, now time.Time) ([]SessionInfo, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT s.token_hash, s.created_ms, s.expires_ms, COALESCE(d.device, ''), COALESCE(d.addr, ''),
		COALESCE(d.last_seen_ms, s.created_ms) FROM sessions s LEFT JOIN session_devices d ON d.token_hash = s.token_hash
		WHERE s.user_id = $1 AND s.expires_ms > $2 ORDER BY 6 DESC, s.token_hash LIMIT 200`, id, ms(now))
	if err != nil {
		return nil, fmt.Errorf("store: sessions of user %d: %w", id, err)
	}
	defer rows.Close()
	var out []SessionInfo
	for rows.Next() {
		si := SessionInfo{Session: Session{UserID: id}}
		var c, e, l int64
		if err := rows.Scan(&si.TokenHash, &c, &e, &si.Device, &si.Addr, &l); err != nil {
			return nil, err
		}
		si.Created, si.Expires, si.LastSeen = fromMS(c), fromMS(e), fromMS(l)
		out = append(out, si)
	}
	return out, rows.Err()
}

// DeleteUserSession ends the session of user id whose token's hash starts
// with prefix (at least 16 hex digits); ErrNotFound when he has none such:
// another user's session is never touched.
func (s *Store) DeleteUserSession(ctx context.Context, id int64, prefix string) error {
	if len(prefix) < 16 || strings.ContainsAny(prefix, "%_") {
		return fmt.Errorf("session %q: %w", prefix, ErrNotFound)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash LIKE $2`, id, prefix+"%")
		if err != nil {
			return fmt.Errorf("store: end session: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("session %q: %w", prefix, ErrNotFound)
		}
		return nil
	})
}

// DeleteOtherSessions ends every session of user id but the one of keep
// ("": every one), and returns how many it ended.
func (s *Store) DeleteOtherSessions(ctx context.Context, id int64, keep string) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, id, keep)
		if err != nil {
			return fmt.Errorf("store: end sessions of user %d: %w", id, err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// AddKnownDevice records that user id logged in from device at t and
// reports whether the device is new to him. He knows at most 100 devices:
// beyond, the oldest is forgotten.
func (s *Store) AddKnownDevice(ctx context.Context, id int64, device string, t time.Time) (bool, error) {
	var fresh bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO known_devices (user_id, device, first_ms) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, device) DO NOTHING`, id, device, ms(t))
		if err != nil {
			return fmt.Errorf("store: known device: %w", err)
		}
		n, _ := res.RowsAffected()
		fresh = n == 1
		if fresh {
			_, err = tx.ExecContext(ctx, `DELETE FROM known_devices WHERE user_id = $1 AND device NOT IN
				(SELECT device FROM known_devices WHERE user_id = $1 ORDER BY first_ms DESC, device LIMIT 100)`, id)
		}
		return err
	})
	return fresh, err
}

// KnownDevices counts the devices user id logged in from.
func (s *Store) KnownDevices(ctx context.Context, id int64) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM known_devices WHERE user_id = $1`, id).Scan(&n)
	return n, err
}

var _ mail.Store = (*Store)(nil)

// EnqueueMail stores m due at next; mail.ErrFull when max are queued.
func (s *Store) EnqueueMail(ctx context.Context, m mail.Message, next time.Time, max int) (int64, error) {
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_queue`).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return mail.ErrFull
		}
		return tx.QueryRowContext(ctx, `INSERT INTO mail_queue (to_addr, subject, body, next_ms, created_ms) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			m.To, m.Subject, m.Body, ms(next), ms(s.now())).Scan(&id)
	})
	if err != nil && !errors.Is(err, mail.ErrFull) {
		err = fmt.Errorf("store: enqueue mail: %w", err)
	}
	return id, err
}

// DueMail returns up to limit messages due at now, the earliest first.
func (s *Store) DueMail(ctx context.Context, now time.Time, limit int) ([]mail.Queued, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, to_addr, subject, body, attempts, next_ms, created_ms, last_error FROM mail_queue
		WHERE next_ms <= $1 ORDER BY next_ms, id LIMIT $2`, ms(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due mail: %w", err)
	}
	defer rows.Close()
	var out []mail.Queued
	for rows.Next() {
		var q mail.Queued
		var n, c int64
		if err := rows.Scan(&q.ID, &q.Message.To, &q.Message.Subject, &q.Message.Body, &q.Attempts, &n, &c, &q.LastErr); err != nil {
			return nil, err
		}
		q.Next, q.Created = fromMS(n), fromMS(c)
		out = append(out, q)
	}
	return out, rows.Err()
}

// ClaimMail moves message id's next attempt from was to until; false when
// it was moved first (by another node).
func (s *Store) ClaimMail(ctx context.Context, id int64, was, until time.Time) (bool, error) {
	var ok bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE mail_queue SET next_ms = $1 WHERE id = $2 AND next_ms = $3`, ms(until), id, ms(was))
		if err != nil {
			return fmt.Errorf("store: claim mail %d: %w", id, err)
		}
		n, _ := res.RowsAffected()
		ok = n == 1
		return nil
	})
	return ok, err
}

// DeleteMail removes a message.
func (s *Store) DeleteMail(ctx context.Context, id int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM mail_queue WHERE id = $1`, id)
		return err
	})
}

// RetryMail records a failed try of message id and its next attempt.
func (s *Store) RetryMail(ctx context.Context, id int64, attempts int, next time.Time, lastErr string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE mail_queue SET attempts = $1, next_ms = $2, last_error = $3 WHERE id = $4`, attempts, ms(next), lastErr, id)
		return err
	})
}

// MailQueueLen counts the queued messages.
func (s *Store) MailQueueLen(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_queue`).Scan(&n)
	return n, err
}
