package live

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Config is what a Hub is built from.
type Config struct {
	Store  Store
	Engine Engine // nil: games against the engine cannot be created
	Logger *slog.Logger
	// Grace is how long a player must have been gone before his opponent
	// may claim the win (default 30 s).
	Grace time.Duration
	// FirstMoveTimeout aborts a real-time game between people when a side
	// does not make its first move in time (default 60 s; negative: never).
	FirstMoveTimeout time.Duration
	// OutBuffer is the number of messages queued for a connection before it
	// is dropped as too slow (default 64).
	OutBuffer int
	// SpectatorsPerGame and SpectatorsPerAddress bound the spectators of
	// one game and those from one client address, over all games
	// (defaults 2000 and 50; negative: no bound).
	SpectatorsPerGame    int
	SpectatorsPerAddress int
}

// Hub holds the live games.
//
// Locking: mu guards games, the map from id to actor, and nothing else.
// Each game's state belongs to its own goroutine (see game); the hub never
// holds mu while talking to a game, so a slow game cannot block the others.
type Hub struct {
	cfg Config
	ctx context.Context
	log *slog.Logger
	wg  sync.WaitGroup
	seq atomic.Uint64 // connection sequence numbers

	mu    sync.Mutex
	games map[string]*game // guarded by mu

	spectators addrCounts // spectators per client address, with its own lock
}

// NewHub returns a hub whose games run until ctx is cancelled; Wait then
// waits for them to stop.
func NewHub(ctx context.Context, cfg Config) *Hub {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Grace == 0 {
		cfg.Grace = 30 * time.Second
	}
	if cfg.FirstMoveTimeout == 0 {
		cfg.FirstMoveTimeout = 60 * time.Second
	}
	if cfg.OutBuffer == 0 {
		cfg.OutBuffer = 64
	}
	if cfg.SpectatorsPerGame == 0 {
		cfg.SpectatorsPerGame = 2000
	}
	if cfg.SpectatorsPerAddress == 0 {
		cfg.SpectatorsPerAddress = 50
	}
	return &Hub{cfg: cfg, ctx: ctx, log: cfg.Logger, games: map[string]*game{}}
}

// HasEngine reports whether games against the engine can be created.
func (h *Hub) HasEngine() bool { return h.cfg.Engine != nil }

// Wait waits until every game goroutine has stopped.
func (h *Hub) Wait() { h.wg.Wait() }

// Live returns the number of games with a running actor.
func (h *Hub) Live() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.games)
}

// NewID returns a new random game or seek id (10 characters, base32).
func NewID() string { return rand.Text()[:10] }

// Resume starts the actors of every game the store holds as being played,
// with their clocks, and returns how many it started.
func (h *Hub) Resume(ctx context.Context) (int, error) {
	saved, err := h.cfg.Store.LiveGames(ctx)
	if err != nil {
		return 0, fmt.Errorf("load live games: %w", err)
	}
	n := 0
	for _, s := range saved {
		if _, err := h.start(s); err != nil {
			h.log.Error("resume game", "game", s.ID, "err", err)
			continue
		}
		n++
	}
	return n, nil
}

// Create stores a new game and starts it. s.ID and s.Created are filled in
// when empty.
func (h *Hub) Create(ctx context.Context, s Spec) (string, error) {
	if s.ID == "" {
		s.ID = NewID()
	}
	if s.Created.IsZero() {
		s.Created = time.Now()
	}
	if _, _, err := s.Start(); err != nil {
		return "", errorf(CodeBadPosition, "%v", err)
	}
	if (s.White.IsEngine() || s.Black.IsEngine()) && h.cfg.Engine == nil {
		return "", errorf(CodeBadLevel, "this server has no engine")
	}
	if err := h.cfg.Store.CreateGame(ctx, s); err != nil {
		return "", fmt.Errorf("create game: %w", err)
	}
	if _, err := h.start(Saved{Spec: s}); err != nil {
		return "", err
	}
	h.log.Info("game created", "game", s.ID, "white", s.White.Name, "black", s.Black.Name, "tc", s.TC.String(), "rated", s.Rated)
	return s.ID, nil
}

