package inbox

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// ConversationView is a conversation in the list.
type ConversationView struct {
	Name   string `json:"name"`
	Last   string `json:"last"`
	Mine   bool   `json:"mine"` // the last message is the viewer's
	When   string `json:"at"`
	Unread int    `json:"unread"`
}

// MessageView is a message in a thread.
type MessageView struct {
	ID   int64  `json:"id"`
	From string `json:"from"`
	Mine bool   `json:"mine"`
	Body string `json:"body"`
	When string `json:"at"`
}

const when = "2006-01-02 15:04"

// call is what a handler reads of its request: the account that asks, the
// page of the list it asks for, and the store's context (site.StoreTimeout).
type call struct {
	ctx  context.Context
	me   site.Account
	page int
}

// begin reads r's call: an account (401 otherwise, with me left zero) and
// a page (400 when out of range); done releases the context.
func (s *Site) begin(r *http.Request) (c call, done context.CancelFunc, err error) {
	done = func() {}
	if c.me, err = s.me(r); err != nil {
		return c, done, err
	}
	if c.page, err = pageOf(r); err != nil {
		return c, done, err
	}
	c.ctx, done = ctxOf(r)
	return c, done, nil
}

// beginModerator is begin for a moderator (403 for anyone else).
func (s *Site) beginModerator(r *http.Request) (call, context.CancelFunc, error) {
	if err := s.moderator(r); err != nil {
		return call{}, func() {}, err
	}
	return s.begin(r)
}

// peer returns the account r's path names as the other side: not me.
func (s *Site) peer(c call, r *http.Request) (store.User, error) {
	other, err := s.user(c.ctx, r.PathValue("name"))
	if err == nil && other.ID == c.me.ID {
		err = apierr.BadRequest(apierr.CodeBadRequest, "inbox.err.self")
	}
	return other, err
}

// firstPage cuts a list read with one row more than a page to PerPage and
// reports whether there was more.
func firstPage[T any](xs []T) ([]T, bool) {
	if len(xs) > PerPage {
		return xs[:PerPage], true
	}
	return xs, false
}

// Paging is a page's place in its list: the previous and next pages (0:
// none).
type Paging struct{ Page, Prev, Next int }

func pagingOf(p int, more bool) Paging {
	g := Paging{Page: p, Prev: p - 1}
	if more {
		g.Next = p + 1
	}
	return g
}

