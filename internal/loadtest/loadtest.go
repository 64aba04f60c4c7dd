// Package loadtest plays many simulated games against a toguz server over
// real websockets and measures it: `toguz loadtest`.
//
// # Index
//
//   - Run: Config.Games pairs of guest players, each pair playing whole
//     games one after another (a private seek, its acceptance, both
//     websockets, a random legal move every Config.Interval) until
//     Config.Duration is over. The Report gives games per second, the move
//     round trip (sending a move until its broadcast comes back to the
//     mover) as percentiles, over the whole run and once the first games
//     have all started, and every error by kind. At most 32 games are being
//     set up at any time, so that a big run does not start as a flood.
//   - Idle: opens games whose players connect and then do nothing, and
//     reports the memory they cost, measured by a function the caller
//     passes (the server's heap when it runs in the same process).
//   - Attack: the abuse attacks at the server's documented bounds
//     (logins, bodies, connections, seeks, spectators, imports, engine
//     games), each from its own addresses 127.0.2.x, for a duration, to run
//     beside Run; the AttackReport counts each attack's requests and the
//     server's answers (`toguz attack`).
//
// Against a real server it keeps within the server's bounds per address
// (docs/api.md): the players connect from Config.Sources loopback
// addresses, each pacing its state-changing requests under the server's
// rate; a request refused with 429 or 503 is retried after the server's
// Retry-After, a bounded number of times. Players whose websockets are
// lost (a restart) reconnect and go on from the server's state, and
// Config.AckLog gets every acknowledged move (Ack), so that a kill test
// can check them against the database (TestKillDuringLoad).
//
// Every move is checked: the server's position string after it must be
// the one the rules library computes, so a load test is also a consistency
// test. It speaks only the documented API (docs/api.md).
package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz"
)

// Config is one load test.
type Config struct {
	URL string // the server, http://127.0.0.1:PORT
	// Nodes are more nodes of the same server (`toguz serve -nats`, on
	// the same database): with them, pair i's White plays through node i
	// and its Black through node i+1 (URL first, mod the nodes), so that
	// every game has a player on a node that does not own it (its moves
	// relayed over the bus), unless SplitGames.
	Nodes []string
	// SplitGames keeps both players of pair i on node i (mod the nodes):
	// each game is played on the node that owns it, as a balancer that
	// routes a game's sockets by its id would, and nothing is relayed.
	SplitGames bool
	Games      int           // games played at the same time
	Interval   time.Duration // time between two moves of a game
	Duration   time.Duration // how long to play; games going at the end are resigned
	TC         string        // time control of the games ("" or "none": no clock)
	Seed       int64         // random source of the moves
	// Timeout is how long a reply may take before it counts as an error
	// (10 s when zero).
	Timeout time.Duration
	// Sources is the number of loopback addresses the players connect
	// from, 127.0.0.2, 127.0.0.3, … (every 127.x.y.z is loopback on Linux),
	// pair i from the (i mod Sources)th, so that a big run stays within the
	// server's bounds per address: its connection cap (256 by default: two
	// websockets per game and the HTTP connections) and its rate of
	// state-changing requests. 0: the system's choice, one address.
	Sources int
	// WritesPerSecond and WriteBurst pace each source's state-changing
	// requests (guests, seeks, acceptances) below the server's limit per
	// address (docs/api.md: 20 per second, bursts of 60). 0: 19 per second,
	// bursts of 40; a negative WritesPerSecond: no pace.
	WritesPerSecond float64
	WriteBurst      int
	// Retries bounds the retries of one request refused with 429 or 503
	// (after the server's Retry-After) or lost to a connection error (10
	// when zero; negative: none).
	Retries int
	// Reconnect is how long the players of a game whose websockets were
	// lost (a server restart) try to reconnect before giving the game up
	// (30 s when zero). They continue from the state the server sends.
	Reconnect time.Duration
	// AckLog, if not nil, gets a JSON line (Ack) for every acknowledged
	// move, written as it is acknowledged, so that a test can compare them
	// with the server's database after killing it.
	AckLog io.Writer
	// Progress, if not nil, gets a line now and then.
	Progress io.Writer
	// ChatEvery mixes chat into the load: before every ChatEvery-th move
	// of a game its mover sends a chat message and waits for it to come
	// back (0: no chat). A message refused by the server's chat rate
	// limits counts in Report.ChatRefused, not as an error.
	ChatEvery int
}

