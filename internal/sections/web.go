package sections

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/tournament"
)

// Web is the championships' pages and API on the site.
type Web struct {
	kit  site.Kit
	desk *Desk
}

// NewWeb returns the site's side of desk.
func NewWeb(kit site.Kit, desk *Desk) *Web { return &Web{kit: kit, desk: desk} }

// Routes registers the championships' pages (/championships,
// /championship/{id}, its desk and papers) and API (/api/championships…).
func (h *Web) Routes(r site.Router) {
	r.Page("GET /championships", h.pageList)
	r.Page("POST /championships", h.pageCreate)
	r.Page("GET /championship/{id}", h.pageShow)
	r.Page("GET /championship/{id}/desk", h.pageDesk)
	r.Page("POST /championship/{id}/desk/{action}", h.pageAction)
	r.Page("GET /championship/{id}/paper/{paper}", h.paper)
	r.Page("GET /championship/{id}/trf/{section}", h.trf)
	r.Page("GET /championship/{id}/norms", h.pageNorms)
	r.API("POST /api/championships", h.apiCreate)
	r.API("GET /api/championships/{id}", h.apiShow)
	r.API("POST /api/championships/{id}/entries", h.apiEnter)
	r.API("POST /api/championships/{id}/pair", h.apiPair)
	r.API("POST /api/championships/{id}/results", h.apiResults)
	r.API("POST /api/championships/{id}/submit", h.apiSubmit)
	r.API("POST /api/championships/{id}/withdraw", h.apiWithdraw)
	r.API("POST /api/championships/{id}/bye", h.apiBye)
}

// listData is the page /championships.
type listData struct {
	List        []Summary
	CanCreate   bool
	Rows        []int
	Disciplines []federation.Discipline
}

// formRows is how many sections the creation form offers.
const formRows = 8

func (h *Web) pageList(w http.ResponseWriter, r *http.Request) error {
	list, err := h.desk.List(r.Context(), 100)
	if err != nil {
		return err
	}
	d := listData{List: list, CanCreate: h.kit.Identity(r).Account.ID != 0, Disciplines: federation.Disciplines}
	for i := range formRows {
		d.Rows = append(d.Rows, i)
	}
	return h.kit.Render(w, http.StatusOK, "championships", h.kit.Page(r, "sections.list_title", d))
}

// createRequest is a championship as the form and the API send it.
type createRequest struct {
	Settings
	Sections []Spec `json:"sections"`
}

func atoi(s string) int { n, _ := strconv.Atoi(strings.TrimSpace(s)); return n }

func (h *Web) pageCreate(w http.ResponseWriter, r *http.Request) error {
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	req := createRequest{Settings: Settings{Name: r.FormValue("name"), City: r.FormValue("city"), Federation: r.FormValue("federation"),
		Start: r.FormValue("start"), End: r.FormValue("end"), ChiefArbiter: r.FormValue("chief"), LateHalf: r.FormValue("late_half") != "",
		TeamBest: atoi(r.FormValue("team_best"))}}
	for i := range formRows {
		f := func(k string) string { return r.FormValue(fmt.Sprintf("s%d_%s", i, k)) }
		if strings.TrimSpace(f("name")) == "" {
			continue
		}
		req.Sections = append(req.Sections, Spec{Key: f("key"), Name: f("name"), Discipline: federation.Discipline(f("disc")),
			Sex: federation.Sex(f("sex")), MinAge: atoi(f("min_age")), MaxAge: atoi(f("max_age")), MinRating: atoi(f("min_rating")),
			MaxRating: atoi(f("max_rating")), System: tournament.System(f("system")), Rounds: atoi(f("rounds")), TC: f("tc")})
		if sp := &req.Sections[len(req.Sections)-1]; sp.System == tournament.TeamSwiss {
			sp.TeamBoards, sp.TeamsBy = atoi(f("boards")), f("teams_by")
		}
	}
	id, err := h.desk.Create(r.Context(), who.Account.ID, req.Settings, req.Sections)
	if err != nil {
		return APIError(err)
	}
	return site.Redirect(w, r, "/championship/"+id+"/desk")
}

