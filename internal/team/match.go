package team

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/store"
)

// A team match: team A challenges team B over Boards boards. Each team's
// leaders or coaches set its lineup (members by board order); once both
// are whole, a manager of either team starts it: one game a board, A's
// player White on the odd boards and Black on the even ones. A board won
// scores 1, drawn ½ each; an aborted game scores nothing. The match is
// over when every game is.

// Games creates the matches' games (*live.Hub).
type Games interface {
	Create(ctx context.Context, s game.Spec) (string, error)
}

// Matches keeps the team matches and reads their games (internal/store).
type Matches interface {
	CreateTeamMatch(ctx context.Context, m store.TeamMatch, perDay int) (store.TeamMatch, error)
	GetTeamMatch(ctx context.Context, id string) (store.TeamMatch, error)
	TeamMatchesOf(ctx context.Context, team string, offset, limit int) ([]store.TeamMatch, error)
	SetMatchLineup(ctx context.Context, id, team string, users []int64) error
	StartTeamMatch(ctx context.Context, id string) error
	SetMatchGame(ctx context.Context, id string, board int, gameID string) error
	Game(ctx context.Context, id string) (store.Game, error)
	Perf(ctx context.Context, userID int64, cat rating.Category) (store.Perf, error)
}

// Bounds of team matches.
const (
	MaxBoards      = 20
	MatchesPerDay  = 5
	DefaultMatchTC = "10+5"
)

// MatchForm is what a leader sends to challenge a team.
type MatchForm struct {
	Opponent string `json:"opponent"` // the other team's id
	Boards   int    `json:"boards"`
	TC       string `json:"tc"`
	Rated    bool   `json:"rated"`
}

func (s *Service) matches() (Matches, error) {
	m, ok := s.st.(Matches)
	if !ok || s.games == nil {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_match_off")
	}
	return m, nil
}

func matchNone(id string) error {
	return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_match_none", excerpt(id))
}