// Ack is a line of Config.AckLog: a move the server acknowledged (the
// broadcast of it came back to its mover), as the acknowledgement says.
type Ack struct {
	Game string `json:"game"`
	Ply  int    `json:"ply"` // 1 for the first move
	Hole int    `json:"hole"`
	By   string `json:"by"` // "white" or "black"
	// ClockMS is the mover's time left after the move in the
	// acknowledgement's clock; absent in games without a clock.
	ClockMS *int64 `json:"clock_ms,omitempty"`
}

// ackLog writes Acks, one line each, for many goroutines.
type ackLog struct {
	mu  sync.Mutex
	w   io.Writer
	err error // the first write error
}

func (l *ackLog) write(a Ack) {
	if l.w == nil {
		return
	}
	b, _ := json.Marshal(a)
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		_, l.err = l.w.Write(b)
	}
}

// Report is what a load test measured.
type Report struct {
	Games    int           // games played at the same time
	Started  int           // games started
	Finished int           // games played to their end by the rules
	Moves    int           // moves acknowledged
	Elapsed  time.Duration // from the first game's start to the end
	Setup    time.Duration // time to start all the first games
	Latency  Percentiles   // move round trip
	// Steady is the move round trip once the first games have all started:
	// without the load of setting up the run.
	Steady Percentiles
	// Worst is the whole second after setup (counted from the start) whose
	// moves had the longest p99 round trip: a stall (a collection of
	// garbage, a burst of game ends) shows there instead of being spread
	// thin over the run. A second with fewer than half the moves of a
	// typical one (the last, cut short) is not counted.
	Worst Second
	// Retries is the number of requests retried (refused for a bound or
	// lost to a connection error); Reconnects the number of times a game's
	// players reconnected after losing their websockets.
	Retries, Reconnects int
	// Chats is the number of chat messages sent and echoed back,
	// ChatRefused those the server refused for its chat rate limits, and
	// ChatLatency their round trip (Config.ChatEvery).
	Chats, ChatRefused int
	ChatLatency        Percentiles
	Errors             int
	ErrorKinds         map[string]int // errors by kind
	ErrorSample        []string       // the first few errors in full
}

// Second is the round trips of the moves acknowledged in one second of
// a run, From after its start.
type Second struct {
	From time.Duration
	Percentiles
}

// worstSecond returns the second of at (the moves' times from the start)
// whose round trips rtt had the longest p99, among those with at least half
// the median second's moves.
func worstSecond(at, rtt []time.Duration) Second {
	by := map[time.Duration][]time.Duration{}
	for i, t := range at {
		s := t.Truncate(time.Second)
		by[s] = append(by[s], rtt[i])
	}
	counts := make([]int, 0, len(by))
	for _, ds := range by {
		counts = append(counts, len(ds))
	}
	slices.Sort(counts)
	var worst Second
	for s, ds := range by {
		if len(ds) < counts[len(counts)/2]/2 {
			continue
		}
		if p := percentiles(ds); p.P99 > worst.P99 || (p.P99 == worst.P99 && s < worst.From) {
			worst = Second{From: s, Percentiles: p}
		}
	}
	return worst
}

// Percentiles of a set of durations.
type Percentiles struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

// percentiles sorts ds and returns its percentiles (nearest rank).
func percentiles(ds []time.Duration) Percentiles {
	if len(ds) == 0 {
		return Percentiles{}
	}
	slices.Sort(ds)
	at := func(q float64) time.Duration {
		i := int(q*float64(len(ds))+0.5) - 1
		return ds[min(max(i, 0), len(ds)-1)]
	}
	return Percentiles{N: len(ds), P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: ds[len(ds)-1]}
}

