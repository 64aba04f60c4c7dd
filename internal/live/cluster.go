package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// Several nodes (docs/architecture.md, "Several nodes"): with Config.Bus
// and Config.Leases set, the hub is one node of many sharing one store.
// Each game runs on the node holding its lease (a row of the store, taken
// with a compare-and-set, renewed every Config.LeaseRenew, expiring after
// Config.LeaseTTL). A socket that lands on another node is proxied: that
// node asks the owner over the bus to join the game for it, relays the
// owner's messages to the socket and the socket's to the owner. When an
// owner stops renewing (it died), the first node to need the game, or any
// node's sweep, takes the lease and resumes the game from the store as a
// restart does: the clocks are charged until the owner was last known to
// run (its last renewal) and only the downtime after it is forgiven; the
// proxies of the dead owner's sockets close, and their clients reconnect.

// Leases is what the hub needs of the store to share games between nodes
// (store.LiveStore implements it).
type Leases interface {
	// TakeLease gives game's lease to node until now+ttl if it is free,
	// expired or node's, and reports whether it did; prev is the lease as
	// it was.
	TakeLease(ctx context.Context, game, node string, now time.Time, ttl time.Duration) (prev game.Lease, ok bool, err error)
	// RenewLeases extends node's leases to now+ttl and returns their games.
	RenewLeases(ctx context.Context, node string, now time.Time, ttl time.Duration) ([]string, error)
	// ReleaseLease deletes node's lease of game (at zero), or expires it
	// at at (a clean stop).
	ReleaseLease(ctx context.Context, game, node string, at time.Time) error
	// HandLease hands node from's lease of game to node to, expired at
	// at, for to to take (a handover: handover.go).
	HandLease(ctx context.Context, game, from, to string, at time.Time) error
	// Orphans returns the games being played whose lease is missing or
	// expired at now.
	Orphans(ctx context.Context, now time.Time) ([]string, error)
	// Lease returns game's lease (zero when none).
	Lease(ctx context.Context, game string) (game.Lease, error)
}

// Bus is the message bus between nodes (internal/bus implements it over
// NATS). Messages published by one node on one subject arrive in order,
// and each subscription's handler is called for one message at a time.
type Bus interface {
	Publish(subject string, data []byte) error
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
	// Subscribe calls f for each message on subject (which may end in the
	// wildcard ">"); reply answers a request.
	Subscribe(subject string, f func(subject string, data []byte, reply func([]byte))) (unsubscribe func(), err error)
}

// Defaults of the leases.
const (
	DefaultLeaseTTL   = 4 * time.Second
	DefaultLeaseRenew = time.Second
)

// The subjects. N is a node id, C a connection's number on the node that
// holds its socket.
const (
	subjAlive = "toguz.alive" // every node, every LeaseRenew: its id
	// toguz.node.N.join (request: joinReq → joinResp), toguz.node.N.cmd
	// (cmdMsg: a proxied socket's message or leave), toguz.node.N.state
	// (request: a game id → stateResp), toguz.node.N.op (request: a
	// gameOp → opResp, gameops.go), toguz.conn.N.C (the owner's
	// messages to the socket: 'm' and the message, or 'c' and the reason
	// it closed).
	subjNode = "toguz.node."
	subjConn = "toguz.conn."
)

type joinReq struct {
	Game string  `json:"game"`
	Who  Chatter `json:"who"`
	From string  `json:"from"` // the proxy's node
	Boot string  `json:"boot"` // its run (handover.go's hello)
	Conn uint64  `json:"conn"` // its number there
}

type joinResp struct {
	Err *Error `json:"err,omitempty"`
	// Spectator: the connection joined is a spectator's.
	Spectator bool `json:"spectator,omitempty"`
	// Boot is the owner's run (handover.go's hello).
	Boot string `json:"boot,omitempty"`
}

type cmdMsg struct {
	From  string     `json:"from"`
	Conn  uint64     `json:"conn"`
	Leave bool       `json:"leave,omitempty"`
	Msg   *ClientMsg `json:"msg,omitempty"`
}

type stateResp struct {
	State *State `json:"state,omitempty"`
	Err   *Error `json:"err,omitempty"`
}

// elsewhere is the error of a game another node owns.
type elsewhere struct{ node string }

func (e *elsewhere) Error() string { return "live: the game runs on node " + e.node }