// CreateMatch is a leader's challenge of team id to the team f names.
func (s *Service) CreateMatch(ctx context.Context, id string, me int64, f MatchForm) (store.TeamMatch, error) {
	ms, err := s.matches()
	if err != nil {
		return store.TeamMatch{}, err
	}
	a, _, err := s.rights(ctx, id, me, true)
	if err != nil {
		return store.TeamMatch{}, err
	}
	other := strings.TrimPrefix(strings.TrimSpace(f.Opponent), "/team/")
	if other == id {
		return store.TeamMatch{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_match_self")
	}
	b, err := s.st.GetTeam(ctx, other)
	if errors.Is(err, store.ErrNotFound) {
		return store.TeamMatch{}, noTeam(other)
	}
	if err != nil {
		return store.TeamMatch{}, err
	}
	if f.Boards < 1 || f.Boards > MaxBoards {
		return store.TeamMatch{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_match_boards", MaxBoards)
	}
	if f.TC == "" {
		f.TC = DefaultMatchTC
	}
	if tc, err := clock.ParseTimeControl(f.TC); err != nil || tc.Validate() != nil || tc.Kind() == clock.Unlimited {
		return store.TeamMatch{}, apierr.BadRequest(apierr.CodeBadTC, "apierr.bad_tc", excerpt(f.TC))
	}
	m, err := ms.CreateTeamMatch(ctx, store.TeamMatch{TeamA: a.ID, TeamB: b.ID, NameA: a.Name, NameB: b.Name, Boards: f.Boards,
		TC: f.TC, Rated: f.Rated, CreatedBy: me}, MatchesPerDay)
	return m, storeError(err)
}

// Match returns match id.
func (s *Service) Match(ctx context.Context, id string) (store.TeamMatch, error) {
	ms, err := s.matches()
	if err != nil {
		return store.TeamMatch{}, err
	}
	m, err := ms.GetTeamMatch(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return m, matchNone(id)
	}
	return m, err
}

// sideOf returns which side of m me manages as team (0: A, 1: B), a 403
// when he manages no such team of the match.
func (s *Service) sideOf(ctx context.Context, m store.TeamMatch, team string, me int64) (int, error) {
	side := -1
	switch team {
	case m.TeamA:
		side = 0
	case m.TeamB:
		side = 1
	}
	if side < 0 {
		return 0, forbidden()
	}
	role, err := s.st.TeamRole(ctx, team, me)
	if err != nil {
		return 0, err
	}
	if !Manages(role) {
		return 0, forbidden()
	}
	return side, nil
}

// SetLineup is a leader's or coach's lineup of team for match id: as
// many account names as the match has boards, board 1 first, each a
// member of the team and named once.
func (s *Service) SetLineup(ctx context.Context, id, team string, me int64, names []string) error {
	m, err := s.Match(ctx, id)
	if err != nil {
		return err
	}
	if _, err := s.sideOf(ctx, m, team, me); err != nil {
		return err
	}
	var clean []string
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			clean = append(clean, n)
		}
	}
	if len(clean) != m.Boards {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_match_lineup", m.Boards)
	}
	ids := make([]int64, 0, len(clean))
	for _, n := range clean {
		u, err := s.user(ctx, n)
		if err != nil {
			return err
		}
		role, err := s.st.TeamRole(ctx, team, u.ID)
		if err != nil {
			return err
		}
		if role == "" || containsID(ids, u.ID) {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_match_player", excerpt(n))
		}
		ids = append(ids, u.ID)
	}
	err = s.st.(Matches).SetMatchLineup(ctx, id, team, ids)
	if errors.Is(err, store.ErrConflict) {
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.team_match_started")
	}
	return err
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// StartMatch is a manager's start of match id (as a manager of team):
// both lineups whole, one game a board is created.
func (s *Service) StartMatch(ctx context.Context, id, team string, me int64) error {
	m, err := s.Match(ctx, id)
	if err != nil {
		return err
	}
	if _, err := s.sideOf(ctx, m, team, me); err != nil {
		return err
	}
	if len(m.Lineups[0]) != m.Boards || len(m.Lineups[1]) != m.Boards {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_match_lineup", m.Boards)
	}
	tc, err := clock.ParseTimeControl(m.TC)
	if err != nil {
		return err
	}
	ms := s.st.(Matches)
	if err := ms.StartTeamMatch(ctx, id); errors.Is(err, store.ErrConflict) {
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.team_match_started")
	} else if err != nil {
		return err
	}
	cat, rated := rating.ForTimeControl(tc)
	rated = rated && m.Rated
	for board := 1; board <= m.Boards; board++ {
		a, b := m.Lineups[0][board-1], m.Lineups[1][board-1]
		white, black := a, b
		if board%2 == 0 {
			white, black = b, a
		}
		spec := game.Spec{Rules: toguz.Standard(), TC: tc, Rated: rated,
			White: game.UserSeat(white.UserID, white.Name), Black: game.UserSeat(black.UserID, black.Name)}
		if rated {
			pw, err := ms.Perf(ctx, white.UserID, cat)
			if err != nil {
				return err
			}
			pb, err := ms.Perf(ctx, black.UserID, cat)
			if err != nil {
				return err
			}
			spec.White.Rating, spec.Black.Rating = pw.Rating.Int(), pb.Rating.Int()
		}
		gid, err := s.games.Create(ctx, spec)
		if err != nil {
			return err
		}
		if err := ms.SetMatchGame(ctx, id, board, gid); err != nil {
			return err
		}
	}
	return nil
}

// BoardView is a board of a match as its page and API show it.
type BoardView struct {
	Board    int    `json:"board"`
	PlayerA  string `json:"playerA,omitempty"`
	PlayerB  string `json:"playerB,omitempty"`
	AIsWhite bool   `json:"aIsWhite"`
	Game     string `json:"game,omitempty"`
	Result   string `json:"result,omitempty"` // "1-0", "0-1", "½-½" from A's side; "" while played
	Over     bool   `json:"over"`
}

// MatchView is a match with its boards and score (in half points).
type MatchView struct {
	store.TeamMatch
	Boards2 []BoardView
	Halves  [2]int // A's and B's score in half points
	Status  string // lineup, playing, finished
}

// Score returns a side's score as a page writes it: "2", "½", "1½".
func Score(halves int) string {
	s := ""
	if halves/2 > 0 || halves%2 == 0 {
		s = strconv.Itoa(halves / 2)
	}
	if halves%2 == 1 {
		s += "½"
	}
	return s
}

// View returns match id with its boards' results read from their games.
func (s *Service) View(ctx context.Context, id string) (MatchView, error) {
	m, err := s.Match(ctx, id)
	if err != nil {
		return MatchView{}, err
	}
	v := MatchView{TeamMatch: m, Status: "lineup"}
	over := 0
	for board := 1; board <= m.Boards; board++ {
		bv := BoardView{Board: board, AIsWhite: board%2 == 1, Game: m.Games[board-1]}
		if board <= len(m.Lineups[0]) {
			bv.PlayerA = m.Lineups[0][board-1].Name
		}
		if board <= len(m.Lineups[1]) {
			bv.PlayerB = m.Lineups[1][board-1].Name
		}
		if bv.Game != "" {
			g, err := s.st.(Matches).Game(ctx, bv.Game)
			if err != nil {
				return v, err
			}
			if g.Status == game.Ended || g.Status == game.Aborted {
				bv.Over = true
				over++
				var a, b int // A's and B's half points
				if g.Status == game.Ended {
					switch {
					case g.Result == toguz.Draw:
						a, b = 1, 1
					case (g.Result == toguz.WhiteWins) == bv.AIsWhite:
						a = 2
					default:
						b = 2
					}
					bv.Result = Score(a) + "-" + Score(b)
				} else {
					bv.Result = "0-0"
				}
				v.Halves[0] += a
				v.Halves[1] += b
			}
		}
		v.Boards2 = append(v.Boards2, bv)
	}
	switch {
	case m.Started.IsZero():
	case over == m.Boards:
		v.Status = "finished"
	default:
		v.Status = "playing"
	}
	return v, nil
}

// MatchesOf returns limit matches team id plays from offset, the newest
// first, with their scores.
func (s *Service) MatchesOf(ctx context.Context, id string, offset, limit int) ([]MatchView, error) {
	ms, ok := s.st.(Matches)
	if !ok || s.games == nil {
		return nil, nil // no games: no matches
	}
	list, err := ms.TeamMatchesOf(ctx, id, offset, limit)
	if err != nil {
		return nil, err
	}
	out := make([]MatchView, 0, len(list))
	for _, m := range list {
		v, err := s.View(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
