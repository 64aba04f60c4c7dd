package events

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// Kind is an event's format.
type Kind string

const (
	Swiss            Kind = "swiss"      // the FIDE Dutch system, when a Swiss pairer is connected
	RoundRobin       Kind = "roundrobin" // the Berger tables
	DoubleRoundRobin Kind = "double"     // the Berger tables twice, colours reversed
	Arena            Kind = "arena"      // continuous pairing for a fixed duration
)

// Status is where an event is in its life.
type Status string

const (
	Upcoming Status = "upcoming"
	Running  Status = "running"
	Finished Status = "finished"
)

// Bounds of what a stranger may make the server keep.
const (
	MaxNameRunes      = 80
	MaxPlayers        = 200 // of a Swiss or an arena
	MaxRoundRobin     = 20  // players of a round robin (19 rounds; 38 doubled)
	MaxSwissRounds    = 15
	MaxArenaMinutes   = 24 * 60
	MaxArbiters       = 5
	MaxOpenPerCreator = 5 // upcoming or running events one account may have
	MaxAhead          = 30 * 24 * time.Hour
	MaxRepetition     = 10
)

// Settings are what the creator chooses; stored as JSON.
type Settings struct {
	Kind       Kind   `json:"kind"`
	Rules      string `json:"rules"` // toguz.ParseRules
	TC         string `json:"tc"`    // clock.ParseTimeControl
	Rounds     int    `json:"rounds,omitempty"`
	Minutes    int    `json:"minutes,omitempty"` // an arena's duration
	MinRating  int    `json:"min_rating,omitempty"`
	MaxRating  int    `json:"max_rating,omitempty"`
	MinAge     int    `json:"min_age,omitempty"` // sections: eligibility by age on the start date
	MaxAge     int    `json:"max_age,omitempty"`
	Sex        string `json:"sex,omitempty"` // "w" or "m": a women's or men's section
	Repetition int    `json:"repetition,omitempty"`
	Rated      bool   `json:"rated,omitempty"`
	Berserk    bool   `json:"berserk,omitempty"`
	// Publish hides the results from everyone but the arbiters until they
	// publish each round.
	Publish    bool `json:"publish,omitempty"`
	MaxPlayers int  `json:"max_players,omitempty"`
	// TeamBattle marks an arena whose entrants play for their teams
	// (internal/team keeps the teams and admits the entrants by
	// Config.Admit); only an arena is one.
	TeamBattle bool `json:"team_battle,omitempty"`
	// Acceleration is a Swiss's: "baku" for the Baku acceleration (FIDE
	// C.04.5.1), "" for none.
	Acceleration string `json:"acceleration,omitempty"`
	// Pairing is a Swiss's pairing system: "doubleswiss" for FIDE's
	// Double-Swiss (C.04.5: every pairing a match of two games, the
	// colours swapped; Rounds counts the matches, the event plays two
	// rounds a match, the second paired when the first has ended), "" for
	// the Dutch.
	Pairing string `json:"pairing,omitempty"`
}