// cluster is the hub's part in a cluster of nodes.
//
// Locking: mu guards the maps, and nothing is sent to a bus or a game while
// it is held except a proxy's non-blocking deliveries.
type cluster struct {
	h      *Hub
	node   string
	bus    Bus
	leases Leases
	ttl    time.Duration
	renew  time.Duration

	mu      sync.Mutex
	proxies map[uint64]*proxy // this node's sockets to games other nodes own
	served  map[string]*served
	heard   map[string]time.Time // when each other node was last heard of
	// boot is this node's run: new at each start and bus reconnection, sent
	// with its hello and its joins (handover.go).
	boot string
	// left: the nodes that said goodbye, and when (handover.go): what
	// they sent before it and is handled after it is not news of them.
	left map[string]time.Time
	// forgotten: the proxies whose join failed, for a lease's time, in
	// case the owner made the connection after all.
	forgotten map[uint64]forgotten
	unsub     []func()
	// kick wakes the sweep at once (a node said goodbye: its games are
	// free now).
	kick chan struct{}
	// loads: the games each node said it runs, and when (handover.go);
	// handed: the games this node handed over, and when.
	loads  map[string]nodeLoad
	handed map[string]handedTo
	// lists: the last summary of its games each node published
	// (gamelist.go).
	lists map[string]nodeGames
	// gamesSent: this node's last summary (renewLoop's alone); gamesNews:
	// publish it at the next renewal, changed or not (a node said hello).
	gamesSent gamesSent
	gamesNews atomic.Bool
	every     time.Duration // Config.Rebalance
	// balancing: a handover is under way; balanced: when the last ended.
	balancing bool
	balanced  time.Time

	// The counters of ClusterStats.
	held                           atomic.Int64
	takeovers, handedOver, adopted atomic.Int64
}

type forgotten struct {
	owner string
	at    time.Time
}

// proxy is a socket of this node whose game another node owns.
type proxy struct {
	cl     *cluster
	c      *Conn
	owner  string
	game   string
	closed bool // guarded by cluster.mu
	// ownerBoot is the owner's run that answered the join, "" until it
	// answers (guarded by cluster.mu).
	ownerBoot string
	// spectator: the owner made a spectator's connection (set before the
	// connection is returned).
	spectator bool
	// abort ends the join's request while it waits for the owner (guarded
	// by cluster.mu): closing the proxy (the owner said goodbye, or this
	// node took the game) must not leave the join waiting a lease's time
	// for an answer that will not come.
	abort context.CancelFunc
}

// served is another node's socket to a game this node owns.
type served struct {
	c    *Conn
	from string
	boot string // the run of from that joined
}

func newCluster(h *Hub) *cluster {
	cfg := h.cfg
	cl := &cluster{h: h, node: cfg.Node, bus: cfg.Bus, leases: cfg.Leases, ttl: cfg.LeaseTTL, renew: cfg.LeaseRenew,
		proxies: map[uint64]*proxy{}, served: map[string]*served{}, heard: map[string]time.Time{},
		left: map[string]time.Time{}, forgotten: map[uint64]forgotten{}, kick: make(chan struct{}, 1),
		loads: map[string]nodeLoad{}, handed: map[string]handedTo{}, lists: map[string]nodeGames{}, every: cfg.Rebalance}
	if cl.every == 0 {
		cl.every = DefaultRebalance
	}
	if cl.node == "" {
		cl.node = NewID()
	}
	cl.boot = NewID()
	if cl.ttl <= 0 {
		cl.ttl = DefaultLeaseTTL
	}
	if cl.renew <= 0 {
		cl.renew = DefaultLeaseRenew
	}
	return cl
}

// Node returns the id of this node ("" without a bus).
func (h *Hub) Node() string {
	if h.cl == nil {
		return ""
	}
	return h.cl.node
}

