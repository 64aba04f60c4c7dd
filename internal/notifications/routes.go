package notifications

import (
	"context"
	"net/http"
	"strconv"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Web is the pages and the API of a Service.
type Web struct {
	*Service
	kit site.Kit
}

// NewWeb returns the pages of s, on the site of kit.
func NewWeb(kit site.Kit, s *Service) *Web { return &Web{Service: s, kit: kit} }

// Routes registers the list (/notifications), its API, the live socket,
// the settings' form and the Web Push subscription on r.
func (s *Web) Routes(r site.Router) {
	r.Page("GET /notifications", s.pageList)
	r.Page("POST /notifications/read", s.pageMarkRead)
	r.Page("POST /settings/notifications", s.pageSavePrefs)
	r.API("GET /api/notifications", s.apiList)
	r.API("GET /api/notifications/unread", s.apiUnread)
	r.API("POST /api/notifications/read", s.apiMarkRead)
	r.Handle("GET /api/notifications/ws", http.HandlerFunc(s.serveWS))
	r.API("GET /api/push/key", s.apiPushKey)
	r.API("POST /api/push/subscribe", s.apiSubscribe)
	r.API("POST /api/push/unsubscribe", s.apiUnsubscribe)
}

// ErrorKeys are the messages of the package's errors, for the catalog's
// completeness test.
func ErrorKeys() []string {
	return []string{"notify.err.login", "notify.err.sockets", "notify.err.page", "notify.err.push_off", "notify.err.subscription"}
}

func ctxOf(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), site.StoreTimeout)
}

func (s *Web) account(r *http.Request) (int64, error) {
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return 0, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "notify.err.login")
	}
	return id.Account.ID, nil
}

// maxPage bounds the page number (store.MaxNotifications are kept).
const maxPage = store.MaxNotifications/PerPage + 1

func pageOf(r *http.Request) (int, error) {
	v := r.URL.Query().Get("page")
	if v == "" {
		return 1, nil
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 1 || p > maxPage {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "notify.err.page", maxPage)
	}
	return p, nil
}

// list returns page p of user's notices in lang, and whether a next page
// exists.
func (s *Service) list(ctx context.Context, user int64, lang string, p int) ([]View, bool, error) {
	ns, err := s.st.Notifications(ctx, user, PerPage+1, (p-1)*PerPage)
	if err != nil {
		return nil, false, err
	}
	more := len(ns) > PerPage
	if more {
		ns = ns[:PerPage]
	}
	out := make([]View, len(ns))
	for i, n := range ns {
		out[i] = s.view(lang, n)
	}
	return out, more, nil
}

type listData struct {
	Notices    []View
	Page       int
	Prev, Next int // 0: none
	Unread     int
}

func (s *Web) pageList(w http.ResponseWriter, r *http.Request) error {
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	lang := s.kit.Lang(r)
	ns, more, err := s.list(ctx, id.Account.ID, lang, p)
	if err != nil {
		return err
	}
	d := listData{Notices: ns, Page: p, Prev: p - 1, Unread: s.Unread(ctx, id.Account.ID)}
	if more {
		d.Next = p + 1
	}
	return s.kit.Render(w, http.StatusOK, "notifications", s.kit.Page(r, "notify.title", d))
}

func (s *Web) pageMarkRead(w http.ResponseWriter, r *http.Request) error {
	user, err := s.account(r)
	if err != nil {
		return err
	}
	var notice int64
	if v := r.PostFormValue("id"); v != "" {
		if notice, err = strconv.ParseInt(v, 10, 64); err != nil {
			return apierr.BadRequest(apierr.CodeBadRequest, "notify.err.page", maxPage)
		}
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	if _, err := s.st.MarkNotificationsRead(ctx, user, notice); err != nil {
		return err
	}
	s.publishCount(ctx, user)
	back := "/notifications"
	if p := r.PostFormValue("page"); p != "" && p != "1" {
		if _, err := strconv.Atoi(p); err == nil {
			back += "?page=" + p
		}
	}
	return site.Redirect(w, r, back)
}

// listJSON is GET /api/notifications.
type listJSON struct {
	Notices []View `json:"notices"`
	Page    int    `json:"page"`
	Next    int    `json:"next,omitempty"`
	Unread  int    `json:"unread"`
}

func (s *Web) apiList(w http.ResponseWriter, r *http.Request) error {
	user, err := s.account(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	ns, more, err := s.list(ctx, user, s.kit.Lang(r), p)
	if err != nil {
		return err
	}
	out := listJSON{Notices: ns, Page: p, Unread: s.Unread(ctx, user)}
	if out.Notices == nil {
		out.Notices = []View{}
	}
	if more {
		out.Next = p + 1
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

func (s *Web) apiUnread(w http.ResponseWriter, r *http.Request) error {
	user, err := s.account(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	return site.WriteJSON(w, http.StatusOK, map[string]int{"unread": s.Unread(ctx, user)})
}

// apiMarkRead is POST /api/notifications/read: {"id": n} marks one, {}
// marks all.
func (s *Web) apiMarkRead(w http.ResponseWriter, r *http.Request) error {
	user, err := s.account(r)
	if err != nil {
		return err
	}
	var body struct {
		ID int64 `json:"id"`
	}
	if err := site.ReadJSON(w, r, &body); err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	n, err := s.st.MarkNotificationsRead(ctx, user, body.ID)
	if err != nil {
		return err
	}
	s.publishCount(ctx, user)
	return site.WriteJSON(w, http.StatusOK, map[string]int{"marked": n, "unread": s.Unread(ctx, user)})
}

// ---- the settings' panel ----

// PrefRow is one kind's row of the settings' panel.
type PrefRow struct {
	Kind             string
	Site, Push, Mail bool
}

// Section is the notices' panel of /settings.
type Section struct {
	On   bool
	Rows []PrefRow
	// Push: Web Push is on in this server (the panel offers to subscribe
	// this browser).
	Push bool
	// Mail: notices may go by e-mail.
	Mail bool
}

// Section returns the panel of account user (Section{} for a nil
// Service).
func (s *Service) Section(r *http.Request, user int64) Section {
	if s == nil {
		return Section{}
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	prefs, err := s.st.NotifyPrefs(ctx, user)
	if err != nil {
		s.log.Warn("notifications: prefs", "user", user, "err", err)
	}
	sec := Section{On: true, Push: s.cfg.Push != nil, Mail: s.cfg.Mail != nil}
	for _, k := range notify.Kinds {
		p, ok := prefs[string(k)]
		if !ok {
			p = store.DefaultNotifyPref
		}
		sec.Rows = append(sec.Rows, PrefRow{Kind: string(k), Site: p.Site, Push: p.Push, Mail: p.Mail})
	}
	return sec
}

func (s *Web) pageSavePrefs(w http.ResponseWriter, r *http.Request) error {
	user, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "notify.err.page", maxPage)
	}
	prefs := make(map[string]store.NotifyPref, len(notify.Kinds))
	for _, k := range notify.Kinds {
		prefs[string(k)] = store.NotifyPref{Site: r.PostForm.Get("site."+string(k)) == "on", Push: r.PostForm.Get("push."+string(k)) == "on",
			Mail: r.PostForm.Get("mail."+string(k)) == "on"}
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	if err := s.st.SetNotifyPrefs(ctx, user, prefs); err != nil {
		return err
	}
	return site.Redirect(w, r, "/settings?saved=notifications#notify-prefs")
}