func (p Percentiles) String() string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s  (%d moves)", ms(p.P50), ms(p.P90), ms(p.P99), ms(p.Max), p.N)
}

// GamesPerSecond is the rate of games played to their end.
func (r Report) GamesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Finished) / r.Elapsed.Seconds()
}

// WriteTo writes the report for people.
func (r Report) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "games at once   %d (started %d, finished %d)\n", r.Games, r.Started, r.Finished)
	fmt.Fprintf(&b, "elapsed         %v (setup of the first games %v)\n", r.Elapsed.Round(time.Millisecond), r.Setup.Round(time.Millisecond))
	fmt.Fprintf(&b, "games/s         %.2f\n", r.GamesPerSecond())
	fmt.Fprintf(&b, "moves/s         %.1f\n", float64(r.Moves)/max(r.Elapsed.Seconds(), 1e-9))
	fmt.Fprintf(&b, "move round trip %v\n", r.Latency)
	fmt.Fprintf(&b, "  after setup   %v\n", r.Steady)
	if r.Worst.N > 0 {
		fmt.Fprintf(&b, "  worst second  %v (from %v)\n", r.Worst.Percentiles, r.Worst.From)
	}
	fmt.Fprintf(&b, "retries         %d requests, %d reconnections\n", r.Retries, r.Reconnects)
	if r.Chats > 0 || r.ChatRefused > 0 {
		fmt.Fprintf(&b, "chat            %d messages (%d refused by the rate limits), round trip %v\n", r.Chats, r.ChatRefused, r.ChatLatency)
	}
	fmt.Fprintf(&b, "errors          %d\n", r.Errors)
	kinds := make([]string, 0, len(r.ErrorKinds))
	for k := range r.ErrorKinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %6d  %s\n", r.ErrorKinds[k], k)
	}
	for _, s := range r.ErrorSample {
		fmt.Fprintf(&b, "  e.g. %s\n", s)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// collector gathers the results of the games.
type collector struct {
	steady     atomic.Bool // set once the first games have all started
	retried    atomic.Int64
	reconnects atomic.Int64
	acks       *ackLog

	mu            sync.Mutex
	latency       []time.Duration
	steadyLatency []time.Duration
	steadyAt      []time.Duration // when each of steadyLatency was acknowledged, from start
	start         time.Time
	moves         int
	chats         int
	chatRefused   int
	chatLatency   []time.Duration
	started       int
	finished      int
	kinds         map[string]int
	sample        []string
}

func (c *collector) fail(kind string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kinds[kind]++
	if len(c.sample) < 10 {
		c.sample = append(c.sample, kind+": "+err.Error())
	}
}

// newHTTPClient returns a client for many connections to one host, from
// the address local (nil: the system's choice).
func newHTTPClient(conns int, local net.IP) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = conns
	t.MaxIdleConnsPerHost = conns
	d := &net.Dialer{Timeout: 10 * time.Second}
	if local != nil {
		d.LocalAddr = &net.TCPAddr{IP: local}
	}
	t.DialContext = d.DialContext
	return &http.Client{Transport: t, Timeout: 30 * time.Second}
}

