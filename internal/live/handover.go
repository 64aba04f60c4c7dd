package live

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// A clean stop hands its games over at once: the stopping node's actors
// release their leases (expired at the instant of the stop) as they exit,
// and then the node says goodbye on toguz.bye. A node that hears it
// forgets that it heard the leaving node (so that its expired leases are
// not left to a node that looks alive), closes its sockets to the node's
// games (ending the joins the node had not answered, which it never will:
// they are looked up again) and sweeps at once: the first to take a
// game's lease runs it, charging the clocks until the stop. Without
// the goodbye (a crash) the others wait until the node has been silent
// for a lease's time.

const subjBye = "toguz.bye"

// bye tells the other nodes that this one has stopped and released its
// leases.
func (cl *cluster) bye() {
	if err := cl.bus.Publish(subjBye, []byte(cl.node)); err != nil {
		cl.h.log.Error("bus: goodbye", "err", err)
	}
}

func (cl *cluster) onBye(_ string, data []byte, _ func([]byte)) {
	node := string(data)
	if node == cl.node {
		return
	}
	cl.mu.Lock()
	// Heard long ago: alive reports false, and dropSilent closes what
	// is left of the node's proxies and served sockets.
	cl.heard[node] = time.Time{}
	delete(cl.lists, node) // its games are gone from the list until their next owner publishes them
	cl.left[node] = time.Now()
	var ps []*proxy
	for _, px := range cl.proxies {
		if px.owner == node {
			ps = append(ps, px)
		}
	}
	cl.mu.Unlock()
	// Its sockets are gone, and a join it had not answered never will
	// be: their clients join again, where the games run next.
	for _, px := range ps {
		cl.closeProxy(px, false)
	}
	select {
	case cl.kick <- struct{}{}:
	default:
	}
}

// hearLocked notes that node was heard of now, unless it said goodbye
// within a lease's time and has not said hello since. Each subject's
// handler runs on its own goroutine: a message the node sent before its
// goodbye (an alive, the close of a socket it served, which it sends
// after its actors have exited) may be handled after the goodbye, and
// must not make it look alive again, or its released games would wait
// for the crash delay. cl.mu is held.
func (cl *cluster) hearLocked(node string) {
	if at, ok := cl.left[node]; ok {
		if time.Since(at) <= cl.ttl {
			return
		}
		delete(cl.left, node)
	}
	cl.heard[node] = time.Now()
}

// Rebalancing: every node publishes how many games it runs on toguz.load
// with each renewal. Every Config.Rebalance a node that runs more than
// its share (the games of the nodes heard of, divided among them, plus a
// tenth and one, so that games do not hop back and forth) hands the
// excess, at most maxHandover at a time, to the node that runs the fewest:
// it stops those actors, each handing its lease to that node as it exits
// (expired at that instant, so that the node's TakeLease charges the
// clocks until then, and this node's renewals leave it alone), and asks
// the node to adopt them (toguz.node.N.adopt). The games' sockets close and reconnect,
// to any node, as after a takeover; the clocks are charged until the
// release. The games it handed over are left to that node by its own
// sweep for a lease's time; if the node does not take them, they are
// orphans again after that, and the sweep of the first node to see them
// takes them (it may be this one).

const (
	subjLoad = "toguz.load"
	// DefaultRebalance is how often a node compares its load.
	DefaultRebalance = 5 * time.Second
	// maxHandover is the most games a node hands over in one round.
	maxHandover = 32
	// adoptTimeout bounds an adoption (a few store round trips a game).
	adoptTimeout = 30 * time.Second
)

type nodeLoad struct {
	games int
	at    time.Time
}

type loadMsg struct {
	Node  string `json:"node"`
	Games int    `json:"games"`
}

type adoptReq struct {
	From  string   `json:"from"`
	Games []string `json:"games"`
}

type adoptResp struct {
	Taken int `json:"taken"`
}

// running returns the games this node runs that are being played.
func (cl *cluster) running() []*actor {
	h := cl.h
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*actor, 0, len(h.games))
	for _, g := range h.games {
		if !g.over.Load() {
			out = append(out, g)
		}
	}
	return out
}

