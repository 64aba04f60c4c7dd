package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/web"
)

// page returns the data of a page for r.
func (s *Server) page(r *http.Request, titleKey string, data any, args ...any) *web.Page {
	lang := i18n.Match(r.Header.Get("Accept-Language"))
	p := s.pages.NewPage(lang, s.cat.T(lang, titleKey, args...), data)
	if id := s.identity(r); id.Known() {
		p.User, p.Guest = id.Name(), id.Guest != ""
	}
	return p
}

func (s *Server) render(w http.ResponseWriter, status int, name string, p *web.Page) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return s.pages.Render(w, name, p)
}

// pageHandler renders errors as the error page.
func (s *Server) pageHandler(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			e := s.asAPIError(r, err)
			setBoundHeaders(w, e)
			p := s.page(r, "error.title", struct {
				Status  int
				Message string
			}{e.Status, e.Message})
			if err := s.render(w, e.Status, "error", p); err != nil {
				s.log.Error("render error page", "err", err)
			}
		}
	})
}

func redirect(w http.ResponseWriter, r *http.Request, url string) error {
	http.Redirect(w, r, url, http.StatusSeeOther)
	return nil
}

// ---- lobby ----

func (s *Server) pageLobby(w http.ResponseWriter, r *http.Request) error {
	list := s.cfg.Lobby.List()
	viewer := ""
	if id := s.identity(r); id.Known() {
		viewer = id.Seat().ID
	}
	seeks := make([]live.SeekJSON, len(list))
	for i, sk := range list {
		seeks[i] = sk.JSONFor(viewer)
	}
	return s.render(w, http.StatusOK, "lobby", s.page(r, "lobby.title", struct {
		Seeks     []live.SeekJSON
		HasEngine bool
	}{seeks, s.cfg.Hub.HasEngine()}))
}

func (s *Server) pageCreateSeek(w http.ResponseWriter, r *http.Request) error {
	id := s.ensureIdentity(w, r)
	sk, err := s.createSeek(r.Context(), id, seekRequest{TC: r.FormValue("tc"), Rated: r.FormValue("rated") != "",
		Color: r.FormValue("color"), Ruleset: r.FormValue("ruleset"), Private: r.FormValue("private") != "", addr: auth.AddrKey(auth.ClientIP(r))})
	if err != nil {
		return err
	}
	return redirect(w, r, "/challenge/"+sk.ID)
}

// editorData is the position editor's form. The board size and the stone
// total come from the ruleset, so that editor.js knows no rule.
type editorData struct {
	Ruleset          string
	Total            int  // the stones of the ruleset
	Tuzdik           bool // whether the ruleset has tuzdiks
	Holes, HolesDesc []int
	White, Black     []int
	Kazan            struct{ W, B int }
	Error            string
}

func newEditorData(p toguz.Position) editorData {
	r := p.Rules()
	d := editorData{Ruleset: r.String(), Total: r.Total(), Tuzdik: r.Tuzdik}
	st := p.Setup()
	for h := 1; h <= p.Holes(); h++ {
		d.Holes = append(d.Holes, h)
	}
	d.HolesDesc = slices.Clone(d.Holes)
	slices.Reverse(d.HolesDesc)
	d.White, d.Black = st.Board[toguz.White], st.Board[toguz.Black]
	d.Kazan.W, d.Kazan.B = st.Kazan[0], st.Kazan[1]
	return d
}

