package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Notification is one notice an account was told (internal/notifications
// gives it its meaning): its text is a catalog key and JSON arguments.
type Notification struct {
	ID      int64
	UserID  int64
	ActorID int64
	Kind    string
	Key     string
	Args    string // a JSON array
	URL     string
	Created time.Time
	Read    time.Time // zero: unread
}

// MaxNotifications is how many notices an account keeps: adding one
// deletes those older than the newest MaxNotifications.
const MaxNotifications = 500

// AddNotification stores n (its ID and Created are set here) and prunes
// the account's oldest notices past MaxNotifications.
func (s *Store) AddNotification(ctx context.Context, n Notification) (Notification, error) {
	n.Created = s.now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO notifications (user_id, actor_id, kind, msg_key, args, url, created_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, n.UserID, n.ActorID, n.Kind, n.Key, n.Args, n.URL, ms(n.Created)).Scan(&n.ID)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", n.UserID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM notifications WHERE user_id = $1 AND id <= (
			SELECT id FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`, n.UserID, MaxNotifications)
		return err
	})
	if err != nil {
		return Notification{}, fmt.Errorf("store: add notification: %w", err)
	}
	return n, nil
}

// Notifications returns user id's notices, newest first, limit from
// offset.
func (s *Store) Notifications(ctx context.Context, userID int64, limit, offset int) ([]Notification, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, user_id, actor_id, kind, msg_key, args, url, created_ms, read_ms
		FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, userID, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("store: notifications of %d: %w", userID, err)
	}
	defer rows.Close()
	var out []Notification
	for rows.Next() {
		var n Notification
		var created, read int64
		if err := rows.Scan(&n.ID, &n.UserID, &n.ActorID, &n.Kind, &n.Key, &n.Args, &n.URL, &created, &read); err != nil {
			return nil, fmt.Errorf("store: notifications of %d: %w", userID, err)
		}
		n.Created = fromMS(created)
		if read != 0 {
			n.Read = fromMS(read)
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// UnreadNotifications counts user id's unread notices, up to max.
func (s *Store) UnreadNotifications(ctx context.Context, userID int64, max int) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM notifications WHERE user_id = $1 AND read_ms = 0 LIMIT $2) u`,
		userID, max).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: unread notifications of %d: %w", userID, err)
	}
	return n, nil
}

// MarkNotificationsRead marks user id's notices read: the one of id
// notice, or all of them when notice is 0. It returns how many it marked.
func (s *Store) MarkNotificationsRead(ctx context.Context, userID, notice int64) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		q, args := `UPDATE notifications SET read_ms = $1 WHERE user_id = $2 AND read_ms = 0`, []any{ms(s.now()), userID}
		if notice != 0 {
			q, args = q+` AND id = $3`, append(args, notice)
		}
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: mark notifications read: %w", err)
	}
	return int(n), nil
}

// NotifyPref is where an account wants one kind of notice: in the site's
// list (and live), by Web Push, by e-mail.
type NotifyPref struct {
	Site, Push, Mail bool
}

// DefaultNotifyPref is a kind's choice until the account changes it.
var DefaultNotifyPref = NotifyPref{Site: true, Push: true}

// NotifyPrefs returns the kinds whose choice user id changed.
func (s *Store) NotifyPrefs(ctx context.Context, userID int64) (map[string]NotifyPref, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT kind, site, push, mail FROM notify_prefs WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: notify prefs of %d: %w", userID, err)
	}
	defer rows.Close()
	out := map[string]NotifyPref{}
	for rows.Next() {
		var kind string
		var site, push, mail int
		if err := rows.Scan(&kind, &site, &push, &mail); err != nil {
			return nil, fmt.Errorf("store: notify prefs of %d: %w", userID, err)
		}
		out[kind] = NotifyPref{Site: site != 0, Push: push != 0, Mail: mail != 0}
	}
	return out, rows.Err()
}

// SetNotifyPrefs stores user id's choices, kind by kind.
func (s *Store) SetNotifyPrefs(ctx context.Context, userID int64, prefs map[string]NotifyPref) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		for kind, p := range prefs {
			_, err := tx.ExecContext(ctx, `INSERT INTO notify_prefs (user_id, kind, site, push, mail) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (user_id, kind) DO UPDATE SET site = excluded.site, push = excluded.push, mail = excluded.mail`,
				userID, kind, boolInt(p.Site), boolInt(p.Push), boolInt(p.Mail))
			if _, fk := constraint(err); fk {
				return fmt.Errorf("user %d: %w", userID, ErrNotFound)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// PushSubscription is a browser's Web Push endpoint and its keys (RFC
// 8291: the receiver's P-256 public key and the authentication secret,
// base64url as the browser gives them).
type PushSubscription struct {
	ID       int64
	UserID   int64
	Endpoint string
	P256DH   string
	Auth     string
	Created  time.Time
}

// MaxPushSubscriptions is how many browsers an account may subscribe;
// the oldest goes when one more comes.
const MaxPushSubscriptions = 10

// AddPushSubscription stores sub for its account (an endpoint already
// stored moves to it with its new keys) and drops the account's oldest
// past MaxPushSubscriptions.
func (s *Store) AddPushSubscription(ctx context.Context, sub PushSubscription) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_ms) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, created_ms = excluded.created_ms`,
			sub.UserID, sub.Endpoint, sub.P256DH, sub.Auth, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", sub.UserID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE user_id = $1 AND id <= (
			SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`, sub.UserID, MaxPushSubscriptions)
		return err
	})
}