// sourceAddr is the address of source i: 127.0.0.2 and on, leaving
// 127.0.0.1 to other clients.
func sourceAddr(i int) net.IP {
	n := uint32(127<<24) + 2 + uint32(i)
	return net.IPv4(byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}

// SourceRange names the addresses of n sources, for people.
func SourceRange(n int) string {
	if n <= 1 {
		return sourceAddr(0).String()
	}
	return sourceAddr(0).String() + "–" + sourceAddr(n-1).String()
}

// newSources returns the sources of cfg, each with its HTTP client and pace.
func newSources(cfg Config) ([]*source, error) {
	rps, burst := cfg.WritesPerSecond, cfg.WriteBurst
	if rps == 0 {
		rps, burst = 19, 40
	}
	pace := func() *rate.Limiter {
		if rps < 0 {
			return nil
		}
		return rate.NewLimiter(rate.Limit(rps), max(burst, 1))
	}
	if cfg.Sources <= 0 {
		return []*source{{http: newHTTPClient(min(cfg.Games*2, 256), nil), lim: pace()}}, nil
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("loadtest: URL %q: %w", cfg.URL, err)
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || ip.To4() == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("loadtest: %d source addresses 127.0.0.x need the server on an IPv4 loopback address, not %q", cfg.Sources, u.Host)
	}
	srcs := make([]*source, cfg.Sources)
	perSource := (cfg.Games + cfg.Sources - 1) / cfg.Sources
	for i := range srcs {
		srcs[i] = &source{http: newHTTPClient(min(perSource*2, 16), sourceAddr(i)), lim: pace()}
	}
	return srcs, nil
}

// maxStarting is the number of games being set up at once.
const maxStarting = 32

// Run plays the load test until cfg.Duration is over or ctx is cancelled.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if cfg.Games < 1 || cfg.Interval <= 0 || cfg.Duration <= 0 {
		return Report{}, errors.New("loadtest: Games, Interval and Duration must be positive")
	}
	cfg.setDefaults()
	srcs, err := newSources(cfg)
	if err != nil {
		return Report{}, err
	}
	defer func() {
		for _, s := range srcs {
			s.http.CloseIdleConnections()
		}
	}()
	start := time.Now()
	col := &collector{kinds: map[string]int{}, acks: &ackLog{w: cfg.AckLog}, start: start}
	retry := retryPolicy{max: cfg.Retries, retried: &col.retried}
	playCtx, stop := context.WithDeadline(ctx, start.Add(cfg.Duration))
	defer stop()
	var ready, done sync.WaitGroup
	ready.Add(cfg.Games)
	slots := make(chan struct{}, maxStarting)
	for i := range cfg.Games {
		done.Go(func() {
			g := &pair{cfg: cfg, col: col, setup: slots, rnd: rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(i)))}
			src := srcs[i%len(srcs)]
			white, black := cfg.nodesOf(i)
			g.white = &client{base: white, src: src, retry: retry}
			g.black = &client{base: black, src: src, retry: retry}
			g.run(ctx, playCtx, &ready)
		})
	}
	var setup time.Duration
	readyCh := make(chan struct{})
	go func() { ready.Wait(); close(readyCh) }()
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
wait:
	for {
		select {
		case <-readyCh:
			setup = time.Since(start)
			col.steady.Store(true)
			break wait
		case <-playCtx.Done():
			break wait
		case <-tick.C:
			progress(cfg.Progress, col, time.Since(start), "starting")
		}
	}
	allDone := make(chan struct{})
	go func() { done.Wait(); close(allDone) }()
loop:
	for {
		select {
		case <-allDone:
			break loop
		case <-tick.C:
			progress(cfg.Progress, col, time.Since(start), "playing")
		}
	}
	elapsed := time.Since(start)

	col.mu.Lock()
	defer col.mu.Unlock()
	r := col.report(cfg.Games, elapsed, setup)
	col.acks.mu.Lock()
	defer col.acks.mu.Unlock()
	if err := col.acks.err; err != nil {
		return r, fmt.Errorf("loadtest: writing the ack log: %w", err)
	}
	return r, ctx.Err()
}

// nodesOf returns the nodes pair i's White and Black play through: White
// seeks, so White's node owns the game.
func (cfg *Config) nodesOf(i int) (white, black string) {
	nodes := append([]string{cfg.URL}, cfg.Nodes...)
	other := i + 1
	if cfg.SplitGames {
		other = i
	}
	return nodes[i%len(nodes)], nodes[other%len(nodes)]
}

// setDefaults gives the zero Timeout, Retries and Reconnect their
// defaults, and a negative Retries its meaning, none.
func (cfg *Config) setDefaults() {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	switch {
	case cfg.Retries == 0:
		cfg.Retries = 10
	case cfg.Retries < 0:
		cfg.Retries = 0
	}
	if cfg.Reconnect <= 0 {
		cfg.Reconnect = 30 * time.Second
	}
}

