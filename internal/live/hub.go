package live

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
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
	// AbandonUntimed and AbandonEngine are the limits of Abandonment
	// (defaults DefaultAbandonUntimed, DefaultAbandonEngine; negative:
	// never).
	AbandonUntimed time.Duration
	AbandonEngine  time.Duration
	// Heartbeat is how often a resumed hub records that it runs (default
	// DefaultHeartbeat; negative: never).
	Heartbeat time.Duration
	// MaxEngineGames and MaxEngineGamesPerAddr bound the games against the
	// engine being played at once by one person and from one client address
	// (CreateFrom); beyond them Create refuses with CodeTooManyEngineGames
	// (defaults DefaultMaxEngineGames, DefaultMaxEngineGamesPerAddr;
	// negative: no bound).
	MaxEngineGames        int
	MaxEngineGamesPerAddr int
	// SpectatorsPerGame and SpectatorsPerAddress bound the spectators of
	// one game and those from one client address, over all games
	// (defaults 2000 and 50; negative: no bound).
	SpectatorsPerGame    int
	SpectatorsPerAddress int
	// ChatPerIdentity and ChatPerAddress rate-limit chat messages per
	// Seat.ID and per client address (chat.go; nil: no bound), and
	// ChatHistory is the number of messages a room keeps (default
	// DefaultChatHistory).
	ChatPerIdentity ChatLimiter
	ChatPerAddress  ChatLimiter
	ChatHistory     int
	// Muted, if set, reports whether a moderator has muted a Seat.ID:
	// every chat room refuses its messages (internal/moderation).
	Muted func(seatID string) bool
	// SeatRating, if set, returns a seat's current rating in a time
	// control's category, for a rematch (social.go); without it a rematch
	// keeps the ratings of the game before.
	SeatRating func(ctx context.Context, s game.Seat, tc clock.TimeControl) int
	// OnEnd, if set, is called on a game's goroutine once its ending is
	// stored (an event learns its games' results from it). It must not
	// block: it hands the game on to its own goroutine.
	OnEnd func(game.Saved)
	// OnYourMove, if set, is called on a correspondence game's goroutine
	// after each move that leaves it being played, with the seat to move
	// (a notice tells him), unless that player has the game open (a
	// connection of his, on any node, is joined to it). It must not block.
	OnYourMove func(gameID string, toMove game.Seat, opponent game.Seat)

	// Bus and Leases, both set, make the hub one node of several sharing
	// the store (cluster.go); without them it is the only one. Node is
	// this node's id (default: random), LeaseTTL and LeaseRenew the
	// leases' life and renewal period (defaults DefaultLeaseTTL,
	// DefaultLeaseRenew).
	Bus        Bus
	Leases     Leases
	Node       string
	LeaseTTL   time.Duration
	LeaseRenew time.Duration
	// Rebalance is how often a node compares its games with the others'
	// and hands the excess to the least loaded (handover.go; default
	// DefaultRebalance, negative: never).
	Rebalance time.Duration
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

	cancel context.CancelFunc // ends ctx: Stop
	// resumed: Resume rebuilt and stored the clocks, so Stop may record
	// its instant.
	resumed atomic.Bool

	mu    sync.Mutex
	games map[string]*actor // guarded by mu

	engineGames *engineGames // has its own lock
	spectators  addrCounts   // spectators per client address, with its own lock
	cl          *cluster     // nil: the only node; has its own lock
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
	cfg.AbandonUntimed = cmp.Or(cfg.AbandonUntimed, DefaultAbandonUntimed)
	cfg.AbandonEngine = cmp.Or(cfg.AbandonEngine, DefaultAbandonEngine)
	cfg.Heartbeat = cmp.Or(cfg.Heartbeat, DefaultHeartbeat)
	cfg.MaxEngineGames = cmp.Or(cfg.MaxEngineGames, DefaultMaxEngineGames)
	cfg.MaxEngineGamesPerAddr = cmp.Or(cfg.MaxEngineGamesPerAddr, DefaultMaxEngineGamesPerAddr)
	if cfg.SpectatorsPerGame == 0 {
		cfg.SpectatorsPerGame = 2000
	}
	if cfg.SpectatorsPerAddress == 0 {
		cfg.SpectatorsPerAddress = 50
	}
	cfg.ChatHistory = cmp.Or(cfg.ChatHistory, DefaultChatHistory)
	ctx, cancel := context.WithCancel(ctx)
	h := &Hub{cfg: cfg, ctx: ctx, cancel: cancel, log: cfg.Logger, games: map[string]*actor{},
		engineGames: newEngineGames(cfg.MaxEngineGames, cfg.MaxEngineGamesPerAddr)}
	if cfg.Bus != nil && cfg.Leases != nil {
		h.cl = newCluster(h)
	}
	return h
}