// Error is a refusal with a catalog key (the server translates it) and a
// code saying which HTTP status it is.
type Error struct {
	Code string // "bad_request", "forbidden", "not_found", "conflict"
	Key  string
	Args []any
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s %v", e.Code, e.Key, e.Args) }

func bad(key string, args ...any) *Error      { return &Error{"bad_request", key, args} }
func conflict(key string, args ...any) *Error { return &Error{"conflict", key, args} }
func forbidden() *Error                       { return &Error{"forbidden", "apierr.event_forbidden", nil} }

// Check validates s and fills in its defaults.
func (s *Settings) Check() error {
	if _, err := toguz.ParseRules(s.Rules); err != nil {
		return bad("apierr.bad_ruleset")
	}
	tc, err := clock.ParseTimeControl(s.TC)
	if err != nil || tc.Validate() != nil || tc.Kind() == clock.Unlimited {
		return bad("apierr.event_tc")
	}
	if s.MaxPlayers <= 0 || s.MaxPlayers > MaxPlayers {
		s.MaxPlayers = MaxPlayers
	}
	if err := s.checkKind(tc); err != nil {
		return err
	}
	if s.Acceleration != "" && (s.Kind != Swiss || s.Acceleration != "baku") {
		return bad("apierr.event_acceleration")
	}
	if err := s.checkSystem(); err != nil {
		return err
	}
	if s.Kind != Arena {
		s.Minutes, s.Berserk, s.TeamBattle = 0, false, false
	}
	return s.checkLimits()
}

// checkKind validates what s's kind of event needs (a Swiss's rounds, an
// arena's duration) and drops what it does not.
func (s *Settings) checkKind(tc clock.TimeControl) error {
	switch s.Kind {
	case Swiss:
		if s.Rounds < 1 || s.Rounds > MaxSwissRounds {
			return bad("apierr.event_rounds", MaxSwissRounds)
		}
	case RoundRobin, DoubleRoundRobin:
		s.Rounds = 0
		s.MaxPlayers = min(s.MaxPlayers, MaxRoundRobin)
	case Arena:
		if tc.Kind() == clock.Correspondence {
			return bad("apierr.event_tc")
		}
		if s.Minutes < 10 || s.Minutes > MaxArenaMinutes {
			return bad("apierr.event_minutes", MaxArenaMinutes)
		}
	default:
		return bad("apierr.event_kind")
	}
	return nil
}

// checkLimits validates the repetition rule and the entries' limits:
// rating, age and sex.
func (s *Settings) checkLimits() error {
	if s.Repetition < 0 || s.Repetition == 1 || s.Repetition > MaxRepetition {
		return bad("apierr.event_repetition", MaxRepetition)
	}
	if badRange(s.MinRating, s.MaxRating) || badRange(s.MinAge, s.MaxAge) || s.MaxAge > 150 {
		return bad("apierr.event_limits")
	}
	if s.Sex != "" && s.Sex != "w" && s.Sex != "m" {
		return bad("apierr.event_limits")
	}
	return nil
}

// badRange reports whether lo..hi is not a range of limits: a negative
// one, or a maximum (0: none) under the minimum.
func badRange(lo, hi int) bool {
	return lo < 0 || hi < 0 || (hi > 0 && hi < lo)
}

// Event is an event as its page shows it: a copy, safe to read.
type Event struct {
	ID        string
	Name      string
	Creator   int64
	Arbiters  []int64
	Settings  Settings
	Status    Status
	Published int
	Created   time.Time
	Start     time.Time
	Ended     time.Time
	Entries   []game.EventEntry
	Rounds    []game.EventRound
}

// Ends returns when an arena stops pairing (zero for other kinds).
func (e *Event) Ends() time.Time {
	if e.Settings.Kind != Arena {
		return time.Time{}
	}
	return e.Start.Add(time.Duration(e.Settings.Minutes) * time.Minute)
}

// IsArbiter reports whether user may use the arbiter's console.
func (e *Event) IsArbiter(user int64) bool {
	return user != 0 && (user == e.Creator || slices.Contains(e.Arbiters, user))
}

// EntryOf returns user's entry, or nil.
func (e *Event) EntryOf(user int64) *game.EventEntry {
	for i := range e.Entries {
		if e.Entries[i].UserID == user {
			return &e.Entries[i]
		}
	}
	return nil
}

// Player returns the entry of a start number, or nil.
func (e *Event) Player(start int) *game.EventEntry {
	if start < 1 || start > len(e.Entries) {
		return nil
	}
	return &e.Entries[start-1]
}

// Shown reports whether round r's results are shown to viewer: always
// without the Publish rule, and to the arbiters.
func (e *Event) Shown(r int, viewer int64) bool {
	return !e.Settings.Publish || r <= e.Published || e.IsArbiter(viewer)
}

func (e *Event) clone() *Event {
	c := *e
	c.Arbiters = slices.Clone(e.Arbiters)
	c.Entries = slices.Clone(e.Entries)
	c.Rounds = slices.Clone(e.Rounds)
	for i := range c.Rounds {
		c.Rounds[i].Pairings = slices.Clone(c.Rounds[i].Pairings)
	}
	return &c
}

func (e *Event) stored() (store.Event, error) {
	b, err := json.Marshal(e.Settings)
	if err != nil {
		return store.Event{}, err
	}
	return store.Event{ID: e.ID, Creator: e.Creator, Name: e.Name, Kind: string(e.Settings.Kind), Settings: b,
		Status: string(e.Status), Published: e.Published, Created: e.Created, Start: e.Start, Ended: e.Ended,
		Arbiters: e.Arbiters, Entries: e.Entries, Rounds: e.Rounds}, nil
}

func fromStored(s store.Event) (*Event, error) {
	e := &Event{ID: s.ID, Name: s.Name, Creator: s.Creator, Arbiters: s.Arbiters, Status: Status(s.Status),
		Published: s.Published, Created: s.Created, Start: s.Start, Ended: s.Ended, Entries: s.Entries, Rounds: s.Rounds}
	if err := json.Unmarshal(s.Settings, &e.Settings); err != nil {
		return nil, fmt.Errorf("event %s: settings: %w", s.ID, err)
	}
	return e, nil
}

// Games is what the manager needs of the live hub.
type Games interface {
	Create(ctx context.Context, s game.Spec) (string, error)
	Adjudicate(ctx context.Context, id string, res toguz.Result) error
	AdjustClock(ctx context.Context, id string, pl toguz.Player, delta time.Duration) error
}

// Store is what the manager needs of the store (*store.Store): the events
// written whole and read back, their arbiter logs, and the games of their
// pairings.
type Store interface {
	SaveEvent(ctx context.Context, ev store.Event) error
	Events(ctx context.Context) ([]store.Event, error)
	LogEventAction(ctx context.Context, id string, a store.EventAction) error
	EventLog(ctx context.Context, id string) ([]store.EventAction, error)
	Game(ctx context.Context, id string) (store.Game, error)
	Moves(ctx context.Context, gameID string) ([]store.Move, error)
}

var _ Store = (*store.Store)(nil)

// Config is what a Manager is built from.
type Config struct {
	Store Store
	// Swiss pairs the rounds of a Swiss event (the Dutch system of
	// internal/tournament/dutch); nil: Swiss events cannot be created.
	Swiss  tournament.Pairer
	Logger *slog.Logger
	Now    func() time.Time
	// Tick is how often the manager starts the events whose time has come
	// and pairs the arenas' waiting players (default 2 s).
	Tick time.Duration
	// Admit, where set, is asked before an account joins an event; an
	// error refuses him (a team battle's entrant must be a member of one
	// of its teams: internal/team).
	Admit func(ctx context.Context, event string, user int64) error
}

// Manager runs the events: it keeps them in memory, writes every change to
// the store before it is seen, and creates their games on the hub.
//
// Locking: mu guards events; it is never held while the hub is called
// (games are created after the pairings are stored, outside mu).
type Manager struct {
	cfg   Config
	games Games
	log   *slog.Logger

	mu     sync.Mutex
	events map[string]*Event
	byGame map[string]gameRef
	// starting are the games of stored pairings not yet created on the
	// hub: a round's pairings are stored first (so that a restart creates
	// what is missing), and its hundred games take a while to create.
	starting map[string]struct{}
}

type gameRef struct {
	event        string
	round, board int
}

// New loads the events from the store. SetGames connects the hub.
func New(ctx context.Context, cfg Config) (*Manager, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Tick == 0 {
		cfg.Tick = 2 * time.Second
	}
	m := &Manager{cfg: cfg, log: cfg.Logger, events: map[string]*Event{}, byGame: map[string]gameRef{}, starting: map[string]struct{}{}}
	stored, err := cfg.Store.Events(ctx)
	if err != nil {
		return nil, fmt.Errorf("events: load: %w", err)
	}
	for _, s := range stored {
		e, err := fromStored(s)
		if err != nil {
			return nil, err
		}
		m.events[e.ID] = e
		m.index(e)
	}
	return m, nil
}

// SwissAvailable reports whether Swiss events can be created.
func (m *Manager) SwissAvailable() bool { return m.cfg.Swiss != nil }

func (m *Manager) index(e *Event) {
	for _, r := range e.Rounds {
		for _, p := range r.Pairings {
			if p.GameID != "" {
				m.byGame[p.GameID] = gameRef{e.ID, r.Round, p.Board}
			}
		}
	}
}

// SetGames connects the hub, then restarts what a stopped server left
// half done: the games of stored pairings that were never created, and
// the games that ended while the server was down (ended is the hub's
// store's view: game id → its saved game).
func (m *Manager) SetGames(ctx context.Context, g Games) error {
	m.games = g
	m.mu.Lock()
	var missing []*Event
	for _, e := range m.events {
		if e.Status == Running {
			missing = append(missing, e)
		}
	}
	m.mu.Unlock()
	for _, e := range missing {
		if err := m.catchUp(ctx, e.ID); err != nil {
			return err
		}
	}
	return nil
}

// catchUp creates the games of an event's pending pairings that the store
// does not hold, and takes in the results of those that ended while the
// hub was not listening.
func (m *Manager) catchUp(ctx context.Context, id string) error {
	m.mu.Lock()
	e := m.events[id].clone()
	m.mu.Unlock()
	for _, r := range e.Rounds {
		for _, p := range r.Pairings {
			if p.Result != "" || p.GameID == "" {
				continue
			}
			g, err := m.cfg.Store.Game(ctx, p.GameID)
			switch {
			case err != nil:
				if err := m.createGame(ctx, e, p); err != nil {
					return err
				}
			case g.Status == game.Ended || g.Status == game.Aborted:
				moves, _ := m.cfg.Store.Moves(ctx, p.GameID)
				m.GameEnded(game.Saved{Spec: game.Spec{ID: p.GameID}, Moves: make([]game.PlayedMove, len(moves)),
					End: &game.Ending{Status: g.Status, Result: g.Result, Termination: g.Termination}})
			}
		}
	}
	return nil
}

// List returns the events, newest start first.
func (m *Manager) List() []*Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Event, 0, len(m.events))
	for _, e := range m.events {
		out = append(out, e.clone())
	}
	slices.SortFunc(out, func(a, b *Event) int { return b.Start.Compare(a.Start) })
	return out
}

