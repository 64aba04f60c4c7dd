// Package simul is the simuls of the site: one player, the host, against
// many. The host sets the ruleset, the time control (or none), the most
// participants and his colour; people join; the host starts it and each
// participant gets a live game (internal/live) against him, played on the
// normal game page. The host's grid (/simul/{id}/host) shows all boards at
// once. The games are casual unless the host makes them rated, which
// needs an account of every player.
//
// The Hall keeps the simuls in memory and writes each change through to
// its Store (*store.Store, migration 00016): made, joined, left, started
// with its games' ids, and deleted when it expires; New loads the
// unexpired ones, so that a restarted server lists them, shows the host's
// grid and the participants' games (the hub resumes the games themselves)
// as before. A simul's end is not a change of its own: it is over when
// all its games are, and the games are stored as every live game is.
// Without a Store they live in memory only.
//
// With a time control, the hub's first-move timeout aborts a board where
// a side does not move in time, as in every real-time game between
// people; a simul without one ("none") has none.
//
// The package is a feature of the site (internal/site): the server builds
// the Hall with its Kit and registers its Routes; its pages' templates
// are internal/web's (simuls, simul, simul_host).
package simul

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

const (
	maxPlayers = 30
	maxPerHost = 2   // simuls of one host not yet over
	maxSimuls  = 500 // simuls held at once
	listed     = 50  // simuls a page of /simuls lists, newest first
	// keep is how long a simul is listed after it was made.
	keep = 24 * time.Hour
)

// Store keeps the simuls across restarts (*store.Store; its simuls.go).
type Store interface {
	CreateSimul(ctx context.Context, sm store.Simul) error
	AddSimulPlayer(ctx context.Context, id string, p game.Seat) error
	RemoveSimulPlayer(ctx context.Context, id, seat string) error
	StartSimul(ctx context.Context, id string, games []string) error
	Simuls(ctx context.Context, since time.Time) ([]store.Simul, error)
	DeleteSimulsBefore(ctx context.Context, t time.Time) (int64, error)
}

var _ Store = (*store.Store)(nil)

// Games is what a simul needs of the live games (*live.Hub): its boards
// are created at the start, and read for the results and the grid.
type Games interface {
	Create(ctx context.Context, s game.Spec) (string, error)
	State(ctx context.Context, id string) (live.State, error)
}

var _ Games = (*live.Hub)(nil)

// Config is what a Hall is built from.
type Config struct {
	Games Games
	// Store keeps the simuls (nil: in memory only).
	Store Store
	Kit   site.Kit
	// Now is the clock of the simuls' making and expiry (nil: time.Now).
	Now func() time.Time
}

// ErrorKeys are the catalog keys of the simuls' errors (the server's
// errorKeys, whose test finds each in every language).
var ErrorKeys = []string{
	"apierr.no_simul", "apierr.simul_color", "apierr.simul_empty", "apierr.simul_full", "apierr.simul_full_site",
	"apierr.simul_many", "apierr.simul_max", "apierr.simul_not_host", "apierr.simul_own", "apierr.simul_started",
}

