package mail

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Bounds of the queue.
const (
	DefaultMax  = 10000            // messages queued at most
	MaxAttempts = 10               // tries of one message before it is dropped
	firstRetry  = time.Minute      // the back-off after the first failure, doubling
	maxRetry    = 6 * time.Hour    // and at most
	lease       = 10 * time.Minute // a claimed message waits this long before another node may try it
	batch       = 20               // messages read from the store at a time
	poll        = 30 * time.Second // how often the store is read when nothing wakes the sender
)

// QueueConfig configures a Queue. Store is required.
type QueueConfig struct {
	Store  Store
	Sender Sender // nil: mail is off, Send returns ErrOff
	Max    int    // 0: DefaultMax
	Logger *slog.Logger
	Now    func() time.Time
}

// Queue keeps messages in the store and delivers them from one goroutine
// (Run).
type Queue struct {
	cfg  QueueConfig
	wake chan struct{}

	mu    sync.Mutex
	stats Stats
}

// Stats counts what the queue did since it started.
type Stats struct {
	Queued, Sent, Failed, Dropped int
}

// NewQueue returns a queue; Run delivers its messages.
func NewQueue(cfg QueueConfig) *Queue {
	if cfg.Max <= 0 {
		cfg.Max = DefaultMax
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Queue{cfg: cfg, wake: make(chan struct{}, 1)}
}

// Enabled reports whether the queue has a sender: mail is on.
func (q *Queue) Enabled() bool { return q != nil && q.cfg.Sender != nil }

// Send queues m and returns at once; ErrOff without a sender, ErrFull
// when the queue holds its maximum.
func (q *Queue) Send(ctx context.Context, m Message) error {
	if !q.Enabled() {
		return ErrOff
	}
	if _, err := q.cfg.Store.EnqueueMail(ctx, m, q.cfg.Now(), q.cfg.Max); err != nil {
		return err
	}
	q.count(func(s *Stats) { s.Queued++ })
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

// Stats returns the counters.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stats
}

func (q *Queue) count(f func(*Stats)) {
	q.mu.Lock()
	f(&q.stats)
	q.mu.Unlock()
}

// Run delivers the due messages until ctx is done: at once when Send
// wakes it, else every poll interval (the retries, other nodes' messages).
func (q *Queue) Run(ctx context.Context) {
	if !q.Enabled() {
		return
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		for q.Flush(ctx) > 0 && ctx.Err() == nil {
		}
		select {
		case <-ctx.Done():
			return
		case <-q.wake:
		case <-t.C:
		}
	}
}

// Flush tries each message due now, up to one batch, and returns how many
// it tried.
func (q *Queue) Flush(ctx context.Context) int {
	now := q.cfg.Now()
	due, err := q.cfg.Store.DueMail(ctx, now, batch)
	if err != nil {
		if ctx.Err() == nil {
			q.cfg.Logger.Warn("mail queue", "err", err)
		}
		return 0
	}
	tried := 0
	for _, m := range due {
		if ctx.Err() != nil {
			break
		}
		ok, err := q.cfg.Store.ClaimMail(ctx, m.ID, m.Next, now.Add(lease))
		if err != nil || !ok {
			continue
		}
		tried++
		q.deliver(ctx, m)
	}
	return tried
}

// deliver sends one claimed message and records the outcome.
func (q *Queue) deliver(ctx context.Context, m Queued) {
	err := q.cfg.Sender.Send(ctx, m.Message)
	if err == nil {
		q.count(func(s *Stats) { s.Sent++ })
		q.cfg.Logger.Info("mail sent", "id", m.ID, "attempts", m.Attempts+1)
		if err := q.cfg.Store.DeleteMail(ctx, m.ID); err != nil {
			q.cfg.Logger.Warn("mail queue: delete a sent message", "id", m.ID, "err", err)
		}
		return
	}
	if ctx.Err() != nil {
		return // shutting down: the lease runs out and it is tried again
	}
	attempts := m.Attempts + 1
	if attempts >= MaxAttempts {
		q.count(func(s *Stats) { s.Dropped++ })
		q.cfg.Logger.Error("mail dropped", "id", m.ID, "attempts", attempts, "err", err)
		if err := q.cfg.Store.DeleteMail(ctx, m.ID); err != nil {
			q.cfg.Logger.Warn("mail queue: delete a dropped message", "id", m.ID, "err", err)
		}
		return
	}
	q.count(func(s *Stats) { s.Failed++ })
	next := q.cfg.Now().Add(Backoff(attempts))
	q.cfg.Logger.Warn("mail not sent; retrying", "id", m.ID, "attempts", attempts, "next", next, "err", err)
	if err := q.cfg.Store.RetryMail(ctx, m.ID, attempts, next, truncate(err.Error(), 500)); err != nil {
		q.cfg.Logger.Warn("mail queue: record a failure", "id", m.ID, "err", err)
	}
}

// Backoff is the wait after the attempts-th failed try: a minute, doubling,
// at most six hours (the ten tries span about a day).
func Backoff(attempts int) time.Duration {
	d := firstRetry
	for i := 1; i < attempts && d < maxRetry; i++ {
		d *= 2
	}
	return min(d, maxRetry)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// String describes the configuration for the log at start.
func (c SMTPConfig) String() string {
	if !c.Enabled() {
		return "off"
	}
	tls := c.TLS
	if tls == "" {
		tls = TLSStartTLS
	}
	return fmt.Sprintf("%s:%d (%s), from %s", c.Host, c.Port, tls, c.From)
}
