package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/twofactor"
)

// ---- identity ----

type meJSON struct {
	Name  string `json:"name"`
	Guest bool   `json:"guest"`
	Token string `json:"token,omitempty"`
}

func (s *Server) apiGuest(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	if !id.Known() || id.Guest == "" {
		t := s.newGuestToken()
		s.setCookie(w, t, sessionAge)
		id = site.Identity{Guest: guestName(t), Token: t}
	}
	return site.WriteJSON(w, http.StatusOK, meJSON{Name: id.Guest, Guest: true, Token: id.Token})
}

type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Email    string `json:"email,omitempty"` // sign-up only, optional
}

func (s *Server) apiSignup(w http.ResponseWriter, r *http.Request) error {
	var c credentials
	if err := site.ReadJSON(w, r, &c); err != nil {
		return err
	}
	a, t, err := s.signup(r, c)
	if err != nil {
		return err
	}
	s.setCookie(w, t, sessionAge)
	if err := s.loginLang(w, r, a); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, meJSON{Name: a.Name, Token: t})
}

func (s *Server) signup(r *http.Request, c credentials) (site.Account, string, error) {
	if s.cfg.Accounts == nil {
		return site.Account{}, "", apierr.New(http.StatusServiceUnavailable, apierr.CodeInternal, "apierr.accounts_off")
	}
	email, err := signupEmail(c.Email)
	if err != nil {
		return site.Account{}, "", err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	a, t, err := s.cfg.Accounts.SignUp(ctx, c.Name, c.Password, auth.ClientIP(r))
	if err == nil {
		s.signedUp(r, a, t, email)
	}
	return a, t, accountError(err)
}

func (s *Server) login(r *http.Request, c credentials) (site.Account, string, error) {
	if s.cfg.Accounts == nil {
		return site.Account{}, "", apierr.New(http.StatusServiceUnavailable, apierr.CodeInternal, "apierr.accounts_off")
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	a, err := s.cfg.Accounts.CheckPassword(ctx, c.Name, c.Password, auth.ClientIP(r))
	if err != nil {
		return site.Account{}, "", accountError(err)
	}
	// An account with a second factor gets no session yet, but a
	// *twofactor.Needed: the answer asks for the second step.
	if s.twofa != nil {
		if err := s.twofa.Gate(ctx, a); err != nil {
			return site.Account{}, "", err
		}
	}
	t, err := s.cfg.Accounts.StartSession(ctx, a.ID)
	if err == nil {
		s.startedSession(r, a, t)
	}
	return a, t, err
}

func (s *Server) apiLogin(w http.ResponseWriter, r *http.Request) error {
	var c credentials
	if err := site.ReadJSON(w, r, &c); err != nil {
		return err
	}
	a, t, err := s.login(r, c)
	if n, ok := twofactor.IsNeeded(err); ok {
		return site.WriteJSON(w, http.StatusOK, n.JSON())
	}
	if err != nil {
		return err
	}
	s.setCookie(w, t, sessionAge)
	if err := s.loginLang(w, r, a); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, meJSON{Name: a.Name, Token: t})
}

func (s *Server) logout(r *http.Request) error {
	id := s.Identity(r)
	if id.Account.ID != 0 && s.cfg.Accounts != nil {
		return s.cfg.Accounts.LogOut(r.Context(), id.Token)
	}
	return nil
}

func (s *Server) apiLogout(w http.ResponseWriter, r *http.Request) error {
	if err := s.logout(r); err != nil {
		return err
	}
	s.clearCookie(w)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) apiMe(w http.ResponseWriter, r *http.Request) error {
	id, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, meJSON{Name: id.Name(), Guest: id.Guest != ""})
}

// mustIdentity returns who makes r, or 401.
func (s *Server) MustIdentity(r *http.Request) (site.Identity, error) {
	if err := s.forgedGuest(r); err != nil {
		return site.Identity{}, err
	}
	id := s.Identity(r)
	if !id.Known() {
		return id, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	return id, nil
}

// ---- seeks ----

func (s *Server) apiSeeks(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	list, total := s.cfg.Lobby.ListedFor(id.Seat())
	viewer := ""
	if id.Known() {
		viewer = id.Seat().ID
	}
	blocked, _ := s.blockedWith(r.Context(), id)
	list = visibleSeeks(list, blocked)
	out := make([]live.SeekJSON, len(list))
	for i, sk := range list {
		out[i] = sk.JSONFor(viewer)
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"seeks": out, "total": total})
}

type seekRequest struct {
	TC      string `json:"tc"`
	Rated   bool   `json:"rated"`
	Color   string `json:"color"`
	Ruleset string `json:"ruleset"`
	Private bool   `json:"private"`
	addr    string // the client's address key (auth.AddrKey), which bounds its open seeks
}

func (s *Server) createSeek(ctx context.Context, id site.Identity, req seekRequest) (live.Seek, error) {
	tc, err := site.ParseTC(req.TC)
	if err != nil {
		return live.Seek{}, err
	}
	rules, err := site.ParseRuleset(req.Ruleset)
	if err != nil {
		return live.Seek{}, err
	}
	if req.Color == "" {
		req.Color = "random"
	}
	seat, err := s.SeatWithRating(ctx, id, tc)
	if err != nil {
		return live.Seek{}, err
	}
	return s.cfg.Lobby.Add(live.Seek{By: seat, TC: tc, Rated: req.Rated, Color: req.Color, Rules: rules, Private: req.Private, Addr: req.addr})
}