// report is the Report of a run of games that took elapsed, setup of it
// to start them all; col.mu is held.
func (col *collector) report(games int, elapsed, setup time.Duration) Report {
	worst := worstSecond(col.steadyAt, col.steadyLatency) // before percentiles sorts the round trips
	r := Report{
		Games: games, Started: col.started, Finished: col.finished, Moves: col.moves,
		Elapsed: elapsed, Setup: setup, Latency: percentiles(col.latency), Steady: percentiles(col.steadyLatency), Worst: worst,
		ErrorKinds: col.kinds, ErrorSample: col.sample,
		Chats: col.chats, ChatRefused: col.chatRefused, ChatLatency: percentiles(col.chatLatency),
		Retries: int(col.retried.Load()), Reconnects: int(col.reconnects.Load()),
	}
	for _, n := range col.kinds {
		r.Errors += n
	}
	return r
}

func progress(w io.Writer, col *collector, t time.Duration, what string) {
	if w == nil {
		return
	}
	col.mu.Lock()
	defer col.mu.Unlock()
	errs := 0
	for _, n := range col.kinds {
		errs += n
	}
	fmt.Fprintf(w, "%5.0fs %s: %d games started, %d finished, %d moves, %d errors, %d retries, %d reconnections\n",
		t.Seconds(), what, col.started, col.finished, col.moves, errs, col.retried.Load(), col.reconnects.Load())
}

// pair is two players playing games against each other, one at a time.
type pair struct {
	cfg          Config
	col          *collector
	rnd          *rand.Rand
	white, black *client
	setup        chan struct{} // shared by all pairs: a slot per game being started
}

// run plays games until the run is over (runCtx ends). It marks ready
// when its first game has started (or failed to).
//
// The requests and websocket reads use ctx without its cancellation, each
// bounded by its own timeout, and runCtx is looked at only between steps:
// a websocket whose read context ends is closed (coder/websocket does so),
// and a request cut short may have created a game all the same, so ending
// the run by cancelling them would leave games live on the server with no
// connection to resign them on.
func (g *pair) run(ctx, runCtx context.Context, ready *sync.WaitGroup) {
	ctx = context.WithoutCancel(ctx)
	once := sync.OnceFunc(ready.Done)
	defer once()
	select {
	case g.setup <- struct{}{}:
	case <-runCtx.Done():
		return
	}
	for _, c := range []*client{g.white, g.black} {
		// A guest request cut short by the run's end leaves nothing behind.
		if err := c.guest(runCtx); err != nil {
			<-g.setup
			if runCtx.Err() == nil {
				g.col.fail("guest", err)
			}
			return
		}
	}
	<-g.setup
	for runCtx.Err() == nil {
		if err := g.game(ctx, runCtx, once); err != nil {
			// Wait a little so that a failing server is not flooded.
			select {
			case <-runCtx.Done():
			case <-time.After(g.cfg.Interval):
			}
		}
	}
}