func (h *Web) apiCreate(w http.ResponseWriter, r *http.Request) error {
	var req createRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	id, err := h.desk.Create(r.Context(), who.Account.ID, req.Settings, req.Sections)
	if err != nil {
		return APIError(err)
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"id": id})
}

// sectionView is a section for the pages.
type sectionView struct {
	*Section
	DiscName  string
	Round     int
	Players   int
	Boards    []boardView
	Standings []StandingRow
	TieBreaks []string
	Cross     []StandingRow
	Rounds    []int
	Shown     int // the round whose boards are shown
	Ready     bool
	Finished  bool
	Open      bool // its boards shown unfolded on the desk
	Entries   []entryView
	// A team Swiss's matches of the round shown and its team standings.
	TeamMatches []TeamMatch
	TeamRows    []TeamRow
}

type boardView struct {
	Board
	WhiteName, BlackName string
	WhiteID, BlackID     string
}

type entryView struct {
	Start     int
	ID, Name  string
	Withdrawn bool
}

// showData is a championship's page and its desk.
type showData struct {
	C         *Championship
	Status    Status
	Sections  []sectionView
	Selected  *sectionView
	IsArbiter bool
	IsCreator bool
	Papers    []Paper
	Teams     []Team
	TeamsBy   string
	Log       []Correction
	Results   []tournament.Result
	Discs     []discView
	Msg       string
	Errors    []string
	Players   int
	// Norms: the site computes the ranks' norms earned (Config.Norms).
	Norms bool
}

type discView struct {
	D         federation.Discipline
	Name      string
	Finished  bool
	Submitted string
}

func (h *Web) load(ctx context.Context, r *http.Request, desk bool) (*showData, error) {
	c, err := h.desk.Get(ctx, r.PathValue("id"))
	if err != nil {
		return nil, APIError(err)
	}
	who := h.kit.Identity(r)
	lang := h.kit.Lang(r)
	cat := h.kit.Catalog()
	d := &showData{C: c, Status: c.Status(), IsArbiter: c.IsArbiter(who.Account.ID), IsCreator: who.Account.ID != 0 && who.Account.ID == c.Creator, Papers: Papers, Results: Results,
		Msg: r.URL.Query().Get("msg"), Players: len(c.Players), Norms: h.desk.cfg.Norms != nil}
	if desk && !d.IsArbiter {
		return nil, APIError(forbidden())
	}
	sel := r.URL.Query().Get("s")
	if sel == "" && len(c.Sections) > 0 && !desk {
		sel = c.Sections[0].Key
	}
	for _, s := range c.Sections {
		v := sectionView{Section: s, DiscName: cat.T(lang, "sections.disc_"+string(s.Discipline)), Round: s.Round(), Players: len(s.IDs),
			Ready: s.Ready(), Finished: s.Finished()}
		v.Shown = v.Round
		v.Open = !v.Finished || s.Key == sel
		if s.Key == sel {
			if n := atoi(r.URL.Query().Get("round")); n > 0 && n <= v.Round {
				v.Shown = n
			}
		}
		if desk || s.Key == sel {
			for _, b := range s.Boards(v.Shown) {
				v.Boards = append(v.Boards, boardView{Board: b, WhiteName: c.Name(s.ID(b.White), lang), BlackName: c.Name(s.ID(b.Black), lang),
					WhiteID: s.ID(b.White), BlackID: s.ID(b.Black)})
			}
		}
		if desk || s.Key == sel {
			v.TeamMatches, v.TeamRows = s.TeamRound(v.Shown), s.TeamRows()
		}
		if s.Key == sel && !desk {
			v.TieBreaks, v.Standings = c.StandingRows(s, lang)
			v.Cross = c.CrossRows(s, lang)
		}
		for i := 1; i <= v.Round; i++ {
			v.Rounds = append(v.Rounds, i)
		}
		if desk {
			for i, fid := range s.IDs {
				v.Entries = append(v.Entries, entryView{Start: i + 1, ID: fid, Name: c.Name(fid, lang), Withdrawn: contains(s.Event.Withdrawn, i+1)})
			}
		}
		d.Sections = append(d.Sections, v)
	}
	for i := range d.Sections {
		if d.Sections[i].Key == sel {
			d.Selected = &d.Sections[i]
		}
	}
	d.TeamsBy = "club"
	if r.URL.Query().Get("teams") == "federation" {
		d.TeamsBy = "federation"
	}
	d.Teams = c.Teams(d.TeamsBy)
	for _, disc := range c.Disciplines() {
		dv := discView{D: disc, Name: cat.T(lang, "sections.disc_"+string(disc)), Finished: c.DisciplineFinished(disc)}
		if t, ok := c.Submitted[disc]; ok {
			dv.Submitted = t.Format("2006-01-02T15:04Z")
		}
		d.Discs = append(d.Discs, dv)
	}
	if desk {
		for i := len(c.Log) - 1; i >= 0 && len(d.Log) < 200; i-- {
			d.Log = append(d.Log, c.Log[i])
		}
	}
	return d, nil
}

