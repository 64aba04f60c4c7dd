package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/svg"
)

// Simuls: one player, the host, against many on the site. The host sets
// the ruleset, the time control (or none), the most participants and his
// colour; people join; the host starts it and each participant gets a
// live game (internal/live) against him, played on the normal game page.
// The host's grid (/simul/{id}/host) shows all boards at once. The games
// are casual unless the host makes them rated, which needs an account of
// every player. The hall keeps the simuls in memory and writes each
// change through to Config.Simuls (the store, migration 00016): made,
// joined, left, started with its games' ids, and deleted when it expires;
// New loads the unexpired ones, so that a restarted server lists them,
// shows the host's grid and the participants' games (the hub resumes the
// games themselves) as before. A simul's end is not a change of its own:
// it is over when all its games are, and the games are stored as every
// live game is. Without Config.Simuls they live in memory only.
//
// With a time control, the hub's first-move timeout aborts a board where
// a side does not move in time, as in every real-time game between
// people; a simul without one ("none") has none.
const (
	maxSimulPlayers  = 30
	maxSimulsPerHost = 2   // simuls of one host not yet over
	maxSimuls        = 500 // simuls held at once
	// simulKeep is how long a simul is listed after it was made.
	simulKeep = 24 * time.Hour
)

// SimulStore keeps the simuls across restarts (*store.Store; simul.go).
type SimulStore interface {
	CreateSimul(ctx context.Context, sm store.Simul) error
	AddSimulPlayer(ctx context.Context, id string, p store.SimulSeat) error
	RemoveSimulPlayer(ctx context.Context, id, seat string) error
	StartSimul(ctx context.Context, id string, games []string) error
	Simuls(ctx context.Context, since time.Time) ([]store.Simul, error)
	DeleteSimulsBefore(ctx context.Context, t time.Time) (int64, error)
}

// simul is one simul; its fields are guarded by the hall's lock.
type simul struct {
	ID        string
	Host      live.Seat
	Rules     toguz.Rules
	TC        clock.TimeControl
	Max       int
	HostWhite bool
	Rated     bool
	Players   []live.Seat
	Games     []string // the game of Players[i], once started
	Started   bool
	Created   time.Time
	starting  bool // its games are being created: nobody joins
	// pending: made, and being written to the store: it counts for the
	// bounds but is not shown, and nobody can join it yet.
	pending bool
	// over: every game has ended (asked of the hub once Started; a simul
	// over stays over).
	over bool
	// changes is held by the one change of this simul at a time (a join,
	// a leave, a start's closing of joins) from its checks to its write
	// to the store and into memory.
	changes *sync.Mutex
}

// simulHall holds the simuls. Each change is written to st (when there
// is one) before it is made in memory, so that the store never lags
// behind what a client was told.
//
// Locking: mu guards byID and every simul's fields, and is held only to
// read or change them: never across a call to the store or the hub, so
// that a slow store or game holds up no other request (the pages read the
// hall on every view). A change of one simul holds its changes lock from
// its checks to its write, so that what it checked still holds when it
// is made in memory; the changes of other simuls, and every read, go on
// meanwhile. A new simul is in byID as pending while it is written, so
// that the bounds count it. starts is held by one start at a time, across
// the creation of its games. Order: starts, then a simul's changes, then
// mu; nothing takes a changes lock or starts while holding mu.
type simulHall struct {
	mu     sync.Mutex
	byID   map[string]*simul
	st     SimulStore
	starts sync.Mutex // one start at a time, outside mu: it creates games
}

// expireLocked forgets the simuls older than simulKeep and reports
// whether there were any; the caller holds mu, and deletes them from the
// store after it lets go of it (deleteExpired).
func (h *simulHall) expireLocked(now time.Time) bool {
	expired := false
	for id, sm := range h.byID {
		if now.Sub(sm.Created) > simulKeep {
			delete(h.byID, id)
			expired = true
		}
	}
	return expired
}

// deleteExpired deletes from the store the simuls older than simulKeep at
// now; the caller does not hold mu.
func (h *simulHall) deleteExpired(ctx context.Context, now time.Time) error {
	if h.st == nil {
		return nil
	}
	if _, err := h.st.DeleteSimulsBefore(ctx, now.Add(-simulKeep)); err != nil {
		return fmt.Errorf("simuls: expire: %w", err)
	}
	return nil
}