// writeList answers a page of a list as the API's JSON: {key: items,
// "page": p, "next": p+1 when there is more}; an empty list is [].
func writeList[T any](w http.ResponseWriter, key string, items []T, p int, more bool) error {
	if items == nil {
		items = []T{}
	}
	out := map[string]any{key: items, "page": p}
	if more {
		out["next"] = p + 1
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

func (s *Site) conversations(ctx context.Context, me int64, p int) ([]ConversationView, bool, error) {
	cs, err := s.cfg.Store.Conversations(ctx, me, PerPage+1, (p-1)*PerPage)
	if err != nil {
		return nil, false, err
	}
	cs, more := firstPage(cs)
	out := make([]ConversationView, len(cs))
	for i, c := range cs {
		last := c.Last.Body
		if r := []rune(last); len(r) > 80 {
			last = string(r[:80]) + "…"
		}
		out[i] = ConversationView{Name: c.OtherName, Last: last, Mine: c.Last.SenderID == me, When: c.Last.Created.UTC().Format(when), Unread: c.Unread}
	}
	return out, more, nil
}

type inboxData struct {
	Conversations []ConversationView
	Paging
	Kid bool
}

func (s *Site) pageInbox(w http.ResponseWriter, r *http.Request) error {
	c, done, err := s.begin(r)
	defer done()
	to := strings.TrimSpace(r.URL.Query().Get("to")) // the form that opens a conversation
	switch {
	case c.me.ID == 0:
		return site.Redirect(w, r, "/login")
	case to != "":
		return site.Redirect(w, r, "/inbox/"+url.PathEscape(to))
	case err != nil:
		return err
	}
	cs, more, err := s.conversations(c.ctx, c.me.ID, c.page)
	if err != nil {
		return err
	}
	d := inboxData{Conversations: cs, Paging: pagingOf(c.page, more), Kid: s.cfg.Privacy.Kid(c.ctx, c.me.ID)}
	return s.kit.Render(w, http.StatusOK, "inbox", s.kit.Page(r, "inbox.title", d))
}

// thread returns page p of the messages between me and other, oldest
// first on the page, and whether older ones exist.
func (s *Site) thread(ctx context.Context, me store.User, other store.User, p int) ([]MessageView, bool, error) {
	ms, err := s.cfg.Store.Thread(ctx, me.ID, other.ID, PerPage+1, (p-1)*PerPage)
	if err != nil {
		return nil, false, err
	}
	ms, more := firstPage(ms)
	out := make([]MessageView, len(ms))
	for i, m := range ms {
		from := other.Name
		if m.SenderID == me.ID {
			from = me.Name
		}
		out[len(ms)-1-i] = MessageView{ID: m.ID, From: from, Mine: m.SenderID == me.ID, Body: m.Body, When: m.Created.UTC().Format(when)}
	}
	return out, more, nil
}

type threadData struct {
	Other      string
	Messages   []MessageView
	Page       int
	Older      int // the next page (older messages); 0: none
	Newer      int
	CanWrite   bool
	Refused    string // why he cannot write, in the page's language
	Reported   bool
	MaxRunes   int
	Body       string // the text kept after an error
	Error      string
	Moderating bool // a moderator reads a reported conversation
	A, B       string
}

// threadPage is the frame of a thread's page p between a and b.
func (s *Site) threadPage(ctx context.Context, a, b store.User, p int) (threadData, error) {
	ms, more, err := s.thread(ctx, a, b, p)
	g := pagingOf(p, more)
	return threadData{Other: b.Name, Messages: ms, Page: p, Older: g.Next, Newer: g.Prev}, err
}

func (s *Site) renderThread(w http.ResponseWriter, r *http.Request, status int, body, errText string) error {
	c, done, err := s.begin(r)
	defer done()
	if c.me.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	if err != nil {
		return err
	}
	other, err := s.peer(c, r)
	if err != nil {
		return err
	}
	d, err := s.threadPage(c.ctx, store.User{ID: c.me.ID, Name: c.me.Name}, other, c.page)
	if err != nil {
		return err
	}
	if c.page == 1 {
		if err := s.cfg.Store.MarkThreadRead(c.ctx, c.me.ID, other.ID); err != nil {
			return err
		}
		if s.cfg.Seen != nil {
			s.cfg.Seen(c.ctx, c.me.ID, "/inbox/"+other.Name)
		}
	}
	d.MaxRunes, d.Body, d.Error = MaxRunes, body, errText
	if err := s.cfg.Privacy.May(c.ctx, c.me.ID, other.ID, privacy.Message); err != nil {
		var ae *apierr.Error
		if !errors.As(err, &ae) {
			return err
		}
		d.Refused = s.kit.Message(r, ae)
	} else {
		d.CanWrite = true
	}
	if d.Reported, err = s.cfg.Store.ConversationReported(c.ctx, c.me.ID, other.ID); err != nil {
		return err
	}
	return s.kit.Render(w, status, "inbox_thread", s.kit.Page(r, "inbox.thread.title", d, other.Name))
}

func (s *Site) pageThread(w http.ResponseWriter, r *http.Request) error {
	return s.renderThread(w, r, http.StatusOK, "", "")
}

func (s *Site) pageSend(w http.ResponseWriter, r *http.Request) error {
	me, err := s.me(r)
	if err != nil {
		return err
	}
	body := r.PostFormValue("body")
	if _, to, err := s.send(r, me, r.PathValue("name"), body); err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) && ae.Status != http.StatusNotFound {
			return s.renderThread(w, r, ae.Status, body, s.kit.Message(r, ae))
		}
		return err
	} else {
		return site.Redirect(w, r, "/inbox/"+to.Name)
	}
}

