// Package inbox is private messages at /inbox: one-to-one conversations
// between accounts, reported conversations read by the moderators, and a
// notice (notify.Message) for each message.
//
// Invariants:
//   - A message needs the recipient's leave (privacy.Message: his setting,
//     no block either way, neither in kid mode, his account open).
//   - Every message is bounded: its length (MaxRunes), the sender's
//     messages a minute (per account and per address, in memory) and a
//     day (in the store), and an account younger than NewAccountAge writes
//     fewer, to at most NewPeers people who have not written to it.
//   - A moderator reads a conversation only once one of its two sides
//     reported it.
//
// Threat model: a stranger's spam and harassment: the bounds above per
// account and per address, the recipient's privacy settings and blocks,
// and the report; message bodies are shown as text (templates escape them).
package inbox

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Store is what the package keeps and reads: *store.Store.
type Store interface {
	AddMessage(ctx context.Context, m store.Message, lim store.MessageLimits) (store.Message, error)
	Thread(ctx context.Context, a, b int64, limit, offset int) ([]store.Message, error)
	MarkThreadRead(ctx context.Context, me, other int64) error
	Conversations(ctx context.Context, userID int64, limit, offset int) ([]store.Conversation, error)
	ReportConversation(ctx context.Context, reporter, target int64) error
	ConversationReported(ctx context.Context, a, b int64) (bool, error)
	ReportedConversations(ctx context.Context, limit, offset int) ([]store.ReportedConversation, error)
	AddModReport(ctx context.Context, r store.ModReport, lim store.ModReportLimits) (int64, bool, error)
	UserByName(ctx context.Context, name string) (store.User, error)
}

// Privacy is the site's privacy service (privacy.Service).
type Privacy interface {
	May(ctx context.Context, actor, target int64, a privacy.Action) error
	Kid(ctx context.Context, userID int64) bool
}

// Config is what a Site is built from.
type Config struct {
	Store   Store   // required
	Privacy Privacy // required
	Notify  notify.Sender
	// IsModerator reports whether an account is a moderator (nil: none is).
	IsModerator func(userID int64) bool
	// Seen marks the notices that lead to a conversation read once its
	// reader opens it (nil: they stay until he marks them).
	Seen func(ctx context.Context, user int64, url string)
	Now  func() time.Time
}

// The bounds.
const (
	MaxRunes       = 2000
	PerMinute      = 10  // messages a minute, per account and per address
	PerDay         = 300 // per account, 24 hours
	PerAddrDay     = 600 // per address, 24 hours
	NewAccountAge  = 7 * 24 * time.Hour
	NewPerDay      = 30 // an account younger than NewAccountAge
	NewPeers       = 3  // people who never wrote to it, a day, for a new account
	PerPage        = 30
	ReportsPerUser = 10 // conversation reports a day (the moderators' queue's bound)
	ReportsPerAddr = 30
	maxPage        = 1000
)

// Site is the inbox's pages and API.
type Site struct {
	kit            site.Kit
	cfg            Config
	perUser, perIP *auth.Limiter
}

// New returns the inbox.
func New(kit site.Kit, cfg Config) *Site {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	lim := func() *auth.Limiter { return auth.NewLimiter(rate.Limit(float64(PerMinute)/60), PerMinute, cfg.Now) }
	return &Site{kit: kit, cfg: cfg, perUser: lim(), perIP: lim()}
}

// Routes registers the pages and the API on r.
func (s *Site) Routes(r site.Router) {
	r.Page("GET /inbox", s.pageInbox)
	r.Page("GET /inbox/{name}", s.pageThread)
	r.Page("POST /inbox/{name}", s.pageSend)
	r.Page("POST /inbox/{name}/report", s.pageReport)
	r.Page("GET /mod/inbox", s.pageReported)
	r.Page("GET /mod/inbox/{a}/{b}", s.pageModThread)
	r.API("GET /api/inbox", s.apiInbox)
	r.API("GET /api/inbox/{name}", s.apiThread)
	r.API("POST /api/inbox/{name}", s.apiSend)
}