// start subscribes to the node's subjects.
func (cl *cluster) start() error {
	subs := []struct {
		subj string
		f    func(string, []byte, func([]byte))
	}{
		{subjAlive, cl.onAlive},
		{subjBye, cl.onBye},
		{subjHello, cl.onHello},
		{subjLoad, cl.onLoad},
		{subjGames, cl.onGames},
		{subjNode + cl.node + ".adopt", cl.onAdopt},
		{subjNode + cl.node + ".join", cl.onJoin},
		{subjNode + cl.node + ".cmd", cl.onCmd},
		{subjNode + cl.node + ".state", cl.onState},
		{subjNode + cl.node + ".op", cl.onOp},
		{subjNode + cl.node + ".gamesof", cl.onGamesOf},
		{subjConn + cl.node + ".>", cl.onConn},
	}
	for _, s := range subs {
		un, err := cl.bus.Subscribe(s.subj, s.f)
		if err != nil {
			cl.stop()
			return fmt.Errorf("live: subscribe %s: %w", s.subj, err)
		}
		cl.unsub = append(cl.unsub, un)
	}
	if rb, ok := cl.bus.(interface{ OnReconnect(func()) }); ok {
		rb.OnReconnect(cl.reset)
	}
	// The sockets relayed to and from an earlier run of this node's id
	// are gone: the others close their ends.
	cl.hello()
	return nil
}

func (cl *cluster) stop() {
	for _, un := range cl.unsub {
		un()
	}
	cl.unsub = nil
}

// own takes the lease of game id and runs its actor here, resuming it from
// the store; a game another node owns is an *elsewhere.
func (cl *cluster) own(ctx context.Context, id string) (*actor, error) {
	h := cl.h
	// A lease that has run out while its holder still says it runs is
	// left to it: it is slow (a loaded machine, a slow store), not dead,
	// and will renew it; taking it would only make the game hop between
	// nodes.
	cur, err := cl.leases.Lease(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("live: lease of %s: %w", id, err)
	}
	if to, ok := cl.handedAway(id); ok {
		return nil, &elsewhere{node: to} // being handed over: asked there
	}
	if cur.Node != "" && cur.Node != cl.node && cl.alive(cur.Node) {
		return nil, &elsewhere{node: cur.Node}
	}
	now := time.Now()
	prev, ok, err := cl.leases.TakeLease(ctx, id, cl.node, now, cl.ttl)
	if err != nil {
		return nil, fmt.Errorf("live: lease of %s: %w", id, err)
	}
	if !ok {
		return nil, &elsewhere{node: prev.Node}
	}
	s, err := h.cfg.Store.Game(ctx, id)
	if err != nil {
		cl.leases.ReleaseLease(context.WithoutCancel(ctx), id, cl.node, time.Time{})
		if errors.Is(err, ErrNotFound) {
			return nil, errorf(apierr.CodeNotFound, "there is no game %q", id)
		}
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	var rs *resumed
	if s.End == nil {
		// Taken over (or resumed after every node stopped): the clocks
		// are charged until the owner was last known to run.
		stopped := prev.Renewed
		if prev.Node == "" {
			if stopped, err = h.cfg.Store.LastAlive(ctx); err != nil {
				return nil, fmt.Errorf("resume %s: %w", id, err)
			}
		}
		rs = &resumed{stopped: stopped, now: now}
	}
	g, err := newGame(h, s, rs)
	if err != nil {
		return nil, err
	}
	if st := g.clock.State(); rs != nil && st.Running {
		// Stored before the game runs, as Resume does: a second takeover
		// must not forgive this downtime again.
		if err := h.cfg.Store.SaveClocks(ctx, map[string]clock.State{id: st}, now); err != nil {
			return nil, fmt.Errorf("resume %s: store the clock: %w", id, err)
		}
	}
	if rs != nil && prev.Node != "" && prev.Node != cl.node {
		cl.takeovers.Add(1)
		h.log.Info("game taken over", "game", id, "from", prev.Node, "renewed", prev.Renewed)
	}
	// After the lease is stored, so that a renewal that does not list
	// the game is one that began before it was taken (fence).
	g.leased = time.Now()
	return h.launch(g), nil
}

// resume takes every orphaned game (Hub.Resume on a node) and returns how
// many it started.
func (cl *cluster) resume(ctx context.Context) (int, error) {
	ids, err := cl.leases.Orphans(ctx, time.Now())
	if err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	n := 0
	for _, id := range ids {
		cl.h.mu.Lock()
		_, running := cl.h.games[id]
		cl.h.mu.Unlock()
		if _, handed := cl.handedAway(id); running || handed {
			continue // ours, its renewal late; or handed to another node, which takes it
		}
		if _, err := cl.own(ctx, id); err == nil {
			n++
			cl.closeProxies(id)
		} else if !isElsewhere(err) {
			cl.h.log.Error("resume game", "game", id, "err", err)
		}
	}
	return n, nil
}

func isElsewhere(err error) bool {
	var e *elsewhere
	return errors.As(err, &e)
}

// renewLoop renews the leases and says the node runs, every LeaseRenew
// until the hub stops: on a goroutine of its own, so that nothing else (a
// sweep taking many games) delays it.
func (cl *cluster) renewLoop() {
	h := cl.h
	defer h.wg.Done()
	t := time.NewTicker(cl.renew)
	defer t.Stop()
	lastOK := time.Now()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-t.C:
			if err := cl.bus.Publish(subjAlive, []byte(cl.node)); err != nil {
				h.log.Error("bus: alive", "err", err)
			}
			cl.publishLoad()
			cl.publishGames(time.Now())
			// Now, not the tick's time, which may be late: the lease
			// runs from the renewal, and the fence compares with it.
			now := time.Now()
			held, err := cl.leases.RenewLeases(h.ctx, cl.node, now, cl.ttl)
			switch {
			case err == nil:
				lastOK = now
				cl.held.Store(int64(len(held)))
				cl.fence(now, held)
			case h.ctx.Err() != nil:
				return
			default:
				h.log.Error("renew leases", "err", err)
				if now.Sub(lastOK) >= cl.ttl-cl.renew {
					// Another node may take them any moment now.
					cl.fence(now, nil)
				}
			}
		}
	}
}

