package live

import "time"

// A clean stop hands its games over at once: the stopping node's actors
// release their leases (expired at the instant of the stop) as they exit,
// and then the node says goodbye on toguz.bye. A node that hears it
// forgets that it heard the leaving node (so that its expired leases are
// not left to a node that looks alive) and sweeps at once: the first to
// take a game's lease runs it, charging the clocks until the stop. Without
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
	cl.mu.Unlock()
	select {
	case cl.kick <- struct{}{}:
	default:
	}
}
