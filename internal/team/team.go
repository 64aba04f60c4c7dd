// Package team is the site's clubs and teams (/team): a team is made
// by an account, who becomes its leader; people join it at once (open),
// by a request its leaders or coaches accept (request), or only when
// invited (invite). Leaders edit the team, appoint leaders and coaches,
// and do what coaches do: accept or decline requests, invite, remove
// members, and write to all members (notify.Team notices). A class of a
// school (internal/study) can be made a team by its coach.
//
// Invariants: a team with members has a leader (the store refuses to
// leave it without one); every write a stranger can repeat is bounded per
// account per day (teams created, requests, invitations, messages), and
// every text is bounded in size; guests read the pages but write nothing.
//
// Threat model: anyone may create a team and ask to join one; an account
// cannot flood others with invitations or messages past the bounds, and
// a member's rights are read from the store at each request, never from
// the page.
package team

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/store"
)

// Store keeps the teams (internal/store).
type Store interface {
	CreateTeam(ctx context.Context, t store.Team, perDay int, b store.TeamBounds) (store.Team, error)
	GetTeam(ctx context.Context, id string) (store.Team, error)
	TeamOfClass(ctx context.Context, class string) (store.Team, error)
	Teams(ctx context.Context, query string, offset, limit int) ([]store.Team, error)
	TeamsOf(ctx context.Context, userID int64, offset, limit int) ([]store.Team, []string, error)
	TeamRole(ctx context.Context, team string, userID int64) (string, error)
	TeamMembers(ctx context.Context, team string, offset, limit int) ([]store.TeamMember, error)
	TeamMemberIDsAfter(ctx context.Context, team string, after int64, limit int) ([]int64, error)
	AdmitTeam(ctx context.Context, team string, userID int64, from string, b store.TeamBounds) error
	RequestTeam(ctx context.Context, team string, userID int64, message string, perDay, max int) error
	InviteTeam(ctx context.Context, team string, userID, by int64, perDay, max int) error
	DropTeamRequest(ctx context.Context, team string, userID int64, invite bool) error
	TeamRequests(ctx context.Context, team string, invites bool, offset, limit int) ([]store.TeamRequest, error)
	TeamInvitesOf(ctx context.Context, userID int64, offset, limit int) ([]store.TeamRequest, error)
	TeamRequested(ctx context.Context, team string, userID int64) (requested, invited bool, err error)
	LeaveTeam(ctx context.Context, team string, userID int64) (closed bool, err error)
	SetTeamRole(ctx context.Context, team string, userID int64, role string) error
	UpdateTeam(ctx context.Context, id, name, description, joinMode string) error
	CloseTeam(ctx context.Context, id string) error
	CountTeamWrite(ctx context.Context, userID int64, kind string, perDay int) error
	AddTeamBroadcast(ctx context.Context, b store.TeamBroadcast, perDay int) (int64, error)
	ClaimTeamBroadcast(ctx context.Context, lease time.Duration) (store.TeamBroadcast, error)
	TeamBroadcastTold(ctx context.Context, b *store.TeamBroadcast, after int64, lease time.Duration, done bool) error
	UserByName(ctx context.Context, name string) (store.User, error)
	GetClass(ctx context.Context, id string) (store.Class, error)
	ClassStudents(ctx context.Context, class string) ([]store.Member, error)
}

// Bounds of teams.
const (
	MaxName        = 60   // letters of a team's name
	MinName        = 2    //
	MaxDescription = 4000 // letters of its description
	MaxMessage     = 2000 // letters of the leaders' message to all members
	MaxRequestText = 500  // letters of a request's message

	CreatedPerDay  = 3   // teams one account creates a day
	RequestsPerDay = 30  // requests to join one account makes a day
	InvitesPerDay  = 100 // invitations one account sends a day
	MessagesPerDay = 3   // messages to all members one account sends a team a day
	MaxJoined      = 50  // teams one account is a member of
	MaxMembers     = 5000
	MaxPending     = 500 // requests, or invitations, waiting at a team

	PageSize = 30 // teams, members, requests a page lists
)

var bounds = store.TeamBounds{Joined: MaxJoined, Members: MaxMembers, Pending: MaxPending}

// Join modes and roles.
const (
	Open    = "open"
	Request = "request"
	Invite  = "invite"

	Leader = "leader"
	Coach  = "coach"
	Member = "member"
)

// JoinModes and Roles list them in the forms' order.
var (
	JoinModes = []string{Open, Request, Invite}
	Roles     = []string{Leader, Coach, Member}
)