func (h *Web) pageShow(w http.ResponseWriter, r *http.Request) error {
	d, err := h.load(r.Context(), r, false)
	if err != nil {
		return err
	}
	return h.kit.Render(w, http.StatusOK, "championship", h.kit.Page(r, "sections.page_title", d, d.C.Settings.Name))
}

func (h *Web) pageDesk(w http.ResponseWriter, r *http.Request) error {
	if _, err := h.kit.MustIdentity(r); err != nil {
		return err
	}
	d, err := h.load(r.Context(), r, true)
	if err != nil {
		return err
	}
	return h.kit.Render(w, http.StatusOK, "championship_desk", h.kit.Page(r, "sections.desk_title", d, d.C.Settings.Name))
}

// normsData is the page of the ranks' norms earned.
type normsData struct {
	C      *Championship
	Earned []EarnedOf
}

func (h *Web) pageNorms(w http.ResponseWriter, r *http.Request) error {
	c, err := h.desk.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return APIError(err)
	}
	earned, err := h.desk.Earned(r.Context(), c, h.kit.Lang(r))
	if err != nil {
		return APIError(err)
	}
	return h.kit.Render(w, http.StatusOK, "championship_norms", h.kit.Page(r, "sections.norms_title", normsData{C: c, Earned: earned}, c.Settings.Name))
}

// splitIDs reads federation ids one a line (or separated by commas or
// spaces).
func splitIDs(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}

