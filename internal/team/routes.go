package team

import (
	"context"
	"math"
	"net/http"
	"strconv"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Site is the teams' pages (/team, /team/{id}) and their JSON API
// (/api/team…): each page's form posts to a route of its own that
// answers with a redirect, and each API route does the same with JSON.
type Site struct {
	kit  site.Kit
	svc  *Service
	chat *chatRooms // nil: no team chat
}

// NewSite returns the teams' side of the site over svc; hub, where not
// nil, bounds and moderates the teams' chats.
func NewSite(kit site.Kit, svc *Service, hub *live.Hub) *Site {
	s := &Site{kit: kit, svc: svc}
	if hub != nil {
		s.chat = &chatRooms{hub: hub, rooms: map[string]*live.LobbyChat{}}
	}
	return s
}

// Routes registers the teams' routes on r.
func (s *Site) Routes(r site.Router) {
	r.Page("GET /team", s.pageTeams)
	r.Page("POST /team", s.pageCreate)
	r.Page("GET /team/{id}", s.pageTeam)
	r.Page("POST /team/{id}/join", s.pageOp(s.opJoin))
	r.Page("POST /team/{id}/leave", s.pageOp(s.opLeave))
	r.Page("POST /team/{id}/decline", s.pageOp(s.opDecline))
	r.Page("POST /team/{id}/requests", s.pageOp(s.opAnswer))
	r.Page("POST /team/{id}/invite", s.pageOp(s.opInvite))
	r.Page("POST /team/{id}/kick", s.pageOp(s.opKick))
	r.Page("POST /team/{id}/role", s.pageOp(s.opRole))
	r.Page("POST /team/{id}/edit", s.pageOp(s.opEdit))
	r.Page("POST /team/{id}/message", s.pageOp(s.opMessage))
	r.Page("POST /team/{id}/close", s.pageOp(s.opClose))
	r.Page("POST /class/{id}/team", s.pageFromClass)
	r.Page("POST /team/{id}/battle", s.pageCreateBattle)
	r.Page("GET /team/battle/{event}", s.pageBattle)
	r.Page("POST /team/{id}/match", s.pageCreateMatch)
	r.Page("GET /team/match/{id}", s.pageMatch)
	r.Page("POST /team/match/{id}/lineup", s.pageMatchOp(false))
	r.Page("POST /team/match/{id}/start", s.pageMatchOp(true))

	r.Handle("GET /api/team/{id}/chat", http.HandlerFunc(s.chatSocket))
	r.API("GET /api/team", s.apiTeams)
	r.API("POST /api/team", s.apiCreate)
	r.API("GET /api/team/{id}", s.apiTeam)
	r.API("GET /api/team/{id}/requests", s.apiRequests)
	r.API("POST /api/team/{id}/join", s.apiOp(s.opJoin))
	r.API("POST /api/team/{id}/leave", s.apiOp(s.opLeave))
	r.API("POST /api/team/{id}/decline", s.apiOp(s.opDecline))
	r.API("POST /api/team/{id}/requests", s.apiOp(s.opAnswer))
	r.API("POST /api/team/{id}/invite", s.apiOp(s.opInvite))
	r.API("POST /api/team/{id}/kick", s.apiOp(s.opKick))
	r.API("POST /api/team/{id}/role", s.apiOp(s.opRole))
	r.API("POST /api/team/{id}/edit", s.apiOp(s.opEdit))
	r.API("POST /api/team/{id}/message", s.apiOp(s.opMessage))
	r.API("POST /api/team/{id}/close", s.apiOp(s.opClose))
	r.API("POST /api/team/{id}/battle", s.apiCreateBattle)
	r.API("GET /api/events/{event}/teams", s.apiBattle)
	r.API("POST /api/team/{id}/match", s.apiCreateMatch)
	r.API("GET /api/team-match/{id}", s.apiMatch)
	r.API("POST /api/team-match/{id}/lineup", s.apiMatchOp(false))
	r.API("POST /api/team-match/{id}/start", s.apiMatchOp(true))
}

// account returns the account making r, a 401 for a guest or nobody.
func (s *Site) account(r *http.Request) (site.Identity, error) {
	me := s.kit.Identity(r)
	if me.Account.ID == 0 {
		return me, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.team_login")
	}
	return me, nil
}

// form is what a page's form or the API's JSON body sends to an op.
type form struct {
	User    string `json:"user"`
	Accept  bool   `json:"accept"`
	Role    string `json:"role"`
	Message string `json:"message"`
	Sure    bool   `json:"sure"` // closing: the leader means it
	Fields
}

// result is what an op did, for the page's redirect and the API's answer.
type result struct {
	Joined bool `json:"joined,omitempty"`
	Closed bool `json:"closed,omitempty"`
	Told   int  `json:"told,omitempty"`
}

type op func(ctx context.Context, id string, me site.Identity, f form) (result, error)

func (s *Site) opJoin(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	joined, err := s.svc.Join(ctx, id, me.Account.ID, f.Message)
	return result{Joined: joined}, err
}

func (s *Site) opLeave(ctx context.Context, id string, me site.Identity, _ form) (result, error) {
	closed, err := s.svc.Leave(ctx, id, me.Account.ID)
	return result{Closed: closed}, err
}

func (s *Site) opDecline(ctx context.Context, id string, me site.Identity, _ form) (result, error) {
	return result{}, s.svc.Decline(ctx, id, me.Account.ID)
}

func (s *Site) opAnswer(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	return result{}, s.svc.Answer(ctx, id, me.Account.ID, f.User, f.Accept)
}

func (s *Site) opInvite(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	return result{}, s.svc.InviteUser(ctx, id, me.Account.ID, me.Account.Name, f.User)
}

func (s *Site) opKick(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	return result{}, s.svc.Kick(ctx, id, me.Account.ID, f.User)
}

func (s *Site) opRole(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	return result{}, s.svc.Appoint(ctx, id, me.Account.ID, f.User, f.Role)
}

func (s *Site) opEdit(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	return result{}, s.svc.Edit(ctx, id, me.Account.ID, f.Fields)
}

func (s *Site) opClose(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	return result{Closed: true}, s.svc.Close(ctx, id, me.Account.ID, f.Sure)
}

func (s *Site) opMessage(ctx context.Context, id string, me site.Identity, f form) (result, error) {
	told, err := s.svc.Message(ctx, id, me.Account.ID, me.Account.Name, f.Message)
	return result{Told: told}, err
}

// pageOp runs o on a page's form and redirects back to the team (to
// /team when the team closed).
func (s *Site) pageOp(o op) site.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		me, err := s.account(r)
		if err != nil {
			return err
		}
		if err := r.ParseForm(); err != nil {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
		}
		f := form{User: r.PostFormValue("user"), Accept: r.PostFormValue("accept") == "yes", Role: r.PostFormValue("role"), Sure: r.PostFormValue("sure") == "on",
			Message: r.PostFormValue("message"),
			Fields:  Fields{Name: r.PostFormValue("name"), Description: r.PostFormValue("description"), JoinMode: r.PostFormValue("joinMode")}}
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		id := r.PathValue("id")
		res, err := o(ctx, id, me, f)
		if err != nil {
			return err
		}
		switch {
		case res.Closed:
			return site.Redirect(w, r, "/team")
		case res.Told > 0:
			return site.Redirect(w, r, "/team/"+id+"?told="+strconv.Itoa(res.Told))
		}
		return site.Redirect(w, r, "/team/"+id)
	}
}