// ErrorKeys are the messages of the package's errors, for the catalog's
// completeness test.
func ErrorKeys() []string {
	return []string{"inbox.err.login", "inbox.err.user", "inbox.err.self", "inbox.err.empty", "inbox.err.long", "inbox.err.rate",
		"inbox.err.day", "inbox.err.peers", "inbox.err.page", "inbox.err.mod", "inbox.err.not_reported", "inbox.err.reports"}
}

func ctxOf(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), site.StoreTimeout)
}

func (s *Site) me(r *http.Request) (site.Account, error) {
	a := s.kit.Identity(r).Account
	if a.ID == 0 {
		return a, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "inbox.err.login")
	}
	return a, nil
}

func (s *Site) user(ctx context.Context, name string) (store.User, error) {
	u, err := s.cfg.Store.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return u, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "inbox.err.user", site.Excerpt(name))
	}
	return u, err
}

func pageOf(r *http.Request) (int, error) {
	v := r.URL.Query().Get("page")
	if v == "" {
		return 1, nil
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 1 || p > maxPage {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "inbox.err.page", maxPage)
	}
	return p, nil
}

// send writes body from me to name, within the bounds and the
// recipient's privacy, and tells him.
func (s *Site) send(r *http.Request, me site.Account, name, body string) (store.Message, store.User, error) {
	body = strings.TrimSpace(body)
	switch {
	case body == "":
		return store.Message{}, store.User{}, apierr.BadRequest(apierr.CodeBadRequest, "inbox.err.empty")
	case utf8.RuneCountInString(body) > MaxRunes || !utf8.ValidString(body):
		return store.Message{}, store.User{}, apierr.BadRequest(apierr.CodeBadRequest, "inbox.err.long", MaxRunes)
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	to, err := s.user(ctx, name)
	if err != nil {
		return store.Message{}, to, err
	}
	if to.ID == me.ID {
		return store.Message{}, to, apierr.BadRequest(apierr.CodeBadRequest, "inbox.err.self")
	}
	if err := s.cfg.Privacy.May(ctx, me.ID, to.ID, privacy.Message); err != nil {
		return store.Message{}, to, err
	}
	addr := auth.AddrKey(auth.ClientIP(r))
	if !s.perUser.Allow(strconv.FormatInt(me.ID, 10)) || !s.perIP.Allow(addr) {
		return store.Message{}, to, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "inbox.err.rate", PerMinute)
	}
	lim := store.MessageLimits{PerDay: PerDay, PerAddr: PerAddrDay}
	if sender, err := s.cfg.Store.UserByName(ctx, me.Name); err == nil && s.cfg.Now().Sub(sender.Created) < NewAccountAge {
		lim.PerDay, lim.NewPeers = NewPerDay, NewPeers
	}
	m, err := s.cfg.Store.AddMessage(ctx, store.Message{SenderID: me.ID, RecipientID: to.ID, Body: body, Addr: addr}, lim)
	var le *store.ErrMessageLimit
	if errors.As(err, &le) {
		switch le.Which {
		case "peers":
			return m, to, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "inbox.err.peers", NewPeers)
		default:
			return m, to, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "inbox.err.day")
		}
	}
	if err != nil {
		return m, to, err
	}
	if s.cfg.Notify != nil {
		if err := s.cfg.Notify.Send(ctx, notify.Notice{To: to.ID, Actor: me.ID, Kind: notify.Message, Key: "notify.message",
			Args: []any{me.Name}, URL: "/inbox/" + me.Name}); err != nil {
			s.kit.Logger().Warn("inbox: notice", "err", err)
		}
	}
	return m, to, nil
}

func authAddr(r *http.Request) string { return auth.AddrKey(auth.ClientIP(r)) }