// pageAction runs one of the desk's forms and comes back to the desk with
// what happened.
func (h *Web) pageAction(w http.ResponseWriter, r *http.Request) error {
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	ctx, id, lang, cat := r.Context(), r.PathValue("id"), h.kit.Lang(r), h.kit.Catalog()
	uid := who.Account.ID
	var msg string
	switch r.PathValue("action") {
	case "enter":
		var keys []string
		if k := r.FormValue("section"); k != "" {
			keys = []string{k}
		}
		got, err := h.desk.Enter(ctx, id, uid, splitIDs(r.FormValue("ids")), keys)
		if err != nil {
			return APIError(err)
		}
		ok, refused := 0, []string{}
		for _, e := range got {
			if e.Error != nil {
				m := e.ID + ": " + cat.T(lang, e.Error.Key, e.Error.Args...)
				if e.Error.Why != "" {
					m += " (" + cat.T(lang, e.Error.Why) + ")"
				}
				refused = append(refused, m)
				continue
			}
			ok++
		}
		msg = cat.T(lang, "sections.msg_entered", ok)
		if len(refused) > 0 {
			msg += " " + strings.Join(refused, "; ")
		}
	case "pair":
		paired, err := h.desk.Pair(ctx, id, uid, r.FormValue("section"))
		if err != nil {
			return APIError(err)
		}
		msg = cat.T(lang, "sections.msg_paired", len(paired))
	case "results":
		round := atoi(r.FormValue("round"))
		res := map[int]string{}
		for k, v := range r.Form {
			if n, ok := strings.CutPrefix(k, "b"); ok && len(v) > 0 {
				if b := atoi(n); b > 0 {
					res[b] = v[0]
				}
			}
		}
		n, err := h.desk.Results(ctx, id, uid, who.Name(), r.FormValue("section"), round, res)
		if err != nil {
			return APIError(err)
		}
		msg = cat.T(lang, "sections.msg_results", n)
	case "withdraw":
		if err := h.desk.Withdraw(ctx, id, uid, r.FormValue("section"), strings.TrimSpace(r.FormValue("id"))); err != nil {
			return APIError(err)
		}
		msg = cat.T(lang, "sections.msg_withdrawn")
	case "bye":
		if err := h.desk.Bye(ctx, id, uid, r.FormValue("section"), strings.TrimSpace(r.FormValue("id")), atoi(r.FormValue("round")), r.FormValue("half") != ""); err != nil {
			return APIError(err)
		}
		msg = cat.T(lang, "sections.msg_bye")
	case "arbiters":
		names := strings.FieldsFunc(r.FormValue("names"), func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' })
		if err := h.desk.SetArbiters(ctx, id, uid, names); err != nil {
			return APIError(err)
		}
		msg = cat.T(lang, "sections.msg_arbiters", len(names))
	case "submit":
		rep, err := h.desk.Submit(ctx, id, uid, federation.Discipline(r.FormValue("discipline")))
		if err != nil {
			return APIError(err)
		}
		msg = cat.T(lang, "sections.msg_submitted", len(rep.Games))
	default:
		return APIError(notFound(r.PathValue("action")))
	}
	back := "/championship/" + id + "/desk?msg=" + url.QueryEscape(msg)
	if s := r.FormValue("section"); s != "" {
		back += "#s-" + url.PathEscape(s)
	}
	return site.Redirect(w, r, back)
}

func (h *Web) paper(w http.ResponseWriter, r *http.Request) error {
	c, err := h.desk.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return APIError(err)
	}
	name, ok := strings.CutSuffix(r.PathValue("paper"), ".pdf")
	if !ok {
		return APIError(notFound(r.PathValue("paper")))
	}
	req := PaperRequest{Paper: Paper(name), Section: r.URL.Query().Get("s"), Round: atoi(r.URL.Query().Get("round")),
		Discipline: federation.Discipline(r.URL.Query().Get("d")), Places: atoi(r.URL.Query().Get("places"))}
	if req.Paper == NormsPaper {
		if req.Earned, err = h.desk.Earned(r.Context(), c, h.kit.Lang(r)); err != nil {
			return APIError(err)
		}
	}
	var b bytes.Buffer
	if err := c.WritePaper(&b, h.kit.Catalog(), h.kit.Lang(r), req); err != nil {
		return APIError(err)
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", c.ID+"-"+name+".pdf"))
	_, err = w.Write(b.Bytes())
	return err
}

// trf answers a section as a TRF-16 file, for the federations' programs.
func (h *Web) trf(w http.ResponseWriter, r *http.Request) error {
	c, err := h.desk.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return APIError(err)
	}
	s := c.Section(r.PathValue("section"))
	if s == nil {
		return APIError(notFound(r.PathValue("section")))
	}
	var b bytes.Buffer
	if err := s.Event.WriteTRF(&b); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", c.ID+"-"+s.Key+".trf"))
	_, err = w.Write(b.Bytes())
	return err
}

// apiView is a championship as GET /api/championships/{id} answers.
type apiView struct {
	ID       string           `json:"id"`
	Settings Settings         `json:"settings"`
	Status   Status           `json:"status"`
	Sections []apiSectionView `json:"sections"`
}

