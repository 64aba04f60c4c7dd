package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/friends"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/inbox"
	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/notifications"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/store"
)

// vapidKey returns the private key of the server's Web Push identity
// (VAPID): kept as the guest key is, in a file of its own beside an
// SQLite database (opts.DB + ".vapidkey"), and in the database's secrets
// on PostgreSQL, whose nodes must share it (a browser's subscription is
// bound to the key it subscribed with).
func vapidKey(ctx context.Context, opts Options, st *store.Store) ([]byte, error) {
	if store.IsPostgres(opts.DB) {
		return st.Secret(ctx, "vapid_key", func() ([]byte, error) {
			key := make([]byte, 32)
			_, err := rand.Read(key)
			return key, err
		})
	}
	key, err := LoadGuestKey(opts.DB + ".vapidkey")
	if err != nil {
		return nil, err
	}
	if len(key) < 32 {
		return nil, fmt.Errorf("vapid key %s: %d bytes, want 32", opts.DB+".vapidkey", len(key))
	}
	return key[:32], nil
}

// newNotifications builds the notices' service: the store, blocks, Web
// Push with the VAPID key, and mail to verified addresses.
func newNotifications(ctx context.Context, opts Options, st *store.Store, mq *mail.Queue, log *slog.Logger) (*notifications.Service, error) {
	key, err := vapidKey(ctx, opts, st)
	if err != nil {
		return nil, err
	}
	subject := siteURL(opts)
	if !strings.HasPrefix(subject, "https://") {
		subject = "mailto:webmaster@localhost"
	}
	v, err := notifications.NewVAPID(key, subject)
	if err != nil {
		return nil, err
	}
	push := notifications.NewPusher(notifications.PushConfig{VAPID: v, Store: st, AllowPrivate: opts.PushAllowPrivate, Logger: log})
	cfg := notifications.Config{Store: st, Push: push, Logger: log, SiteURL: siteURL(opts), Blocked: st.BlockedEither}
	if opts.Bus != nil {
		cfg.Bus = opts.Bus // the notices reach the pages open on every node
	}
	if mq.Enabled() {
		cfg.Mail = func(ctx context.Context, user int64, subject, body string) error {
			e, err := st.EmailOf(ctx, user)
			if errors.Is(err, store.ErrNotFound) || (err == nil && e.Verified.IsZero()) {
				return nil
			}
			if err != nil {
				return err
			}
			return mq.Send(ctx, mail.Message{To: e.Address, Subject: subject, Body: body})
		}
	}
	return notifications.New(cfg), nil
}

// yourMove tells the player to move in a correspondence game that his
// opponent moved (live.Config.OnYourMove; on the game's goroutine: Send
// only queues).
func yourMove(n notify.Sender) func(id string, toMove, opponent game.Seat) {
	return func(id string, toMove, opponent game.Seat) {
		if toMove.UserID == 0 || n == nil {
			return
		}
		_ = n.Send(context.Background(), notify.Notice{To: toMove.UserID, Actor: opponent.UserID, Kind: notify.YourMove,
			Key: "notify.your_move", Args: []any{opponent.Name}, URL: "/game/" + id})
	}
}

// senderOf is n as a notify.Sender, nil when n is (a nil *Service in an
// interface is not a nil interface).
func senderOf(n *notifications.Service) notify.Sender {
	if n == nil {
		return nil
	}
	return n
}

// EventSoonLead is how long before an event's start its players are told
// it is about to start; eventSoonEvery is how often the events are read.
const (
	EventSoonLead  = 5 * time.Minute
	eventSoonEvery = 30 * time.Second
)

// eventSoon tells the players entered in each event that starts within
// EventSoonLead, once per event and start time. told remembers the events
// told (by id, their start); those no longer upcoming are forgotten.
func eventSoon(list []*events.Event, now time.Time, told map[string]time.Time) []notify.Notice {
	var out []notify.Notice
	upcoming := make(map[string]bool, len(list))
	for _, e := range list {
		if e.Status != events.Upcoming || e.Start.IsZero() {
			continue
		}
		upcoming[e.ID] = true
		left := e.Start.Sub(now)
		if left <= 0 || left > EventSoonLead || told[e.ID].Equal(e.Start) {
			continue
		}
		told[e.ID] = e.Start
		minutes := int((left + time.Minute - 1) / time.Minute)
		for _, en := range e.Entries {
			if en.UserID == 0 || en.Withdrawn {
				continue
			}
			out = append(out, notify.Notice{To: en.UserID, Kind: notify.EventSoon, Key: "notify.event_soon", Args: []any{e.Name, minutes}, URL: "/event/" + e.ID})
		}
	}
	for id := range told {
		if !upcoming[id] {
			delete(told, id)
		}
	}
	return out
}

// runEventSoon tells the events' players of their start until ctx ends.
// Every node runs it: a player already told (by another node) in the
// last lead time is not told again.
func runEventSoon(ctx context.Context, evs *events.Manager, n notify.Sender, st *store.Store) {
	if evs == nil || n == nil {
		return
	}
	t := time.NewTicker(eventSoonEvery)
	defer t.Stop()
	told := map[string]time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			for _, notice := range eventSoon(evs.List(), now, told) {
				if seen, err := st.Notified(ctx, notice.To, string(notice.Kind), notice.URL, now.Add(-2*EventSoonLead)); err != nil || seen {
					continue
				}
				_ = n.Send(ctx, notice)
			}
		}
	}
}

// newFriends builds following players on the store, the privacy service,
// the notices' sockets (who is online) and the hub (who plays).
func (s *Server) newFriends() *friends.Site {
	sa, ok := s.cfg.Archive.(StoreArchive)
	if !ok || sa.S == nil || s.privacy == nil {
		return nil
	}
	cfg := friends.Config{Store: sa.S, Privacy: s.privacy}
	if n := s.cfg.Notifications; n != nil {
		cfg.Online = n.Online
	}
	if h := s.cfg.Hub; h != nil {
		cfg.Playing = func(seatID string) []string {
			var ids []string
			for _, g := range h.GamesOf(seatID) {
				ids = append(ids, g.ID)
			}
			return ids
		}
	}
	return friends.New(s, cfg)
}

// newInbox builds the private messages on the store, the privacy service,
// the notices and the moderators' roles.
func (s *Server) newInbox() *inbox.Site {
	sa, ok := s.cfg.Archive.(StoreArchive)
	if !ok || sa.S == nil || s.privacy == nil {
		return nil
	}
	cfg := inbox.Config{Store: sa.S, Privacy: s.privacy, Notify: senderOf(s.cfg.Notifications)}
	if n := s.cfg.Notifications; n != nil {
		cfg.Seen = n.Seen
	}
	if m := s.cfg.Moderation; m != nil {
		cfg.IsModerator = m.IsModerator
	}
	return inbox.New(s, cfg)
}