// changing returns simul id (not pending) with its changes lock held, or
// false where there is none (or it expired while the lock was awaited);
// the caller unlocks it.
func (h *simulHall) changing(id string) (*simul, bool) {
	h.mu.Lock()
	p, ok := h.byID[id]
	ok = ok && !p.pending
	h.mu.Unlock()
	if !ok {
		return nil, false
	}
	p.changes.Lock()
	h.mu.Lock()
	ok = h.byID[id] == p
	h.mu.Unlock()
	if !ok {
		p.changes.Unlock()
		return nil, false
	}
	return p, true
}

// remove takes simul p out of byID, if it is still there.
func (h *simulHall) remove(p *simul) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byID[p.ID] == p {
		delete(h.byID, p.ID)
	}
}

// load fills the hall from its store: the expired simuls are deleted, the
// others read back with their participants and games.
func (h *simulHall) load(ctx context.Context, now time.Time) error {
	byID := map[string]*simul{}
	if h.st != nil {
		since := now.Add(-simulKeep)
		if _, err := h.st.DeleteSimulsBefore(ctx, since); err != nil {
			return fmt.Errorf("simuls: expire: %w", err)
		}
		list, err := h.st.Simuls(ctx, since)
		if err != nil {
			return fmt.Errorf("simuls: load: %w", err)
		}
		for _, r := range list {
			sm, err := simulFromStore(r)
			if err != nil {
				return fmt.Errorf("simuls: load %s: %w", r.ID, err)
			}
			byID[sm.ID] = sm
		}
	}
	h.mu.Lock()
	h.byID = byID
	h.mu.Unlock()
	return nil
}

func simulFromStore(r store.Simul) (*simul, error) {
	rules, err := toguz.ParseRules(r.Ruleset)
	if err != nil {
		return nil, err
	}
	tc, err := clock.ParseStored(r.TC)
	if err != nil {
		return nil, err
	}
	sm := &simul{ID: r.ID, Host: seatFromStore(r.Host), Rules: rules, TC: tc, Max: r.Max, HostWhite: r.HostWhite,
		Rated: r.Rated, Started: r.Started, Created: r.Created, changes: new(sync.Mutex)}
	for _, p := range r.Players {
		sm.Players = append(sm.Players, seatFromStore(p))
		if sm.Started {
			sm.Games = append(sm.Games, p.Game)
		}
	}
	return sm, nil
}

func seatFromStore(p store.SimulSeat) live.Seat {
	return live.Seat{ID: p.Seat, UserID: p.UserID, Name: p.Name, Guest: p.Guest, Rating: p.Rating}
}

func seatToStore(p live.Seat) store.SimulSeat {
	return store.SimulSeat{Seat: p.ID, UserID: p.UserID, Name: p.Name, Guest: p.Guest, Rating: p.Rating}
}

func (h *simulHall) get(id string) (simul, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sm, ok := h.byID[id]
	if !ok || sm.pending {
		return simul{}, false
	}
	c := *sm
	c.Players, c.Games = slices.Clone(sm.Players), slices.Clone(sm.Games)
	return c, true
}

func (h *simulHall) list() []simul {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]simul, 0, len(h.byID))
	for _, sm := range h.byID {
		if !sm.pending {
			out = append(out, *sm)
		}
	}
	slices.SortFunc(out, func(a, b simul) int { return b.Created.Compare(a.Created) })
	return out
}

type simulRequest struct {
	Ruleset string `json:"ruleset"`
	TC      string `json:"tc"`
	Max     int    `json:"max"`
	Color   string `json:"color"` // the host's: white or black
	Rated   bool   `json:"rated"`
}

