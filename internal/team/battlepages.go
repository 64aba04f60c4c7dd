package team

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
)

// battleForm reads a team battle's form.
func battleForm(r *http.Request) BattleForm {
	atoi := func(k string) int { n, _ := strconv.Atoi(r.PostFormValue(k)); return n }
	return BattleForm{Name: r.PostFormValue("name"), TC: r.PostFormValue("tc"), Minutes: atoi("minutes"),
		Teams:   strings.FieldsFunc(r.PostFormValue("teams"), func(c rune) bool { return c == ',' || c == ' ' || c == '\n' || c == '\r' }),
		Leaders: atoi("leaders"), Rated: r.PostFormValue("rated") == "on", StartIn: atoi("startIn")}
}

// pageCreateBattle is POST /team/{id}/battle: a leader's team battle,
// then its event's page.
func (s *Site) pageCreateBattle(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id, err := s.svc.CreateBattle(ctx, r.PathValue("id"), me.Account.ID, battleForm(r))
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/event/"+id)
}

// apiCreateBattle is POST /api/team/{id}/battle: a leader's team battle.
func (s *Site) apiCreateBattle(w http.ResponseWriter, r *http.Request) error {
	me, err := s.account(r)
	if err != nil {
		return err
	}
	var f BattleForm
	if err := site.ReadJSON(w, r, &f); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id, err := s.svc.CreateBattle(ctx, r.PathValue("id"), me.Account.ID, f)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"id": id, "url": "/event/" + id})
}

// BattleJSON is a team battle as the API shows it.
type BattleJSON struct {
	Event   string       `json:"event"`
	Name    string       `json:"name"`
	Status  string       `json:"status"`
	Leaders int          `json:"leaders"`
	Teams   []BattleLine `json:"teams"` // ranked
}

func battleJSON(b Battle) BattleJSON {
	return BattleJSON{Event: b.EventID, Name: b.Event.Name, Status: string(b.Event.Status), Leaders: b.Leaders, Teams: b.Lines}
}

// apiBattle is GET /api/events/{event}/teams: a team battle's standings.
func (s *Site) apiBattle(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	b, err := s.svc.Battle(ctx, r.PathValue("event"))
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, battleJSON(b))
}

type battleData struct {
	Battle
	Status string
}

// pageBattle is GET /team/battle/{event}: a team battle's standings, each
// team with its players (those that count marked), and its arena's link.
func (s *Site) pageBattle(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	b, err := s.svc.Battle(ctx, r.PathValue("event"))
	if err != nil {
		return err
	}
	return s.kit.Render(w, http.StatusOK, "team_battle", s.kit.Page(r, "team.battle.title", battleData{Battle: b, Status: string(b.Event.Status)}, b.Event.Name))
}
