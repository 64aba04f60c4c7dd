package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Privacy is an account's privacy settings and kid mode (internal/privacy
// gives the values their meaning). An account that never changed them has
// the zero value's meaning: everyone may, kid mode off.
type Privacy struct {
	Challenge       string // everyone, rating, friends, nobody ("": everyone)
	ChallengeRating int    // the least rating a challenger needs under "rating"
	Message         string // everyone, friends, nobody
	Follow          string // everyone, nobody
	Online          string // everyone, friends, nobody
	Kid             bool
	// KidLockedBy is the coach whose class locked kid mode on (0: the
	// account's own choice, which its password undoes).
	KidLockedBy int64
	Updated     time.Time
}

// PrivacyOf returns user id's settings; the defaults (zero) when he never
// changed them.
func (s *Store) PrivacyOf(ctx context.Context, userID int64) (Privacy, error) {
	var p Privacy
	var kid int
	var updated int64
	err := s.r.QueryRowContext(ctx, `SELECT challenge, challenge_rating, message, follow, online, kid, kid_locked_by, updated_ms
		FROM privacy_settings WHERE user_id = $1`, userID).
		Scan(&p.Challenge, &p.ChallengeRating, &p.Message, &p.Follow, &p.Online, &kid, &p.KidLockedBy, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Privacy{}, nil
	}
	if err != nil {
		return Privacy{}, fmt.Errorf("store: privacy of user %d: %w", userID, err)
	}
	p.Kid, p.Updated = kid != 0, fromMS(updated)
	return p, nil
}

// SetPrivacy stores user id's four privacy settings (not his kid mode:
// SetKid).
func (s *Store) SetPrivacy(ctx context.Context, userID int64, p Privacy) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO privacy_settings (user_id, challenge, challenge_rating, message, follow, online, updated_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (user_id) DO UPDATE SET challenge = excluded.challenge, challenge_rating = excluded.challenge_rating,
				message = excluded.message, follow = excluded.follow, online = excluded.online, updated_ms = excluded.updated_ms`,
			userID, p.Challenge, p.ChallengeRating, p.Message, p.Follow, p.Online, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", userID, ErrNotFound)
		}
		return err
	})
}

// SetKid turns user id's kid mode on or off, locked by coach lockedBy (0:
// not locked).
func (s *Store) SetKid(ctx context.Context, userID int64, on bool, lockedBy int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		return setKidTx(ctx, tx, userID, on, lockedBy, s.now())
	})
}

func setKidTx(ctx context.Context, tx *sql.Tx, userID int64, on bool, lockedBy int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO privacy_settings (user_id, kid, kid_locked_by, updated_ms) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET kid = excluded.kid, kid_locked_by = excluded.kid_locked_by, updated_ms = excluded.updated_ms`,
		userID, boolInt(on), lockedBy, ms(now))
	if _, fk := constraint(err); fk {
		return fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	return err
}

// LockClassKid locks kid mode on for every accepted student of class,
// whose coach is coachID (lock), or lifts the locks the coach set there,
// turning kid mode off (unlock); it returns how many students changed.
// ErrNotFound when the class is not the coach's.
func (s *Store) LockClassKid(ctx context.Context, class string, coachID int64, lock bool) (int, error) {
	n := 0
	err := s.write(ctx, func(tx *sql.Tx) error {
		var coach int64
		err := tx.QueryRowContext(ctx, `SELECT coach_id FROM classes WHERE id = $1`, class).Scan(&coach)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && coach != coachID) {
			return fmt.Errorf("store: class %s of coach %d: %w", class, coachID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT m.user_id, COALESCE(p.kid_locked_by, 0) FROM class_students m
			LEFT JOIN privacy_settings p ON p.user_id = m.user_id WHERE m.class_id = $1 AND m.accepted = 1`, class)
		if err != nil {
			return err
		}
		type pupil struct{ id, lockedBy int64 }
		var ps []pupil
		for rows.Next() {
			var p pupil
			if err := rows.Scan(&p.id, &p.lockedBy); err != nil {
				rows.Close()
				return err
			}
			ps = append(ps, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		n = 0
		now := s.now()
		for _, p := range ps {
			switch {
			case lock && p.lockedBy == 0:
				err = setKidTx(ctx, tx, p.id, true, coachID, now)
			case !lock && p.lockedBy == coachID:
				err = setKidTx(ctx, tx, p.id, false, 0, now)
			default:
				continue // locked by another coach already, or not by this one
			}
			if err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// Blocked is a user that an account blocks.
type Blocked struct {
	UserID  int64
	Name    string
	Created time.Time
}

// Block records that user id blocks user other; blocking him again
// changes nothing. ErrNotFound when either does not exist.
func (s *Store) Block(ctx context.Context, userID, other int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO blocks (user_id, blocked_id, created_ms) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, blocked_id) DO NOTHING`, userID, other, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("block %d by %d: %w", other, userID, ErrNotFound)
		}
		return err
	})
}

