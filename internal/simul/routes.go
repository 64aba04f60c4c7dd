package simul

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/svg"
)

// Routes registers the simuls' API (/api/simuls…) and pages (/simuls,
// /simul/{id}…) on r.
func (h *Hall) Routes(r site.Router) {
	r.API("POST /api/simuls", h.apiCreate)
	r.API("GET /api/simuls/{id}", h.apiSimul)
	r.API("POST /api/simuls/{id}/join", h.apiJoin)
	r.API("POST /api/simuls/{id}/leave", h.apiLeave)
	r.API("POST /api/simuls/{id}/start", h.apiStart)
	r.Page("GET /simuls", h.pageList)
	r.Page("POST /simuls", h.pageCreate)
	r.Page("GET /simul/{id}", h.pageSimul)
	r.Page("POST /simul/{id}/join", h.pageJoin)
	r.Page("POST /simul/{id}/leave", h.pageLeave)
	r.Page("POST /simul/{id}/start", h.pageStart)
	r.Page("GET /simul/{id}/host", h.pageHost)
	r.Page("GET /simul/{id}/board/{n}", h.boardSVG)
}

// board is a board of a simul as its pages and the API show it.
type board struct {
	N        int    `json:"board"`
	Player   string `json:"player"`
	Game     string `json:"game"`
	Result   string `json:"result"`
	Status   string `json:"status"`
	HostTurn bool   `json:"host_to_move"`
	Ply      int    `json:"ply"`
}

// view is a simul for its pages and GET /api/simuls/{id}.
type view struct {
	ID        string   `json:"id"`
	Host      string   `json:"host"`
	Ruleset   string   `json:"ruleset"`
	TC        string   `json:"tc"`
	Max       int      `json:"max"`
	HostColor string   `json:"host_color"`
	Rated     bool     `json:"rated"`
	Started   bool     `json:"started"`
	Players   []string `json:"players"`
	Boards    []board  `json:"boards"`
	// Score is the host's points and the participants' (1, ½, 0 a game).
	Score                   [2]float64 `json:"score"`
	IsHost, Joined, CanJoin bool       `json:"-"`
}

// viewOf returns sm as who sees it, each board's game read from the hub.
func (h *Hall) viewOf(ctx context.Context, sm simul, who site.Identity) view {
	v := view{ID: sm.ID, Host: sm.Host.Name, Ruleset: sm.Rules.String(), TC: sm.TC.String(), Max: sm.Max,
		HostColor: map[bool]string{true: "white", false: "black"}[sm.HostWhite], Rated: sm.Rated, Started: sm.Started,
		Players: []string{}, Boards: []board{}}
	me := who.Seat().ID
	v.IsHost = who.Known() && me == sm.Host.ID
	for _, p := range sm.Players {
		v.Players = append(v.Players, p.Name)
		v.Joined = v.Joined || (who.Known() && p.ID == me)
	}
	v.CanJoin = !sm.Started && !v.IsHost && !v.Joined && len(sm.Players) < sm.Max
	for i, g := range sm.Games {
		b := board{N: i + 1, Player: sm.Players[i].Name, Game: g}
		if st, err := h.games.State(ctx, g); err == nil {
			b.Status, b.Ply = st.Status, st.Ply
			if finished(st.Result) {
				b.Result = st.Result
			}
			b.HostTurn = b.Result == "" && (st.Turn == "white") == sm.HostWhite
			hostWins := map[bool]string{true: "1-0", false: "0-1"}[sm.HostWhite]
			switch {
			case st.Result == hostWins:
				v.Score[0]++
			case st.Result == "1/2-1/2":
				v.Score[0] += 0.5
				v.Score[1] += 0.5
			case st.Result == "1-0" || st.Result == "0-1":
				v.Score[1]++
			}
		}
		v.Boards = append(v.Boards, b)
	}
	return v
}

// listData is the page /simuls.
type listData struct {
	site.FormChoices
	List []view
	Max  int
	// TCs are the form's time controls beside "no clock" (its value
	// "none", which the page names in its language).
	TCs []string
	// Newer and Older are the list's pages either side (0: none).
	Newer, Older int
}

func (h *Hall) pageList(w http.ResponseWriter, r *http.Request) error {
	id := h.kit.Identity(r)
	d := listData{FormChoices: h.kit.Choices(h.kit.Lang(r), "", id.Account.ID != 0), Max: maxPlayers, TCs: formTCs}
	shown, newer, older := site.PageOf(h.list(), site.PageParam(r), listed)
	d.Newer, d.Older = newer, older
	for _, sm := range shown {
		// The list shows no boards: without the games, the view asks the
		// hub nothing (a page of 50 simuls of 30 boards would ask 1500).
		sm.Games = nil
		d.List = append(d.List, h.viewOf(r.Context(), sm, id))
	}
	return h.kit.Render(w, http.StatusOK, "simuls", h.kit.Page(r, "simul.list_title", d))
}