// start builds the actor of s and runs it, unless one already runs.
func (h *Hub) start(s Saved) (*game, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if g, ok := h.games[s.ID]; ok {
		return g, nil
	}
	g, err := newGame(h, s)
	if err != nil {
		return nil, err
	}
	h.games[s.ID] = g
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		g.run(h.ctx)
	}()
	return g, nil
}

// remove forgets g (called by g's goroutine as it exits).
func (h *Hub) remove(g *game) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.games[g.spec.ID] == g {
		delete(h.games, g.spec.ID)
	}
}

// lookup returns the actor of game id, starting one from the store when
// none runs (a finished game gets an actor too, for as long as someone
// watches it).
func (h *Hub) lookup(ctx context.Context, id string) (*game, error) {
	h.mu.Lock()
	g, ok := h.games[id]
	h.mu.Unlock()
	if ok {
		return g, nil
	}
	s, err := h.cfg.Store.Game(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, errorf(CodeNotFound, "there is no game %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	return h.start(s)
}

// Join connects viewer (a Seat.ID, or any other string for a spectator) to
// game id. The connection first receives the game's state.
func (h *Hub) Join(ctx context.Context, id, viewer string) (*Conn, error) {
	return h.JoinFrom(ctx, id, viewer, "")
}

// JoinFrom is Join for a client at addr, which bounds the spectators per
// address (Config.SpectatorsPerAddress). Spectators are served by the
// game's fan-out (fanout.go), not by its goroutine.
func (h *Hub) JoinFrom(ctx context.Context, id, viewer, addr string) (*Conn, error) {
	for range 3 {
		g, err := h.lookup(ctx, id)
		if err != nil {
			return nil, err
		}
		c := &Conn{g: g, viewer: viewer, out: make(chan []byte, h.cfg.OutBuffer), seq: h.seq.Add(1)}
		if g.plays(viewer) {
			if g.do(func() { g.join(c) }) {
				return c, nil
			}
			continue // the actor exited as we came: look again
		}
		if !h.spectators.acquire(addr, h.cfg.SpectatorsPerAddress) {
			return nil, errorf(CodeTooManySpectators, "%d games are watched from your address already, the most it may watch", h.cfg.SpectatorsPerAddress)
		}
		c.fan, c.addr = g.fan, addr
		err = g.fan.join(c, h.cfg.SpectatorsPerGame)
		if err == nil {
			return c, nil
		}
		h.spectators.release(addr)
		if !errors.Is(err, errGameStopped) {
			return nil, err
		}
	}
	return nil, errors.New("live: game keeps stopping")
}

// State returns the state of game id as a spectator sees it.
func (h *Hub) State(ctx context.Context, id string) (State, error) {
	for range 3 {
		g, err := h.lookup(ctx, id)
		if err != nil {
			return State{}, err
		}
		ch := make(chan State, 1)
		if g.do(func() { ch <- g.state(nil) }) {
			select {
			case s := <-ch:
				return s, nil
			case <-g.done:
			case <-ctx.Done():
				return State{}, ctx.Err()
			}
		}
	}
	return State{}, errors.New("live: game keeps stopping")
}

// Conn is one client connection to a game: a websocket, or a test. Its
// fields below the line belong to the game goroutine.
type Conn struct {
	g      *game
	viewer string
	out    chan []byte
	seq    uint64

	color   int8 // the player the connection plays for, -1 for a spectator
	control bool // the connection is its player's one in control

	spectatorFields
}

// Out returns the messages for the client (JSON, one per element). It is
// closed when the game drops the connection or stops.
func (c *Conn) Out() <-chan []byte { return c.out }

// Send passes a client's message to the game. It returns false when the
// game has stopped.
func (c *Conn) Send(m ClientMsg) bool {
	if c.fan != nil {
		return c.fan.handle(c, m)
	}
	return c.g.do(func() { c.g.handle(c, m) })
}

// Leave disconnects c from its game.
func (c *Conn) Leave() {
	if c.fan != nil {
		c.fan.leave(c)
		return
	}
	c.g.do(func() { c.g.leave(c) })
}

// Reason returns why the game closed c's channel, when it says more than
// "reconnect and sync": "" otherwise.
func (c *Conn) Reason() string {
	if r := c.reason.Load(); r != nil {
		return *r
	}
	return ""
}