func (s *Server) apiCreateSeek(w http.ResponseWriter, r *http.Request) error {
	id, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	var req seekRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	req.addr = auth.AddrKey(auth.ClientIP(r))
	sk, err := s.createSeek(r.Context(), id, req)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, sk.JSONFor(id.Seat().ID))
}

func (s *Server) apiSeek(w http.ResponseWriter, r *http.Request) error {
	sk, gid, ok := s.cfg.Lobby.Get(r.PathValue("id"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_seek", site.Excerpt(r.PathValue("id")))
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"seek": sk.JSON(), "game_id": gid})
}

func (s *Server) apiCancelSeek(w http.ResponseWriter, r *http.Request) error {
	id, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := s.cfg.Lobby.Cancel(r.PathValue("id"), id.Seat().ID); err != nil {
		return site.NotFoundAs(err, "apierr.no_seek", r.PathValue("id"))
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) acceptSeek(ctx context.Context, id site.Identity, seekID string) (string, error) {
	sk, _, ok := s.cfg.Lobby.Get(seekID)
	if !ok {
		return "", apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_seek", site.Excerpt(seekID))
	}
	if err := s.mayAcceptSeek(ctx, id, sk); err != nil {
		return "", err
	}
	seat, err := s.SeatWithRating(ctx, id, sk.TC)
	if err != nil {
		return "", err
	}
	gid, err := s.cfg.Lobby.Accept(ctx, seekID, seat)
	return gid, site.NotFoundAs(err, "apierr.no_seek", seekID)
}

func (s *Server) apiAcceptSeek(w http.ResponseWriter, r *http.Request) error {
	id, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	gid, err := s.acceptSeek(r.Context(), id, r.PathValue("id"))
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"game_id": gid})
}

// seatWithRating returns id's seat with his current rating in tc's category.
func (s *Server) SeatWithRating(ctx context.Context, id site.Identity, tc clock.TimeControl) (game.Seat, error) {
	seat := id.Seat()
	if id.Account.ID == 0 || s.cfg.Archive == nil {
		return seat, nil
	}
	if cat, ok := live.Category(tc); ok {
		ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
		defer cancel()
		p, err := s.cfg.Archive.Profile(ctx, id.Account.Name)
		if err != nil {
			return seat, err
		}
		if ri, ok := p.Ratings[cat.String()]; ok {
			seat.Rating = int(ri.Rating + 0.5)
		} else {
			seat.Rating = int(rating.DefaultRating)
		}
	}
	return seat, nil
}

// ---- engine games and positions ----

type engineRequest struct {
	Level   int    `json:"level"`
	Color   string `json:"color"`
	TC      string `json:"tc"`
	FEN     string `json:"fen"`
	Ruleset string `json:"ruleset"`
}

// createEngineGame creates the game of req for id, a client at addr
// (auth.AddrKey), within the bounds on engine games per person and address.
func (s *Server) createEngineGame(ctx context.Context, id site.Identity, addr string, req engineRequest) (string, error) {
	if req.Level < 1 || req.Level > engine.MaxLevel {
		return "", apierr.BadRequest(apierr.CodeBadLevel, "apierr.bad_level", req.Level, engine.MaxLevel)
	}
	tc, err := site.ParseTC(req.TC)
	if err != nil {
		return "", err
	}
	rules, err := site.ParseRuleset(req.Ruleset)
	if err != nil {
		return "", err
	}
	var from game.Start
	if fen := strings.TrimSpace(req.FEN); fen != "" {
		p, full, err := toguz.ParseFEN(fen, rules)
		if err != nil {
			return "", rulesError(http.StatusBadRequest, apierr.CodeBadPosition, err)
		}
		if p.IsOver() {
			return "", apierr.BadRequest(apierr.CodeBadPosition, "apierr.game_over_position")
		}
		from = game.Start{Position: p, Move: full}
	}
	me := id.Seat()
	eng := game.EngineSeat(req.Level, fmt.Sprintf("Engine %d", req.Level))
	spec := game.Spec{Rules: rules, From: from, TC: tc, White: me, Black: eng}
	switch req.Color {
	case "white", "":
	case "black":
		spec.White, spec.Black = eng, me
	case "random":
		if time.Now().UnixNano()&1 == 1 {
			spec.White, spec.Black = eng, me
		}
	default:
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_color", site.Excerpt(req.Color))
	}
	return s.cfg.Hub.CreateFrom(ctx, spec, addr)
}

func (s *Server) apiEngineGame(w http.ResponseWriter, r *http.Request) error {
	id, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	var req engineRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	gid, err := s.createEngineGame(r.Context(), id, auth.AddrKey(auth.ClientIP(r)), req)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"game_id": gid})
}

// ---- games ----

func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) error {
	st, err := s.cfg.Hub.State(r.Context(), r.PathValue("id"))
	if err != nil {
		return site.NotFoundAs(err, "apierr.no_game", r.PathValue("id"))
	}
	return site.WriteJSON(w, http.StatusOK, st)
}