// apiOp runs o on a JSON body and answers what it did.
func (s *Site) apiOp(o op) site.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		me, err := s.account(r)
		if err != nil {
			return err
		}
		var f form
		if r.ContentLength != 0 {
			if err := site.ReadJSON(w, r, &f); err != nil {
				return err
			}
		}
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		res, err := o(ctx, r.PathValue("id"), me, f)
		if err != nil {
			return err
		}
		return site.WriteJSON(w, http.StatusOK, res)
	}
}

// pageParams returns the offset of page (site.PageParam) for a query of
// PageSize+1 rows.
func offset(page int) int { return (page - 1) * PageSize }

// pages trims a query's PageSize+1 rows to a page and returns the
// numbers of the previous and next pages (0: none).
func pages[T any](rows []T, page int) ([]T, int, int) {
	prev, next := page-1, 0
	if len(rows) > PageSize {
		rows, next = rows[:PageSize], page+1
	}
	return rows, prev, next
}

// TeamJSON is a team as the API shows it.
type TeamJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	JoinMode    string `json:"joinMode"`
	Members     int    `json:"members"`
	Created     int64  `json:"createdAt"` // Unix milliseconds
	Class       string `json:"class,omitempty"`
	Role        string `json:"role,omitempty"` // the caller's
}