// sweepLoop takes orphaned games and closes what the nodes not heard of
// for a lease's time left behind, every LeaseRenew until the hub stops.
func (cl *cluster) sweepLoop() {
	h := cl.h
	defer h.wg.Done()
	t := time.NewTicker(cl.renew)
	defer t.Stop()
	var balanced time.Time
	for {
		select {
		case <-h.ctx.Done():
			return
		case now := <-t.C:
			if _, err := cl.resume(h.ctx); err != nil && h.ctx.Err() == nil {
				h.log.Error("sweep orphaned games", "err", err)
			}
			cl.dropSilent(now)
			if cl.every > 0 && now.Sub(balanced) >= cl.every {
				balanced = now
				cl.rebalance(now)
			}
		case <-cl.kick:
			if _, err := cl.resume(h.ctx); err != nil && h.ctx.Err() == nil {
				h.log.Error("sweep orphaned games", "err", err)
			}
		}
	}
}

// fence stops the actors, leased before renewing at now, whose game is not
// in held: another node owns them.
func (cl *cluster) fence(now time.Time, held []string) {
	keep := make(map[string]bool, len(held))
	for _, id := range held {
		keep[id] = true
	}
	h := cl.h
	h.mu.Lock()
	var lost []*actor
	for id, g := range h.games {
		if !keep[id] && g.leased.Before(now) {
			lost = append(lost, g)
		}
	}
	h.mu.Unlock()
	for _, g := range lost {
		h.log.Warn("lease lost: stopping the game here", "game", g.spec.ID)
		g.killOnce.Do(func() { close(g.kill) })
	}
}

// release gives up the lease of g, whose actor exits: kept as expired now
// when the hub stops (so that the next owner charges the clocks until
// now), deleted when the game needs no owner any more.
func (cl *cluster) release(g *actor) {
	var at time.Time
	select {
	case <-g.kill:
		if to := g.handoff.Load(); to != nil {
			// Handed over: to takes it, charging the clocks until now.
			if err := cl.leases.HandLease(g.storeCtx(), g.spec.ID, cl.node, *to, time.Now()); err != nil {
				g.log.Error("hand lease over", "to", *to, "err", err)
			}
		}
		return // not ours any more
	default:
		if cl.h.ctx.Err() != nil {
			at = time.Now()
		}
	}
	if err := cl.leases.ReleaseLease(g.storeCtx(), g.spec.ID, cl.node, at); err != nil {
		g.log.Error("release lease", "err", err)
	}
}

// ---- the proxy side: sockets of this node, games of another ----