// DeletePushSubscription removes an endpoint (the push service said it is
// gone, or its account unsubscribed it: userID 0 matches any account).
func (s *Store) DeletePushSubscription(ctx context.Context, userID int64, endpoint string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if userID == 0 {
			_, err = tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1`, endpoint)
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2`, endpoint, userID)
		}
		return err
	})
}

// PushSubscriptions returns user id's subscriptions.
func (s *Store) PushSubscriptions(ctx context.Context, userID int64) ([]PushSubscription, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, user_id, endpoint, p256dh, auth, created_ms FROM push_subscriptions WHERE user_id = $1 ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: push subscriptions of %d: %w", userID, err)
	}
	defer rows.Close()
	var out []PushSubscription
	for rows.Next() {
		var p PushSubscription
		var created int64
		if err := rows.Scan(&p.ID, &p.UserID, &p.Endpoint, &p.P256DH, &p.Auth, &created); err != nil {
			return nil, fmt.Errorf("store: push subscriptions of %d: %w", userID, err)
		}
		p.Created = fromMS(created)
		out = append(out, p)
	}
	return out, rows.Err()
}

// ---- follows ----

// MaxFollows is how many players one account may follow.
const MaxFollows = 1000

// Follow makes user id follow other (again is no change); ErrTooMany at
// MaxFollows.
func (s *Store) Follow(ctx context.Context, userID, other int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM follows WHERE user_id = $1`, userID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxFollows {
			return ErrTooMany
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO follows (user_id, followed_id, created_ms) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, followed_id) DO NOTHING`, userID, other, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d or %d: %w", userID, other, ErrNotFound)
		}
		return err
	})
}

// Unfollow makes user id stop following other.
func (s *Store) Unfollow(ctx context.Context, userID, other int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM follows WHERE user_id = $1 AND followed_id = $2`, userID, other)
		return err
	})
}

// Follows reports whether user id follows other.
func (s *Store) Follows(ctx context.Context, userID, other int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM follows WHERE user_id = $1 AND followed_id = $2`, userID, other).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: follows: %w", err)
	}
	return n > 0, nil
}

// Followed is a player an account follows, or one who follows it.
type Followed struct {
	UserID int64
	Name   string
	Since  time.Time
}

// Following returns the players user id follows, by name, limit from
// offset.
func (s *Store) Following(ctx context.Context, userID int64, limit, offset int) ([]Followed, error) {
	return s.followRows(ctx, `SELECT u.id, u.name, f.created_ms FROM follows f JOIN users u ON u.id = f.followed_id
		WHERE f.user_id = $1 ORDER BY u.name LIMIT $2 OFFSET $3`, userID, limit, offset)
}

// Followers returns the players who follow user id, by name, limit from
// offset.
func (s *Store) Followers(ctx context.Context, userID int64, limit, offset int) ([]Followed, error) {
	return s.followRows(ctx, `SELECT u.id, u.name, f.created_ms FROM follows f JOIN users u ON u.id = f.user_id
		WHERE f.followed_id = $1 ORDER BY u.name LIMIT $2 OFFSET $3`, userID, limit, offset)
}

func (s *Store) followRows(ctx context.Context, q string, args ...any) ([]Followed, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: follows: %w", err)
	}
	defer rows.Close()
	var out []Followed
	for rows.Next() {
		var f Followed
		var since int64
		if err := rows.Scan(&f.UserID, &f.Name, &since); err != nil {
			return nil, fmt.Errorf("store: follows: %w", err)
		}
		f.Since = fromMS(since)
		out = append(out, f)
	}
	return out, rows.Err()
}

// FollowCounts returns how many players user id follows and how many
// follow him.
func (s *Store) FollowCounts(ctx context.Context, userID int64) (following, followers int, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM follows WHERE user_id = $1), (SELECT COUNT(*) FROM follows WHERE followed_id = $1)`,
		userID).Scan(&following, &followers)
	if err != nil {
		return 0, 0, fmt.Errorf("store: follow counts of %d: %w", userID, err)
	}
	return following, followers, nil
}

// Friends reports whether a and b follow each other.
func (s *Store) Friends(ctx context.Context, a, b int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM follows WHERE (user_id = $1 AND followed_id = $2) OR (user_id = $2 AND followed_id = $1)`,
		a, b).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: friends: %w", err)
	}
	return n == 2, nil
}

// MarkNotificationsReadAt marks user id's unread notices that lead to url
// read (he has seen what they tell: a conversation he opened).
func (s *Store) MarkNotificationsReadAt(ctx context.Context, userID int64, url string) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE notifications SET read_ms = $1 WHERE user_id = $2 AND read_ms = 0 AND url = $3`, ms(s.now()), userID, url)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: mark notifications read: %w", err)
	}
	return int(n), nil
}

// Notified reports whether user id was told a notice of kind leading to
// url since t (a notice sent by several nodes is kept once).
func (s *Store) Notified(ctx context.Context, userID int64, kind, url string, since time.Time) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND kind = $2 AND url = $3 AND created_ms >= $4`,
		userID, kind, url, ms(since)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: notified: %w", err)
	}
	return n > 0, nil
}