// Config is what the teams are built from.
type Config struct {
	Store Store
	// Notify takes the invitations and the leaders' messages; nil: no one
	// is told.
	Notify notify.Sender
	// Events makes the team battles' arenas (*events.Manager); nil: no
	// team battles. Store must then keep them too (Battles).
	Events Events
	// Games creates the team matches' games (*live.Hub); nil: no team
	// matches. Store must then keep them too (Matches).
	Games Games
	// Kid reports whether an account is in kid mode, where it has no chat
	// (the team's either); nil: none is.
	Kid func(ctx context.Context, user int64) bool
	// IsModerator reports whether an account is one of the site's
	// moderators, who have every team's leaders' rights (edit, remove,
	// close); nil: none is.
	IsModerator func(user int64) bool
	// Logger logs what the leaders' messages' worker could not do (nil:
	// nothing is logged).
	Logger *slog.Logger
}

// Service is the teams' domain: each operation checks the caller's
// rights in the team as the store has them.
type Service struct {
	st     Store
	notify notify.Sender
	events Events
	games  Games
	kid    func(ctx context.Context, user int64) bool
	isMod  func(user int64) bool
	wake   chan struct{} // a leaders' message waits to be told (Run)
	log    *slog.Logger
}

// NewService returns the teams over cfg.
func NewService(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{st: cfg.Store, notify: cfg.Notify, events: cfg.Events, games: cfg.Games, kid: cfg.Kid, isMod: cfg.IsModerator,
		wake: make(chan struct{}, 1), log: cfg.Logger}
}

// ErrorKeys are the messages of the teams' errors (for the catalog's
// completeness test).
func ErrorKeys() []string {
	return []string{"apierr.team_none", "apierr.team_login", "apierr.team_forbidden", "apierr.team_name",
		"apierr.team_text", "apierr.team_mode", "apierr.team_role", "apierr.team_limit", "apierr.team_last_leader",
		"apierr.team_member", "apierr.team_no_user", "apierr.team_invite_only", "apierr.team_no_request", "apierr.team_class",
		"apierr.team_battle_off", "apierr.team_battle_teams", "apierr.team_battle_leaders", "apierr.team_battle_start",
		"apierr.team_battle_member", "apierr.team_battle_none", "apierr.team_match_off", "apierr.team_match_none",
		"apierr.team_match_self", "apierr.team_match_boards", "apierr.team_match_lineup", "apierr.team_match_player",
		"apierr.team_match_started", "apierr.team_chat_off", "apierr.team_chat_members", "apierr.team_close_sure"}
}

func noTeam(id string) error {
	return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_none", excerpt(id))
}

func forbidden() error {
	return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.team_forbidden")
}

func excerpt(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// storeError turns the store's sentinel errors into the API's.
func storeError(err error) error {
	switch {
	case errors.Is(err, store.ErrLimit):
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.team_limit").WithDetail(err)
	case errors.Is(err, store.ErrLastLeader):
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.team_last_leader").WithDetail(err)
	case errors.Is(err, store.ErrConflict):
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.team_member").WithDetail(err)
	}
	return err
}

// text checks a text a user wrote: trimmed, at most max letters, no
// control characters but line breaks and tabs (multiline only).
func text(s string, max int, multiline bool) (string, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > max {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_text", max)
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t')) {
			return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_text", max)
		}
	}
	return s, nil
}

// Fields are a team's texts and way of joining as a form or JSON sends
// them.
type Fields struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	JoinMode    string `json:"joinMode"`
}