// joinRemote joins game id on node owner for who and returns the
// connection that relays it.
func (cl *cluster) joinRemote(ctx context.Context, owner, id string, who Chatter) (*Conn, error) {
	h := cl.h
	c := &Conn{viewer: who.ID, out: make(chan []byte, h.cfg.OutBuffer), seq: h.seq.Add(1), who: who, color: -1}
	px := &proxy{cl: cl, c: c, owner: owner, game: id}
	c.px = px
	rctx, cancel := context.WithTimeout(ctx, cl.ttl)
	defer cancel()
	px.abort = cancel
	cl.mu.Lock()
	cl.proxies[c.seq] = px
	if _, ok := cl.heard[owner]; !ok {
		cl.hearLocked(owner)
	}
	boot := cl.boot
	cl.mu.Unlock()
	req, _ := json.Marshal(joinReq{Game: id, Who: who, From: cl.node, Boot: boot, Conn: c.seq})
	b, err := cl.request(rctx, subjNode+owner+".join", req)
	var resp joinResp
	if err == nil {
		err = json.Unmarshal(b, &resp)
	}
	if err == nil && resp.Err != nil {
		err = resp.Err
	}
	if err != nil {
		cl.mu.Lock()
		aborted := px.closed && ctx.Err() == nil
		cl.forgotten[c.seq] = forgotten{owner: owner, at: time.Now()}
		cl.mu.Unlock()
		cl.closeProxy(px, false)
		var le *Error
		switch {
		case aborted:
			return nil, errOwnerLeft
		case errors.As(err, &le):
			return nil, le
		}
		return nil, errMoving(id, err)
	}
	px.spectator = resp.Spectator
	cl.mu.Lock()
	px.ownerBoot = resp.Boot
	px.abort = nil
	cl.mu.Unlock()
	return c, nil
}

// errOwnerLeft is joinRemote's when its proxy was closed while the owner
// had not answered: the owner said goodbye, or this node took the game.
// Where the game runs now is looked up again.
var errOwnerLeft = errors.New("live: the game's owner gave it up during the join")

// send passes a socket's message to the owner.
func (cl *cluster) send(px *proxy, m ClientMsg) bool {
	cl.mu.Lock()
	closed := px.closed
	cl.mu.Unlock()
	if closed {
		return false
	}
	b, _ := json.Marshal(cmdMsg{From: cl.node, Conn: px.c.seq, Msg: &m})
	if err := cl.bus.Publish(subjNode+px.owner+".cmd", b); err != nil {
		cl.closeProxy(px, true)
		return false
	}
	return true
}

// closeProxy closes px's channel (once), telling its owner when tell is
// set.
func (cl *cluster) closeProxy(px *proxy, tell bool) {
	cl.mu.Lock()
	if px.closed {
		cl.mu.Unlock()
		return
	}
	px.closed = true
	delete(cl.proxies, px.c.seq)
	px.c.close()
	abort := px.abort
	cl.mu.Unlock()
	if abort != nil {
		abort()
	}
	if tell {
		cl.tellLeave(px.owner, px.c.seq)
	}
}

func (cl *cluster) tellLeave(owner string, conn uint64) {
	b, _ := json.Marshal(cmdMsg{From: cl.node, Conn: conn, Leave: true})
	cl.bus.Publish(subjNode+owner+".cmd", b)
}

// closeProxies closes the proxies of game id (this node took it over):
// their clients reconnect, here.
func (cl *cluster) closeProxies(id string) {
	cl.mu.Lock()
	var ps []*proxy
	for _, px := range cl.proxies {
		if px.game == id {
			ps = append(ps, px)
		}
	}
	cl.mu.Unlock()
	for _, px := range ps {
		cl.closeProxy(px, false)
	}
}

// onConn relays an owner's message to its proxied socket.
func (cl *cluster) onConn(subject string, data []byte, _ func([]byte)) {
	seq, err := strconv.ParseUint(subject[strings.LastIndexByte(subject, '.')+1:], 10, 64)
	if err != nil || len(data) == 0 {
		return
	}
	cl.mu.Lock()
	px, ok := cl.proxies[seq]
	if !ok {
		f, ok := cl.forgotten[seq]
		delete(cl.forgotten, seq)
		cl.mu.Unlock()
		if ok && data[0] == 'm' {
			// A socket whose join this node gave up on, which the owner
			// made after all: the owner must forget it too.
			cl.tellLeave(f.owner, seq)
		}
		return
	}
	cl.hearLocked(px.owner)
	full := false
	switch data[0] {
	case 'm':
		full = !px.c.queue(data[1:])
	case 'c':
		if r := string(data[1:]); r != "" {
			px.c.reason.Store(&r)
		}
		px.closed = true
		delete(cl.proxies, seq)
		px.c.close()
	}
	cl.mu.Unlock()
	if full {
		cl.closeProxy(px, true) // too slow: its client reconnects and resyncs
	}
}