// createSimul makes a simul of who.
func (s *Server) createSimul(ctx context.Context, who site.Identity, req simulRequest) (string, error) {
	if !who.Known() {
		return "", apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	rules, err := site.ParseRuleset(req.Ruleset)
	if err != nil {
		return "", err
	}
	tc, err := site.ParseTC(req.TC)
	if err != nil {
		return "", err
	}
	if req.Max < 1 || req.Max > maxSimulPlayers {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.simul_max", maxSimulPlayers)
	}
	if req.Color != "white" && req.Color != "black" {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.simul_color")
	}
	if req.Rated && who.Account.ID == 0 {
		return "", apierr.New(http.StatusForbidden, apierr.CodeGuestRated, "err.guest_rated")
	}
	host, err := s.SeatWithRating(ctx, who, tc)
	if err != nil {
		return "", err
	}
	sm := &simul{ID: live.NewID(), Host: host, Rules: rules, TC: tc, Max: req.Max, HostWhite: req.Color == "white", Rated: req.Rated,
		Created: time.Now(), pending: s.simuls.st != nil, changes: new(sync.Mutex)}
	h := &s.simuls
	s.markOver(host.ID)
	h.mu.Lock()
	if h.byID == nil {
		h.byID = map[string]*simul{}
	}
	expired := h.expireLocked(sm.Created)
	mine := 0
	for _, o := range h.byID {
		if o.Host.ID == host.ID && !o.over {
			mine++
		}
	}
	switch {
	case mine >= maxSimulsPerHost:
		err = apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.simul_many", maxSimulsPerHost)
	case len(h.byID) >= maxSimuls:
		err = apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "apierr.simul_full_site")
	default:
		h.byID[sm.ID] = sm
	}
	h.mu.Unlock()
	if expired {
		if derr := h.deleteExpired(ctx, sm.Created); derr != nil && err == nil {
			h.remove(sm)
			return "", derr
		}
	}
	if err != nil {
		return "", err
	}
	if h.st == nil {
		return sm.ID, nil
	}
	err = h.st.CreateSimul(ctx, store.Simul{ID: sm.ID, Host: seatToStore(host), Ruleset: rules.String(), TC: tc.String(),
		Max: sm.Max, HostWhite: sm.HostWhite, Rated: sm.Rated, Created: sm.Created})
	if err != nil {
		h.remove(sm)
		return "", fmt.Errorf("simul: %w", err)
	}
	h.mu.Lock()
	sm.pending = false
	h.mu.Unlock()
	return sm.ID, nil
}

// markOver asks the hub, outside the hall's lock, whether host's started
// simuls not known to be over are, and marks those that are. A simul that
// starts meanwhile counts as not over, as does one with a game that does
// not answer in time.
func (s *Server) markOver(host string) {
	h := &s.simuls
	h.mu.Lock()
	var started []*simul
	var games [][]string
	for _, sm := range h.byID {
		if sm.Host.ID == host && sm.Started && !sm.over {
			started, games = append(started, sm), append(games, slices.Clone(sm.Games))
		}
	}
	h.mu.Unlock()
	var over []*simul
	for i, sm := range started {
		if s.gamesOver(games[i]) {
			over = append(over, sm)
		}
	}
	h.mu.Lock()
	for _, sm := range over {
		sm.over = true
	}
	h.mu.Unlock()
}

// gamesOver reports whether every game of games has ended.
func (s *Server) gamesOver(games []string) bool {
	// A game that does not answer in time counts as not over.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for _, g := range games {
		st, err := s.cfg.Hub.State(ctx, g)
		if err != nil || !finished(st.Result) {
			return false
		}
	}
	return true
}