// Unblock lifts user id's block of other; lifting a missing one is no error.
func (s *Store) Unblock(ctx context.Context, userID, other int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2`, userID, other)
		return err
	})
}

// Blocks returns the users user id blocks, by name.
func (s *Store) Blocks(ctx context.Context, userID int64) ([]Blocked, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT b.blocked_id, u.name, b.created_ms FROM blocks b JOIN users u ON u.id = b.blocked_id
		WHERE b.user_id = $1 ORDER BY u.name_key`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: blocks of %d: %w", userID, err)
	}
	defer rows.Close()
	var out []Blocked
	for rows.Next() {
		var b Blocked
		var created int64
		if err := rows.Scan(&b.UserID, &b.Name, &created); err != nil {
			return nil, err
		}
		b.Created = fromMS(created)
		out = append(out, b)
	}
	return out, rows.Err()
}

// BlockedWith returns the users user id blocks and those who block him.
func (s *Store) BlockedWith(ctx context.Context, userID int64) ([]Blocked, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT u.id, u.name, b.created_ms FROM blocks b
		JOIN users u ON u.id = CASE WHEN b.user_id = $1 THEN b.blocked_id ELSE b.user_id END
		WHERE b.user_id = $1 OR b.blocked_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: blocks with %d: %w", userID, err)
	}
	defer rows.Close()
	var out []Blocked
	for rows.Next() {
		var b Blocked
		var created int64
		if err := rows.Scan(&b.UserID, &b.Name, &created); err != nil {
			return nil, err
		}
		b.Created = fromMS(created)
		out = append(out, b)
	}
	return out, rows.Err()
}

// BlockedEither reports whether a blocks b or b blocks a.
func (s *Store) BlockedEither(ctx context.Context, a, b int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM blocks WHERE (user_id = $1 AND blocked_id = $2) OR (user_id = $2 AND blocked_id = $1)`, a, b).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: blocks between %d and %d: %w", a, b, err)
	}
	return n > 0, nil
}

// Closed is a closed account.
type Closed struct {
	UserID  int64
	Name    string // the name it had, never taken again
	Neutral string // the name its games show now
	At      time.Time
}

// CloseAccount closes user id in one transaction: it ends his sessions
// and tokens, lifts his blocks (his own and others' of him), makes his
// studies private, and names him neutral in his games. His users row
// stays, so that no one signs up with his name again; his ratings and
// rating history stay (the leaderboard leaves him out). ErrConflict when
// he is closed already, ErrNotFound when he does not exist.
func (s *Store) CloseAccount(ctx context.Context, userID int64, neutral string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO closed_accounts (user_id, neutral_name, closed_ms) VALUES ($1, $2, $3)`,
			userID, neutral, ms(s.now()))
		switch unique, fk := constraint(err); {
		case fk:
			return fmt.Errorf("close user %d: %w", userID, ErrNotFound)
		case unique:
			return fmt.Errorf("close user %d: %w", userID, ErrConflict)
		case err != nil:
			return fmt.Errorf("store: close user %d: %w", userID, err)
		}
		for _, q := range []string{
			`DELETE FROM sessions WHERE user_id = $1`,
			`DELETE FROM tokens WHERE user_id = $1`,
			`DELETE FROM blocks WHERE user_id = $1 OR blocked_id = $1`,
			`DELETE FROM study_members WHERE user_id = $1`,
			`DELETE FROM class_students WHERE user_id = $1`,
			`UPDATE studies SET visibility = 'private' WHERE owner_id = $1`,
			// What the other account features keep of the account: its
			// address and links, its devices, its second factors, the
			// codes of apps it let in (its apps' tokens are tokens, above;
			// the sessions' devices go with the sessions).
			`DELETE FROM user_emails WHERE user_id = $1`,
			`DELETE FROM account_links WHERE user_id = $1`,
			`DELETE FROM email_changes WHERE user_id = $1`,
			`DELETE FROM known_devices WHERE user_id = $1`,
			`DELETE FROM totp WHERE user_id = $1`,
			`DELETE FROM recovery_codes WHERE user_id = $1`,
			`DELETE FROM passkeys WHERE user_id = $1`,
			`DELETE FROM twofactor_pending WHERE user_id = $1`,
			`DELETE FROM twofactor_failures WHERE user_id = $1`,
			`DELETE FROM oauth_codes WHERE user_id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, userID); err != nil {
				return fmt.Errorf("store: close user %d: %w", userID, err)
			}
		}
		for _, q := range []string{
			`UPDATE games SET white_name = $2, white_key = lower($2) WHERE white_user_id = $1`,
			`UPDATE games SET black_name = $2, black_key = lower($2) WHERE black_user_id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, userID, neutral); err != nil {
				return fmt.Errorf("store: close user %d: %w", userID, err)
			}
		}
		return nil
	})
}

