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

func (s *Site) conversations(ctx context.Context, me int64, p int) ([]ConversationView, bool, error) {
	cs, err := s.cfg.Store.Conversations(ctx, me, PerPage+1, (p-1)*PerPage)
	if err != nil {
		return nil, false, err
	}
	more := len(cs) > PerPage
	if more {
		cs = cs[:PerPage]
	}
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
	Page          int
	Prev, Next    int
	Kid           bool
}

func (s *Site) pageInbox(w http.ResponseWriter, r *http.Request) error {
	me, err := s.me(r)
	if err != nil {
		return site.Redirect(w, r, "/login")
	}
	if to := strings.TrimSpace(r.URL.Query().Get("to")); to != "" { // the form that opens a conversation
		return site.Redirect(w, r, "/inbox/"+url.PathEscape(to))
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	cs, more, err := s.conversations(ctx, me.ID, p)
	if err != nil {
		return err
	}
	d := inboxData{Conversations: cs, Page: p, Prev: p - 1, Kid: s.cfg.Privacy.Kid(ctx, me.ID)}
	if more {
		d.Next = p + 1
	}
	return s.kit.Render(w, http.StatusOK, "inbox", s.kit.Page(r, "inbox.title", d))
}

// thread returns page p of the messages between me and other, oldest
// first on the page, and whether older ones exist.
func (s *Site) thread(ctx context.Context, me store.User, other store.User, p int) ([]MessageView, bool, error) {
	ms, err := s.cfg.Store.Thread(ctx, me.ID, other.ID, PerPage+1, (p-1)*PerPage)
	if err != nil {
		return nil, false, err
	}
	more := len(ms) > PerPage
	if more {
		ms = ms[:PerPage]
	}
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

func (s *Site) renderThread(w http.ResponseWriter, r *http.Request, status int, body, errText string) error {
	me, err := s.me(r)
	if err != nil {
		return site.Redirect(w, r, "/login")
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	other, err := s.user(ctx, r.PathValue("name"))
	if err != nil {
		return err
	}
	if other.ID == me.ID {
		return apierr.BadRequest(apierr.CodeBadRequest, "inbox.err.self")
	}
	self := store.User{ID: me.ID, Name: me.Name}
	ms, more, err := s.thread(ctx, self, other, p)
	if err != nil {
		return err
	}
	if p == 1 {
		if err := s.cfg.Store.MarkThreadRead(ctx, me.ID, other.ID); err != nil {
			return err
		}
		if s.cfg.Seen != nil {
			s.cfg.Seen(ctx, me.ID, "/inbox/"+other.Name)
		}
	}
	d := threadData{Other: other.Name, Messages: ms, Page: p, Newer: p - 1, MaxRunes: MaxRunes, Body: body, Error: errText}
	if more {
		d.Older = p + 1
	}
	if err := s.cfg.Privacy.May(ctx, me.ID, other.ID, privacy.Message); err != nil {
		var ae *apierr.Error
		if !errors.As(err, &ae) {
			return err
		}
		d.Refused = s.kit.Message(r, ae)
	} else {
		d.CanWrite = true
	}
	if d.Reported, err = s.cfg.Store.ConversationReported(ctx, me.ID, other.ID); err != nil {
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
	Reports    []store.ReportedConversation
	Page       int
	Prev, Next int
}

func (s *Site) pageReported(w http.ResponseWriter, r *http.Request) error {
	if err := s.moderator(r); err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	rs, err := s.cfg.Store.ReportedConversations(ctx, PerPage+1, (p-1)*PerPage)
	if err != nil {
		return err
	}
	d := reportedData{Reports: rs, Page: p, Prev: p - 1}
	if len(rs) > PerPage {
		d.Reports, d.Next = rs[:PerPage], p+1
	}
	return s.kit.Render(w, http.StatusOK, "inbox_reported", s.kit.Page(r, "inbox.mod.title", d))
}

func (s *Site) pageModThread(w http.ResponseWriter, r *http.Request) error {
	if err := s.moderator(r); err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	a, err := s.user(ctx, r.PathValue("a"))
	if err != nil {
		return err
	}
	b, err := s.user(ctx, r.PathValue("b"))
	if err != nil {
		return err
	}
	if ok, err := s.cfg.Store.ConversationReported(ctx, a.ID, b.ID); err != nil {
		return err
	} else if !ok {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "inbox.err.not_reported")
	}
	ms, more, err := s.thread(ctx, a, b, p)
	if err != nil {
		return err
	}
	d := threadData{Other: b.Name, Messages: ms, Page: p, Newer: p - 1, Moderating: true, A: a.Name, B: b.Name, Reported: true}
	if more {
		d.Older = p + 1
	}
	return s.kit.Render(w, http.StatusOK, "inbox_thread", s.kit.Page(r, "inbox.mod.thread", d, a.Name, b.Name))
}

// ---- the API ----

func (s *Site) apiInbox(w http.ResponseWriter, r *http.Request) error {
	me, err := s.me(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	cs, more, err := s.conversations(ctx, me.ID, p)
	if err != nil {
		return err
	}
	if cs == nil {
		cs = []ConversationView{}
	}
	out := map[string]any{"conversations": cs, "page": p}
	if more {
		out["next"] = p + 1
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

func (s *Site) apiThread(w http.ResponseWriter, r *http.Request) error {
	me, err := s.me(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	other, err := s.user(ctx, r.PathValue("name"))
	if err != nil {
		return err
	}
	if other.ID == me.ID {
		return apierr.BadRequest(apierr.CodeBadRequest, "inbox.err.self")
	}
	ms, more, err := s.thread(ctx, store.User{ID: me.ID, Name: me.Name}, other, p)
	if err != nil {
		return err
	}
	if ms == nil {
		ms = []MessageView{}
	}
	out := map[string]any{"messages": ms, "page": p}
	if more {
		out["next"] = p + 1
	}
	return site.WriteJSON(w, http.StatusOK, out)
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