// EngineGamesRefused returns the number of games against the engine
// refused for the bounds per person and per address.
func (h *Hub) EngineGamesRefused() int64 { return h.engineGames.refused.Load() }

// HasEngine reports whether games against the engine can be created.
func (h *Hub) HasEngine() bool { return h.cfg.Engine != nil }

// Accepting reports whether the hub still starts and runs games: false
// once Stop (or its context's end) has begun, for a readiness check.
func (h *Hub) Accepting() bool { return h.ctx.Err() == nil }

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
// with their clocks, and returns how many it started; then it records every
// Config.Heartbeat that the server runs, until Stop.
//
// The server stopped at the last instant it recorded (a clean Stop, or
// after a crash its last heartbeat): each running clock is charged the time
// its player used until then, and runs again from now, so only the
// downtime is forgiven (to within one heartbeat after a crash); the
// abandonment limits do not run while the server is down either. The games
// that had been abandoned by then are aborted without being loaded.
func (h *Hub) Resume(ctx context.Context) (int, error) {
	if h.cl != nil {
		return h.resumeNode(ctx)
	}
	stopped, err := h.cfg.Store.LastAlive(ctx)
	if err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	now := time.Now()
	by := stopped
	if by.IsZero() {
		by = now
	}
	if n, err := h.cfg.Store.EndAbandoned(ctx, h.abandonment(), by, now); err != nil {
		return 0, fmt.Errorf("resume: end abandoned games: %w", err)
	} else if n > 0 {
		h.log.Info("aborted abandoned games", "games", n)
	}
	saved, err := h.cfg.Store.LiveGames(ctx)
	if err != nil {
		return 0, fmt.Errorf("load live games: %w", err)
	}
	rs := &resumed{stopped: stopped, now: now}
	games := make([]*actor, 0, len(saved))
	clocks := map[string]clock.State{}
	for _, s := range saved {
		g, err := newGame(h, s, rs)
		if err != nil {
			h.log.Error("resume game", "game", s.ID, "err", err)
			continue
		}
		if st := g.clock.State(); st.Running {
			clocks[s.ID] = st
		}
		games = append(games, g)
	}
	// The rebuilt clocks are stored before any game runs (a move would
	// store its own): a second crash must not forgive the first downtime
	// again.
	if err := h.cfg.Store.SaveClocks(ctx, clocks, now); err != nil {
		return 0, fmt.Errorf("resume: store the clocks: %w", err)
	}
	h.resumed.Store(true)
	n := 0
	for _, g := range games {
		if h.launch(g) == g {
			n++
		}
	}
	if h.cfg.Heartbeat > 0 {
		h.wg.Add(1)
		go h.heartbeat()
	}
	return n, nil
}

