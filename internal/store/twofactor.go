package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The second factor of an account (migration 00020). internal/twofactor
// owns its meaning: the store keeps the TOTP secret as it is given (sealed
// by twofactor), only hashes of the recovery codes and of the pending
// tokens, and each passkey's WebAuthn record as JSON. The writes that must
// not happen twice (a TOTP step, a recovery code, a pending token) are
// single conditional statements, so that two nodes racing on one code
// accept it once.

// TOTP is an account's TOTP secret.
type TOTP struct {
	Secret    []byte // sealed by internal/twofactor
	Confirmed bool   // a first code was right: logins ask for one
	LastStep  int64  // the time step of the last code accepted
	Created   time.Time
}

// TOTP returns the TOTP secret of user; ErrNotFound when he has none.
func (s *Store) TOTP(ctx context.Context, user int64) (TOTP, error) {
	var t TOTP
	var confirmed int
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT secret, confirmed, last_step, created_ms FROM totp WHERE user_id = $1`, user).
		Scan(&t.Secret, &confirmed, &t.LastStep, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return TOTP{}, fmt.Errorf("store: totp of user %d: %w", user, ErrNotFound)
	}
	if err != nil {
		return TOTP{}, fmt.Errorf("store: totp of user %d: %w", user, err)
	}
	t.Confirmed, t.Created = confirmed != 0, fromMS(created)
	return t, nil
}

// PutTOTP stores a new, unconfirmed secret for user, replacing an
// unconfirmed one; ErrConflict when he has a confirmed one (which must be
// disabled first).
func (s *Store) PutTOTP(ctx context.Context, user int64, secret []byte) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO totp (user_id, secret, confirmed, last_step, created_ms) VALUES ($1, $2, 0, 0, $3)
			ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_ms = excluded.created_ms WHERE totp.confirmed = 0`,
			user, secret, ms(s.now()))
		if err != nil {
			return fmt.Errorf("store: put totp of user %d: %w", user, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: put totp of user %d: %w", user, ErrConflict)
		}
		return nil
	})
}

// ConfirmTOTP marks user's secret confirmed by the code of step and gives
// him the recovery codes of hashes (replacing any); ErrConflict when he
// has no unconfirmed secret.
func (s *Store) ConfirmTOTP(ctx context.Context, user, step int64, hashes []string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE totp SET confirmed = 1, last_step = $2 WHERE user_id = $1 AND confirmed = 0`, user, step)
		if err != nil {
			return fmt.Errorf("store: confirm totp of user %d: %w", user, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: confirm totp of user %d: %w", user, ErrConflict)
		}
		return replaceRecoveryCodes(ctx, tx, user, hashes)
	})
}

// UseTOTPStep records that user's code of step was accepted: false when a
// code of this step or a later one was accepted already (a replay), or
// when he has no confirmed secret.
func (s *Store) UseTOTPStep(ctx context.Context, user, step int64) (bool, error) {
	var ok bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE totp SET last_step = $2 WHERE user_id = $1 AND confirmed = 1 AND last_step < $2`, user, step)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		ok = n == 1
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("store: use totp step of user %d: %w", user, err)
	}
	return ok, nil
}

// DeleteTOTP removes user's secret (his recovery codes stay: they may
// serve his passkeys; DeleteRecoveryCodes removes them).
func (s *Store) DeleteTOTP(ctx context.Context, user int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM totp WHERE user_id = $1`, user); err != nil {
			return fmt.Errorf("store: delete totp of user %d: %w", user, err)
		}
		return nil
	})
}

// DeleteRecoveryCodes removes user's recovery codes.
func (s *Store) DeleteRecoveryCodes(ctx context.Context, user int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, user); err != nil {
			return fmt.Errorf("store: delete recovery codes of user %d: %w", user, err)
		}
		return nil
	})
}

func replaceRecoveryCodes(ctx context.Context, tx *sql.Tx, user int64, hashes []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, user); err != nil {
		return fmt.Errorf("store: recovery codes of user %d: %w", user, err)
	}
	for _, h := range hashes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO recovery_codes (user_id, code_hash, used_ms) VALUES ($1, $2, 0)`, user, h); err != nil {
			return fmt.Errorf("store: recovery codes of user %d: %w", user, err)
		}
	}
	return nil
}

