package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Message is one private message (internal/inbox).
type Message struct {
	ID          int64
	SenderID    int64
	RecipientID int64
	Body        string
	Addr        string // the sender's address key
	Created     time.Time
	Read        time.Time // zero: unread
}

// MessageLimits bound the messages one sender writes in 24 hours: in all,
// to recipients who never wrote to him (NewPeers: distinct such
// recipients), and from one address (each 0: no bound).
type MessageLimits struct {
	PerDay, NewPeers, PerAddr int
}

// ErrMessageLimit is AddMessage's refusal past a bound; Which says which.
type ErrMessageLimit struct{ Which string }

func (e *ErrMessageLimit) Error() string { return "store: message bound: " + e.Which }

// AddMessage stores m unless a bound of lim is reached (*ErrMessageLimit).
func (s *Store) AddMessage(ctx context.Context, m Message, lim MessageLimits) (Message, error) {
	m.Created = s.now()
	since := ms(m.Created.Add(-24 * time.Hour))
	err := s.write(ctx, func(tx *sql.Tx) error {
		count := func(q string, args ...any) (int, error) {
			var n int
			err := tx.QueryRowContext(ctx, q, args...).Scan(&n)
			return n, err
		}
		if lim.PerDay > 0 {
			n, err := count(`SELECT COUNT(*) FROM messages WHERE sender_id = $1 AND created_ms >= $2`, m.SenderID, since)
			if err != nil {
				return err
			}
			if n >= lim.PerDay {
				return &ErrMessageLimit{"day"}
			}
		}
		if lim.PerAddr > 0 && m.Addr != "" {
			n, err := count(`SELECT COUNT(*) FROM messages WHERE addr = $1 AND created_ms >= $2`, m.Addr, since)
			if err != nil {
				return err
			}
			if n >= lim.PerAddr {
				return &ErrMessageLimit{"addr"}
			}
		}
		if lim.NewPeers > 0 {
			replied, err := count(`SELECT COUNT(*) FROM messages WHERE sender_id = $1 AND recipient_id = $2`, m.RecipientID, m.SenderID)
			if err != nil {
				return err
			}
			started, err := count(`SELECT COUNT(*) FROM messages WHERE sender_id = $1 AND recipient_id = $2`, m.SenderID, m.RecipientID)
			if err != nil {
				return err
			}
			if replied == 0 && started == 0 {
				n, err := count(`SELECT COUNT(DISTINCT recipient_id) FROM messages WHERE sender_id = $1 AND created_ms >= $2`, m.SenderID, since)
				if err != nil {
					return err
				}
				if n >= lim.NewPeers {
					return &ErrMessageLimit{"peers"}
				}
			}
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO messages (sender_id, recipient_id, body, addr, created_ms) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			m.SenderID, m.RecipientID, m.Body, m.Addr, ms(m.Created)).Scan(&m.ID)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d or %d: %w", m.SenderID, m.RecipientID, ErrNotFound)
		}
		return err
	})
	var le *ErrMessageLimit
	if errors.As(err, &le) {
		return Message{}, err
	}
	if err != nil {
		return Message{}, fmt.Errorf("store: add message: %w", err)
	}
	return m, nil
}

// Thread returns the messages between a and b, newest first, limit from
// offset.
func (s *Store) Thread(ctx context.Context, a, b int64, limit, offset int) ([]Message, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, sender_id, recipient_id, body, created_ms, read_ms FROM messages
		WHERE (sender_id = $1 AND recipient_id = $2) OR (sender_id = $2 AND recipient_id = $1) ORDER BY id DESC LIMIT $3 OFFSET $4`, a, b, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("store: thread: %w", err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		var m Message
		var created, read int64
		if err := rows.Scan(&m.ID, &m.SenderID, &m.RecipientID, &m.Body, &created, &read); err != nil {
			return nil, fmt.Errorf("store: thread: %w", err)
		}
		m.Created = fromMS(created)
		if read != 0 {
			m.Read = fromMS(read)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// MarkThreadRead marks what other wrote to me read.
func (s *Store) MarkThreadRead(ctx context.Context, me, other int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE messages SET read_ms = $1 WHERE recipient_id = $2 AND sender_id = $3 AND read_ms = 0`, ms(s.now()), me, other)
		return err
	})
}