func (f Fields) check() (Fields, error) {
	name, err := text(f.Name, MaxName, false)
	if err != nil || utf8.RuneCountInString(name) < MinName {
		return f, apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_name", MinName, MaxName)
	}
	desc, err := text(f.Description, MaxDescription, true)
	if err != nil {
		return f, err
	}
	if f.JoinMode == "" {
		f.JoinMode = Open
	}
	if !contains(JoinModes, f.JoinMode) {
		return f, apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_mode", excerpt(f.JoinMode))
	}
	return Fields{Name: name, Description: desc, JoinMode: f.JoinMode}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Create makes a team with the account me as its leader.
func (s *Service) Create(ctx context.Context, me int64, f Fields) (store.Team, error) {
	f, err := f.check()
	if err != nil {
		return store.Team{}, err
	}
	t, err := s.st.CreateTeam(ctx, store.Team{Name: f.Name, Description: f.Description, JoinMode: f.JoinMode, CreatedBy: me}, CreatedPerDay, bounds)
	return t, storeError(err)
}

// Team returns team id with me's role in it ("" for a visitor).
func (s *Service) Team(ctx context.Context, id string, me int64) (store.Team, string, error) {
	t, err := s.st.GetTeam(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return t, "", noTeam(id)
	}
	if err != nil {
		return t, "", err
	}
	role := ""
	if me != 0 {
		if role, err = s.st.TeamRole(ctx, id, me); err != nil {
			return t, "", err
		}
	}
	return t, role, nil
}

// Member reports whether account user is a member of team (any role);
// the team's forum and chat ask it. An unknown team has no members.
func (s *Service) Member(ctx context.Context, team string, user int64) (bool, error) {
	if user == 0 {
		return false, nil
	}
	role, err := s.st.TeamRole(ctx, team, user)
	return role != "", err
}

// Manages reports whether role may accept requests, invite, remove
// members and write to all of them.
func Manages(role string) bool { return role == Leader || role == Coach }

// Moderator reports whether account me is one of the site's moderators.
func (s *Service) Moderator(me int64) bool { return me != 0 && s.isMod != nil && s.isMod(me) }

// rights returns team id and me's role, a 403 unless the role manages
// it (leader: only a leader) or me is a moderator.
func (s *Service) rights(ctx context.Context, id string, me int64, leader bool) (store.Team, string, error) {
	t, role, err := s.Team(ctx, id, me)
	if err != nil {
		return t, role, err
	}
	if s.Moderator(me) {
		return t, role, nil
	}
	if !Manages(role) || (leader && role != Leader) {
		return t, role, forbidden()
	}
	return t, role, nil
}

// Join is me's wish to be in team id: an open team takes him, a team on
// request stores his request with message, and a team by invitation takes
// him only when he was invited. joined reports which happened.
func (s *Service) Join(ctx context.Context, id string, me int64, message string) (joined bool, err error) {
	t, role, err := s.Team(ctx, id, me)
	if err != nil {
		return false, err
	}
	if role != "" {
		return true, nil
	}
	_, invited, err := s.st.TeamRequested(ctx, id, me)
	if err != nil {
		return false, err
	}
	switch {
	case invited:
		return true, storeError(s.st.AdmitTeam(ctx, id, me, "invite", bounds))
	case t.JoinMode == Open:
		return true, storeError(s.st.AdmitTeam(ctx, id, me, "", bounds))
	case t.JoinMode == Request:
		msg, err := text(message, MaxRequestText, true)
		if err != nil {
			return false, err
		}
		return false, storeError(s.st.RequestTeam(ctx, id, me, msg, RequestsPerDay, MaxPending))
	}
	return false, apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.team_invite_only")
}

// Decline drops me's invitation to team id, or his request to join it.
func (s *Service) Decline(ctx context.Context, id string, me int64) error {
	requested, invited, err := s.st.TeamRequested(ctx, id, me)
	if err != nil {
		return err
	}
	if !requested && !invited {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_no_request")
	}
	if requested {
		if err := s.st.DropTeamRequest(ctx, id, me, false); err != nil {
			return err
		}
	}
	if invited {
		return s.st.DropTeamRequest(ctx, id, me, true)
	}
	return nil
}

// Leave takes me out of team id (a 409 when he is its last leader and
// others stay); the last member's leaving closes the team.
func (s *Service) Leave(ctx context.Context, id string, me int64) (closed bool, err error) {
	closed, err = s.st.LeaveTeam(ctx, id, me)
	if errors.Is(err, store.ErrNotFound) {
		return false, forbidden()
	}
	return closed, storeError(err)
}

// user returns the account named name, a 404 naming it when none.
func (s *Service) user(ctx context.Context, name string) (store.User, error) {
	u, err := s.st.UserByName(ctx, strings.TrimSpace(name))
	if errors.Is(err, store.ErrNotFound) {
		return u, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_no_user", excerpt(name))
	}
	return u, err
}

// Answer is a leader's or coach's answer to the request of the account
// named name to join team id.
func (s *Service) Answer(ctx context.Context, id string, me int64, name string, accept bool) error {
	if _, _, err := s.rights(ctx, id, me, false); err != nil {
		return err
	}
	u, err := s.user(ctx, name)
	if err != nil {
		return err
	}
	if accept {
		err = s.st.AdmitTeam(ctx, id, u.ID, "request", bounds)
	} else {
		err = s.st.DropTeamRequest(ctx, id, u.ID, false)
	}
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_no_request")
	}
	return storeError(err)
}

// InviteUser is a leader's or coach's invitation of the account named
// name to team id; the invited account is told (notify.Invitation).
func (s *Service) InviteUser(ctx context.Context, id string, me int64, meName, name string) error {
	t, _, err := s.rights(ctx, id, me, false)
	if err != nil {
		return err
	}
	u, err := s.user(ctx, name)
	if err != nil {
		return err
	}
	return s.invite(ctx, t, me, meName, u.ID)
}

func (s *Service) invite(ctx context.Context, t store.Team, me int64, meName string, user int64) error {
	if err := s.st.InviteTeam(ctx, t.ID, user, me, InvitesPerDay, MaxPending); err != nil {
		return storeError(err)
	}
	return s.tell(ctx, notify.Notice{To: user, Actor: me, Kind: notify.Invitation, Key: "team.notice.invite",
		Args: []any{meName, t.Name}, URL: "/team/" + t.ID})
}