func (cl *cluster) publishLoad() {
	n := len(cl.running())
	b, _ := json.Marshal(loadMsg{Node: cl.node, Games: n})
	cl.mu.Lock()
	cl.loads[cl.node] = nodeLoad{games: n, at: time.Now()}
	cl.mu.Unlock()
	cl.bus.Publish(subjLoad, b)
}

func (cl *cluster) onLoad(_ string, data []byte, _ func([]byte)) {
	var m loadMsg
	if json.Unmarshal(data, &m) != nil || m.Node == cl.node {
		return
	}
	cl.mu.Lock()
	cl.loads[m.Node] = nodeLoad{games: m.Games, at: time.Now()}
	cl.mu.Unlock()
}

type handedTo struct {
	node string
	at   time.Time
}

// handedAway reports whether this node handed game id to another within
// a lease's time, and to which.
func (cl *cluster) handedAway(id string) (string, bool) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	h, ok := cl.handed[id]
	if ok && time.Since(h.at) > cl.ttl {
		delete(cl.handed, id)
		return "", false
	}
	return h.node, ok
}

// share returns how many games this node should hand to which node now:
// none unless it runs more than its share plus a tenth and one, and
// another runs less than its share.
func share(self string, loads map[string]int) (to string, n int) {
	total := 0
	for _, g := range loads {
		total += g
	}
	fair := total / len(loads)
	mine := loads[self]
	if mine <= fair+1+fair/10 {
		return "", 0
	}
	least := -1
	for node, g := range loads {
		if node != self && (least < 0 || g < least || g == least && node < to) {
			to, least = node, g
		}
	}
	if least < 0 || least >= fair {
		return "", 0
	}
	return to, min(mine-fair, fair-least, maxHandover)
}

// rebalance hands this node's excess games to the least loaded node.
// One handover at a time, and none until every node has reported its
// load after the last one (the loads it would read are stale until then).
func (cl *cluster) rebalance(now time.Time) {
	loads := map[string]int{}
	cl.mu.Lock()
	if cl.balancing || now.Sub(cl.balanced) < 2*cl.renew {
		cl.mu.Unlock()
		return
	}
	for id, h := range cl.handed {
		if now.Sub(h.at) > cl.ttl {
			delete(cl.handed, id)
		}
	}
	for node, l := range cl.loads {
		if now.Sub(l.at) <= cl.ttl && (node == cl.node || now.Sub(cl.heard[node]) <= cl.ttl) {
			loads[node] = l.games
		} else {
			delete(cl.loads, node)
		}
	}
	for _, l := range cl.loads {
		if l.at.Before(cl.balanced) {
			cl.mu.Unlock()
			return // a load from before the last handover
		}
	}
	cl.mu.Unlock()
	if _, ok := loads[cl.node]; !ok || len(loads) < 2 {
		return
	}
	to, n := share(cl.node, loads)
	if n == 0 {
		return
	}
	games := cl.running()
	if len(games) > n {
		games = games[:n]
	}
	ids := make([]string, 0, len(games))
	cl.mu.Lock()
	cl.balancing = true
	for _, g := range games {
		cl.handed[g.spec.ID] = handedTo{node: to, at: now}
		ids = append(ids, g.spec.ID)
	}
	cl.mu.Unlock()
	for _, g := range games {
		g.handoff.Store(&to)
		g.killOnce.Do(func() { close(g.kill) })
	}
	for _, g := range games {
		<-g.done // its lease released
	}
	// Not on the sweep's goroutine: the adoption takes a store's
	// round trips per game.
	cl.h.wg.Add(1)
	go func() {
		defer cl.h.wg.Done()
		defer func() {
			cl.mu.Lock()
			cl.balancing, cl.balanced = false, time.Now()
			cl.mu.Unlock()
		}()
		req, _ := json.Marshal(adoptReq{From: cl.node, Games: ids})
		ctx, cancel := context.WithTimeout(cl.h.ctx, adoptTimeout)
		defer cancel()
		var resp adoptResp
		b, err := cl.bus.Request(ctx, subjNode+to+".adopt", req)
		if err == nil {
			err = json.Unmarshal(b, &resp)
		}
		if err != nil {
			cl.h.log.Warn("rebalance: handing games over", "to", to, "games", len(ids), "err", err)
			return
		}
		cl.handedOver.Add(int64(len(ids)))
		cl.h.log.Info("rebalanced: games handed over", "to", to, "games", len(ids), "taken", resp.Taken)
	}()
}

