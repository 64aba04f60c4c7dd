package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/posjson"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/twofactor"
	"github.com/toguz/toguz/internal/web"
)

// page returns the data of a page for r.
func (s *Server) Page(r *http.Request, titleKey string, data any, args ...any) *web.Page {
	lang := s.Lang(r)
	p := s.pages.NewPage(lang, s.cat.T(lang, titleKey, args...), data)
	p.Path = r.URL.RequestURI()
	if id := s.Identity(r); id.Known() {
		p.User, p.Guest = id.Name(), id.Guest != ""
		p.Kid = s.kid(r.Context(), id)
		p.Moderator, p.Warned = s.cfg.Moderation.IsModerator(id.Account.ID), s.cfg.Moderation.Warned(id.Account.ID)
		if n := s.cfg.Notifications; n != nil && id.Account.ID != 0 {
			p.Notices, p.Unread = true, n.Unread(r.Context(), id.Account.ID)
		}
	}
	return p
}

func (s *Server) Render(w http.ResponseWriter, status int, name string, p *web.Page) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return s.pages.Render(w, name, p)
}

// pageHandler renders errors as the error page.
func (s *Server) pageHandler(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			e := s.AsError(r, err)
			setBoundHeaders(w, e)
			p := s.Page(r, "error.title", s.errorPage(r, e))
			if err := s.Render(w, e.Status, "error", p); err != nil {
				s.log.Error("render error page", "err", err)
			}
		}
	})
}

// errorPageData is the error page: what happened to the request, as a
// sentence for its status, what went wrong, what to do, and the way back.
type errorPageData struct {
	Status         int
	Heading        string // the status as a sentence
	Message        string // the error's own message
	Hint           string // what to do next
	Back           string // where the user came from, "" when not from this site
	LoginSuggested bool   // a 401/403 to someone not logged in: the page links to the login
}

// errorStatuses are the statuses with sentences of their own on the
// error page (errpage.<status>, errpage.hint.<status>); others get 500's
// or 400's.
var errorStatuses = []int{400, 401, 403, 404, 409, 410, 413, 429, 499, 500, 503}

func (s *Server) errorPage(r *http.Request, e *apierr.Error) errorPageData {
	lang := s.Lang(r)
	st := e.Status
	if !slices.Contains(errorStatuses, st) {
		st = 500
		if e.Status < 500 {
			st = 400
		}
	}
	d := errorPageData{Status: e.Status, Message: s.Message(r, e),
		Heading: s.cat.T(lang, fmt.Sprintf("errpage.%d", st)),
		Hint:    s.cat.T(lang, fmt.Sprintf("errpage.hint.%d", st)),
		Back:    sameSiteReferer(r)}
	// Who is refused and has no account may have one to log in with.
	d.LoginSuggested = (st == 401 || st == 403) && s.Identity(r).Account.ID == 0
	return d
}

// sameSiteReferer is the page of this site the request came from, or ""
// when it came from elsewhere, from nowhere, or from this very page.
func sameSiteReferer(r *http.Request) string {
	ref := r.Header.Get("Referer")
	u, err := url.Parse(ref)
	if ref == "" || err != nil || u.Host != r.Host || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	back := localPath(u.RequestURI())
	// A form's page is where its POST goes back to; a page is not a way
	// back from itself.
	if back == r.URL.RequestURI() && r.Method == http.MethodGet {
		return ""
	}
	return back
}

// ---- lobby ----

func (s *Server) pageLobby(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	list, _ := s.cfg.Lobby.ListedFor(id.Seat())
	blocked, _ := s.blockedWith(r.Context(), id)
	list = visibleSeeks(list, blocked)
	viewer := ""
	if id.Known() {
		viewer = id.Seat().ID
	}
	lang := s.Lang(r)
	c := s.Choices(lang, r.URL.Query().Get("ruleset"), id.Account.ID != 0)
	seeks := make([]site.SeekRow, len(list))
	for i, sk := range list {
		seeks[i] = c.Row(sk.JSONFor(viewer))
	}
	return s.Render(w, http.StatusOK, "lobby", s.Page(r, "lobby.title", struct {
		Seeks     []site.SeekRow
		HasEngine bool
		site.FormChoices
	}{seeks, s.cfg.Hub.HasEngine(), c}))
}

