package live

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz/internal/apierr"
)

// fanout sends a game's messages to its spectators, so that however many
// watch, and however slowly they read, the game goroutine does the same
// work: it hands each message, already encoded, with the spectators' state
// after it, to the fan-out (publish: an append under a lock no one holds
// for long) and never writes to a spectator itself. The fan-out's own
// goroutine, started with the first spectator and gone with the last,
// queues the message on each spectator's connection without blocking.
//
// Coalescing: the state is encoded once per change and shared; the
// fan-out runs in rounds, at most 20 a second, and moves made in a row
// within one round are sent as the state after them when that is shorter;
// a spectator
// whose queue is full has its backlog replaced by the latest state (one
// message instead of many), and one that falls behind again and again is
// dropped with a reason (its client reconnects and resyncs). When the
// fan-out itself falls behind, the messages it has not sent are dropped
// and every spectator gets the latest state instead. A spectator's sync is
// answered by the fan-out from the shared state, never by the game.
//
// Locking: mu guards the fields up to the line; those below it belong to
// the one fan-out goroutine running (mu hands them from one to the next).
type fanout struct {
	g    *actor
	wake chan struct{} // one pending wake-up of the goroutine

	mu      sync.Mutex
	n       int       // spectators joined and not gone
	state   []byte    // the spectators' state after the last message queued; nil while n == 0
	stateAt time.Time // when state was encoded: its running clock is reclocked from then
	events  []fanEvent
	resync  bool // queued messages were dropped: send everyone the state
	running bool
	closed  bool    // the game has stopped
	chat    chatLog // the spectators' room (social.go)

	// ---- owned by the fan-out goroutine ----
	subs     map[*Conn]*spectator
	cur      []byte             // the state as of the last event handled
	curAt    time.Time          // when cur was encoded
	deferred map[*Conn]struct{} // spectators whose sync waits for stateEvery
	now      time.Time          // the time of the round
	sent     int                // deliveries in the round
}

// spectator is what the fan-out knows of one spectator's connection.
type spectator struct {
	resyncs   int       // backlogs replaced since since
	since     time.Time // start of the window resyncs counts in
	lastState time.Time // when it was last sent the state
}

type fanKind uint8

const (
	fanMsg   fanKind = iota // msg to every spectator, state the state after it
	fanJoin                 // c joins; msg is the state it starts from
	fanLeave                // c leaves
	fanSync                 // c asked for the state
	fanReply                // msg to c alone
	fanAll                  // msg to every spectator, the state unchanged (chat)
)

type fanEvent struct {
	kind       fanKind
	c          *Conn
	msg, state []byte
	at         time.Time // when state (a join's: msg) was encoded
	coalesced  bool      // msg is state, standing for moves in a row
	history    []byte    // a join's: the spectators' chat history, nil if none
	move       bool      // msg is a move message
}

// moveType starts every move message (moveMsg, encoded by mustJSON).
var moveType = []byte(`{"type":"move",`)

const (
	// maxFanEvents is how many events the fan-out may be behind before
	// its queued messages are replaced by the state.
	maxFanEvents = 1024
	// maxResyncs within resyncWindow drop a spectator as too slow.
	maxResyncs   = 3
	resyncWindow = time.Minute
	// fanInterval is the least time between two rounds of the fan-out:
	// the players' messages go first, and the spectators get at most 20
	// rounds a second, several messages of a round coalesced into the
	// state.
	fanInterval = 50 * time.Millisecond
	// fanChunk deliveries, then a pause of fanPause.
	fanChunk = 64
	fanPause = time.Millisecond
	// stateEvery: a spectator is sent the state at most this often in
	// answer to his syncs.
	stateEvery = 5 * time.Second
)

// errGameStopped: the game's goroutine exited as a spectator came; the hub
// looks the game up again.
var errGameStopped = errors.New("live: the game stopped")

// Reasons a spectator's connection is closed with (Conn.Reason).
const (
	reasonSlow = "too slow: reconnect and sync"
)