// ---- the owner side: games of this node, sockets of another ----

func servedKey(from string, conn uint64) string { return from + "/" + strconv.FormatUint(conn, 10) }

func (cl *cluster) onJoin(_ string, data []byte, reply func([]byte)) {
	var req joinReq
	if err := json.Unmarshal(data, &req); err != nil {
		return
	}
	go func() {
		h := cl.h
		c, err := h.join(h.ctx, req.Game, req.Who, true)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) {
				le = errorf(apierr.CodeInternal, "%v", err)
			}
			b, _ := json.Marshal(joinResp{Err: le})
			reply(b)
			return
		}
		key := servedKey(req.From, req.Conn)
		cl.mu.Lock()
		cl.served[key] = &served{c: c, from: req.From, boot: req.Boot}
		cl.hearLocked(req.From)
		boot := cl.boot
		cl.mu.Unlock()
		b, _ := json.Marshal(joinResp{Spectator: c.Spectator(), Boot: boot})
		reply(b)
		subj := subjConn + req.From + "." + strconv.FormatUint(req.Conn, 10)
		for m := range c.Out() {
			cl.bus.Publish(subj, append([]byte{'m'}, m...))
		}
		cl.bus.Publish(subj, append([]byte{'c'}, c.Reason()...))
		cl.mu.Lock()
		delete(cl.served, key)
		cl.mu.Unlock()
	}()
}

func (cl *cluster) onCmd(_ string, data []byte, _ func([]byte)) {
	var m cmdMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return
	}
	cl.mu.Lock()
	s := cl.served[servedKey(m.From, m.Conn)]
	cl.hearLocked(m.From)
	cl.mu.Unlock()
	if s == nil {
		return
	}
	switch {
	case m.Leave:
		s.c.Leave()
	case m.Msg != nil:
		s.c.Send(*m.Msg)
	}
}

func (cl *cluster) onState(_ string, data []byte, reply func([]byte)) {
	id := string(data)
	go func() {
		var resp stateResp
		st, err := cl.h.state(cl.h.ctx, id, true)
		if err != nil {
			if !errors.As(err, &resp.Err) {
				resp.Err = errorf(apierr.CodeInternal, "%v", err)
			}
		} else {
			resp.State = &st
		}
		b, _ := json.Marshal(resp)
		reply(b)
	}()
}

// remoteState asks owner for the state of game id.
func (cl *cluster) remoteState(ctx context.Context, owner, id string) (State, error) {
	rctx, cancel := context.WithTimeout(ctx, cl.ttl)
	defer cancel()
	b, err := cl.request(rctx, subjNode+owner+".state", []byte(id))
	if err != nil {
		return State{}, errMoving(id, err)
	}
	var resp stateResp
	if err := json.Unmarshal(b, &resp); err != nil {
		return State{}, fmt.Errorf("live: state of %s from %s: %w", id, owner, err)
	}
	if resp.Err != nil {
		return State{}, resp.Err
	}
	if resp.State == nil {
		return State{}, fmt.Errorf("live: state of %s from %s: empty answer", id, owner)
	}
	return *resp.State, nil
}

func (cl *cluster) onAlive(_ string, data []byte, _ func([]byte)) {
	cl.mu.Lock()
	cl.hearLocked(string(data))
	cl.mu.Unlock()
}

// dropSilent closes the proxies to owners and the served sockets of nodes
// not heard of for a lease's time: they died. The proxies' clients
// reconnect; the game's next owner is whoever takes its lease.
func (cl *cluster) dropSilent(now time.Time) {
	cl.mu.Lock()
	silent := func(node string) bool { return node != cl.node && now.Sub(cl.heard[node]) > cl.ttl }
	var ps []*proxy
	for _, px := range cl.proxies {
		if silent(px.owner) {
			ps = append(ps, px)
		}
	}
	for seq, f := range cl.forgotten {
		if now.Sub(f.at) > cl.ttl {
			delete(cl.forgotten, seq)
		}
	}
	var ss []*served
	for _, s := range cl.served {
		if silent(s.from) {
			ss = append(ss, s)
		}
	}
	cl.mu.Unlock()
	for _, px := range ps {
		cl.closeProxy(px, false)
	}
	for _, s := range ss {
		s.c.Leave()
	}
}