func (s *Server) pageCreateSeek(w http.ResponseWriter, r *http.Request) error {
	id := s.EnsureIdentity(w, r)
	sk, err := s.createSeek(r.Context(), id, seekRequest{TC: r.FormValue("tc"), Rated: r.FormValue("rated") != "",
		Color: r.FormValue("color"), Ruleset: r.FormValue("ruleset"), Private: r.FormValue("private") != "", addr: auth.AddrKey(auth.ClientIP(r))})
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/challenge/"+sk.ID)
}

func (s *Server) pageEngineGame(w http.ResponseWriter, r *http.Request) error {
	id := s.EnsureIdentity(w, r)
	level, err := site.FormInt(r, "level")
	if err != nil {
		return err
	}
	req := engineRequest{Level: level, Color: r.FormValue("color"), TC: r.FormValue("tc"), Ruleset: r.FormValue("ruleset")}
	if r.FormValue("from") == "editor" {
		rules, err := site.ParseRuleset(req.Ruleset)
		if err != nil {
			return err
		}
		fen, answered, err := s.board.EditorStart(w, r, rules, id.Account.ID != 0)
		if answered || err != nil {
			return err
		}
		req.FEN = fen
	}
	gid, err := s.createEngineGame(r.Context(), id, auth.AddrKey(auth.ClientIP(r)), req)
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/game/"+gid)
}

// ---- accounts ----

type authData struct {
	Mode, Name, Error string
	Email             string // the address typed at sign-up
	// Current is the account already logged in on this browser: the page
	// says so and offers to log out instead of showing the form.
	Current string
	// Passkeys offers the password-less login (internal/twofactor).
	Passkeys bool
	// Referrer is the path on this site to go to after logging in (the
	// consent page of an app, /oauth?…); "" for home.
	Referrer string
}

// referrer returns r's referrer= if it is a path on this site, else "".
func referrer(r *http.Request) string {
	if ref := r.FormValue("referrer"); ref != "" && localPath(ref) != "/" {
		return localPath(ref)
	}
	return ""
}

// loggedIn returns the name of the account r is logged in to ("": none;
// a guest is none, his sign-up or login replaces the guest).
func (s *Server) loggedIn(r *http.Request) string {
	if id := s.Identity(r); id.Account.ID != 0 {
		return id.Account.Name
	}
	return ""
}

func (s *Server) pageSignupForm(w http.ResponseWriter, r *http.Request) error {
	return s.Render(w, http.StatusOK, "auth", s.Page(r, "signup.title", authData{Mode: "signup", Current: s.loggedIn(r), Referrer: referrer(r)}))
}

func (s *Server) pageLoginForm(w http.ResponseWriter, r *http.Request) error {
	return s.Render(w, http.StatusOK, "auth", s.Page(r, "login.title", authData{Mode: "login", Current: s.loggedIn(r), Passkeys: s.twofa != nil, Referrer: referrer(r)}))
}

func (s *Server) pageSignup(w http.ResponseWriter, r *http.Request) error {
	return s.authForm(w, r, "signup", "signup.title", s.signup)
}

func (s *Server) pageLogin(w http.ResponseWriter, r *http.Request) error {
	return s.authForm(w, r, "login", "login.title", s.login)
}

