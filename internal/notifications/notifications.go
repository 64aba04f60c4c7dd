// Package notifications is the site's notify.Sender: it keeps each
// account's notices (its list at /notifications with an unread count in
// every page's header), pushes them live to the account's open pages over
// a small websocket, and as Web Push to the browsers it subscribed
// (push.go), each kind as the account chose on /settings.
//
// Invariants:
//   - Send never blocks its caller on the store or a network: it checks
//     the notice and puts it on a bounded queue that a few workers drain;
//     a full queue drops the notice (and logs it), never the caller's work.
//   - A notice is dropped, silently to its actor, when its account turned
//     its kind off, when the actor and the account are blocked either way,
//     and when it tells an account of its own deed.
//   - A notice's text is a catalog key with plain arguments, rendered in
//     the reader's language when it is read or pushed.
//   - An account keeps its newest store.MaxNotifications notices.
//
// Threat model: notices are made by the site's features, never from a
// client's text alone; their arguments are shown escaped (templates,
// textContent), their URLs are site paths (Send refuses any other). The
// websocket is the account's own (its session cookie; the Origin checked
// by site.AcceptWS) and bounded per account.
package notifications

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/store"
)

// Store is what the package keeps and reads: *store.Store.
type Store interface {
	AddNotification(ctx context.Context, n store.Notification) (store.Notification, error)
	Notifications(ctx context.Context, userID int64, limit, offset int) ([]store.Notification, error)
	UnreadNotifications(ctx context.Context, userID int64, max int) (int, error)
	MarkNotificationsRead(ctx context.Context, userID, notice int64) (int, error)
	MarkNotificationsReadAt(ctx context.Context, userID int64, url string) (int, error)
	NotifyPrefs(ctx context.Context, userID int64) (map[string]store.NotifyPref, error)
	SetNotifyPrefs(ctx context.Context, userID int64, prefs map[string]store.NotifyPref) error
	AddPushSubscription(ctx context.Context, sub store.PushSubscription) error
	DeletePushSubscription(ctx context.Context, userID int64, endpoint string) error
	PushSubscriptions(ctx context.Context, userID int64) ([]store.PushSubscription, error)
	UserByID(ctx context.Context, id int64) (store.User, error)
}

// Config is what a Service is built from.
type Config struct {
	Store Store // required
	// Catalog renders the notices' texts (nil: i18n.New()).
	Catalog *i18n.Catalog
	// Blocked reports whether a and b are blocked either way (nil: never).
	Blocked func(ctx context.Context, a, b int64) (bool, error)
	// Push sends Web Push messages (push.go; nil: none are sent).
	Push *Pusher
	// Mail sends a notice by e-mail to an account that chose it for its
	// kind (nil: no mail): the caller finds the verified address and
	// queues the message (internal/mail's queue), never blocking.
	Mail func(ctx context.Context, user int64, subject, body string) error
	// SiteURL starts the links of the mail ("https://toguz.example").
	SiteURL string
	// Bus, when the site runs on several nodes (live.Bus: NATS), carries
	// each stored notice and each new count to every node, whose open
	// pages it reaches (nil: this node's pages only).
	Bus Bus
	// Queue is how many notices may wait to be stored (0: DefaultQueue);
	// Workers how many goroutines store them (0: DefaultWorkers).
	Queue, Workers int
	// SocketsPerAccount bounds the live sockets of one account (0:
	// DefaultSocketsPerAccount).
	SocketsPerAccount int
	Logger            *slog.Logger
}

// The defaults of Config.
const (
	DefaultQueue             = 4096
	DefaultWorkers           = 2
	DefaultSocketsPerAccount = 16
	// UnreadMax is the most unread notices the header counts ("99+").
	UnreadMax = 100
	// PerPage is the length of a page of the list.
	PerPage = 30
)

// Service keeps, counts and pushes the notices.
type Service struct {
	cfg Config
	st  Store
	cat *i18n.Catalog
	log *slog.Logger

	queue   chan notify.Notice
	wg      sync.WaitGroup
	dropped atomic.Int64 // notices dropped because the queue was full
	closed  atomic.Bool
	stop    chan struct{}
	unsub   func() // the bus's subscription; nil: none

	mu   sync.Mutex
	subs map[int64]map[*subscriber]struct{} // guarded by mu: the live sockets per account
}

