package botapi

import (
	"encoding/json"
	"sync"

	"github.com/toguz/toguz/internal/game"
)

// Events delivers the event streams' events to their users: each
// stream's queue is bounded, and a stream that cannot keep up is ended
// (its client reconnects and is sent the games and challenges again).
//
// Locking: mu guards subs; events are encoded before it is taken and
// queued without blocking under it.
type Events struct {
	// isBot tells a bot account (set by New from Config.Store; nil: none
	// is known).
	isBot func(uid int64) bool

	mu    sync.Mutex
	subs  map[int64]map[*botSub]struct{}
	nodes *botNodes // nil: one node (nodes.go)
}

type botSub struct {
	ch   chan []byte
	gone chan struct{} // closed when the stream was too slow
	shut bool
}

// botSubBuffer is the events queued for one stream before it is ended.
const botSubBuffer = 64

// NewEvents returns a fan-out with no streams.
func NewEvents() *Events { return &Events{subs: map[int64]map[*botSub]struct{}{}} }

func (e *Events) subscribe(uid int64) *botSub {
	sub := &botSub{ch: make(chan []byte, botSubBuffer), gone: make(chan struct{})}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.subs[uid] == nil {
		e.subs[uid] = map[*botSub]struct{}{}
	}
	e.subs[uid][sub] = struct{}{}
	return sub
}

func (e *Events) unsubscribe(uid int64, sub *botSub) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.subs[uid], sub)
	if len(e.subs[uid]) == 0 {
		delete(e.subs, uid)
	}
}

// Online reports whether user has an event stream open.
func (e *Events) Online(uid int64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.subs[uid]) > 0
}

// send queues v for every stream of user uid, on every node.
func (e *Events) send(uid int64, v any) {
	if uid == 0 {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	e.mu.Lock()
	n := e.nodes
	e.mu.Unlock()
	if n != nil {
		m, _ := json.Marshal(busEvent{From: n.node, UID: uid, Msg: b})
		n.bus.Publish(subjBotEvent, m)
	}
	e.deliver(uid, b)
}

// node returns this node's id ("": one node).
func (e *Events) node() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.nodes == nil {
		return ""
	}
	return e.nodes.node
}

// clustered reports whether the streams may be on other nodes.
func (e *Events) clustered() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.nodes != nil
}

// deliver queues the encoded event b on this node's streams of uid.
func (e *Events) deliver(uid int64, b []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for sub := range e.subs[uid] {
		select {
		case sub.ch <- b:
		default:
			if !sub.shut {
				sub.shut = true
				close(sub.gone)
			}
		}
	}
}

// GameEnded tells the players of a finished game on their event streams
// (live.Config.OnEnd). It does not block: the events are made on a
// goroutine of their own, since the perf asks the store.
func (e *Events) GameEnded(sv game.Saved) {
	if sv.End == nil || (!e.clustered() && !e.Online(sv.White.UserID) && !e.Online(sv.Black.UserID)) {
		return
	}
	go func() {
		for _, seat := range []game.Seat{sv.White, sv.Black} {
			if seat.UserID != 0 {
				e.send(seat.UserID, gameEventOf("gameFinish", sv.Spec, seat.UserID, sv.End, e.isBot))
			}
		}
	}()
}