// onAdopt takes the games another node hands over.
func (cl *cluster) onAdopt(_ string, data []byte, reply func([]byte)) {
	var req adoptReq
	if json.Unmarshal(data, &req) != nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(cl.h.ctx, adoptTimeout)
		defer cancel()
		var resp adoptResp
		for _, id := range req.Games {
			if _, err := cl.own(ctx, id); err == nil {
				resp.Taken++
				cl.adopted.Add(1)
				cl.closeProxies(id)
			} else if !isElsewhere(err) {
				cl.h.log.Error("adopt game", "game", id, "from", req.From, "err", err)
			}
		}
		b, _ := json.Marshal(resp)
		reply(b)
	}()
}

// ClusterStats are a node's counters of its part in a cluster (its
// metrics: toguz_leases and the takeover counters).
type ClusterStats struct {
	Leases     int64 // the leases held at the last renewal
	Takeovers  int64 // games taken over from a node that died or stopped
	HandedOver int64 // games handed to another node by a rebalance
	Adopted    int64 // games another node handed over to this one
}

// ClusterStats returns the node's counters (zero without a bus).
func (h *Hub) ClusterStats() ClusterStats {
	cl := h.cl
	if cl == nil {
		return ClusterStats{}
	}
	return ClusterStats{Leases: cl.held.Load(), Takeovers: cl.takeovers.Load(), HandedOver: cl.handedOver.Load(), Adopted: cl.adopted.Load()}
}

// A node that starts, or whose bus reconnects, says hello on toguz.hello:
// the sockets relayed to or from it before are gone (a restarted node
// with the same id knows none of them; over a reconnection the messages
// published to it meanwhile were lost), so the other nodes close their
// proxies to it and the connections they served it, and it closes its
// own; their clients reconnect and get the state afresh. Without this a
// relayed socket waited in silence until its client gave up on it.
//
// A hello names the node's run (its boot, new at each start and
// reconnection), and so does every join between two nodes: a hello closes
// only what an earlier run of its node joined. Messages of different
// subjects are handled in no set order, so a hello may arrive after the
// joins its run made since; those stay open.

const subjHello = "toguz.hello"

func (cl *cluster) hello() {
	cl.mu.Lock()
	b := []byte(cl.node + " " + cl.boot)
	cl.mu.Unlock()
	if err := cl.bus.Publish(subjHello, b); err != nil {
		cl.h.log.Error("bus: hello", "err", err)
	}
}

func (cl *cluster) onHello(_ string, data []byte, _ func([]byte)) {
	node, boot, _ := strings.Cut(string(data), " ")
	if node != cl.node {
		// Started again: what it sends is news of it.
		cl.mu.Lock()
		delete(cl.left, node)
		cl.mu.Unlock()
		cl.gamesNews.Store(true) // it hears our games at our next renewal
		cl.closeRelayed(node, boot)
	}
}

// reset closes every socket relayed to or from this node and says hello
// as a new run (the bus reconnected).
func (cl *cluster) reset() {
	cl.h.log.Info("bus reconnected: closing the relayed sockets, whose messages may have been lost")
	cl.mu.Lock()
	cl.boot = NewID()
	cl.mu.Unlock()
	cl.closeRelayed("", "")
	cl.gamesNews.Store(true) // what was published may have been lost
	cl.hello()
}

// closeRelayed closes this node's proxies to node and the connections it
// serves node ("": every node), but those joined with node's run boot
// (a proxy whose join is not answered yet is answered by the run now).
func (cl *cluster) closeRelayed(node, boot string) {
	cl.mu.Lock()
	var ps []*proxy
	for _, px := range cl.proxies {
		if node == "" || px.owner == node && px.ownerBoot != "" && px.ownerBoot != boot {
			ps = append(ps, px)
		}
	}
	var ss []*served
	for _, s := range cl.served {
		if node == "" || s.from == node && s.boot != boot {
			ss = append(ss, s)
		}
	}
	cl.mu.Unlock()
	for _, px := range ps {
		cl.closeProxy(px, node == "")
	}
	for _, s := range ss {
		s.c.Leave()
	}
}