func formInt(r *http.Request, name string) (int, error) {
	v := strings.TrimSpace(r.FormValue(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, badRequest(live.CodeBadPosition, "%s: %q is not a whole number", name, v)
	}
	return n, nil
}

// editorPosition reads the editor's form for a board of rules.
func editorPosition(r *http.Request, rules toguz.Rules) (positionRequest, error) {
	req := positionRequest{Ruleset: rules.String(), Turn: r.FormValue("turn")}
	var err error
	for pl, prefix := range []string{"w", "b"} {
		req.Board[pl] = make([]int, rules.Holes)
		for h := 1; h <= rules.Holes; h++ {
			if req.Board[pl][h-1], err = formInt(r, fmt.Sprintf("%s%d", prefix, h)); err != nil {
				return req, err
			}
		}
		if req.Kazan[pl], err = formInt(r, "k"+prefix); err != nil {
			return req, err
		}
		if req.Tuzdik[pl], err = formInt(r, "t"+prefix); err != nil {
			return req, err
		}
	}
	return req, nil
}

func (s *Server) pageEngineGame(w http.ResponseWriter, r *http.Request) error {
	id := s.ensureIdentity(w, r)
	level, err := formInt(r, "level")
	if err != nil {
		return err
	}
	req := engineRequest{Level: level, Color: r.FormValue("color"), TC: r.FormValue("tc"), Ruleset: r.FormValue("ruleset")}
	if r.FormValue("from") == "editor" {
		rules, err := parseRuleset(req.Ruleset)
		if err != nil {
			return err
		}
		preq, err := editorPosition(r, rules)
		var p toguz.Position
		full := 1
		if err == nil {
			p, full, err = checkPosition(preq)
		}
		if err == nil && p.IsOver() {
			err = badRequest(live.CodeBadPosition, "the game is already over in this position")
		}
		if err != nil {
			start, serr := toguz.NewPosition(rules)
			if serr != nil {
				return serr
			}
			d := newEditorData(start)
			if preq.Board[0] != nil {
				d.White, d.Black = preq.Board[0], preq.Board[1]
				d.Kazan.W, d.Kazan.B = preq.Kazan[0], preq.Kazan[1]
			}
			d.Error = s.asAPIError(r, err).Message
			return s.render(w, http.StatusBadRequest, "editor", s.page(r, "editor.title", d))
		}
		req.FEN = toguz.FormatFEN(p, full)
	}
	gid, err := s.createEngineGame(r.Context(), id, auth.AddrKey(auth.ClientIP(r)), req)
	if err != nil {
		return err
	}
	return redirect(w, r, "/game/"+gid)
}

// pageEditor shows the editor on the starting position of the ruleset
// named by ?ruleset= (the standard game when absent).
func (s *Server) pageEditor(w http.ResponseWriter, r *http.Request) error {
	rules, err := parseRuleset(r.URL.Query().Get("ruleset"))
	if err != nil {
		return err
	}
	start, err := toguz.NewPosition(rules)
	if err != nil {
		return err
	}
	return s.render(w, http.StatusOK, "editor", s.page(r, "editor.title", newEditorData(start)))
}

// ---- accounts ----

type authData struct {
	Mode, Name, Error string
}

func (s *Server) pageSignupForm(w http.ResponseWriter, r *http.Request) error {
	return s.render(w, http.StatusOK, "auth", s.page(r, "signup.title", authData{Mode: "signup"}))
}

func (s *Server) pageLoginForm(w http.ResponseWriter, r *http.Request) error {
	return s.render(w, http.StatusOK, "auth", s.page(r, "login.title", authData{Mode: "login"}))
}

func (s *Server) pageSignup(w http.ResponseWriter, r *http.Request) error {
	return s.authForm(w, r, "signup", "signup.title", s.signup)
}

func (s *Server) pageLogin(w http.ResponseWriter, r *http.Request) error {
	return s.authForm(w, r, "login", "login.title", s.login)
}

// authForm handles a posted sign-up or login form: on success it sets the
// session cookie and goes home, on failure it shows the form again with the
// error and the name typed.
func (s *Server) authForm(w http.ResponseWriter, r *http.Request, mode, title string,
	act func(*http.Request, credentials) (Account, string, error)) error {
	c := credentials{Name: r.FormValue("name"), Password: r.FormValue("password")}
	_, t, err := act(r, c)
	if err != nil {
		e := s.asAPIError(r, err)
		setBoundHeaders(w, e)
		return s.render(w, e.Status, "auth", s.page(r, title, authData{Mode: mode, Name: c.Name, Error: e.Message}))
	}
	s.setCookie(w, t, sessionAge)
	return redirect(w, r, "/")
}

func (s *Server) pageLogout(w http.ResponseWriter, r *http.Request) error {
	if err := s.logout(r); err != nil {
		return err
	}
	s.clearCookie(w)
	return redirect(w, r, "/")
}

// ---- games ----

// gameData is the game page's and the import's board; the template gives
// HoleNames, Positions, Moves and Errors to board.js as JSON.
type gameData struct {
	ID, Mode             string
	HoleNames            [9]string
	Positions            []string             // a replay's
	Moves                []live.MoveJSON      // a replay's
	White, Black, Result string               // for a replay without a live game
	Errors               map[live.Code]string // error code → text in the page's language
}

func (s *Server) pageGame(w http.ResponseWriter, r *http.Request) error {
	st, err := s.cfg.Hub.State(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	p := s.page(r, "game.title", nil, st.ID)
	// The board explains the game websocket's errors in the page's language.
	texts := map[live.Code]string{}
	for _, c := range live.GameCodes() {
		texts[c] = s.cat.T(p.Lang, "err."+string(c))
	}
	d := gameData{ID: st.ID, Mode: "live", HoleNames: p.HoleNames, Errors: texts}
	if st.Status != "playing" {
		d.Mode, d.Positions, d.Moves = "replay", st.Positions, st.Moves
		d.White, d.Black = st.White.Name, st.Black.Name
		d.Result = fmt.Sprintf("%s %s %s (%d–%d)", st.Result, s.cat.T(p.Lang, "result."+st.Result),
			s.cat.T(p.Lang, "term."+st.Termination), st.Score[0], st.Score[1])
		if st.Status == "aborted" {
			d.Result = s.cat.T(p.Lang, "game.aborted")
		}
	}
	p.Data = d
	return s.render(w, http.StatusOK, "game", p)
}

func (s *Server) pageChallenge(w http.ResponseWriter, r *http.Request) error {
	sk, gid, ok := s.cfg.Lobby.Get(r.PathValue("id"))
	if !ok {
		return &apiError{Status: http.StatusNotFound, Code: live.CodeNotFound, Message: "this challenge does not exist or was cancelled"}
	}
	if gid != "" {
		return redirect(w, r, "/game/"+gid)
	}
	id := s.identity(r)
	mode := "casual"
	if sk.Rated {
		mode = "rated"
	}
	return s.render(w, http.StatusOK, "challenge", s.page(r, "challenge.title", struct {
		Seek      live.SeekJSON
		Own       bool
		URL, Mode string
	}{sk.JSON(), id.Known() && id.Seat().ID == sk.By.ID, "http://" + r.Host + "/challenge/" + sk.ID, mode}))
}

// pageCancelChallenge is POST /challenge/{id}/cancel: the creator
// withdraws his seek and is back in the lobby.
func (s *Server) pageCancelChallenge(w http.ResponseWriter, r *http.Request) error {
	id := s.identity(r)
	if !id.Known() {
		return &apiError{Status: http.StatusForbidden, Code: live.CodeForbidden, Message: "only its creator may cancel a seek"}
	}
	if err := s.cfg.Lobby.Cancel(r.PathValue("id"), id.Seat().ID); err != nil {
		return err
	}
	return redirect(w, r, "/")
}

func (s *Server) pageAcceptChallenge(w http.ResponseWriter, r *http.Request) error {
	id := s.ensureIdentity(w, r)
	gid, err := s.acceptSeek(r.Context(), id, r.PathValue("id"))
	if err != nil {
		return err
	}
	return redirect(w, r, "/game/"+gid)
}

// ---- import ----

// maxImport is the largest record file the import page reads.
const maxImport = 2 << 20

type importedGame struct {
	White, Black, Result, Termination, Score string
	Plies                                    int
}

type importData struct {
	Text       string
	Error      string
	Errors     []string // the errors after Error, a few at most
	MoreErrors bool     // more errors than these
	Games      []importedGame
	Replay     *gameData
}

func (s *Server) pageImportForm(w http.ResponseWriter, r *http.Request) error {
	return s.render(w, http.StatusOK, "import", s.page(r, "import.title", importData{}))
}

func (s *Server) pageImport(w http.ResponseWriter, r *http.Request) error {
	leave, refused := s.imports.enter(r.Context(), s.log, auth.AddrKey(auth.ClientIP(r)))
	if refused != nil {
		setRetryAfter(w, refused)
		return refused
	}
	defer leave()
	// limitBodies has read the form within maxImportBody (bodyLimit).
	name, text := "record", r.FormValue("text")
	var src io.Reader = strings.NewReader(text)
	size := int64(len(text))
	if f, h, err := r.FormFile("file"); err == nil {
		defer f.Close()
		if h.Size > 0 {
			src, size, name = f, h.Size, h.Filename
		}
	}
	p := s.page(r, "import.title", nil)
	d := importData{}
	if len(text) <= maxImportEcho {
		d.Text = text
	}
	status := http.StatusOK
	ctx, cancel := context.WithTimeout(r.Context(), importTimeout)
	defer cancel()
	var games []imported
	var err error
	if size <= maxImport {
		games, err = importGames(ctx, name, src)
	}
	var ie *importError
	switch {
	case size > maxImport:
		d.Error, status = fmt.Sprintf("the file is over %d bytes", maxImport), http.StatusRequestEntityTooLarge
	case errors.As(err, &ie):
		d.Error, d.Errors, d.MoreErrors, status = ie.msgs[0], ie.msgs[1:], ie.more, ie.status
		if ie.status == http.StatusRequestEntityTooLarge {
			s.imports.refusedSize.Add(1)
		}
	case err != nil:
		return err
	case len(games) == 0:
		d.Error, status = "the record is empty: no game found in it", http.StatusBadRequest
	default:
		for _, g := range games {
			d.Games = append(d.Games, g.summary)
		}
		first := games[0]
		d.Replay = &gameData{Mode: "replay", HoleNames: p.HoleNames,
			Positions: first.positions, Moves: first.moves,
			White: first.summary.White, Black: first.summary.Black,
			Result: first.summary.Result + " " + first.summary.Termination + " " + first.summary.Score}
	}
	p.Data = d
	return s.render(w, status, "import", p)
}

// imported is a game read by an import: its summary, and for the first
// game its replay.
type imported struct {
	summary   importedGame
	positions []string
	moves     []live.MoveJSON
}

// ---- profiles and leaderboard ----

type ratingRow struct {
	Category string
	RatingInfo
}

func (s *Server) pageProfile(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	name := r.PathValue("name")
	prof, err := s.cfg.Archive.Profile(ctx, name)
	if err != nil {
		return archiveError(err)
	}
	games, err := s.cfg.Archive.UserGames(ctx, name, 100)
	if err != nil {
		return err
	}
	var rows []ratingRow
	for _, c := range rating.Categories {
		if ri, ok := prof.Ratings[c.String()]; ok {
			rows = append(rows, ratingRow{c.String(), ri})
		}
	}
	return s.render(w, http.StatusOK, "profile", s.page(r, "profile.title", struct {
		Profile Profile
		Ratings []ratingRow
		Games   []GameSummary
		Chart   template.HTML
	}{prof, rows, games, ratingChart(prof.History)}, prof.Name))
}

// ratingChart draws the rating history as an inline SVG: one line per
// category, the rating range on the vertical axis. Only numbers and
// category names (from a fixed list) go into the markup.
func ratingChart(h []RatingPoint) template.HTML {
	if len(h) == 0 {
		return ""
	}
	const W, H, pad = 600.0, 200.0, 30.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range h {
		lo, hi = math.Min(lo, p.Rating), math.Max(hi, p.Rating)
	}
	lo, hi = math.Floor(lo/50)*50-50, math.Ceil(hi/50)*50+50
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="rating-chart" viewBox="0 0 %.0f %.0f" role="img" aria-label="rating history">`, W, H)
	fmt.Fprintf(&b, `<text x="2" y="%.0f">%.0f</text><text x="2" y="%.0f">%.0f</text>`, pad, hi, H-4, lo)
	colors := map[string]string{"bullet": "#b3261e", "blitz": "#1f6f8b", "rapid": "#2e7d32", "classical": "#6a1b9a", "correspondence": "#8a5a2b"}
	for i, c := range rating.Categories {
		var pts []RatingPoint
		for _, p := range h {
			if p.Category == c.String() {
				pts = append(pts, p)
			}
		}
		if len(pts) == 0 {
			continue
		}
		b.WriteString(`<polyline class="line" stroke="` + colors[c.String()] + `" points="`)
		for k, p := range pts {
			x := pad + (W-2*pad)*float64(k)/math.Max(1, float64(len(pts)-1))
			y := H - pad - (H-2*pad)*(p.Rating-lo)/(hi-lo)
			fmt.Fprintf(&b, "%.1f,%.1f ", x, y)
		}
		b.WriteString(`"/>`)
		fmt.Fprintf(&b, `<text x="%.0f" y="12" fill="%s">%s</text>`, pad+float64(i)*100, colors[c.String()], c.String())
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func (s *Server) pageLeaderboard(w http.ResponseWriter, r *http.Request) error {
	cat, err := rating.ParseCategory(cmp.Or(r.URL.Query().Get("category"), "blitz"))
	if err != nil {
		return badRequest(live.CodeBadRequest, "%v", err)
	}
	rows, err := s.cfg.Archive.Leaderboard(r.Context(), cat, 100)
	if err != nil {
		return err
	}
	var cats []string
	for _, c := range rating.Categories {
		cats = append(cats, c.String())
	}
	return s.render(w, http.StatusOK, "leaderboard", s.page(r, "leaderboard.title", struct {
		Category   string
		Categories []string
		Rows       []LeaderRow
	}{cat.String(), cats, rows}))
}