func (s *Site) pageReport(w http.ResponseWriter, r *http.Request) error {
	me, err := s.me(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	other, err := s.user(ctx, r.PathValue("name"))
	if err != nil {
		return err
	}
	ms, err := s.cfg.Store.Thread(ctx, me.ID, other.ID, 1, 0)
	if err != nil {
		return err
	}
	if len(ms) == 0 || other.ID == me.ID {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "inbox.err.user", site.Excerpt(other.Name))
	}
	_, _, err = s.cfg.Store.AddModReport(ctx, store.ModReport{TargetID: other.ID, ReporterID: me.ID, Reason: "conversation",
		Note: "/mod/inbox/" + me.Name + "/" + other.Name, Weight: 1, Addr: authAddr(r)},
		store.ModReportLimits{PerUser: ReportsPerUser, PerAddr: ReportsPerAddr})
	if errors.Is(err, store.ErrReportLimit) {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "inbox.err.reports")
	}
	if err != nil {
		return err
	}
	if err := s.cfg.Store.ReportConversation(ctx, me.ID, other.ID); err != nil {
		return err
	}
	return site.Redirect(w, r, "/inbox/"+other.Name)
}

// ---- the moderators' side ----

func (s *Site) moderator(r *http.Request) error {
	me, err := s.me(r)
	if err != nil {
		return err
	}
	if s.cfg.IsModerator == nil || !s.cfg.IsModerator(me.ID) {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "inbox.err.mod")
	}
	return nil
}

type reportedData struct {
	Reports []store.ReportedConversation
	Paging
}

func (s *Site) pageReported(w http.ResponseWriter, r *http.Request) error {
	c, done, err := s.beginModerator(r)
	defer done()
	if err != nil {
		return err
	}
	rs, err := s.cfg.Store.ReportedConversations(c.ctx, PerPage+1, (c.page-1)*PerPage)
	if err != nil {
		return err
	}
	rs, more := firstPage(rs)
	return s.kit.Render(w, http.StatusOK, "inbox_reported", s.kit.Page(r, "inbox.mod.title", reportedData{Reports: rs, Paging: pagingOf(c.page, more)}))
}

func (s *Site) pageModThread(w http.ResponseWriter, r *http.Request) error {
	c, done, err := s.beginModerator(r)
	defer done()
	if err != nil {
		return err
	}
	a, err := s.user(c.ctx, r.PathValue("a"))
	if err != nil {
		return err
	}
	b, err := s.user(c.ctx, r.PathValue("b"))
	if err != nil {
		return err
	}
	if ok, err := s.cfg.Store.ConversationReported(c.ctx, a.ID, b.ID); err != nil {
		return err
	} else if !ok {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "inbox.err.not_reported")
	}
	d, err := s.threadPage(c.ctx, a, b, c.page)
	if err != nil {
		return err
	}
	d.Moderating, d.A, d.B, d.Reported = true, a.Name, b.Name, true
	return s.kit.Render(w, http.StatusOK, "inbox_thread", s.kit.Page(r, "inbox.mod.thread", d, a.Name, b.Name))
}

// ---- the API ----

func (s *Site) apiInbox(w http.ResponseWriter, r *http.Request) error {
	c, done, err := s.begin(r)
	defer done()
	if err != nil {
		return err
	}
	cs, more, err := s.conversations(c.ctx, c.me.ID, c.page)
	if err != nil {
		return err
	}
	return writeList(w, "conversations", cs, c.page, more)
}

func (s *Site) apiThread(w http.ResponseWriter, r *http.Request) error {
	c, done, err := s.begin(r)
	defer done()
	if err != nil {
		return err
	}
	other, err := s.peer(c, r)
	if err != nil {
		return err
	}
	ms, more, err := s.thread(c.ctx, store.User{ID: c.me.ID, Name: c.me.Name}, other, c.page)
	if err != nil {
		return err
	}
	return writeList(w, "messages", ms, c.page, more)
}

func (s *Site) apiSend(w http.ResponseWriter, r *http.Request) error {
	me, err := s.me(r)
	if err != nil {
		return err
	}
	var body struct {
		Text string `json:"text"`
	}
	if err := site.ReadJSON(w, r, &body); err != nil {
		return err
	}
	m, _, err := s.send(r, me, r.PathValue("name"), body.Text)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"id": m.ID})
}
