package team

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
)

// matchForm reads a challenge's form.
func matchForm(r *http.Request) MatchForm {
	boards, _ := strconv.Atoi(r.PostFormValue("boards"))
	return MatchForm{Opponent: r.PostFormValue("opponent"), Boards: boards, TC: r.PostFormValue("tc"), Rated: r.PostFormValue("rated") == "on"}
}

// pageCreateMatch is POST /team/{id}/match: a leader's challenge, then
// the match's page.
func (s *Site) pageCreateMatch(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	m, err := s.svc.CreateMatch(ctx, r.PathValue("id"), me.Account.ID, matchForm(r))
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/team/match/"+m.ID)
}

// apiCreateMatch is POST /api/team/{id}/match.
func (s *Site) apiCreateMatch(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	var f MatchForm
	if err := site.ReadJSON(w, r, &f); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	m, err := s.svc.CreateMatch(ctx, r.PathValue("id"), me.Account.ID, f)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"id": m.ID, "url": "/team/match/" + m.ID})
}

// matchOp is a lineup or a start as a form or JSON sends it.
type matchOp struct {
	Team    string   `json:"team"`
	Players []string `json:"players"`
}

func (s *Site) pageMatchOp(start bool) site.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		me, err := s.account(r)
		if err != nil {
			return err
		}
		if err := r.ParseForm(); err != nil {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
		}
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		id := r.PathValue("id")
		op := matchOp{Team: r.PostFormValue("team"), Players: strings.Split(r.PostFormValue("players"), "\n")}
		if start {
			err = s.svc.StartMatch(ctx, id, op.Team, me.Account.ID)
		} else {
			err = s.svc.SetLineup(ctx, id, op.Team, me.Account.ID, op.Players)
		}
		if err != nil {
			return err
		}
		return site.Redirect(w, r, "/team/match/"+id)
	}
}

func (s *Site) apiMatchOp(start bool) site.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		me, err := s.account(r)
		if err != nil {
			return err
		}
		var op matchOp
		if err := site.ReadJSON(w, r, &op); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		id := r.PathValue("id")
		if start {
			err = s.svc.StartMatch(ctx, id, op.Team, me.Account.ID)
		} else {
			err = s.svc.SetLineup(ctx, id, op.Team, me.Account.ID, op.Players)
		}
		if err != nil {
			return err
		}
		return s.writeMatch(ctx, w, id)
	}
}

// MatchJSON is a team match as the API shows it.
type MatchJSON struct {
	ID     string      `json:"id"`
	Teams  [2]string   `json:"teams"` // A's and B's ids; A is White on the odd boards
	Names  [2]string   `json:"names"`
	Boards []BoardView `json:"boards"`
	Score  [2]float64  `json:"score"`
	TC     string      `json:"tc"`
	Rated  bool        `json:"rated"`
	Status string      `json:"status"` // lineup, playing, finished
}

func (s *Site) writeMatch(ctx context.Context, w http.ResponseWriter, id string) error {
	v, err := s.svc.View(ctx, id)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, MatchJSON{ID: v.ID, Teams: [2]string{v.TeamA, v.TeamB}, Names: [2]string{v.NameA, v.NameB},
		Boards: v.Boards2, Score: [2]float64{float64(v.Halves[0]) / 2, float64(v.Halves[1]) / 2}, TC: v.TC, Rated: v.Rated, Status: v.Status})
}

// apiMatch is GET /api/team-match/{id}.
func (s *Site) apiMatch(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	return s.writeMatch(ctx, w, r.PathValue("id"))
}

type matchData struct {
	MatchView
	ScoreA, ScoreB string
	Manages        [2]bool // the viewer manages A, B
	Lineups        [2]string
	CanStart       bool
}

// pageMatch is GET /team/match/{id}: the boards, their players and
// results, the score; to the teams' leaders and coaches their lineup's
// form and, once both are whole, the start.
func (s *Site) pageMatch(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	v, err := s.svc.View(ctx, r.PathValue("id"))
	if err != nil {
		return err
	}
	d := matchData{MatchView: v, ScoreA: Score(v.Halves[0]), ScoreB: Score(v.Halves[1])}
	if me := s.kit.Identity(r).Account.ID; me != 0 && v.Started.IsZero() {
		for side, team := range [2]string{v.TeamA, v.TeamB} {
			role, err := s.svc.st.TeamRole(ctx, team, me)
			if err != nil {
				return err
			}
			d.Manages[side] = Manages(role)
			var names []string
			for _, p := range v.Lineups[side] {
				names = append(names, p.Name)
			}
			d.Lineups[side] = strings.Join(names, "\n")
		}
		d.CanStart = (d.Manages[0] || d.Manages[1]) && len(v.Lineups[0]) == v.Boards && len(v.Lineups[1]) == v.Boards
	}
	return s.kit.Render(w, http.StatusOK, "team_match", s.kit.Page(r, "team.match.title", d, v.NameA, v.NameB))
}
