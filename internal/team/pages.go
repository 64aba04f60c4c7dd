package team

import (
	"context"
	"net/http"
	"strconv"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// pager is the links to a list's previous and next pages, its page in
// the query parameter Param (the teams' pages page several lists).
type pager struct {
	URL, Param, Anchor        string
	Label, PrevText, NextText string
	Prev, Next                int
}

// pageIn reads r's page of the list paged by param (1 when none).
func pageIn(r *http.Request, param string) int {
	n, err := strconv.Atoi(r.URL.Query().Get(param))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

func (s *Site) pager(r *http.Request, url, param, anchor, labelKey string, prev, next int) pager {
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	return pager{URL: url, Param: param, Anchor: anchor, Label: cat.T(lang, labelKey), PrevText: cat.T(lang, "team.prev"), NextText: cat.T(lang, "team.next"),
		Prev: prev, Next: next}
}

// teamRow is a team as /team lists it.
type teamRow struct {
	ID, Name, JoinMode, Role string
	Members                  int
}

func teamRows(ts []store.Team, roles []string) []teamRow {
	out := make([]teamRow, 0, len(ts))
	for i, t := range ts {
		row := teamRow{ID: t.ID, Name: t.Name, JoinMode: t.JoinMode, Members: t.Members}
		if roles != nil {
			row.Role = roles[i]
		}
		out = append(out, row)
	}
	return out
}

type teamsData struct {
	LoggedIn    bool
	Query       string
	Teams       []teamRow
	Prev, Next  int
	Mine        []teamRow
	Invites     []store.TeamRequest
	InvitePages pager
	JoinModes   []string
	MaxName     int
	MaxDesc     int
	PerDay      int
	MaxJoined   int
	SearchQuery string // "&q=…" for the pages' links
}

// pageTeams is GET /team?q=&page=: the teams, the largest first (those
// whose name has q), the caller's teams and invitations, and the form of
// a new team.
func (s *Site) pageTeams(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	me := s.kit.Identity(r)
	page := site.PageParam(r)
	q, _ := text(r.URL.Query().Get("q"), MaxName, false)
	ts, err := s.svc.st.Teams(ctx, q, offset(page), PageSize+1)
	if err != nil {
		return err
	}
	ts, prev, next := pages(ts, page)
	d := teamsData{LoggedIn: me.Account.ID != 0, Query: q, Teams: teamRows(ts, nil), Prev: prev, Next: next,
		JoinModes: JoinModes, MaxName: MaxName, MaxDesc: MaxDescription, PerDay: CreatedPerDay, MaxJoined: MaxJoined}
	if d.LoggedIn {
		mine, roles, err := s.svc.st.TeamsOf(ctx, me.Account.ID, 0, MaxJoined)
		if err != nil {
			return err
		}
		d.Mine = teamRows(mine, roles)
		ip := pageIn(r, "ipage")
		invites, err := s.svc.st.TeamInvitesOf(ctx, me.Account.ID, offset(ip), PageSize+1)
		if err != nil {
			return err
		}
		var prev, next int
		d.Invites, prev, next = pages(invites, ip)
		d.InvitePages = s.pager(r, "/team", "ipage", "#team-invites", "team.invites.mine", prev, next)
	}
	return s.kit.Render(w, http.StatusOK, "teams", s.kit.Page(r, "team.title", d))
}

// pageCreate is POST /team: a new team, then its page.
func (s *Site) pageCreate(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	t, err := s.svc.Create(ctx, me.Account.ID, Fields{Name: r.PostFormValue("name"), Description: r.PostFormValue("description"), JoinMode: r.PostFormValue("joinMode")})
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/team/"+t.ID)
}

// pageFromClass is POST /class/{id}/team: the class's coach makes a
// team of it, then its page.
func (s *Site) pageFromClass(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	t, err := s.svc.FromClass(ctx, r.PathValue("id"), me.Account.ID, me.Account.Name)
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/team/"+t.ID)
}

// memberRow is a member as the team's page lists him.
type memberRow struct {
	Name, Role string
	Ratings    []string // blitz, rapid, classical: "1523", "1500?" or "–"
	Self       bool
	Kickable   bool // by the viewer
}

type teamData struct {
	Team               store.Team
	Role               string // the viewer's; "" for a visitor
	LoggedIn           bool
	Manages, Leads     bool
	Requested, Invited bool
	Members            []memberRow
	Perfs              []string // the ratings' categories, as the members' columns
	Prev, Next         int
	Requests           []store.TeamRequest
	Invites            []store.TeamRequest
	RequestPages       pager
	InvitePages        pager
	BattlePages        pager
	MatchPages         pager
	Told               int
	JoinModes, Roles   []string
	MaxName, MaxDesc   int
	MaxMessage         int
	MaxRequest         int
	MessagesPerDay     int
	// Battles are the team's last team battles with its line in each;
	// CanBattle: the site runs events (a leader may make one).
	Battles   []teamBattleRow
	CanBattle bool
	MaxTeams  int
	MaxLead   int
	MaxMin    int
	// Matches are the team's last matches; CanMatch: the site creates
	// games (a leader may challenge a team).
	Matches   []matchRow
	CanMatch  bool
	MaxBoards int
	// Chat: the viewer is a member and the site has the teams' chat.
	Chat bool
}

// matchRow is a team match as its teams' pages list it.
type matchRow struct {
	ID, NameA, NameB, ScoreA, ScoreB, Status string
}

// teamBattleRow is a team battle as its teams' pages list it.
type teamBattleRow struct {
	EventID, Name, Status string
	Teams                 int
	Line                  BattleLine // the team's
}

// memberRowOf is member m's row as viewer (of role in the team; mod: a
// moderator) sees it.
func memberRowOf(m store.TeamMember, viewer int64, role string, mod bool) memberRow {
	row := memberRow{Name: m.Name, Role: m.Role, Self: m.UserID == viewer}
	row.Kickable = !row.Self && (role == Leader || mod || (role == Coach && m.Role == Member))
	for _, p := range m.Perfs {
		if p.Games == 0 {
			row.Ratings = append(row.Ratings, "–")
		} else {
			row.Ratings = append(row.Ratings, p.Rating.String())
		}
	}
	return row
}

// teamEvents fills d with a page of team id's battles (?bpage=) and of
// its matches (?mpage=), and what making one takes.
func (s *Site) teamEvents(ctx context.Context, r *http.Request, id string, d *teamData) error {
	bp := pageIn(r, "bpage")
	battles, err := s.svc.BattlesOf(ctx, id, offset(bp), PageSize+1)
	if err != nil {
		return err
	}
	battles, prev, next := pages(battles, bp)
	d.BattlePages = s.pager(r, "/team/"+id, "bpage", "#team-battles-h", "team.battles", prev, next)
	for _, b := range battles {
		row := teamBattleRow{EventID: b.EventID, Name: b.Event.Name, Status: string(b.Event.Status), Teams: len(b.Lines)}
		for _, l := range b.Lines {
			if l.TeamID == id {
				row.Line = l
			}
		}
		d.Battles = append(d.Battles, row)
	}
	d.CanBattle, d.MaxTeams, d.MaxLead, d.MaxMin = s.svc.events != nil, MaxBattleTeams, MaxLeaders, MaxBattleMinute
	mp := pageIn(r, "mpage")
	matches, err := s.svc.MatchesOf(ctx, id, offset(mp), PageSize+1)
	if err != nil {
		return err
	}
	matches, prev, next = pages(matches, mp)
	d.MatchPages = s.pager(r, "/team/"+id, "mpage", "#team-matches-h", "team.matches", prev, next)
	for _, m := range matches {
		d.Matches = append(d.Matches, matchRow{ID: m.ID, NameA: m.NameA, NameB: m.NameB, ScoreA: Score(m.Halves[0]), ScoreB: Score(m.Halves[1]), Status: m.Status})
	}
	d.CanMatch, d.MaxBoards = s.svc.games != nil, MaxBoards
	return nil
}

// teamWaiting fills d, for the team's leaders and coaches, with a page of
// the requests to join team id (?rpage=), of its invitations (?ipage=),
// and how many the last message told (?told=).
func (s *Site) teamWaiting(ctx context.Context, r *http.Request, id string, d *teamData) error {
	rp, ip := pageIn(r, "rpage"), pageIn(r, "ipage")
	requests, err := s.svc.st.TeamRequests(ctx, id, false, offset(rp), PageSize+1)
	if err != nil {
		return err
	}
	var prev, next int
	d.Requests, prev, next = pages(requests, rp)
	d.RequestPages = s.pager(r, "/team/"+id, "rpage", "#team-requests", "team.requests", prev, next)
	invites, err := s.svc.st.TeamRequests(ctx, id, true, offset(ip), PageSize+1)
	if err != nil {
		return err
	}
	d.Invites, prev, next = pages(invites, ip)
	d.InvitePages = s.pager(r, "/team/"+id, "ipage", "#team-invite-h", "team.invites.waiting", prev, next)
	d.Told, _ = strconv.Atoi(r.URL.Query().Get("told"))
	return nil
}

// pageTeam is GET /team/{id}?page=: the team, a page of its members with
// their ratings, the viewer's way in or out, and for its leaders and
// coaches the requests, the invitations and the message to all.
func (s *Site) pageTeam(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	me := s.kit.Identity(r)
	id := r.PathValue("id")
	t, role, err := s.svc.Team(ctx, id, me.Account.ID)
	if err != nil {
		return err
	}
	page := site.PageParam(r)
	ms, err := s.svc.st.TeamMembers(ctx, id, offset(page), PageSize+1)
	if err != nil {
		return err
	}
	ms, prev, next := pages(ms, page)
	mod := s.svc.Moderator(me.Account.ID)
	d := teamData{Team: t, Role: role, LoggedIn: me.Account.ID != 0, Manages: Manages(role) || mod, Leads: role == Leader || mod, Prev: prev, Next: next,
		JoinModes: JoinModes, Roles: Roles, MaxName: MaxName, MaxDesc: MaxDescription, MaxMessage: MaxMessage, MaxRequest: MaxRequestText,
		MessagesPerDay: MessagesPerDay}
	for _, c := range store.TeamPerfs {
		d.Perfs = append(d.Perfs, c.String())
	}
	for _, m := range ms {
		d.Members = append(d.Members, memberRowOf(m, me.Account.ID, role, mod))
	}
	if err := s.teamEvents(ctx, r, id, &d); err != nil {
		return err
	}
	d.Chat = s.chat != nil && role != ""
	if me.Account.ID != 0 && role == "" {
		if d.Requested, d.Invited, err = s.svc.st.TeamRequested(ctx, id, me.Account.ID); err != nil {
			return err
		}
	}
	if d.Manages {
		if err := s.teamWaiting(ctx, r, id, &d); err != nil {
			return err
		}
	}
	return s.kit.Render(w, http.StatusOK, "team", s.kit.Page(r, "team.title.one", d, t.Name))
}