// ReplaceRecoveryCodes gives user the recovery codes of hashes, the old
// ones no longer valid.
func (s *Store) ReplaceRecoveryCodes(ctx context.Context, user int64, hashes []string) error {
	return s.write(ctx, func(tx *sql.Tx) error { return replaceRecoveryCodes(ctx, tx, user, hashes) })
}

// UseRecoveryCode marks user's code of hash used: false when he has no
// such code or it was used already.
func (s *Store) UseRecoveryCode(ctx context.Context, user int64, hash string) (bool, error) {
	var ok bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE recovery_codes SET used_ms = $3 WHERE user_id = $1 AND code_hash = $2 AND used_ms = 0`,
			user, hash, ms(s.now()))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		ok = n == 1
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("store: use recovery code of user %d: %w", user, err)
	}
	return ok, nil
}

// RecoveryCodesLeft returns how many of user's recovery codes are unused.
func (s *Store) RecoveryCodesLeft(ctx context.Context, user int64) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM recovery_codes WHERE user_id = $1 AND used_ms = 0`, user).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: recovery codes of user %d: %w", user, err)
	}
	return n, nil
}

// Passkey is a WebAuthn credential of an account.
type Passkey struct {
	ID           int64
	User         int64
	CredentialID []byte
	Name         string
	Credential   []byte // internal/twofactor's JSON of the WebAuthn record
	Created      time.Time
	Used         time.Time // zero: never used
}

// AddPasskey stores p (its ID is given by the store and returned);
// ErrConflict when its credential id is stored already.
func (s *Store) AddPasskey(ctx context.Context, p Passkey) (int64, error) {
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO passkeys (user_id, credential_id, name, credential, created_ms, used_ms)
			VALUES ($1, $2, $3, $4, $5, 0) RETURNING id`, p.User, p.CredentialID, p.Name, string(p.Credential), ms(p.Created)).Scan(&id)
	})
	if unique, _ := constraint(err); unique {
		return 0, fmt.Errorf("store: add passkey of user %d: %w", p.User, ErrConflict)
	}
	if err != nil {
		return 0, fmt.Errorf("store: add passkey of user %d: %w", p.User, err)
	}
	return id, nil
}

const passkeyColumns = `id, user_id, credential_id, name, credential, created_ms, used_ms`

func scanPasskey(row interface{ Scan(...any) error }) (Passkey, error) {
	var p Passkey
	var cred string
	var created, used int64
	if err := row.Scan(&p.ID, &p.User, &p.CredentialID, &p.Name, &cred, &created, &used); err != nil {
		return Passkey{}, err
	}
	p.Credential, p.Created = []byte(cred), fromMS(created)
	if used != 0 {
		p.Used = fromMS(used)
	}
	return p, nil
}

// Passkeys returns user's passkeys, the oldest first.
func (s *Store) Passkeys(ctx context.Context, user int64) ([]Passkey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE user_id = $1 ORDER BY id`, user)
	if err != nil {
		return nil, fmt.Errorf("store: passkeys of user %d: %w", user, err)
	}
	defer rows.Close()
	var out []Passkey
	for rows.Next() {
		p, err := scanPasskey(rows)
		if err != nil {
			return nil, fmt.Errorf("store: passkeys of user %d: %w", user, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: passkeys of user %d: %w", user, err)
	}
	return out, nil
}

// PasskeyByCredentialID returns the passkey of a credential id;
// ErrNotFound when none has it.
func (s *Store) PasskeyByCredentialID(ctx context.Context, credentialID []byte) (Passkey, error) {
	p, err := scanPasskey(s.r.QueryRowContext(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE credential_id = $1`, credentialID))
	if errors.Is(err, sql.ErrNoRows) {
		return Passkey{}, fmt.Errorf("store: passkey: %w", ErrNotFound)
	}
	if err != nil {
		return Passkey{}, fmt.Errorf("store: passkey: %w", err)
	}
	return p, nil
}

// UsePasskey records a use of passkey id at t with its record updated
// (the authenticator's signature counter).
func (s *Store) UsePasskey(ctx context.Context, id int64, credential []byte, t time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE passkeys SET credential = $2, used_ms = $3 WHERE id = $1`, id, string(credential), ms(t)); err != nil {
			return fmt.Errorf("store: use passkey %d: %w", id, err)
		}
		return nil
	})
}