// New returns a Service whose workers run until Close.
func New(cfg Config) *Service {
	if cfg.Queue <= 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.SocketsPerAccount <= 0 {
		cfg.SocketsPerAccount = DefaultSocketsPerAccount
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cat := cfg.Catalog
	if cat == nil {
		cat = i18n.New()
	}
	s := &Service{cfg: cfg, st: cfg.Store, cat: cat, log: log, queue: make(chan notify.Notice, cfg.Queue),
		stop: make(chan struct{}), subs: map[int64]map[*subscriber]struct{}{}}
	for range cfg.Workers {
		s.wg.Add(1)
		go s.work()
	}
	if cfg.Bus != nil {
		unsub, err := cfg.Bus.Subscribe(subjNotice, func(_ string, data []byte, _ func([]byte)) { s.fromBus(data) })
		if err != nil {
			log.Warn("notifications: bus", "err", err)
			s.cfg.Bus = nil
		} else {
			s.unsub = unsub
		}
	}
	return s
}

// Close stops taking notices, stores those queued and returns.
func (s *Service) Close() {
	if s.closed.Swap(true) {
		return
	}
	close(s.stop)
	s.wg.Wait()
	if s.unsub != nil {
		s.unsub()
	}
	if s.cfg.Push != nil {
		s.cfg.Push.Close()
	}
}

var _ notify.Sender = (*Service)(nil)

// ErrBadNotice is wrapped by Send's refusal of a malformed notice (a
// feature's bug, not a user's).
var ErrBadNotice = errors.New("notifications: bad notice")

// maxArgs bounds a notice's arguments; a string argument is cut to
// maxArg bytes.
const (
	maxArgs = 8
	maxArg  = 200
)

// Send queues n; it returns at once. It refuses a malformed notice (no
// account, an unknown kind, a URL that is not a site path) and drops one
// past the queue's bound (logged).
func (s *Service) Send(_ context.Context, n notify.Notice) error {
	if n.To == 0 || !known(n.Kind) || n.Key == "" || len(n.Args) > maxArgs || !sitePath(n.URL) {
		return fmt.Errorf("%w: to %d, kind %q, key %q, url %q", ErrBadNotice, n.To, n.Kind, n.Key, n.URL)
	}
	if n.Actor == n.To || s.closed.Load() {
		return nil
	}
	select {
	case s.queue <- n:
	default:
		if s.dropped.Add(1)%1000 == 1 {
			s.log.Warn("notifications: queue full, notice dropped", "to", n.To, "kind", n.Kind, "dropped", s.dropped.Load())
		}
	}
	return nil
}

// Dropped is how many notices the full queue dropped.
func (s *Service) Dropped() int64 { return s.dropped.Load() }

func known(k notify.Kind) bool {
	for _, x := range notify.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// sitePath reports whether u is empty or a path of this site (not
// "//host", not a scheme).
func sitePath(u string) bool {
	return u == "" || (strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") && !strings.ContainsAny(u, "\\\r\n"))
}

func (s *Service) work() {
	defer s.wg.Done()
	for {
		select {
		case n := <-s.queue:
			s.deliver(n)
		case <-s.stop:
			for {
				select {
				case n := <-s.queue:
					s.deliver(n)
				default:
					return
				}
			}
		}
	}
}

// deliverTimeout bounds the store work of one notice.
const deliverTimeout = 10 * time.Second

// deliver stores n (unless its account turned its kind off or the two are
// blocked), pushes it to the account's live sockets and queues its Web
// Push.
func (s *Service) deliver(n notify.Notice) {
	ctx, cancel := context.WithTimeout(context.Background(), deliverTimeout)
	defer cancel()
	pref, err := s.pref(ctx, n.To, n.Kind)
	if err != nil {
		s.log.Warn("notifications: prefs", "to", n.To, "err", err)
		return
	}
	if !pref.Site && !pref.Push && !pref.Mail {
		return
	}
	if s.blocked(ctx, n) {
		return
	}
	args := cutArgs(n.Args)
	b, err := json.Marshal(args)
	if err != nil {
		s.log.Warn("notifications: args", "key", n.Key, "err", err)
		return
	}
	var stored store.Notification
	if pref.Site {
		stored, err = s.st.AddNotification(ctx, store.Notification{UserID: n.To, ActorID: n.Actor, Kind: string(n.Kind), Key: n.Key, Args: string(b), URL: n.URL})
		if err != nil {
			s.log.Warn("notifications: store", "to", n.To, "err", err)
			return
		}
		s.publish(ctx, stored)
	}
	if pref.Push && s.cfg.Push != nil {
		s.cfg.Push.queueFor(ctx, s, n, args)
	}
	if pref.Mail && s.cfg.Mail != nil {
		s.mail(ctx, n, args)
	}
}

// blocked reports whether n's actor and its recipient block each other
// either way (true on a store error, logged: no notice rather than one
// the recipient refused).
func (s *Service) blocked(ctx context.Context, n notify.Notice) bool {
	if n.Actor == 0 || s.cfg.Blocked == nil {
		return false
	}
	b, err := s.cfg.Blocked(ctx, n.Actor, n.To)
	if err != nil {
		s.log.Warn("notifications: blocks", "to", n.To, "err", err)
	}
	return err != nil || b
}

// cutArgs returns a notice's arguments with each text cut to maxArg bytes.
func cutArgs(in []any) []any {
	args := make([]any, len(in))
	for i, a := range in {
		if str, ok := a.(string); ok && len(str) > maxArg {
			a = str[:maxArg]
		}
		args[i] = a
	}
	return args
}

// mail sends n by e-mail in its recipient's language, with its link.
func (s *Service) mail(ctx context.Context, n notify.Notice, args []any) {
	lang := s.langOf(ctx, n.To)
	body := s.cat.T(lang, n.Key, args...)
	if n.URL != "" {
		body += "\n\n" + s.cat.T(lang, "notify.mail.link", strings.TrimRight(s.cfg.SiteURL, "/")+n.URL)
	}
	if err := s.cfg.Mail(ctx, n.To, s.cat.T(lang, "notify.mail.subject"), body); err != nil {
		s.log.Warn("notifications: mail", "to", n.To, "err", err)
	}
}

// pref returns user's choice for kind.
func (s *Service) pref(ctx context.Context, user int64, kind notify.Kind) (store.NotifyPref, error) {
	prefs, err := s.st.NotifyPrefs(ctx, user)
	if err != nil {
		return store.NotifyPref{}, err
	}
	if p, ok := prefs[string(kind)]; ok {
		return p, nil
	}
	return store.DefaultNotifyPref, nil
}

// Unread counts user's unread notices, up to UnreadMax (0 on a store
// error, logged: the header shows no count rather than failing the page).
func (s *Service) Unread(ctx context.Context, user int64) int {
	if s == nil || user == 0 {
		return 0
	}
	n, err := s.st.UnreadNotifications(ctx, user, UnreadMax)
	if err != nil {
		s.log.Warn("notifications: unread", "user", user, "err", err)
		return 0
	}
	return n
}

// View is a notice as the list, the API and the live socket show it.
type View struct {
	ID      int64  `json:"id"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	URL     string `json:"url,omitempty"`
	Created int64  `json:"createdAt"` // ms since the epoch
	Read    bool   `json:"read"`
	// When is Created as the page shows it (not in the JSON).
	When string `json:"-"`
}

// view renders n in lang.
func (s *Service) view(lang string, n store.Notification) View {
	return View{ID: n.ID, Kind: n.Kind, Text: s.text(lang, n.Key, n.Args), URL: n.URL, Created: n.Created.UnixMilli(), Read: !n.Read.IsZero(),
		When: n.Created.UTC().Format("2006-01-02 15:04")}
}

// text renders a notice's key with its JSON arguments in lang: whole
// numbers come back as int64 (the catalogs' %d), others as they were.
func (s *Service) text(lang, key, args string) string {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(args), &raw); err != nil {
		return s.cat.T(lang, key)
	}
	vals := make([]any, len(raw))
	for i, r := range raw {
		var i64 int64
		if err := json.Unmarshal(r, &i64); err == nil {
			vals[i] = i64
			continue
		}
		var v any
		_ = json.Unmarshal(r, &v)
		vals[i] = v
	}
	return s.cat.T(lang, key, vals...)
}

// langOf is the language user reads his pushes in: the one he chose,
// else Kazakh, the site's first.
func (s *Service) langOf(ctx context.Context, user int64) string {
	u, err := s.st.UserByID(ctx, user)
	if err != nil {
		return "kk"
	}
	if tag, ok := i18n.Parse(u.Lang); ok {
		return tag
	}
	return "kk"
}

// Seen marks user's unread notices that lead to url read (he opened what
// they tell), and tells his open pages the new count.
func (s *Service) Seen(ctx context.Context, user int64, url string) {
	if s == nil {
		return
	}
	n, err := s.st.MarkNotificationsReadAt(ctx, user, url)
	if err != nil {
		s.log.Warn("notifications: seen", "user", user, "err", err)
		return
	}
	if n > 0 {
		s.publishCount(ctx, user)
	}
}