type apiSectionView struct {
	Spec
	Round   int        `json:"round"`
	Ready   bool       `json:"ready"`
	Players []string   `json:"players"` // federation ids by start number
	Boards  []apiBoard `json:"boards"`  // the current round's
	// A team Swiss's: the current round's matches, the team standings.
	Matches       []TeamMatch `json:"matches,omitempty"`
	TeamStandings []TeamRow   `json:"team_standings,omitempty"`
}

type apiBoard struct {
	Board  int    `json:"board"`
	White  string `json:"white"`
	Black  string `json:"black,omitempty"` // "" for the bye
	Result string `json:"result,omitempty"`
}

func (h *Web) apiShow(w http.ResponseWriter, r *http.Request) error {
	c, err := h.desk.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return APIError(err)
	}
	v := apiView{ID: c.ID, Settings: c.Settings, Status: c.Status()}
	for _, s := range c.Sections {
		sv := apiSectionView{Spec: s.Spec, Round: s.Round(), Ready: s.Ready(), Players: append([]string{}, s.IDs...), Boards: []apiBoard{}}
		for _, b := range s.Boards(s.Round()) {
			sv.Boards = append(sv.Boards, apiBoard{Board: b.N, White: s.ID(b.White), Black: s.ID(b.Black), Result: b.Result})
		}
		sv.Matches, sv.TeamStandings = s.TeamRound(s.Round()), s.TeamRows()
		v.Sections = append(v.Sections, sv)
	}
	return site.WriteJSON(w, http.StatusOK, v)
}

func (h *Web) apiEnter(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		IDs      []string `json:"ids"`
		Sections []string `json:"sections"`
	}
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	got, err := h.desk.Enter(r.Context(), r.PathValue("id"), who.Account.ID, req.IDs, req.Sections)
	if err != nil {
		return APIError(err)
	}
	type entered struct {
		ID       string   `json:"id"`
		Sections []string `json:"sections,omitempty"`
		Error    string   `json:"error,omitempty"`
	}
	out := make([]entered, len(got))
	for i, e := range got {
		out[i] = entered{ID: e.ID, Sections: e.Sections}
		if e.Error != nil {
			out[i].Error = h.kit.Catalog().T(h.kit.Lang(r), e.Error.Key, e.Error.Args...)
		}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"entries": out})
}

func (h *Web) apiPair(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Section string `json:"section"`
	}
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	paired, err := h.desk.Pair(r.Context(), r.PathValue("id"), who.Account.ID, req.Section)
	if err != nil {
		return APIError(err)
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"paired": paired})
}

func (h *Web) apiResults(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Section string            `json:"section"`
		Round   int               `json:"round"`
		Results map[string]string `json:"results"` // board number -> result
	}
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	res := map[int]string{}
	for k, v := range req.Results {
		b := atoi(k)
		if b < 1 {
			return APIError(bad("sections.err_board", k))
		}
		res[b] = v
	}
	n, err := h.desk.Results(r.Context(), r.PathValue("id"), who.Account.ID, who.Name(), req.Section, req.Round, res)
	if err != nil {
		return APIError(err)
	}
	return site.WriteJSON(w, http.StatusOK, map[string]int{"changed": n})
}

func (h *Web) apiSubmit(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Discipline federation.Discipline `json:"discipline"`
	}
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	rep, err := h.desk.Submit(r.Context(), r.PathValue("id"), who.Account.ID, req.Discipline)
	if err != nil {
		return APIError(err)
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"games": len(rep.Games), "discipline": rep.Discipline, "federation": rep.Federation})
}

func (h *Web) apiWithdraw(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Section string `json:"section"`
		ID      string `json:"id"`
	}
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := h.desk.Withdraw(r.Context(), r.PathValue("id"), who.Account.ID, req.Section, req.ID); err != nil {
		return APIError(err)
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (h *Web) apiBye(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Section string `json:"section"`
		ID      string `json:"id"`
		Round   int    `json:"round"`
		Half    bool   `json:"half"`
	}
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := h.desk.Bye(r.Context(), r.PathValue("id"), who.Account.ID, req.Section, req.ID, req.Round, req.Half); err != nil {
		return APIError(err)
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
