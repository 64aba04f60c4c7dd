// Package mail sends the site's e-mail: messages written in the reader's
// language from the catalogs (internal/i18n), kept in a queue in the store
// so that a restart loses none, and delivered over SMTP by
// github.com/wneessen/go-mail from a goroutine that retries with back-off.
//
// Invariants: Queue.Send only writes the message to the store and wakes the
// sender, so a request never waits for an SMTP server; the queue holds at
// most Config.Max messages (Send fails with ErrFull beyond), and a message is
// tried at most MaxAttempts times, then dropped and logged. Several nodes
// may share one queue: a node claims a message by moving its next attempt
// past a lease before it sends it, so two nodes do not send one message at
// the same time (a node that dies while sending may leave it to be sent
// again after the lease: at least once, not exactly once).
//
// Threat model: the recipients and the texts are the site's own (links to
// the site, the account's name); the headers are set by go-mail, which
// refuses line breaks in addresses and encodes the subject, so what a user
// typed (an address, a name) cannot add a header or a recipient.
package mail

import (
	"context"
	"errors"
	"time"
)

// Message is one plain-text e-mail.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Queued is a message in the queue.
type Queued struct {
	ID       int64
	Message  Message
	Attempts int       // tries so far
	Next     time.Time // when it is due
	Created  time.Time
	LastErr  string
}

// Store keeps the queue (*store.Store implements it).
type Store interface {
	// EnqueueMail stores m, due at next; ErrFull when max are queued.
	EnqueueMail(ctx context.Context, m Message, next time.Time, max int) (int64, error)
	// DueMail returns up to limit messages due at now, the earliest first.
	DueMail(ctx context.Context, now time.Time, limit int) ([]Queued, error)
	// ClaimMail moves message id's next attempt from was to until; false
	// when another node moved it first.
	ClaimMail(ctx context.Context, id int64, was, until time.Time) (bool, error)
	// DeleteMail removes a message sent or given up.
	DeleteMail(ctx context.Context, id int64) error
	// RetryMail records a failed try and the next attempt.
	RetryMail(ctx context.Context, id int64, attempts int, next time.Time, lastErr string) error
	// MailQueueLen counts the queued messages.
	MailQueueLen(ctx context.Context) (int, error)
}

// Sender delivers one message now (SMTP is the real one).
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// ErrFull is returned by Send when the queue holds its maximum.
var ErrFull = errors.New("mail: the queue is full")

// ErrOff is returned by Send when no SMTP server is configured.
var ErrOff = errors.New("mail: no SMTP server is configured")