func teamJSON(t store.Team, role string) TeamJSON {
	return TeamJSON{ID: t.ID, Name: t.Name, Description: t.Description, JoinMode: t.JoinMode, Members: t.Members,
		Created: t.Created.UnixMilli(), Class: t.ClassID, Role: role}
}

// MemberJSON is a member as the API shows him, with his ratings by
// category (those he has played in).
type MemberJSON struct {
	Name    string             `json:"name"`
	Role    string             `json:"role"`
	Joined  int64              `json:"joinedAt"`
	Ratings map[string]PerfRow `json:"ratings"`
}

// PerfRow is a rating as the team shows it.
type PerfRow struct {
	Rating      int  `json:"rating"`
	Games       int  `json:"games"`
	Provisional bool `json:"provisional,omitempty"`
}

func perfRow(p store.Perf) PerfRow {
	return PerfRow{Rating: int(math.Round(p.Rating.Rating)), Games: p.Games, Provisional: p.Rating.Provisional()}
}

func membersJSON(ms []store.TeamMember) []MemberJSON {
	out := make([]MemberJSON, 0, len(ms))
	for _, m := range ms {
		j := MemberJSON{Name: m.Name, Role: m.Role, Joined: m.Joined.UnixMilli(), Ratings: map[string]PerfRow{}}
		for _, p := range m.Perfs {
			if p.Games > 0 {
				j.Ratings[p.Category.String()] = perfRow(p)
			}
		}
		out = append(out, j)
	}
	return out
}

// apiTeams is GET /api/team?q=&page=: the teams, the largest first.
func (s *Site) apiTeams(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	page := site.PageParam(r)
	q, _ := text(r.URL.Query().Get("q"), MaxName, false)
	ts, err := s.svc.st.Teams(ctx, q, offset(page), PageSize+1)
	if err != nil {
		return err
	}
	ts, _, next := pages(ts, page)
	out := make([]TeamJSON, 0, len(ts))
	for _, t := range ts {
		out = append(out, teamJSON(t, ""))
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"teams": out, "page": page, "next": next})
}

// apiCreate is POST /api/team: a new team, its creator its leader.
func (s *Site) apiCreate(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	var f Fields
	if err := site.ReadJSON(w, r, &f); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	t, err := s.svc.Create(ctx, me.Account.ID, f)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, teamJSON(t, Leader))
}

// apiTeam is GET /api/team/{id}?page=: the team and a page of members.
func (s *Site) apiTeam(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id := r.PathValue("id")
	t, role, err := s.svc.Team(ctx, id, s.kit.Identity(r).Account.ID)
	if err != nil {
		return err
	}
	page := site.PageParam(r)
	ms, err := s.svc.st.TeamMembers(ctx, id, offset(page), PageSize+1)
	if err != nil {
		return err
	}
	ms, _, next := pages(ms, page)
	return site.WriteJSON(w, http.StatusOK, map[string]any{"team": teamJSON(t, role), "members": membersJSON(ms), "page": page, "next": next})
}

// RequestJSON is a request to join, or an invitation, as the API shows it.
type RequestJSON struct {
	User    string `json:"user"`
	Message string `json:"message,omitempty"`
	By      string `json:"by,omitempty"`
	Created int64  `json:"createdAt"`
}

// apiRequests is GET /api/team/{id}/requests?invites=1&page=: the
// requests (or invitations) waiting, for the team's leaders and coaches.
func (s *Site) apiRequests(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id := r.PathValue("id")
	if _, _, err := s.svc.rights(ctx, id, me.Account.ID, false); err != nil {
		return err
	}
	page := site.PageParam(r)
	rs, err := s.svc.st.TeamRequests(ctx, id, r.URL.Query().Get("invites") == "1", offset(page), PageSize+1)
	if err != nil {
		return err
	}
	rs, _, next := pages(rs, page)
	out := make([]RequestJSON, 0, len(rs))
	for _, x := range rs {
		out = append(out, RequestJSON{User: x.Name, Message: x.Message, By: x.By, Created: x.Created.UnixMilli()})
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"requests": out, "page": page, "next": next})
}