// authForm handles a posted sign-up or login form: on success it sets the
// session cookie and goes home, on failure it shows the form again with the
// error and the name typed. Someone already logged in keeps his session:
// the answer (409) is the page saying who is logged in.
func (s *Server) authForm(w http.ResponseWriter, r *http.Request, mode, title string,
	act func(*http.Request, credentials) (site.Account, string, error)) error {
	if current := s.loggedIn(r); current != "" {
		return s.Render(w, http.StatusConflict, "auth", s.Page(r, title, authData{Mode: mode, Current: current}))
	}
	c := credentials{Name: r.FormValue("name"), Password: r.FormValue("password"), Email: r.FormValue("email")}
	a, t, err := act(r, c)
	if n, ok := twofactor.IsNeeded(err); ok {
		return s.twofa.SecondStep(w, r, n)
	}
	if err != nil {
		e := s.AsError(r, err)
		setBoundHeaders(w, e)
		return s.Render(w, e.Status, "auth", s.Page(r, title, authData{Mode: mode, Name: c.Name, Email: c.Email, Error: s.Message(r, e), Passkeys: s.twofa != nil, Referrer: referrer(r)}))
	}
	s.setCookie(w, t, sessionAge)
	if err := s.loginLang(w, r, a); err != nil {
		return err
	}
	return site.Redirect(w, r, localPath(referrer(r)))
}

func (s *Server) pageLogout(w http.ResponseWriter, r *http.Request) error {
	if err := s.logout(r); err != nil {
		return err
	}
	s.clearCookie(w)
	return site.Redirect(w, r, localPath(r.FormValue("back")))
}

// ---- games ----

// gameData is the game page's and the import's board; the template gives
// HoleNames, Positions, Moves and Errors to board.js as JSON.
type gameData struct {
	ID, Mode             string
	HoleNames            [9]string
	Positions            []string               // a replay's
	Boards               []posjson.Position     // the same, as the board draws them
	Moves                []live.MoveJSON        // a replay's
	White, Black, Result string                 // for a replay without a live game
	FinalFEN             string                 // a replay's board after an atsyrau's collection
	FinalBoard           *posjson.Position      // the same, as the board draws it
	Errors               map[apierr.Code]string // error code or close reason → text in the page's language
	Outcomes             map[string]string      // "result termination" → how a game ended (i18n.OutcomeTemplates)
	Review               *review.View           // the game review's section (internal/review); nil: none
	Event                string                 // the event the game belongs to ("": none), for the link back
	EventRound           int
}

func (s *Server) pageGame(w http.ResponseWriter, r *http.Request) error {
	st, err := s.cfg.Hub.State(r.Context(), r.PathValue("id"))
	if err != nil {
		return site.NotFoundAs(err, "apierr.no_game", r.PathValue("id"))
	}
	p := s.Page(r, "game.title", nil, st.ID)
	// The board explains the game websocket's errors in the page's language.
	texts := map[apierr.Code]string{}
	for _, c := range apierr.Codes() {
		texts[c] = s.cat.T(p.Lang, "err."+string(c))
	}
	// and why the server closed the socket, when it says so.
	for reason, key := range closeKeys {
		texts[apierr.Code(reason)] = s.cat.T(p.Lang, key)
	}
	d := gameData{ID: st.ID, Mode: "live", HoleNames: p.HoleNames, Errors: texts, Outcomes: s.cat.OutcomeTemplates(p.Lang)}
	if st.Status != "playing" {
		d.Mode, d.Positions, d.Boards, d.Moves = "replay", st.Positions, st.Boards, st.Moves
		d.White, d.Black = s.seatName(p.Lang, st.White)+seatRating(st.White), s.seatName(p.Lang, st.Black)+seatRating(st.Black)
		d.Result = s.cat.Outcome(p.Lang, st.Result, st.Termination, &st.Score)
		if c := st.Collected; c != nil {
			// The board shows the stones in the kazan: say where they came from.
			d.FinalFEN, d.FinalBoard = st.FinalFEN, st.FinalBoard
			d.Result += " · " + s.cat.N(p.Lang, "game.collected", c.Stones,
				s.cat.T(p.Lang, "game."+st.Turn), s.cat.T(p.Lang, "game."+c.Side), c.Stones)
		}
		if st.Status == "aborted" {
			d.Result = s.cat.T(p.Lang, "game.aborted")
		}
	}
	if d.Review, err = s.reviewWeb().Section(r.Context(), p.Lang, st.ID); err != nil {
		return err
	}
	if s.cfg.Events != nil {
		d.Event, d.EventRound, _ = s.cfg.Events.ByGame(st.ID)
	}
	p.Data = d
	return s.Render(w, http.StatusOK, "game", p)
}

