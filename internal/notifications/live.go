package notifications

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/coder/websocket"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// subscriber is one open page of an account: the notices for it wait in
// out (bounded: a socket that falls behind misses notices, and reads the
// count again with the next one).
type subscriber struct {
	lang string
	out  chan []byte
}

const subscriberBuffer = 16

// liveMsg is what the socket sends: the unread count, and the notice that
// changed it (none on connect and after a mark read).
type liveMsg struct {
	Type   string `json:"type"` // "unread" or "notice"
	Unread int    `json:"unread"`
	Notice *View  `json:"notice,omitempty"`
}

// Bus is the message bus between nodes (live.Bus satisfies it).
type Bus interface {
	Publish(subject string, data []byte) error
	Subscribe(subject string, f func(subject string, data []byte, reply func([]byte))) (unsubscribe func(), err error)
}

// subjNotice carries busMsg between the nodes.
const subjNotice = "toguz.notify"

// busMsg is a stored notice, or (Notice nil) a new count, for User's
// pages on every node.
type busMsg struct {
	User   int64               `json:"user"`
	Notice *store.Notification `json:"notice,omitempty"`
}

// fromBus hands a node's message to this node's open pages.
func (s *Service) fromBus(data []byte) {
	var m busMsg
	if err := json.Unmarshal(data, &m); err != nil || m.User == 0 {
		return
	}
	s.mu.Lock()
	here := len(s.subs[m.User]) > 0
	s.mu.Unlock()
	if !here {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), deliverTimeout)
	defer cancel()
	if m.Notice != nil {
		s.publishLocal(ctx, *m.Notice)
	} else {
		s.publishCountLocal(ctx, m.User)
	}
}

// toBus publishes m; false when there is no bus or it failed (logged):
// the caller then reaches this node's pages itself.
func (s *Service) toBus(m busMsg) bool {
	if s.cfg.Bus == nil {
		return false
	}
	b, _ := json.Marshal(m)
	if err := s.cfg.Bus.Publish(subjNotice, b); err != nil {
		s.log.Warn("notifications: bus", "err", err)
		return false
	}
	return true
}

// publish sends the stored notice n to its account's open pages, on
// every node.
func (s *Service) publish(ctx context.Context, n store.Notification) {
	if s.toBus(busMsg{User: n.UserID, Notice: &n}) {
		return
	}
	s.publishLocal(ctx, n)
}

// publishCount sends user's unread count to his open pages, on every
// node (after he marked notices read on one of them).
func (s *Service) publishCount(ctx context.Context, user int64) {
	if s.toBus(busMsg{User: user}) {
		return
	}
	s.publishCountLocal(ctx, user)
}

func (s *Service) publishLocal(ctx context.Context, n store.Notification) {
	s.mu.Lock()
	subs := make([]*subscriber, 0, len(s.subs[n.UserID]))
	for sub := range s.subs[n.UserID] {
		subs = append(subs, sub)
	}
	s.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	unread := s.Unread(ctx, n.UserID)
	for _, sub := range subs {
		v := s.view(sub.lang, n)
		b, _ := json.Marshal(liveMsg{Type: "notice", Unread: unread, Notice: &v})
		select {
		case sub.out <- b:
		default:
		}
	}
}

func (s *Service) publishCountLocal(ctx context.Context, user int64) {
	s.mu.Lock()
	subs := make([]*subscriber, 0, len(s.subs[user]))
	for sub := range s.subs[user] {
		subs = append(subs, sub)
	}
	s.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	b, _ := json.Marshal(liveMsg{Type: "unread", Unread: s.Unread(ctx, user)})
	for _, sub := range subs {
		select {
		case sub.out <- b:
		default:
		}
	}
}

func (s *Service) subscribe(user int64, lang string) (*subscriber, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.subs[user]) >= s.cfg.SocketsPerAccount {
		return nil, false
	}
	sub := &subscriber{lang: lang, out: make(chan []byte, subscriberBuffer)}
	if s.subs[user] == nil {
		s.subs[user] = map[*subscriber]struct{}{}
	}
	s.subs[user][sub] = struct{}{}
	return sub, true
}

func (s *Service) unsubscribe(user int64, sub *subscriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.subs[user], sub)
	if len(s.subs[user]) == 0 {
		delete(s.subs, user)
	}
}

// Online reports whether user has a page of the site open (a live
// notices' socket on this node).
func (s *Service) Online(user int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs[user]) > 0
}

// serveWS is GET /api/notifications/ws: the account's unread count at
// once, then each new notice with the count. The client sends nothing but
// pings ({"type":"ping"}).
func (s *Web) serveWS(w http.ResponseWriter, r *http.Request) {
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		s.kit.WriteError(w, r, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "notify.err.login"))
		return
	}
	user, lang := id.Account.ID, s.kit.Lang(r)
	sub, ok := s.subscribe(user, lang)
	if !ok {
		s.kit.WriteError(w, r, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "notify.err.sockets", s.cfg.SocketsPerAccount))
		return
	}
	c, err := site.AcceptWS(w, r)
	if err != nil {
		s.unsubscribe(user, sub)
		return
	}
	// The connection is served on a goroutine of its own and the handler
	// returns: its goroutine's stack, grown through the server's
	// middlewares, would be kept by every open page of every account (as
	// the game's and the lobby's sockets did, 9–13 KiB each;
	// docs/architecture.md, "Memory per idle game").
	go s.serveConn(context.WithoutCancel(r.Context()), c, user, sub)
}

// serveConn serves the notifications' websocket c of user until it ends.
func (s *Web) serveConn(ctx context.Context, c *websocket.Conn, user int64, sub *subscriber) {
	defer s.unsubscribe(user, sub)
	defer c.CloseNow()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := site.KeepAlive(ctx, c)
	defer stop()
	go func() { // the reader: pings, and the close
		defer cancel()
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			var m struct{ Type string }
			if json.Unmarshal(b, &m) == nil && m.Type == "ping" {
				select {
				case sub.out <- []byte(site.Pong):
				default:
				}
			}
		}
	}()
	wr := site.NewWriter(c)
	defer wr.Stop()
	first, _ := json.Marshal(liveMsg{Type: "unread", Unread: s.Unread(ctx, user)})
	if err := wr.Write(first); err != nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			c.Close(websocket.StatusNormalClosure, "")
			return
		case <-s.stop:
			c.Close(websocket.StatusGoingAway, "")
			return
		case b := <-sub.out:
			if err := wr.Write(b); err != nil {
				return
			}
		}
	}
}