func newFanout(g *actor) *fanout {
	return &fanout{g: g, wake: make(chan struct{}, 1), subs: map[*Conn]*spectator{}, deferred: map[*Conn]struct{}{}}
}

// watched reports whether anyone watches (the game then encodes the
// spectators' state with each message).
func (f *fanout) watched() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n > 0
}

// count returns the number of spectators.
func (f *fanout) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// publish hands msg, and the spectators' state after it, to the fan-out.
// It is called by the game goroutine and never blocks on a spectator.
func (f *fanout) publish(msg, state []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 || f.closed {
		return
	}
	f.state, f.stateAt = state, time.Now()
	f.pushLocked(fanEvent{kind: fanMsg, msg: msg, state: state, at: f.stateAt, move: bytes.HasPrefix(msg, moveType)})
}

// pushLocked queues e and wakes (or starts) the goroutine.
func (f *fanout) pushLocked(e fanEvent) {
	if f.closed {
		return
	}
	if e.kind == fanMsg && len(f.events) >= maxFanEvents {
		f.events = slices.DeleteFunc(f.events, func(e fanEvent) bool { return e.kind == fanMsg })
		f.resync = true
		return
	}
	f.events = append(f.events, e)
	f.startLocked()
}

func (f *fanout) startLocked() {
	if !f.running {
		f.running = true
		f.g.hub.wg.Add(1)
		go f.run()
		return
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// join adds spectator c. When the state is at hand (someone watches
// already) the game is not involved; otherwise the game encodes it, and
// from then on encodes it with each message.
func (f *fanout) join(c *Conn, max int) error {
	f.mu.Lock()
	switch {
	case f.closed:
		f.mu.Unlock()
		return errGameStopped
	case max > 0 && f.n >= max:
		f.mu.Unlock()
		return errorf(apierr.CodeTooManySpectators, "this game has %d spectators, the most it may have", f.n)
	case f.state != nil:
		f.n++
		f.pushLocked(fanEvent{kind: fanJoin, c: c, msg: f.state, at: f.stateAt, history: f.chat.history(RoomSpectators)})
		f.mu.Unlock()
		return nil
	}
	f.mu.Unlock()
	err, ok := ask(context.Background(), f.g, func() error {
		st := f.g.stateJSON(nil)
		f.mu.Lock()
		defer f.mu.Unlock()
		if max > 0 && f.n >= max {
			return errorf(apierr.CodeTooManySpectators, "this game has %d spectators, the most it may have", f.n)
		}
		f.n++
		f.state, f.stateAt = st, time.Now()
		f.pushLocked(fanEvent{kind: fanJoin, c: c, msg: st, at: f.stateAt, history: f.chat.history(RoomSpectators)})
		return nil
	})
	if !ok {
		return errGameStopped
	}
	return err
}

// leave removes spectator c (a second call does nothing).
func (f *fanout) leave(c *Conn) {
	f.mu.Lock()
	f.pushLocked(fanEvent{kind: fanLeave, c: c})
	f.mu.Unlock()
	f.gone(c)
}

// gone counts c out once, whether it left or was dropped.
func (f *fanout) gone(c *Conn) {
	if !c.gone.CompareAndSwap(false, true) {
		return
	}
	f.mu.Lock()
	f.n--
	last := f.n == 0
	if last {
		f.state = nil // nobody watches: the game stops encoding it
	}
	f.mu.Unlock()
	f.g.hub.spectators.release(c.addr)
	if last {
		f.g.do(func() {}) // a finished game may stop once nobody watches it
	}
}

// handle answers a spectator's message without the game: spectators may
// only ask for the state (the other messages of game.handle are refused).
func (f *fanout) handle(c *Conn, m ClientMsg) bool {
	e := fanEvent{kind: fanReply, c: c}
	switch m.Type {
	case "sync":
		e.kind = fanSync
	case "chat_history":
		f.mu.Lock()
		e.msg = f.chat.historyAll(RoomSpectators)
		f.mu.Unlock()
	case "chat":
		if err := f.postChat(c, m.Text); err != nil {
			e.msg = EncodeError(err, nil)
		} else {
			return true
		}
	case "move", "resign", "draw_offer", "draw_accept", "draw_decline", "abort", "claim_win",
		"rematch_offer", "rematch_accept", "rematch_decline", "takeback_offer", "takeback_accept", "takeback_decline":
		e.msg = EncodeError(errorf(apierr.CodeNotAPlayer, "you are not playing in this game"), nil)
	case "take_control":
		e.msg = EncodeError(errorf(apierr.CodeNotAPlayer, "spectators have nothing to control"), nil)
	default:
		e.msg = EncodeError(errorf(apierr.CodeBadMessage, "unknown message type %q", m.Type), nil)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.pushLocked(e)
	return true
}

// close drops every spectator: the game has stopped.
func (f *fanout) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	f.closed = true
	if f.running {
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
}

// run is the fan-out goroutine: it handles the queued events in rounds,
// at most one every fanInterval, and exits when no spectator is left.
func (f *fanout) run() {
	defer f.g.hub.wg.Done()
	var wait *time.Timer
	for {
		f.mu.Lock()
		events, resync, latest, latestAt, closed := f.events, f.resync, f.state, f.stateAt, f.closed
		f.events, f.resync = nil, false
		if closed {
			f.mu.Unlock()
			for c := range f.subs {
				f.remove(c, "")
			}
			for _, e := range events {
				if e.kind == fanJoin {
					e.c.close()
					f.gone(e.c)
				}
			}
			f.mu.Lock()
			f.running = false
			f.mu.Unlock()
			return
		}
		if len(events) == 0 && !resync {
			if len(f.subs) == 0 {
				f.running = false
				f.mu.Unlock()
				return
			}
			f.mu.Unlock()
			if len(f.deferred) == 0 {
				<-f.wake
				continue
			}
			// Syncs wait for their spectator's next state.
			if wait == nil {
				wait = time.NewTimer(stateEvery)
			}
			wait.Reset(stateEvery / 4)
			select {
			case <-f.wake:
			case <-wait.C:
			}
			f.round(nil, false, nil, time.Time{})
			continue
		}
		f.mu.Unlock()
		f.round(events, resync, latest, latestAt)
		// The spectators' work waits: what happens meanwhile is sent in
		// the next round, coalesced into the state when it is more than
		// one message.
		time.Sleep(fanInterval)
	}
}

// round handles one batch of events in order, moves in a row replaced by
// the state after the last of them when it is shorter than they are; after a resync (the fan-out fell
// behind and its messages were dropped) everyone gets latest.
func (f *fanout) round(events []fanEvent, resync bool, latest []byte, latestAt time.Time) {
	f.now = time.Now()
	f.sent = 0
	if !resync {
		for i := 0; i < len(events); i++ {
			e := events[i]
			j, size := i, len(e.msg)
			for e.move && j+1 < len(events) && events[j+1].move {
				j++
				size += len(events[j].msg)
			}
			if j > i && size >= len(events[j].state) {
				// Moves in a row, longer than the state after the last,
				// which says it all.
				e, i = fanEvent{kind: fanMsg, msg: events[j].state, state: events[j].state, at: events[j].at, coalesced: true}, j
			}
			f.handleEvent(e)
		}
	} else {
		f.cur, f.curAt = latest, latestAt
		for _, e := range events {
			switch e.kind {
			case fanJoin:
				f.subs[e.c] = &spectator{}
				if e.history != nil {
					f.deliver(e.c, e.history)
				}
			case fanMsg:
			default:
				f.handleEvent(e)
			}
		}
		st := f.fresh()
		for c, sp := range f.subs {
			f.deliver(c, st)
			sp.lastState = f.now
			delete(f.deferred, c)
		}
	}
	for c := range f.deferred {
		if sp := f.subs[c]; sp == nil {
			delete(f.deferred, c)
		} else if f.now.Sub(sp.lastState) >= stateEvery {
			delete(f.deferred, c)
			f.deliver(c, f.fresh())
			sp.lastState = f.now
		}
	}
}

// fresh returns the state as of the last event handled, its running clock
// (and the first-move countdown) told as of now: a state encoded at a move
// and sent later (to a spectator who joins or syncs) must not show the
// clocks as they were at the move.
func (f *fanout) fresh() []byte {
	return reclock(f.cur, f.curAt, f.now)
}

func (f *fanout) handleEvent(e fanEvent) {
	if e.kind == fanMsg {
		f.cur, f.curAt = e.state, e.at
		msg := e.msg
		if e.coalesced {
			msg = f.fresh()
		}
		for c := range f.subs {
			f.deliver(c, msg)
		}
		return
	}
	if e.kind == fanJoin {
		f.subs[e.c] = &spectator{lastState: f.now}
		f.cur, f.curAt = e.msg, e.at
		f.deliver(e.c, f.fresh())
		if e.history != nil {
			f.deliver(e.c, e.history)
		}
		return
	}
	if e.kind == fanAll {
		for c := range f.subs {
			f.deliver(c, e.msg)
		}
		return
	}
	sp, ok := f.subs[e.c]
	if !ok {
		return
	}
	switch e.kind {
	case fanLeave:
		f.remove(e.c, "")
	case fanSync:
		// A spectator is sent every message, or the state when it falls
		// behind: a sync only repeats the state. It is answered at once,
		// or with the spectator's next state when it had one within
		// stateEvery.
		if f.now.Sub(sp.lastState) < stateEvery {
			f.deferred[e.c] = struct{}{}
			return
		}
		sp.lastState = f.now
		f.deliver(e.c, f.fresh())
	case fanReply:
		f.deliver(e.c, e.msg)
	}
}

// deliver queues b for c without blocking. When c's queue is full its
// backlog is replaced by the latest state (f.cur, after b); a spectator that keeps
// falling behind is dropped. Every fanChunk deliveries the fan-out pauses,
// so that the connections' writers it wakes are never so many at once
// that the players' goroutines queue behind them.
func (f *fanout) deliver(c *Conn, b []byte) {
	if f.sent++; f.sent%fanChunk == 0 {
		time.Sleep(fanPause)
	}
	if c.queue(b) {
		return
	}
	sp := f.subs[c]
	if f.now.Sub(sp.since) > resyncWindow {
		sp.resyncs, sp.since = 0, f.now
	}
	if sp.resyncs++; sp.resyncs > maxResyncs {
		f.g.log.Warn("dropping a slow spectator")
		f.remove(c, reasonSlow)
		return
	}
	for len(c.out) > 0 {
		select {
		case <-c.out:
		default:
		}
	}
	if c.queue(f.fresh()) {
		sp.lastState = f.now
	} // else the writer took one meanwhile and the queue refilled: unlikely; it resyncs next time
}

// remove closes c's channel (only the fan-out goroutine sends on it, so
// only it closes it) and counts it out.
func (f *fanout) remove(c *Conn, reason string) {
	delete(f.subs, c)
	if reason != "" {
		c.reason.Store(&reason)
	}
	c.close()
	f.gone(c)
}

// addrCounts counts the spectators per client address.
type addrCounts struct {
	mu sync.Mutex
	n  map[string]int
}

// acquire counts one more spectator from addr, unless max are there
// already (max <= 0: no bound).
func (a *addrCounts) acquire(addr string, max int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[string]int{}
	}
	if max > 0 && a.n[addr] >= max {
		return false
	}
	a.n[addr]++
	return true
}

func (a *addrCounts) release(addr string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n[addr]--; a.n[addr] <= 0 {
		delete(a.n, addr)
	}
}

// spectatorFields are the fields of a Conn that only spectators use.
type spectatorFields struct {
	fan    *fanout // nil for a player's connection
	addr   string
	gone   atomic.Bool
	reason atomic.Pointer[string]
}