// joinSimul adds who to simul id.
func (s *Server) joinSimul(ctx context.Context, who site.Identity, id string) error {
	if !who.Known() {
		return apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	sm, ok := s.simuls.get(id)
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	if sm.Rated && who.Account.ID == 0 {
		return apierr.New(http.StatusForbidden, apierr.CodeGuestRated, "err.guest_rated")
	}
	seat, err := s.SeatWithRating(ctx, who, sm.TC)
	if err != nil {
		return err
	}
	h := &s.simuls
	p, ok := h.changing(id)
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	defer p.changes.Unlock()
	h.mu.Lock()
	switch {
	case p.Started || p.starting:
		err = apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.simul_started")
	case p.Host.ID == seat.ID:
		err = apierr.New(http.StatusConflict, apierr.CodeOwnSeek, "apierr.simul_own")
	case slices.ContainsFunc(p.Players, func(o live.Seat) bool { return o.ID == seat.ID }):
		h.mu.Unlock()
		return nil
	case len(p.Players) >= p.Max:
		err = apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.simul_full", p.Max)
	}
	h.mu.Unlock()
	if err != nil {
		return err
	}
	if h.st != nil {
		if err := h.st.AddSimulPlayer(ctx, id, seatToStore(seat)); err != nil {
			return fmt.Errorf("simul %s: join: %w", id, err)
		}
	}
	h.mu.Lock()
	p.Players = append(p.Players, seat)
	h.mu.Unlock()
	return nil
}

// leaveSimul takes who out of simul id before it starts; leaving one he
// is not in is no error.
func (s *Server) leaveSimul(ctx context.Context, who site.Identity, id string) error {
	if !who.Known() {
		return apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	me := who.Seat().ID
	h := &s.simuls
	p, ok := h.changing(id)
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	defer p.changes.Unlock()
	h.mu.Lock()
	in := slices.ContainsFunc(p.Players, func(o live.Seat) bool { return o.ID == me })
	started := p.Started || p.starting
	h.mu.Unlock()
	switch {
	case !in:
		return nil
	case started:
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.simul_started")
	}
	if h.st != nil {
		if err := h.st.RemoveSimulPlayer(ctx, id, me); err != nil {
			return fmt.Errorf("simul %s: leave: %w", id, err)
		}
	}
	h.mu.Lock()
	// Nobody else changed the players meanwhile (the changes lock): he
	// is where he was.
	if i := slices.IndexFunc(p.Players, func(o live.Seat) bool { return o.ID == me }); i >= 0 {
		p.Players = slices.Delete(p.Players, i, i+1)
	}
	h.mu.Unlock()
	return nil
}

// startSimul starts the games of simul id: its host's only.
func (s *Server) startSimul(ctx context.Context, who site.Identity, id string) error {
	h := &s.simuls
	h.starts.Lock()
	defer h.starts.Unlock()
	// Joins are closed first, so that the players given games are all
	// of them: a join or leave being written is waited for (the changes
	// lock), the later ones see starting.
	p, ok := h.changing(id)
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	h.mu.Lock()
	switch {
	case p.Host.ID != who.Seat().ID:
		h.mu.Unlock()
		p.changes.Unlock()
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.simul_not_host")
	case p.Started:
		h.mu.Unlock()
		p.changes.Unlock()
		return nil
	case len(p.Players) == 0:
		h.mu.Unlock()
		p.changes.Unlock()
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.simul_empty")
	}
	p.starting = true
	sm := *p
	sm.Players = slices.Clone(p.Players)
	h.mu.Unlock()
	p.changes.Unlock()
	defer func() {
		h.mu.Lock()
		p.starting = false
		h.mu.Unlock()
	}()
	var games []string
	for _, p := range sm.Players {
		spec := live.Spec{Rules: sm.Rules, White: sm.Host, Black: p, TC: sm.TC, Rated: sm.Rated}
		if !sm.HostWhite {
			spec.White, spec.Black = p, sm.Host
		}
		gid, err := s.cfg.Hub.Create(ctx, spec)
		if err != nil {
			return fmt.Errorf("simul %s: %w", id, err)
		}
		games = append(games, gid)
	}
	// The games exist now, whatever the store answers: the simul is
	// started in memory even if writing it fails, so that a second start
	// does not make them twice.
	var err error
	if h.st != nil {
		if err = h.st.StartSimul(ctx, id, games); err != nil {
			err = fmt.Errorf("simul %s: start: %w", id, err)
		}
	}
	h.mu.Lock()
	p.Games, p.Started = games, true
	h.mu.Unlock()
	return err
}

// simulBoard is a board of a simul as its pages and the API show it.
type simulBoard struct {
	N        int    `json:"board"`
	Player   string `json:"player"`
	Game     string `json:"game"`
	Result   string `json:"result"`
	Status   string `json:"status"`
	HostTurn bool   `json:"host_to_move"`
	Ply      int    `json:"ply"`
}

// simulView is a simul for its pages and GET /api/simuls/{id}.
type simulView struct {
	ID        string       `json:"id"`
	Host      string       `json:"host"`
	Ruleset   string       `json:"ruleset"`
	TC        string       `json:"tc"`
	Max       int          `json:"max"`
	HostColor string       `json:"host_color"`
	Rated     bool         `json:"rated"`
	Started   bool         `json:"started"`
	Players   []string     `json:"players"`
	Boards    []simulBoard `json:"boards"`
	// Score is the host's points and the participants' (1, ½, 0 a game).
	Score                   [2]float64 `json:"score"`
	IsHost, Joined, CanJoin bool       `json:"-"`
}

func (s *Server) simulView(ctx context.Context, sm simul, who site.Identity) simulView {
	v := simulView{ID: sm.ID, Host: sm.Host.Name, Ruleset: sm.Rules.String(), TC: sm.TC.String(), Max: sm.Max,
		HostColor: map[bool]string{true: "white", false: "black"}[sm.HostWhite], Rated: sm.Rated, Started: sm.Started,
		Players: []string{}, Boards: []simulBoard{}}
	me := who.Seat().ID
	v.IsHost = who.Known() && me == sm.Host.ID
	for _, p := range sm.Players {
		v.Players = append(v.Players, p.Name)
		v.Joined = v.Joined || (who.Known() && p.ID == me)
	}
	v.CanJoin = !sm.Started && !v.IsHost && !v.Joined && len(sm.Players) < sm.Max
	for i, g := range sm.Games {
		b := simulBoard{N: i + 1, Player: sm.Players[i].Name, Game: g}
		if st, err := s.cfg.Hub.State(ctx, g); err == nil {
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

// finished reports whether a live game's result says it has ended.
func finished(result string) bool { return result != "" && result != "*" }

// ---- handlers ----

type simulsData struct {
	site.FormChoices
	List []simulView
	Max  int
	// Newer and Older are the list's pages either side (0: none).
	Newer, Older int
}

// simulsListed is the simuls a page of /simuls lists, newest first.
const simulsListed = 50

func (s *Server) pageSimuls(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	d := simulsData{FormChoices: s.Choices(s.Lang(r), "", id.Account.ID != 0), Max: maxSimulPlayers}
	shown, newer, older := site.PageOf(s.simuls.list(), site.PageParam(r), simulsListed)
	d.Newer, d.Older = newer, older
	for _, sm := range shown {
		// The list shows no boards: without the games, the view asks the
		// hub nothing (a page of 50 simuls of 30 boards would ask 1500).
		sm.Games = nil
		d.List = append(d.List, s.simulView(r.Context(), sm, id))
	}
	return s.Render(w, http.StatusOK, "simuls", s.Page(r, "simul.list_title", d))
}

func simulForm(r *http.Request) simulRequest {
	n, _ := strconv.Atoi(r.FormValue("max"))
	return simulRequest{Ruleset: r.FormValue("ruleset"), TC: r.FormValue("tc"), Max: n, Color: r.FormValue("color"), Rated: r.FormValue("rated") != ""}
}

func (s *Server) pageCreateSimul(w http.ResponseWriter, r *http.Request) error {
	who := s.EnsureIdentity(w, r)
	id, err := s.createSimul(r.Context(), who, simulForm(r))
	if err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+id)
}

func (s *Server) apiCreateSimul(w http.ResponseWriter, r *http.Request) error {
	var req simulRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	who, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	id, err := s.createSimul(r.Context(), who, req)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"id": id})
}

func (s *Server) simulOf(r *http.Request) (simul, error) {
	sm, ok := s.simuls.get(r.PathValue("id"))
	if !ok {
		return sm, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	return sm, nil
}

func (s *Server) pageSimul(w http.ResponseWriter, r *http.Request) error {
	sm, err := s.simulOf(r)
	if err != nil {
		return err
	}
	return s.Render(w, http.StatusOK, "simul", s.Page(r, "simul.title", s.simulView(r.Context(), sm, s.Identity(r)), sm.Host.Name))
}

func (s *Server) apiSimul(w http.ResponseWriter, r *http.Request) error {
	sm, err := s.simulOf(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, s.simulView(r.Context(), sm, s.Identity(r)))
}

func (s *Server) pageJoinSimul(w http.ResponseWriter, r *http.Request) error {
	who := s.EnsureIdentity(w, r)
	if err := s.joinSimul(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+r.PathValue("id"))
}

func (s *Server) pageLeaveSimul(w http.ResponseWriter, r *http.Request) error {
	if err := s.leaveSimul(r.Context(), s.Identity(r), r.PathValue("id")); err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+r.PathValue("id"))
}

func (s *Server) apiLeaveSimul(w http.ResponseWriter, r *http.Request) error {
	who, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := s.leaveSimul(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) apiJoinSimul(w http.ResponseWriter, r *http.Request) error {
	who, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := s.joinSimul(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) pageStartSimul(w http.ResponseWriter, r *http.Request) error {
	if err := s.startSimul(r.Context(), s.Identity(r), r.PathValue("id")); err != nil {
		return err
	}
	return site.Redirect(w, r, "/simul/"+r.PathValue("id")+"/host")
}

func (s *Server) apiStartSimul(w http.ResponseWriter, r *http.Request) error {
	who, err := s.MustIdentity(r)
	if err != nil {
		return err
	}
	if err := s.startSimul(r.Context(), who, r.PathValue("id")); err != nil {
		return err
	}
	sm, _ := s.simuls.get(r.PathValue("id"))
	return site.WriteJSON(w, http.StatusOK, s.simulView(r.Context(), sm, who))
}

// pageSimulHost is the host's grid of all boards.
func (s *Server) pageSimulHost(w http.ResponseWriter, r *http.Request) error {
	sm, err := s.simulOf(r)
	if err != nil {
		return err
	}
	v := s.simulView(r.Context(), sm, s.Identity(r))
	if !v.IsHost {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.simul_not_host")
	}
	return s.Render(w, http.StatusOK, "simul_host", s.Page(r, "simul.host_title", v, sm.Host.Name))
}

// simulBoardSVG draws board {n} of a simul: /simul/{id}/board/{n}.svg.
func (s *Server) simulBoardSVG(w http.ResponseWriter, r *http.Request) error {
	sm, err := s.simulOf(r)
	if err != nil {
		return err
	}
	name, _ := strings.CutSuffix(r.PathValue("n"), ".svg")
	n, _ := strconv.Atoi(name)
	if n < 1 || n > len(sm.Games) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	st, err := s.cfg.Hub.State(r.Context(), sm.Games[n-1])
	if err != nil {
		return err
	}
	p, _, err := toguz.ParseFEN(st.FEN, sm.Rules)
	if err != nil {
		return err
	}
	lang := s.Lang(r)
	opt := svg.Options{White: st.White.Name, Black: st.Black.Name, Flip: !sm.HostWhite, Width: 300,
		Labels: &svg.Labels{White: s.cat.T(lang, "game.white"), Black: s.cat.T(lang, "game.black"),
			Kazan: s.cat.T(lang, "learn.diagram.kazan"), ToMove: s.cat.T(lang, "learn.diagram.tomove")}}
	out, err := svg.Render(p, opt)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(out)
	return err
}

func (s *Server) simulRoutes(api, page func(string, func(http.ResponseWriter, *http.Request) error)) {
	api("POST /api/simuls", s.apiCreateSimul)
	api("GET /api/simuls/{id}", s.apiSimul)
	api("POST /api/simuls/{id}/join", s.apiJoinSimul)
	api("POST /api/simuls/{id}/leave", s.apiLeaveSimul)
	api("POST /api/simuls/{id}/start", s.apiStartSimul)
	page("GET /simuls", s.pageSimuls)
	page("POST /simuls", s.pageCreateSimul)
	page("GET /simul/{id}", s.pageSimul)
	page("POST /simul/{id}/join", s.pageJoinSimul)
	page("POST /simul/{id}/leave", s.pageLeaveSimul)
	page("POST /simul/{id}/start", s.pageStartSimul)
	page("GET /simul/{id}/host", s.pageSimulHost)
	page("GET /simul/{id}/board/{n}", s.simulBoardSVG)
}