// simul is one simul; its fields are guarded by the hall's lock.
type simul struct {
	ID        string
	Host      game.Seat
	Rules     toguz.Rules
	TC        clock.TimeControl
	Max       int
	HostWhite bool
	Rated     bool
	Players   []game.Seat
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

// Hall holds the simuls and answers their routes. Each change is written
// to st (when there is one) before it is made in memory, so that the
// store never lags behind what a client was told.
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
type Hall struct {
	kit   site.Kit
	games Games
	st    Store
	now   func() time.Time

	mu     sync.Mutex
	byID   map[string]*simul
	starts sync.Mutex // one start at a time, outside mu: it creates games
}

// New returns the hall of cfg, loaded from its store: the expired simuls
// are deleted there, the others read back with their participants and
// games.
func New(ctx context.Context, cfg Config) (*Hall, error) {
	h := &Hall{kit: cfg.Kit, games: cfg.Games, st: cfg.Store, now: cfg.Now, byID: map[string]*simul{}}
	if h.now == nil {
		h.now = time.Now
	}
	if h.st == nil {
		return h, nil
	}
	since := h.now().Add(-keep)
	if _, err := h.st.DeleteSimulsBefore(ctx, since); err != nil {
		return nil, fmt.Errorf("simuls: expire: %w", err)
	}
	list, err := h.st.Simuls(ctx, since)
	if err != nil {
		return nil, fmt.Errorf("simuls: load: %w", err)
	}
	for _, r := range list {
		sm, err := fromStore(r)
		if err != nil {
			return nil, fmt.Errorf("simuls: load %s: %w", r.ID, err)
		}
		h.byID[sm.ID] = sm
	}
	return h, nil
}

func fromStore(r store.Simul) (*simul, error) {
	rules, err := toguz.ParseRules(r.Ruleset)
	if err != nil {
		return nil, err
	}
	tc, err := clock.ParseStored(r.TC)
	if err != nil {
		return nil, err
	}
	sm := &simul{ID: r.ID, Host: r.Host, Rules: rules, TC: tc, Max: r.Max, HostWhite: r.HostWhite,
		Rated: r.Rated, Players: r.Players, Started: r.Started, Created: r.Created, changes: new(sync.Mutex)}
	if sm.Started {
		sm.Games = r.Games
	}
	return sm, nil
}

// expireLocked forgets the simuls older than keep and reports whether
// there were any; the caller holds mu, and deletes them from the store
// after it lets go of it (deleteExpired).
func (h *Hall) expireLocked(now time.Time) bool {
	expired := false
	for id, sm := range h.byID {
		if now.Sub(sm.Created) > keep {
			delete(h.byID, id)
			expired = true
		}
	}
	return expired
}

// deleteExpired deletes from the store the simuls older than keep at
// now; the caller does not hold mu.
func (h *Hall) deleteExpired(ctx context.Context, now time.Time) error {
	if h.st == nil {
		return nil
	}
	if _, err := h.st.DeleteSimulsBefore(ctx, now.Add(-keep)); err != nil {
		return fmt.Errorf("simuls: expire: %w", err)
	}
	return nil
}

// changing returns simul id (not pending) with its changes lock held, or
// false where there is none (or it expired while the lock was awaited);
// the caller unlocks it.
func (h *Hall) changing(id string) (*simul, bool) {
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
func (h *Hall) remove(p *simul) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byID[p.ID] == p {
		delete(h.byID, p.ID)
	}
}

func (h *Hall) get(id string) (simul, bool) {
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

func (h *Hall) list() []simul {
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

type request struct {
	Ruleset string `json:"ruleset"`
	TC      string `json:"tc"`
	Max     int    `json:"max"`
	Color   string `json:"color"` // the host's: white or black
	Rated   bool   `json:"rated"`
}

// create makes a simul of who.
func (h *Hall) create(ctx context.Context, who site.Identity, req request) (string, error) {
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
	if req.Max < 1 || req.Max > maxPlayers {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.simul_max", maxPlayers)
	}
	if req.Color != "white" && req.Color != "black" {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.simul_color")
	}
	if req.Rated && who.Account.ID == 0 {
		return "", apierr.New(http.StatusForbidden, apierr.CodeGuestRated, "err.guest_rated")
	}
	host, err := h.kit.SeatWithRating(ctx, who, tc)
	if err != nil {
		return "", err
	}
	sm := &simul{ID: live.NewID(), Host: host, Rules: rules, TC: tc, Max: req.Max, HostWhite: req.Color == "white", Rated: req.Rated,
		Created: h.now(), pending: h.st != nil, changes: new(sync.Mutex)}
	h.markOver(host.ID)
	h.mu.Lock()
	expired := h.expireLocked(sm.Created)
	mine := 0
	for _, o := range h.byID {
		if o.Host.ID == host.ID && !o.over {
			mine++
		}
	}
	switch {
	case mine >= maxPerHost:
		err = apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.simul_many", maxPerHost)
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
	err = h.st.CreateSimul(ctx, store.Simul{ID: sm.ID, Host: host, Ruleset: rules.String(), TC: tc.String(),
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
func (h *Hall) markOver(host string) {
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
		if h.gamesOver(games[i]) {
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
func (h *Hall) gamesOver(games []string) bool {
	// A game that does not answer in time counts as not over.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for _, g := range games {
		st, err := h.games.State(ctx, g)
		if err != nil || !finished(st.Result) {
			return false
		}
	}
	return true
}

// finished reports whether a live game's result says it has ended.
func finished(result string) bool { return result != "" && result != "*" }

// join adds who to simul id.
func (h *Hall) join(ctx context.Context, who site.Identity, id string) error {
	if !who.Known() {
		return apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	sm, ok := h.get(id)
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	if sm.Rated && who.Account.ID == 0 {
		return apierr.New(http.StatusForbidden, apierr.CodeGuestRated, "err.guest_rated")
	}
	seat, err := h.kit.SeatWithRating(ctx, who, sm.TC)
	if err != nil {
		return err
	}
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
	case slices.ContainsFunc(p.Players, func(o game.Seat) bool { return o.ID == seat.ID }):
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
		if err := h.st.AddSimulPlayer(ctx, id, seat); err != nil {
			return fmt.Errorf("simul %s: join: %w", id, err)
		}
	}
	h.mu.Lock()
	p.Players = append(p.Players, seat)
	h.mu.Unlock()
	return nil
}

// leave takes who out of simul id before it starts; leaving one he is not
// in is no error.
func (h *Hall) leave(ctx context.Context, who site.Identity, id string) error {
	if !who.Known() {
		return apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	me := who.Seat().ID
	p, ok := h.changing(id)
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_simul")
	}
	defer p.changes.Unlock()
	h.mu.Lock()
	in := slices.ContainsFunc(p.Players, func(o game.Seat) bool { return o.ID == me })
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
	if i := slices.IndexFunc(p.Players, func(o game.Seat) bool { return o.ID == me }); i >= 0 {
		p.Players = slices.Delete(p.Players, i, i+1)
	}
	h.mu.Unlock()
	return nil
}

// start starts the games of simul id: its host's only.
func (h *Hall) start(ctx context.Context, who site.Identity, id string) error {
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
		spec := game.Spec{Rules: sm.Rules, White: sm.Host, Black: p, TC: sm.TC, Rated: sm.Rated}
		if !sm.HostWhite {
			spec.White, spec.Black = p, sm.Host
		}
		gid, err := h.games.Create(ctx, spec)
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