// Get returns a copy of event id.
func (m *Manager) Get(id string) (*Event, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.events[id]
	if !ok {
		return nil, false
	}
	return e.clone(), true
}

// Starting reports whether the game of a stored pairing is not yet
// created on the hub: the pages and the API do not show it until it is,
// so that a player who follows it at once does not find "no such game".
func (m *Manager) Starting(gameID string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.starting[gameID]
	return ok
}

// ByGame returns the event and round of a game, for the game page's link.
func (m *Manager) ByGame(gameID string) (string, int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.byGame[gameID]
	return r.event, r.round, ok
}

func newID() string { return strings.ToLower(rand.Text()[:8]) }

// Create stores a new event of creator's.
func (m *Manager) Create(ctx context.Context, creator int64, name string, start time.Time, s Settings) (*Event, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxNameRunes {
		return nil, bad("apierr.event_name", MaxNameRunes)
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	if s.Kind == Swiss && m.cfg.Swiss == nil {
		return nil, bad("apierr.event_no_swiss")
	}
	now := m.cfg.Now()
	// A zero start is the arbiter's: the event starts when he says so.
	if !start.IsZero() && start.Before(now) {
		start = now
	}
	if start.After(now.Add(MaxAhead)) {
		return nil, bad("apierr.event_start")
	}
	e := &Event{ID: newID(), Name: name, Creator: creator, Settings: s, Status: Upcoming, Created: now,
		Start: start.Truncate(time.Second)}
	if start.IsZero() {
		e.Start = time.Time{}
	}
	m.mu.Lock()
	open := 0
	for _, o := range m.events {
		if o.Creator == creator && o.Status != Finished {
			open++
		}
	}
	m.mu.Unlock()
	if open >= MaxOpenPerCreator {
		return nil, conflict("apierr.event_too_many", MaxOpenPerCreator)
	}
	if err := m.save(ctx, e); err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.events[e.ID] = e
	m.mu.Unlock()
	return e.clone(), nil
}

func (m *Manager) save(ctx context.Context, e *Event) error {
	s, err := e.stored()
	if err != nil {
		return err
	}
	return m.cfg.Store.SaveEvent(ctx, s)
}

// update runs f on a copy of event id under mu and stores the copy; only
// then does it replace the event, so a failed write changes nothing.
func (m *Manager) update(ctx context.Context, id string, f func(e *Event) error) (*Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.events[id]
	if !ok {
		return nil, &Error{"not_found", "apierr.no_event", nil}
	}
	e := cur.clone()
	if err := f(e); err != nil {
		return nil, err
	}
	if err := m.save(ctx, e); err != nil {
		return nil, err
	}
	m.events[id] = e
	m.index(e)
	return e.clone(), nil
}

// Player is who joins: an account with its rating in the event's
// category, and the birth year and sex he declares for a section.
type Player struct {
	UserID    int64
	Name      string
	Rating    int
	BirthYear int
	Sex       string
}

// Join enters p into event id: before a round robin starts, any time
// before a Swiss's last round or an arena's end. A player who withdrew
// from an arena comes back.
func (m *Manager) Join(ctx context.Context, id string, p Player) (*Event, error) {
	if m.cfg.Admit != nil {
		if err := m.cfg.Admit(ctx, id, p.UserID); err != nil {
			return nil, err
		}
	}
	return m.update(ctx, id, func(e *Event) error {
		if en := e.EntryOf(p.UserID); en != nil {
			if e.Settings.Kind == Arena && (en.Withdrawn || en.Paused) && e.Status != Finished {
				en.Withdrawn, en.Paused = false, false
				return nil
			}
			return conflict("apierr.event_joined")
		}
		s := e.Settings
		switch {
		case e.Status == Finished,
			e.Status == Running && (s.Kind == RoundRobin || s.Kind == DoubleRoundRobin),
			e.Status == Running && s.Kind == Swiss && len(e.Rounds) >= s.Rounds,
			e.Status == Running && s.Kind == Arena && !m.cfg.Now().Before(e.Ends()):
			return conflict("apierr.event_closed")
		case len(e.Entries) >= s.MaxPlayers:
			return conflict("apierr.event_full", s.MaxPlayers)
		case s.MinRating > 0 && p.Rating < s.MinRating, s.MaxRating > 0 && p.Rating > s.MaxRating:
			return bad("apierr.event_rating", s.MinRating, s.MaxRating)
		case s.Sex != "" && p.Sex != s.Sex:
			return bad("apierr.event_section")
		}
		if s.MinAge > 0 || s.MaxAge > 0 {
			on := e.Start
			if on.IsZero() {
				on = m.cfg.Now() // the arbiter starts it: today
			}
			age := on.Year() - p.BirthYear
			if p.BirthYear <= 0 || (s.MinAge > 0 && age < s.MinAge) || (s.MaxAge > 0 && age > s.MaxAge) {
				return bad("apierr.event_section")
			}
		}
		e.Entries = append(e.Entries, game.EventEntry{Start: len(e.Entries) + 1, UserID: p.UserID, Name: p.Name, Rating: p.Rating,
			BirthYear: p.BirthYear, Sex: p.Sex, Joined: m.cfg.Now()})
		if e.Status == Upcoming {
			sortEntries(e)
		}
		return nil
	})
}

// sortEntries gives the start numbers by rating, as the federations seed:
// the highest first, then by joining.
func sortEntries(e *Event) {
	slices.SortStableFunc(e.Entries, func(a, b game.EventEntry) int {
		if a.Rating != b.Rating {
			return b.Rating - a.Rating
		}
		return a.Joined.Compare(b.Joined)
	})
	for i := range e.Entries {
		e.Entries[i].Start = i + 1
	}
}

// Withdraw takes user out of event id: before the start he leaves the
// list; after it he is not paired again (a round robin scores his games
// left as forfeits).
func (m *Manager) Withdraw(ctx context.Context, id string, user int64) (*Event, error) {
	var forfeits []string
	e, err := m.update(ctx, id, func(e *Event) error {
		en := e.EntryOf(user)
		if en == nil || en.Withdrawn {
			return conflict("apierr.event_not_joined")
		}
		if e.Status == Upcoming {
			e.Entries = slices.DeleteFunc(e.Entries, func(x game.EventEntry) bool { return x.UserID == user })
			sortEntries(e)
			return nil
		}
		en.Withdrawn = true
		if e.Settings.Kind == RoundRobin || e.Settings.Kind == DoubleRoundRobin {
			forfeits = forfeitRest(e, en.Start)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.afterResults(ctx, id, forfeits)
	return e, err
}

// forfeitRest scores player start's games not yet played as forfeit
// losses and returns the running games to end.
func forfeitRest(e *Event, start int) []string {
	var running []string
	for ri := range e.Rounds {
		for pi := range e.Rounds[ri].Pairings {
			p := &e.Rounds[ri].Pairings[pi]
			if p.Result != "" || (p.White != start && p.Black != start) || p.Black == 0 {
				continue
			}
			if p.White == start {
				p.Result = string(tournament.BlackForfeit)
			} else {
				p.Result = string(tournament.WhiteForfeit)
			}
			if p.GameID != "" {
				running = append(running, p.GameID)
			}
		}
	}
	return running
}