// resumeNode is Resume for one node of several: it subscribes to the
// node's subjects, takes the games no node owns (cluster.resume: each is
// charged until its owner was last known to run), and renews its leases,
// sweeps and records the heartbeat until Stop. The abandoned games are
// aborted by their actors, not in a sweep, since other nodes run theirs.
func (h *Hub) resumeNode(ctx context.Context) (int, error) {
	if err := h.cl.start(); err != nil {
		return 0, err
	}
	n, err := h.cl.resume(ctx)
	if err != nil {
		h.cl.stop()
		return 0, err
	}
	h.resumed.Store(true)
	h.wg.Add(2)
	go h.cl.renewLoop()
	go h.cl.sweepLoop()
	if h.cfg.Heartbeat > 0 {
		h.wg.Add(1)
		go h.heartbeat()
	}
	return n, nil
}

// resumed is when a restarted server had stopped (zero: not known) and
// when it started again.
type resumed struct{ stopped, now time.Time }

// heartbeat records every Config.Heartbeat that the server runs.
func (h *Hub) heartbeat() {
	defer h.wg.Done()
	t := time.NewTicker(h.cfg.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case now := <-t.C:
			if err := h.cfg.Store.MarkAlive(h.ctx, now); err != nil && h.ctx.Err() == nil {
				h.log.Error("heartbeat", "err", err)
			}
		}
	}
}

// Stop stops the hub cleanly: its games stop (as when its context ends),
// and, once Resume has succeeded, the instant of the stop is stored, so
// that after a restart every clock resumes with exactly the time it had
// then. A hub whose Resume failed records nothing: its store's clocks are
// still those of the server before it, which stopped at its own last
// instant.
func (h *Hub) Stop(ctx context.Context) error {
	at := time.Now()
	h.cancel()
	h.wg.Wait()
	if h.cl != nil {
		// Every lease is released (expired at the stop): the other nodes
		// take the games now, not once this node has been silent for a
		// lease's time.
		h.cl.bye()
		h.cl.stop()
	}
	if !h.resumed.Load() {
		return nil
	}
	if err := h.cfg.Store.MarkAlive(ctx, at); err != nil {
		return fmt.Errorf("live: stop: %w", err)
	}
	return nil
}

// Create stores a new game and starts it. s.ID and s.Created are filled in
// when empty.
func (h *Hub) Create(ctx context.Context, s game.Spec) (string, error) {
	return h.CreateFrom(ctx, s, "")
}

// CreateFrom is Create for a client at addr (its address key, "" when
// unknown): a game against the engine beyond the bounds of its person or of
// addr is refused with CodeTooManyEngineGames.
func (h *Hub) CreateFrom(ctx context.Context, s game.Spec, addr string) (string, error) {
	if s.ID == "" {
		s.ID = NewID()
	}
	if s.Created.IsZero() {
		s.Created = time.Now()
	}
	if _, _, err := s.Start(); err != nil {
		return "", errorf(apierr.CodeBadPosition, "%v", err)
	}
	if (s.White.IsEngine() || s.Black.IsEngine()) && h.cfg.Engine == nil {
		return "", errorf(apierr.CodeBadLevel, "this server has no engine")
	}
	if user, ok := engineOpponent(s); ok {
		if err := h.engineGames.reserve(s.ID, user, addr); err != nil {
			n := h.engineGames.refused.Add(1)
			h.engineGames.logRefused.Do(func() {
				h.log.Warn("engine games: refused", "user", user, "addr", addr, "max", h.cfg.MaxEngineGames,
					"max_per_addr", h.cfg.MaxEngineGamesPerAddr, "refused_total", n)
			})
			return "", err
		}
	}
	if h.cl != nil {
		// Leased before it is stored, so that no other node's sweep
		// takes it as an orphan meanwhile.
		if _, ok, err := h.cl.leases.TakeLease(ctx, s.ID, h.cl.node, time.Now(), h.cl.ttl); err != nil || !ok {
			h.engineGames.release(s.ID)
			return "", fmt.Errorf("create game: lease: %w (taken: %v)", err, !ok)
		}
	}
	if err := h.cfg.Store.CreateGame(ctx, s); err != nil {
		h.engineGames.release(s.ID)
		return "", fmt.Errorf("create game: %w", err)
	}
	if _, err := h.start(game.Saved{Spec: s}, nil); err != nil {
		h.engineGames.release(s.ID)
		return "", err
	}
	h.log.Info("game created", "game", s.ID, "white", s.White.Name, "black", s.Black.Name, "tc", s.TC.String(), "rated", s.Rated)
	return s.ID, nil
}