// start creates a game between the pair (White's private seek, Black's
// acceptance) and opens both players' websockets; errors go through fail.
func (g *pair) start(ctx context.Context, fail func(string, error) error) (string, [2]*gameConn, error) {
	var conns [2]*gameConn
	seek, err := g.white.seek(ctx, g.cfg.TC)
	if err != nil {
		return "", conns, fail("seek", err)
	}
	id, err := g.black.accept(ctx, seek)
	if err != nil {
		return "", conns, fail("accept", err)
	}
	// The game exists from here on: if it cannot be played, abort it, so
	// that the server does not keep it.
	closeAll := func() {
		for _, c := range conns {
			if c != nil {
				c.close()
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), g.cfg.Timeout)
		defer cancel()
		if c, err := g.white.dial(ctx, id); err == nil {
			if send(ctx, c, map[string]any{"type": "abort"}) == nil {
				await(ctx, c, "end", 0, g.cfg.Timeout)
			}
			c.CloseNow()
		}
	}
	deadline := time.Now().Add(g.cfg.Reconnect)
	for i, c := range []*client{g.white, g.black} {
		conn, err := c.dialRetry(ctx, id, deadline)
		if err != nil {
			closeAll()
			return "", conns, fail("dial", err)
		}
		conns[i] = newGameConn(conn)
		st, err := conns[i].await("state", 0, g.cfg.Timeout)
		if err == nil {
			if want := []string{"white", "black"}[i]; st.You != want || st.Status != "playing" || st.Ply != 0 {
				err = fmt.Errorf("game %s: state says you=%q status=%q ply=%d, want you=%q, playing, ply 0", id, st.You, st.Status, st.Ply, want)
			}
		}
		if err != nil {
			closeAll()
			return "", conns, fail("state", err)
		}
	}
	return id, conns, nil
}

// reconnect opens both players' websockets of game id again, after the
// connections were lost, until both are open and have their state or
// g.cfg.Reconnect has passed, and returns the state: where the game is now
// (a move in flight when the connection was lost may or may not have been
// played).
func (g *pair) reconnect(ctx context.Context, id string, conns *[2]*gameConn) (message, error) {
	g.col.reconnects.Add(1)
	deadline := time.Now().Add(g.cfg.Reconnect)
	for {
		var st message
		var err error
		for i, c := range []*client{g.white, g.black} {
			if conns[i] != nil {
				conns[i].close()
				conns[i] = nil
			}
			var conn *websocket.Conn
			if conn, err = c.dialRetry(ctx, id, deadline); err != nil {
				return st, fmt.Errorf("game %s: reconnecting: %w", id, err)
			}
			conns[i] = newGameConn(conn)
			if st, err = conns[i].await("state", 0, g.cfg.Timeout); err != nil {
				break
			}
		}
		switch {
		case err == nil:
			return st, nil
		case !lostConnection(err) || time.Now().After(deadline):
			return st, fmt.Errorf("game %s: reconnecting: %w", id, err)
		}
	}
}

// game plays one game until its end or the end of the run (runCtx),
// talking to the server with ctx (see run); errors are counted in g.col
// and returned. When the websockets are lost (the server restarts), both
// players reconnect and go on from the state the server sends.
func (g *pair) game(ctx, runCtx context.Context, started func()) (err error) {
	// Start the game with a bounded number of others at once, so that the
	// first games of a big run do not all hit the server together.
	select {
	case g.setup <- struct{}{}:
	case <-runCtx.Done():
		return runCtx.Err()
	}
	id, conns, err := g.start(ctx, g.fail)
	<-g.setup
	if err != nil {
		return err
	}
	gr := &gameRun{g: g, ctx: ctx, id: id, conns: conns, p: toguz.StartPosition(),
		timed: g.cfg.TC != "" && g.cfg.TC != "none"}
	defer gr.close()
	g.col.mu.Lock()
	g.col.started++
	g.col.mu.Unlock()
	started()
	defer gr.resignUnended()
	// Start at a random point of the interval so that the games do not
	// all move at the same instant.
	next := time.Now().Add(time.Duration(g.rnd.Int64N(int64(g.cfg.Interval))))
	tick := time.NewTimer(time.Until(next))
	defer tick.Stop()
	for !gr.p.IsOver() {
		select {
		case <-runCtx.Done():
			return runCtx.Err()
		case <-tick.C:
		}
		if stop, err := gr.move(); stop {
			return err
		}
		// A game that fell behind (its players reconnecting) goes on at
		// its pace, as a player would, not in a burst of the moves it
		// missed: that burst broke the server's 20 messages a second.
		if next = next.Add(g.cfg.Interval); next.Before(time.Now()) {
			next = time.Now()
		}
		tick.Reset(time.Until(next))
	}
	return gr.end()
}

// fail counts an error of the kind and returns it.
func (g *pair) fail(kind string, e error) error {
	g.col.fail(kind, e)
	return e
}