// ClosedAccount returns the closing of user id; ErrNotFound when his
// account is open (or does not exist).
func (s *Store) ClosedAccount(ctx context.Context, userID int64) (Closed, error) {
	return s.closed(ctx, `c.user_id = $1`, userID)
}

// ClosedByName returns the closed account of name in any case, or the one
// whose games show the neutral name; ErrNotFound when none is closed.
func (s *Store) ClosedByName(ctx context.Context, name string) (Closed, error) {
	return s.closed(ctx, `u.name_key = $1 OR c.neutral_name = $2`, nameKey(name), name)
}

func (s *Store) closed(ctx context.Context, where string, args ...any) (Closed, error) {
	var c Closed
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT c.user_id, u.name, c.neutral_name, c.closed_ms FROM closed_accounts c
		JOIN users u ON u.id = c.user_id WHERE `+where, args...).Scan(&c.UserID, &c.Name, &c.Neutral, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Closed{}, fmt.Errorf("closed account: %w", ErrNotFound)
	}
	if err != nil {
		return Closed{}, fmt.Errorf("store: closed account: %w", err)
	}
	c.At = fromMS(at)
	return c, nil
}

// StartDataExport records that user id starts a download of his data
// now, unless he has started perDay of them in the last 24 hours
// (ErrLimit); the records older than a day are forgotten.
func (s *Store) StartDataExport(ctx context.Context, userID int64, perDay int) error {
	now := s.now()
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM data_exports WHERE user_id = $1 AND started_ms <= $2`, userID, ms(now.Add(-24*time.Hour))); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM data_exports WHERE user_id = $1`, userID).Scan(&n); err != nil {
			return err
		}
		if n >= perDay {
			return fmt.Errorf("store: %d data exports in a day: %w", n, ErrLimit)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO data_exports (user_id, started_ms) VALUES ($1, $2)`, userID, ms(now))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", userID, ErrNotFound)
		}
		return err
	})
}

// ReportsBy returns the chat reports the identity seat ("u:<id>") made,
// oldest first, at most limit.
func (s *Store) ReportsBy(ctx context.Context, seat string, limit int) ([]Report, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, reporter, reporter_name, reported, game_id, room, message, verified, created_ms
		FROM reports WHERE reporter = $1 ORDER BY created_ms, id LIMIT $2`, seat, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reports by %s: %w", seat, err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
		var created int64
		var verified int
		if err := rows.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Reported, &r.GameID, &r.Room, &r.Message, &verified, &created); err != nil {
			return nil, err
		}
		r.Created, r.Verified = fromMS(created), verified != 0
		out = append(out, r)
	}
	return out, rows.Err()
}

// OwnStudies returns the studies user id owns, oldest first.
func (s *Store) OwnStudies(ctx context.Context, userID int64) ([]Study, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+studyColumns+` FROM studies s JOIN users u ON u.id = s.owner_id
		WHERE s.owner_id = $1 ORDER BY s.created_ms, s.id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: studies of %d: %w", userID, err)
	}
	defer rows.Close()
	var out []Study
	for rows.Next() {
		st, err := scanStudy(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