// start builds the actor of s and runs it, unless one already runs.
func (h *Hub) start(s game.Saved, rs *resumed) (*actor, error) {
	h.mu.Lock()
	if g, ok := h.games[s.ID]; ok {
		h.mu.Unlock()
		return g, nil
	}
	h.mu.Unlock()
	g, err := newGame(h, s, rs)
	if err != nil {
		return nil, err
	}
	g.leased = time.Now()
	return h.launch(g), nil
}

// launch runs the actor g, unless one already runs for its game: it
// returns the actor that runs.
func (h *Hub) launch(g *actor) *actor {
	h.mu.Lock()
	defer h.mu.Unlock()
	if o, ok := h.games[g.spec.ID]; ok {
		return o
	}
	if user, ok := engineOpponent(g.spec); ok && g.status == game.Playing {
		h.engineGames.add(g.spec.ID, user, "")
	}
	h.games[g.spec.ID] = g
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		g.run(h.ctx)
	}()
	return g
}

// remove forgets g (called by g's goroutine as it exits).
func (h *Hub) remove(g *actor) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.games[g.spec.ID] == g {
		delete(h.games, g.spec.ID)
	}
}

// lookup returns the actor of game id, starting one from the store when
// none runs (a finished game gets an actor too, for as long as someone
// watches it).
func (h *Hub) lookup(ctx context.Context, id string) (*actor, error) {
	h.mu.Lock()
	g, ok := h.games[id]
	h.mu.Unlock()
	if ok {
		return g, nil
	}
	if h.cl != nil {
		return h.cl.own(ctx, id)
	}
	s, err := h.cfg.Store.Game(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, errorf(apierr.CodeNotFound, "there is no game %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	return h.start(s, nil)
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
	return h.JoinWith(ctx, id, Chatter{ID: viewer, Addr: addr})
}

// JoinWith is JoinFrom for who, whose name is shown with his chat messages
// (a player's is his seat's).
func (h *Hub) JoinWith(ctx context.Context, id string, who Chatter) (*Conn, error) {
	return h.join(ctx, id, who, false)
}

// join is JoinWith; local refuses a game another node owns instead of
// joining it there (a join asked by another node).
func (h *Hub) join(ctx context.Context, id string, who Chatter, local bool) (*Conn, error) {
	viewer, addr := who.ID, who.Addr
	for range 3 {
		g, err := h.lookup(ctx, id)
		var e *elsewhere
		if errors.As(err, &e) {
			if local {
				return nil, errMoving(id, nil)
			}
			c, err := h.cl.joinRemote(ctx, e.node, id, who)
			if errors.Is(err, errOwnerLeft) {
				continue
			}
			return c, err
		}
		if err != nil {
			return nil, err
		}
		c := &Conn{g: g, viewer: viewer, out: make(chan []byte, h.cfg.OutBuffer), seq: h.seq.Add(1), who: who}
		if g.plays(viewer) {
			if g.do(func() { g.join(c) }) {
				return c, nil
			}
			continue // the actor exited as we came: look again
		}
		if !h.spectators.acquire(addr, h.cfg.SpectatorsPerAddress) {
			return nil, errorf(apierr.CodeTooManySpectators, "%d games are watched from your address already, the most it may watch", h.cfg.SpectatorsPerAddress)
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
	return nil, errMoving(id, errors.New("it stopped three times as it was joined"))
}

// State returns the state of game id as a spectator sees it.
func (h *Hub) State(ctx context.Context, id string) (State, error) {
	return h.state(ctx, id, false)
}

// state is State; local refuses a game another node owns instead of
// asking it (a state asked by another node).
func (h *Hub) state(ctx context.Context, id string, local bool) (State, error) {
	for range 3 {
		g, err := h.lookup(ctx, id)
		var e *elsewhere
		if errors.As(err, &e) {
			if local {
				return State{}, errMoving(id, nil)
			}
			return h.cl.remoteState(ctx, e.node, id)
		}
		if err != nil {
			return State{}, err
		}
		if s, ok := ask(ctx, g, func() State { return g.state(nil) }); ok {
			return s, nil
		}
		if err := ctx.Err(); err != nil {
			return State{}, err
		}
	}
	return State{}, errors.New("live: game keeps stopping")
}

// Adjudicate ends the running game id with result res (toguz.NoResult
// aborts it), as an event's arbiter decides: termination adjudication,
// reason ReasonArbiter. The players hear it as any ending.
func (h *Hub) Adjudicate(ctx context.Context, id string, res toguz.Result) error {
	return h.runOp(ctx, gameOp{Op: opAdjudicate, Game: id, Result: res.String()})
}

func (g *actor) adjudicate(res toguz.Result) error {
	if g.status != game.Playing {
		return errorf(apierr.CodeGameOver, "the game is over")
	}
	e := game.Ending{Status: game.Ended, Result: res, Termination: toguz.ByAdjudication, Reason: game.ReasonArbiter,
		Score: [2]int{g.pos.Kazan(toguz.White), g.pos.Kazan(toguz.Black)}}
	if res == toguz.NoResult {
		e = game.Ending{Status: game.Aborted, Result: toguz.NoResult, Termination: toguz.Unterminated, Reason: game.ReasonArbiter}
	}
	g.finish(e, time.Now())
	if g.status == game.Playing {
		return errStore("ending")
	}
	return nil
}

// AdjustClock gives pl's clock of the running game id delta more time
// (less when negative, never under zero), as an event's arbiter decides;
// the new clock is stored and sent to everyone. An untimed game has no
// clock to adjust.
func (h *Hub) AdjustClock(ctx context.Context, id string, pl toguz.Player, delta time.Duration) error {
	return h.runOp(ctx, gameOp{Op: opAdjust, Game: id, Player: pl, Delta: delta})
}

func (g *actor) adjustClock(pl toguz.Player, delta time.Duration) error {
	h := g.hub
	if g.status != game.Playing {
		return errorf(apierr.CodeGameOver, "the game is over")
	}
	if g.spec.TC.Kind() == clock.Unlimited {
		return errorf(apierr.CodeBadTC, "the game has no clock")
	}
	st := g.clock.State()
	if st.Running && st.Turn == pl {
		// The running side's remaining time is as of Since: charge it
		// first, so the adjustment counts from now.
		now := time.Now()
		st.Remaining[pl] -= now.Sub(st.Since)
		st.Since = now
	}
	st.Remaining[pl] = max(st.Remaining[pl]+delta, 0)
	if err := h.cfg.Store.SaveClocks(g.storeCtx(), map[string]clock.State{g.spec.ID: st}, time.Now()); err != nil {
		return errorf(apierr.CodeInternal, "the clock could not be stored: %v", err)
	}
	g.clock = clock.Restore(g.spec.TC, st, time.Now)
	g.log.Info("clock adjusted by the arbiter", "player", pl, "delta", delta)
	// Every board takes the new clocks from a fresh state, as after a
	// reconnection.
	for c := range g.conns {
		g.send(c, g.stateJSON(c))
	}
	g.afterChange()
	return nil
}

// Conn is one client connection to a game: a websocket, or a test. Its
// fields below the line belong to the game goroutine.
type Conn struct {
	g      *actor
	viewer string
	out    chan []byte
	seq    uint64
	// shut is set once out is closed; wake is onQueue's function.
	shut atomic.Bool
	wake atomic.Pointer[func()]

	px      *proxy  // set when another node owns the game (cluster.go)
	color   int8    // the player the connection plays for, -1 for a spectator
	control bool    // the connection is its player's one in control
	who     Chatter // who chats from it (set before the connection is shared)

	spectatorFields
}

// Out returns the messages for the client (JSON, one per element). It is
// closed when the game drops the connection or stops. A socket writes them
// with WriteEach instead, which keeps no goroutine waiting on it.
func (c *Conn) Out() <-chan []byte { return c.out }

// WriteEach writes c's messages with write, in order, from a goroutine
// started when messages wait, which ends when none is left: an idle
// connection keeps no goroutine for its writes (a goroutine and its stack,
// a quarter of an idle socket's memory, where one ranged over Out). ended is
// called once, from that goroutine, when c's channel is closed and its
// messages written (err nil) or when write fails (its error); nothing is
// written after it. Call it once, instead of reading Out.
func (c *Conn) WriteEach(write func([]byte) error, ended func(err error)) {
	// running is set while a writer goroutine runs. One that finds the
	// channel empty clears it and looks again, so that a message queued
	// meanwhile, whose wake found it still set, is not left behind.
	var running atomic.Bool
	drain := func() {
		for {
			select {
			case b, ok := <-c.out:
				if !ok {
					ended(nil)
					return // running stays set: no writer starts again
				}
				if err := write(b); err != nil {
					ended(err)
					return
				}
			default:
				running.Store(false)
				if len(c.out) == 0 && !c.shut.Load() {
					return // what is queued from now on wakes a writer
				}
				if !running.CompareAndSwap(false, true) {
					return // a writer woken meanwhile writes it
				}
			}
		}
	}
	c.onQueue(func() {
		if running.CompareAndSwap(false, true) {
			go drain()
		}
	})
}

// onQueue has f called after each message queued on c and once its channel
// is closed, by the goroutine that queued or closed it; at once if messages
// or the close already wait. f must not block, and may be called more than
// once for the same messages.
func (c *Conn) onQueue(f func()) {
	c.wake.Store(&f)
	if len(c.out) > 0 || c.shut.Load() {
		f()
	}
}

// queue puts b on c's channel without blocking; false when it is full. Only
// the one goroutine that closes c's channel queues on it.
func (c *Conn) queue(b []byte) bool {
	select {
	case c.out <- b:
	default:
		return false
	}
	c.wakeWriter()
	return true
}

func (c *Conn) wakeWriter() {
	if f := c.wake.Load(); f != nil {
		(*f)()
	}
}

// close closes c's channel, then sets shut, then wakes the writer: one that
// found the channel open and empty, and shut unset, is started again.
func (c *Conn) close() {
	close(c.out)
	c.shut.Store(true)
	c.wakeWriter()
}

// Send passes a client's message to the game. It returns false when the
// game has stopped.
func (c *Conn) Send(m ClientMsg) bool {
	if c.px != nil {
		return c.px.cl.send(c.px, m)
	}
	if c.fan != nil {
		return c.fan.handle(c, m)
	}
	return c.g.do(func() { c.g.handle(c, m) })
}

// Leave disconnects c from its game.
func (c *Conn) Leave() {
	if c.px != nil {
		c.px.cl.closeProxy(c.px, true)
		return
	}
	if c.fan != nil {
		c.fan.leave(c)
		return
	}
	c.g.do(func() { c.g.leave(c) })
}

// Spectator reports whether c watches the game rather than plays in it.
func (c *Conn) Spectator() bool { return c.fan != nil || c.px != nil && c.px.spectator }

// Reason returns why the game closed c's channel, when it says more than
// "reconnect and sync": "" otherwise.
func (c *Conn) Reason() string {
	if r := c.reason.Load(); r != nil {
		return *r
	}
	return ""
}