// gameRun is a game that a pair plays: its connections, White's first,
// and its position as the players know it.
type gameRun struct {
	g     *pair
	ctx   context.Context
	id    string
	conns [2]*gameConn
	fen   []byte // the rules' position string after the last move
	p     toguz.Position
	ply   int
	ended bool // the game ended as the rules say it must: no resigning it
	timed bool // the game has a time control: the acks carry the clock
}

// close closes the connections still open.
func (gr *gameRun) close() {
	for _, c := range gr.conns {
		if c != nil { // nil: a reconnection failed
			c.close()
		}
	}
}

// resignUnended resigns a game that did not end (the run is over, or the
// game failed), so that the server does not keep it.
func (gr *gameRun) resignUnended() {
	if gr.ended || gr.conns[0] == nil {
		return
	}
	if gr.conns[0].send(map[string]any{"type": "resign"}) == nil {
		gr.conns[0].await("end", 0, gr.g.cfg.Timeout)
	}
}

// move plays a random legal move, after a chat message on every
// Config.ChatEvery'th ply, and checks the server's answers. stop says
// that the game is over for this pair, with the error that game returns;
// after a lost connection the game goes on from the server's state.
func (gr *gameRun) move() (stop bool, err error) {
	g, id, ply := gr.g, gr.id, gr.ply
	moves := gr.p.LegalMoves().Slice()
	m := moves[g.rnd.IntN(len(moves))]
	me := gr.p.Turn()
	after := gr.p.After(m)
	if g.cfg.ChatEvery > 0 && (ply+1)%g.cfg.ChatEvery == 0 {
		if err := g.chat(gr.conns[me], id, ply); lostConnection(err) {
			return gr.resume(err)
		} else if err != nil {
			return true, g.fail("chat", fmt.Errorf("game %s before ply %d: %w", id, ply+1, err))
		}
	}
	sent, steady := time.Now(), g.col.steady.Load()
	err = gr.conns[me].sendMove(ply, int(m))
	var got message
	if err == nil {
		// The round trip ends when the mover gets his move back.
		got, err = gr.conns[me].await("move", ply+1, g.cfg.Timeout)
	}
	rtt := time.Since(sent)
	if lostConnection(err) {
		return gr.resume(err)
	}
	if err != nil {
		return true, g.fail("move", fmt.Errorf("game %s ply %d: %w", id, ply+1, err))
	}
	// The position string without its move number, which the position
	// does not hold: compared as bytes, where parsing it cost an allocation.
	gr.fen = toguz.AppendFEN(gr.fen[:0], after, 1)
	if n := bytes.LastIndexByte(gr.fen, ' ') + 1; len(got.FEN) <= n || got.FEN[:n] != string(gr.fen[:n]) || strings.Contains(got.FEN[n:], " ") {
		return true, g.fail("position", fmt.Errorf("game %s ply %d: the server's position is %q, the rules' %s", id, ply+1, got.FEN, gr.fen))
	}
	g.acked(gr.ack(m, me, got), rtt, steady)
	gr.p, gr.ply = after, ply+1
	if _, err := gr.conns[me.Other()].await("move", gr.ply, g.cfg.Timeout); lostConnection(err) {
		return gr.resume(err)
	} else if err != nil {
		return true, g.fail("opponent", fmt.Errorf("game %s ply %d: %w", id, gr.ply, err))
	}
	return false, nil
}

// ack is the Ack of the move m by me, as the server acknowledged it.
func (gr *gameRun) ack(m toguz.Move, me toguz.Player, got message) Ack {
	ack := Ack{Game: gr.id, Ply: gr.ply + 1, Hole: int(m), By: got.By}
	if gr.timed {
		c := got.Clock.WhiteMS
		if me == toguz.Black {
			c = got.Clock.BlackMS
		}
		ack.ClockMS = &c
	}
	return ack
}