// formTCs are the time controls the form offers, a simul's being long.
var formTCs = []string{"10+5", "15+10", "30+0", "30+30", "60+30"}

func form(r *http.Request) request {
	n, _ := strconv.Atoi(r.FormValue("max"))
	return request{Ruleset: r.FormValue("ruleset"), TC: r.FormValue("tc"), Max: n, Color: r.FormValue("color"), Rated: r.FormValue("rated") != ""}
}

func (h *Hall) pageCreate(w http.ResponseWriter, r *http.Request) error {
	who := h.kit.EnsureIdentity(w, r)
	id, err := h.create(r.Context(), who, form(r))
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+id)
}

func (h *Hall) apiCreate(w http.ResponseWriter, r *http.Request) error {
	var req request
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	id, err := h.create(r.Context(), who, req)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"id": id})
}

// of returns the simul of r's path.
func (h *Hall) of(r *http.Request) (simul, error) {
	sm, ok := h.get(r.PathValue("id"))
	if !ok {
		return sm, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	return sm, nil
}

func (h *Hall) pageSimul(w http.ResponseWriter, r *http.Request) error {
	sm, err := h.of(r)
	if err != nil {
		return err
	}
	return h.kit.Render(w, http.StatusOK, "simul", h.kit.Page(r, "simul.title", h.viewOf(r.Context(), sm, h.kit.Identity(r)), sm.Host.Name))
}

func (h *Hall) apiSimul(w http.ResponseWriter, r *http.Request) error {
	sm, err := h.of(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, h.viewOf(r.Context(), sm, h.kit.Identity(r)))
}

func (h *Hall) pageJoin(w http.ResponseWriter, r *http.Request) error {
	who := h.kit.EnsureIdentity(w, r)
	if err := h.join(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+r.PathValue("id"))
}

func (h *Hall) pageLeave(w http.ResponseWriter, r *http.Request) error {
	if err := h.leave(r.Context(), h.kit.Identity(r), r.PathValue("id")); err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+r.PathValue("id"))
}

func (h *Hall) apiLeave(w http.ResponseWriter, r *http.Request) error {
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := h.leave(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (h *Hall) apiJoin(w http.ResponseWriter, r *http.Request) error {
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := h.join(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (h *Hall) pageStart(w http.ResponseWriter, r *http.Request) error {
	if err := h.start(r.Context(), h.kit.Identity(r), r.PathValue("id")); err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+r.PathValue("id")+"/host")
}

func (h *Hall) apiStart(w http.ResponseWriter, r *http.Request) error {
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := h.start(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	sm, _ := h.get(r.PathValue("id"))
	return site.WriteJSON(w, http.StatusOK, h.viewOf(r.Context(), sm, who))
}

// pageHost is the host's grid of all boards.
func (h *Hall) pageHost(w http.ResponseWriter, r *http.Request) error {
	sm, err := h.of(r)
	if err != nil {
		return err
	}
	v := h.viewOf(r.Context(), sm, h.kit.Identity(r))
	if !v.IsHost {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.simul_not_host")
	}
	return h.kit.Render(w, http.StatusOK, "simul_host", h.kit.Page(r, "simul.host_title", v, sm.Host.Name))
}

// boardSVG draws board {n} of a simul: /simul/{id}/board/{n}.svg.
func (h *Hall) boardSVG(w http.ResponseWriter, r *http.Request) error {
	sm, err := h.of(r)
	if err != nil {
		return err
	}
	name, _ := strings.CutSuffix(r.PathValue("n"), ".svg")
	n, _ := strconv.Atoi(name)
	if n < 1 || n > len(sm.Games) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	st, err := h.games.State(r.Context(), sm.Games[n-1])
	if err != nil {
		return err
	}
	p, _, err := toguz.ParseFEN(st.FEN, sm.Rules)
	if err != nil {
		return err
	}
	cat, lang := h.kit.Catalog(), h.kit.Lang(r)
	opt := svg.Options{White: st.White.Name, Black: st.Black.Name, Flip: !sm.HostWhite, Width: 300,
		Labels: site.BoardLabels(cat, lang, p)}
	out, err := svg.Render(p, opt)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(out)
	return err
}