// seatName is how a page names a seat: the engine by its level in lang.
func (s *Server) seatName(lang string, seat live.SeatJSON) string {
	return site.SeatName(s.cat, lang, game.Seat{Name: seat.Name, Engine: seat.EngineLevel})
}

// seatRating is a person's rating in a game's names, as the board writes it
// (board.ts): " (1500)", and once a rated game has ended its change,
// " (1500 +12)", " (1500 −7)" (a minus sign), " (1500 ±0)".
func seatRating(seat live.SeatJSON) string {
	if seat.Rating == 0 || seat.EngineLevel > 0 {
		return ""
	}
	change := ""
	switch d := seat.RatingDiff; {
	case d == nil:
	case *d > 0:
		change = fmt.Sprintf(" +%d", *d)
	case *d < 0:
		change = fmt.Sprintf(" \u2212%d", -*d)
	default:
		change = " \u00b10"
	}
	return fmt.Sprintf(" (%d%s)", seat.Rating, change)
}

func (s *Server) pageChallenge(w http.ResponseWriter, r *http.Request) error {
	return s.showChallenge(w, r, http.StatusOK, "")
}

// showChallenge renders the challenge page of seek {id}, with a notice
// (a text of the page's language) when there is one.
func (s *Server) showChallenge(w http.ResponseWriter, r *http.Request, status int, notice string) error {
	sk, gid, ok := s.cfg.Lobby.Get(r.PathValue("id"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_challenge")
	}
	if gid != "" {
		return site.Redirect(w, r, "/game/"+gid)
	}
	id := s.Identity(r)
	lang := s.Lang(r)
	mode := s.cat.T(lang, "form.casual")
	if sk.Rated {
		mode = s.cat.T(lang, "form.rated")
	}
	c := s.Choices(lang, sk.Rules.String(), id.Account.ID != 0)
	viewer := ""
	if id.Known() {
		viewer = id.Seat().ID
	}
	// Own is the creator in any of his tabs: the seek is his to cancel,
	// never to accept.
	j := sk.JSONFor(viewer)
	return s.Render(w, status, "challenge", s.Page(r, "challenge.title", struct {
		Seek              site.SeekRow
		Own               bool
		URL, Mode, Notice string
	}{c.Row(j), j.Own, "http://" + r.Host + "/challenge/" + sk.ID, mode, notice}))
}

// pageCancelChallenge is POST /challenge/{id}/cancel: the creator
// withdraws his seek and is back in the lobby.
func (s *Server) pageCancelChallenge(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	if !id.Known() {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.cancel_forbidden")
	}
	if err := s.cfg.Lobby.Cancel(r.PathValue("id"), id.Seat().ID); err != nil {
		return site.NotFoundAs(err, "apierr.no_seek", r.PathValue("id"))
	}
	return site.Redirect(w, r, "/")
}

func (s *Server) pageAcceptChallenge(w http.ResponseWriter, r *http.Request) error {
	id := s.EnsureIdentity(w, r)
	gid, err := s.acceptSeek(r.Context(), id, r.PathValue("id"))
	var le *live.Error
	if errors.As(err, &le) && le.Code == apierr.CodeOwnSeek {
		// One's own seek (a second tab, an old page): the challenge page
		// says why and offers the cancel button instead.
		return s.showChallenge(w, r, http.StatusConflict, s.cat.T(s.Lang(r), "challenge.own"))
	}
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/game/"+gid)
}