// DeletePasskey removes user's passkey id; ErrNotFound when user has no
// passkey of that id (another user's included).
func (s *Store) DeletePasskey(ctx context.Context, user, id int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM passkeys WHERE id = $1 AND user_id = $2`, id, user)
		if err != nil {
			return fmt.Errorf("store: delete passkey %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: passkey %d of user %d: %w", id, user, ErrNotFound)
		}
		return nil
	})
}

// Pending is a token a browser carries between two requests of a login
// or a WebAuthn ceremony: only its hash is stored.
type Pending struct {
	TokenHash string
	Kind      string // internal/twofactor's: what the token is for
	User      int64  // 0: not known yet (a password-less login)
	Data      []byte
	Expires   time.Time
}

// PutPending stores p, and deletes the pending tokens expired by then.
func (s *Store) PutPending(ctx context.Context, p Pending) error {
	if p.Data == nil {
		p.Data = []byte{}
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM twofactor_pending WHERE expires_ms <= $1`, ms(s.now())); err != nil {
			return fmt.Errorf("store: expire pending: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO twofactor_pending (token_hash, kind, user_id, data, expires_ms) VALUES ($1, $2, $3, $4, $5)`,
			p.TokenHash, p.Kind, p.User, p.Data, ms(p.Expires)); err != nil {
			return fmt.Errorf("store: put pending: %w", err)
		}
		return nil
	})
}

// PendingToken returns the unexpired pending token of hash and kind;
// ErrNotFound when there is none. take deletes it in the same write, so
// that it serves once.
func (s *Store) PendingToken(ctx context.Context, hash, kind string, take bool) (Pending, error) {
	p := Pending{TokenHash: hash, Kind: kind}
	var expires int64
	read := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) error {
		return q.QueryRowContext(ctx, `SELECT user_id, data, expires_ms FROM twofactor_pending WHERE token_hash = $1 AND kind = $2 AND expires_ms > $3`,
			hash, kind, ms(s.now())).Scan(&p.User, &p.Data, &expires)
	}
	var err error
	if take {
		err = s.write(ctx, func(tx *sql.Tx) error {
			if err := read(tx); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `DELETE FROM twofactor_pending WHERE token_hash = $1`, hash)
			return err
		})
	} else {
		err = read(s.r)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return Pending{}, fmt.Errorf("store: pending %s: %w", kind, ErrNotFound)
	}
	if err != nil {
		return Pending{}, fmt.Errorf("store: pending %s: %w", kind, err)
	}
	p.Expires = fromMS(expires)
	return p, nil
}

// DeletePending removes the pending token of hash (none: no error).
func (s *Store) DeletePending(ctx context.Context, hash string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM twofactor_pending WHERE token_hash = $1`, hash)
		return err
	})
}

// AddTwoFactorFailure counts a wrong code of user and returns the wrong
// codes in the current window, which begins anew when it is older than
// window.
func (s *Store) AddTwoFactorFailure(ctx context.Context, user int64, window time.Duration) (int, error) {
	now := ms(s.now())
	var n int
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO twofactor_failures (user_id, window_ms, failures) VALUES ($1, $2, 1)
			ON CONFLICT (user_id) DO UPDATE SET
				failures = CASE WHEN twofactor_failures.window_ms <= $3 THEN 1 ELSE twofactor_failures.failures + 1 END,
				window_ms = CASE WHEN twofactor_failures.window_ms <= $3 THEN $2 ELSE twofactor_failures.window_ms END
			RETURNING failures`, user, now, now-window.Milliseconds()).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("store: two-factor failure of user %d: %w", user, err)
	}
	return n, nil
}

// TwoFactorFailures returns user's wrong codes in the window that began
// less than window ago (0 when it is older).
func (s *Store) TwoFactorFailures(ctx context.Context, user int64, window time.Duration) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT failures FROM twofactor_failures WHERE user_id = $1 AND window_ms > $2`,
		user, ms(s.now())-window.Milliseconds()).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: two-factor failures of user %d: %w", user, err)
	}
	return n, nil
}