func (s *Service) tell(ctx context.Context, n notify.Notice) error {
	if s.notify == nil {
		return nil
	}
	if err := s.notify.Send(ctx, n); err != nil {
		return fmt.Errorf("team: notice to %d: %w", n.To, err)
	}
	return nil
}

// Kick removes the account named name from team id: a leader removes
// anyone but himself, a coach only members.
func (s *Service) Kick(ctx context.Context, id string, me int64, name string) error {
	_, role, err := s.rights(ctx, id, me, false)
	if err != nil {
		return err
	}
	u, err := s.user(ctx, name)
	if err != nil {
		return err
	}
	theirs, err := s.st.TeamRole(ctx, id, u.ID)
	if err != nil {
		return err
	}
	if theirs == "" {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_no_user", excerpt(name))
	}
	if u.ID == me || (role == Coach && theirs != Member) {
		return forbidden()
	}
	_, err = s.st.LeaveTeam(ctx, id, u.ID)
	return storeError(err)
}

// Appoint is a leader's change of the role of member name of team id.
func (s *Service) Appoint(ctx context.Context, id string, me int64, name, role string) error {
	if _, _, err := s.rights(ctx, id, me, true); err != nil {
		return err
	}
	if !contains(Roles, role) {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_role", excerpt(role))
	}
	u, err := s.user(ctx, name)
	if err != nil {
		return err
	}
	err = s.st.SetTeamRole(ctx, id, u.ID, role)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_no_user", excerpt(name))
	}
	return storeError(err)
}

// Close is a leader's or a moderator's closing of team id, when he says
// he is sure: its members leave it, its battles and matches keep its name.
func (s *Service) Close(ctx context.Context, id string, me int64, sure bool) error {
	if _, _, err := s.rights(ctx, id, me, true); err != nil {
		return err
	}
	if !sure {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_close_sure")
	}
	return s.st.CloseTeam(ctx, id)
}

// Edit is a leader's change of team id's texts and way of joining.
func (s *Service) Edit(ctx context.Context, id string, me int64, f Fields) error {
	if _, _, err := s.rights(ctx, id, me, true); err != nil {
		return err
	}
	f, err := f.check()
	if err != nil {
		return err
	}
	return s.st.UpdateTeam(ctx, id, f.Name, f.Description, f.JoinMode)
}

// Message is a leader's or coach's message to every other member of team
// id, each told by a notify.Team notice: the message is kept in the store
// and told by the broadcasts' worker (Run), off the request; it returns
// how many members are to be told.
func (s *Service) Message(ctx context.Context, id string, me int64, meName, body string) (int, error) {
	t, role, err := s.rights(ctx, id, me, false)
	if err != nil {
		return 0, err
	}
	body, err = text(body, MaxMessage, true)
	if err != nil {
		return 0, err
	}
	if body == "" {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_text", MaxMessage)
	}
	if _, err := s.st.AddTeamBroadcast(ctx, store.TeamBroadcast{TeamID: t.ID, TeamName: t.Name, SenderID: me, SenderName: meName, Body: body}, MessagesPerDay); err != nil {
		return 0, storeError(err)
	}
	select {
	case s.wake <- struct{}{}:
	default: // the worker is awake already
	}
	if role != "" {
		return t.Members - 1, nil
	}
	return t.Members, nil
}

// FromClass makes a team of class id for its coach me: a team by
// invitation named after the class, its students invited (and told). A
// class made a team once returns that team.
func (s *Service) FromClass(ctx context.Context, class string, me int64, meName string) (store.Team, error) {
	c, err := s.st.GetClass(ctx, class)
	if errors.Is(err, store.ErrNotFound) {
		return store.Team{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_class", excerpt(class))
	}
	if err != nil {
		return store.Team{}, err
	}
	if c.CoachID != me {
		return store.Team{}, forbidden()
	}
	if t, err := s.st.TeamOfClass(ctx, class); err == nil {
		return t, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return t, err
	}
	name := c.Name
	if utf8.RuneCountInString(name) < MinName {
		name += " ·"
	}
	if utf8.RuneCountInString(name) > MaxName {
		name = string([]rune(name)[:MaxName])
	}
	t, err := s.st.CreateTeam(ctx, store.Team{Name: name, JoinMode: Invite, ClassID: class, CreatedBy: me}, CreatedPerDay, bounds)
	if err != nil {
		return t, storeError(err)
	}
	students, err := s.st.ClassStudents(ctx, class)
	if err != nil {
		return t, err
	}
	for _, m := range students {
		if !m.Accepted || m.UserID == me {
			continue
		}
		if err := s.invite(ctx, t, me, meName, m.UserID); err != nil {
			return t, err
		}
	}
	return t, nil
}