// Conversation is one other account an account exchanged messages with.
type Conversation struct {
	OtherID   int64
	OtherName string
	Last      Message
	Unread    int
}

// Conversations returns user id's conversations, the latest first, limit
// from offset.
func (s *Store) Conversations(ctx context.Context, userID int64, limit, offset int) ([]Conversation, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.other, u.name, c.last FROM (
			SELECT CASE WHEN sender_id = $1 THEN recipient_id ELSE sender_id END AS other, MAX(id) AS last
			FROM messages WHERE sender_id = $1 OR recipient_id = $1 GROUP BY 1
		) c JOIN users u ON u.id = c.other ORDER BY c.last DESC LIMIT $2 OFFSET $3`, userID, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("store: conversations: %w", err)
	}
	var out []Conversation
	var lasts []int64
	for rows.Next() {
		var c Conversation
		var last int64
		if err := rows.Scan(&c.OtherID, &c.OtherName, &last); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: conversations: %w", err)
		}
		out = append(out, c)
		lasts = append(lasts, last)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		var created, read int64
		m := &out[i].Last
		if err := s.r.QueryRowContext(ctx, `SELECT id, sender_id, recipient_id, body, created_ms, read_ms FROM messages WHERE id = $1`, lasts[i]).
			Scan(&m.ID, &m.SenderID, &m.RecipientID, &m.Body, &created, &read); err != nil {
			return nil, fmt.Errorf("store: conversations: %w", err)
		}
		m.Created = fromMS(created)
		if read != 0 {
			m.Read = fromMS(read)
		}
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE recipient_id = $1 AND sender_id = $2 AND read_ms = 0`, userID, out[i].OtherID).
			Scan(&out[i].Unread); err != nil {
			return nil, fmt.Errorf("store: conversations: %w", err)
		}
	}
	return out, nil
}

// ReportConversation marks the conversation of reporter with target
// reported (again: no change).
func (s *Store) ReportConversation(ctx context.Context, reporter, target int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO message_reports (reporter_id, target_id, created_ms) VALUES ($1, $2, $3)
			ON CONFLICT (reporter_id, target_id) DO NOTHING`, reporter, target, ms(s.now()))
		return err
	})
}

// ConversationReported reports whether either of a and b reported their
// conversation.
func (s *Store) ConversationReported(ctx context.Context, a, b int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM message_reports WHERE (reporter_id = $1 AND target_id = $2) OR (reporter_id = $2 AND target_id = $1)`, a, b).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: conversation reported: %w", err)
	}
	return n > 0, nil
}

// ReportedConversation is a conversation one side reported.
type ReportedConversation struct {
	ReporterName, TargetName string
	Created                  time.Time
}

// ReportedConversations returns the reported conversations, newest first.
func (s *Store) ReportedConversations(ctx context.Context, limit, offset int) ([]ReportedConversation, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT a.name, b.name, r.created_ms FROM message_reports r JOIN users a ON a.id = r.reporter_id
		JOIN users b ON b.id = r.target_id ORDER BY r.created_ms DESC LIMIT $1 OFFSET $2`, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("store: reported conversations: %w", err)
	}
	defer rows.Close()
	var out []ReportedConversation
	for rows.Next() {
		var c ReportedConversation
		var created int64
		if err := rows.Scan(&c.ReporterName, &c.TargetName, &created); err != nil {
			return nil, err
		}
		c.Created = fromMS(created)
		out = append(out, c)
	}
	return out, rows.Err()
}