// acked counts an acknowledged move and its round trip, in the steady
// state's figures too where steady.
func (g *pair) acked(ack Ack, rtt time.Duration, steady bool) {
	g.col.acks.write(ack)
	g.col.mu.Lock()
	g.col.moves++
	g.col.latency = append(g.col.latency, rtt)
	if steady {
		g.col.steadyLatency = append(g.col.steadyLatency, rtt)
		g.col.steadyAt = append(g.col.steadyAt, time.Since(g.col.start))
	}
	g.col.mu.Unlock()
}

// resync reconnects after a lost connection and takes the game's
// position from the server's state; done says the game ended meanwhile
// as the rules say it must.
func (gr *gameRun) resync(lost error) (done bool, err error) {
	g, id := gr.g, gr.id
	st, err := g.reconnect(gr.ctx, id, &gr.conns)
	if err != nil {
		return false, g.fail("reconnect", fmt.Errorf("%w (after %v)", err, lost))
	}
	sp, _, err := toguz.ParseFEN(st.FEN, toguz.Standard())
	if err != nil {
		return false, g.fail("position", fmt.Errorf("game %s after reconnecting: the server's position %q: %w", id, st.FEN, err))
	}
	if st.Status != "playing" {
		if st.Status == "ended" && sp.IsOver() && sp.Outcome().Result.String() == st.Result {
			return true, nil
		}
		return false, g.fail("gone", fmt.Errorf("game %s is %s (%s) after reconnecting", id, st.Status, st.Result))
	}
	gr.p, gr.ply = sp, st.Ply
	return false, nil
}

// resume resyncs after a lost connection: stop says that the game is
// over for this pair (it ended meanwhile, or the resync failed), with the
// error that game returns.
func (gr *gameRun) resume(lost error) (stop bool, err error) {
	done, err := gr.resync(lost)
	if done || err != nil {
		gr.ended = done
		return true, gr.g.finished(err)
	}
	return false, nil
}

// end waits for both players to get the end of the game that the rules
// ended, with its result.
func (gr *gameRun) end() error {
	g, id := gr.g, gr.id
	want := gr.p.Outcome().Result.String()
	for i := range gr.conns {
		end, err := gr.conns[i].await("end", 0, g.cfg.Timeout)
		if lostConnection(err) {
			done, err := gr.resync(err)
			if err == nil && !done {
				err = g.fail("end", fmt.Errorf("game %s is still being played after its end by the rules", id))
			}
			gr.ended = done
			return g.finished(err)
		}
		if err != nil {
			return g.fail("end", fmt.Errorf("game %s: %w", id, err))
		}
		if end.Result != want {
			return g.fail("end", fmt.Errorf("game %s: the server ends it %s, the rules %s", id, end.Result, want))
		}
	}
	gr.ended = true
	for _, c := range gr.conns {
		c.timer.Stop()
		c.c.Close(websocket.StatusNormalClosure, "")
	}
	return g.finished(nil)
}

// chat sends a chat message on conn and waits for it to come back; a
// refusal by the chat rate limits is counted, not an error.
func (g *pair) chat(conn *gameConn, id string, ply int) error {
	sent := time.Now()
	if err := conn.send(map[string]any{"type": "chat", "text": fmt.Sprintf("сәлем, game %s ply %d", id, ply)}); err != nil {
		return err
	}
	_, err := conn.await("chat", 0, g.cfg.Timeout)
	rtt := time.Since(sent)
	var se *serverError
	if errors.As(err, &se) && se.Code == "chat_rate_limited" {
		g.col.mu.Lock()
		g.col.chatRefused++
		g.col.mu.Unlock()
		return nil
	}
	if err != nil {
		return err
	}
	g.col.mu.Lock()
	g.col.chats++
	g.col.chatLatency = append(g.col.chatLatency, rtt)
	g.col.mu.Unlock()
	return nil
}

// finished counts a game played to its end when err is nil, and returns err.
func (g *pair) finished(err error) error {
	if err == nil {
		g.col.mu.Lock()
		g.col.finished++
		g.col.mu.Unlock()
	}
	return err
}
