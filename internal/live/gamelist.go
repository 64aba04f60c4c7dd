package live

import (
	"bytes"
	"encoding/json"
	"time"
)

// The list of games being played across nodes: at a renewal every node
// publishes on toguz.games a summary of the games it runs (the LiveGame
// rows of Games, the highest rated first, at most maxSharedGames) when it
// changed since the last one it published, when gamesKeepAlive has
// passed since (a summary lost on the bus is not stale for longer), and
// when another node said hello (a node that starts hears every summary
// within a renewal). Every other node keeps the last summary of each node
// while that node is heard of (its alive, every renewal) and merges them
// into Games, so /games, the TV and the bot ladder see every node's games;
// a node that says goodbye has its summary dropped at once, and one that
// dies has it dropped when it has been silent for a lease's time (its
// games, taken over, then appear in their new owner's summary). A game
// listed twice (handed over between two summaries) is shown once, this
// node's row first. Watching a game of another node goes through the
// relay (cluster.go).

const subjGames = "toguz.games"

// maxSharedGames bounds a node's summary (some 300 bytes a game: well
// under NATS's 1 MB message); the list shows at most 100 games.
const maxSharedGames = 500

type gamesMsg struct {
	Node  string     `json:"node"`
	Games []LiveGame `json:"games"`
}

type nodeGames struct {
	games []LiveGame
	at    time.Time
}

// gamesKeepAlive is how often a node publishes its summary of games when
// it has not changed.
const gamesKeepAlive = 10 * time.Second

// gamesSent is the summary a node published last, and when: only the
// renewal's goroutine (renewLoop) reads and writes it.
type gamesSent struct {
	msg []byte
	at  time.Time
}

// publishGames publishes the summary of this node's games at now, if it
// changed, is due again, or another node asked by its hello.
func (cl *cluster) publishGames(now time.Time) {
	gs := cl.h.localGames()
	if len(gs) > maxSharedGames {
		gs = gs[:maxSharedGames]
	}
	b, _ := json.Marshal(gamesMsg{Node: cl.node, Games: gs})
	if !cl.gamesNews.Swap(false) && bytes.Equal(b, cl.gamesSent.msg) && now.Sub(cl.gamesSent.at) < gamesKeepAlive {
		return
	}
	if err := cl.bus.Publish(subjGames, b); err != nil {
		cl.h.log.Error("bus: games", "err", err)
		return
	}
	cl.gamesSent = gamesSent{msg: b, at: now}
}

func (cl *cluster) onGames(_ string, data []byte, _ func([]byte)) {
	var m gamesMsg
	if json.Unmarshal(data, &m) != nil || m.Node == "" || m.Node == cl.node {
		return
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if at, ok := cl.heard[m.Node]; ok && at.IsZero() {
		// It said goodbye; this summary, published before, was handled
		// after (each subject has its own handler goroutine). A node
		// back under the same id is heard again within a renewal.
		return
	}
	cl.lists[m.Node] = nodeGames{games: m.Games, at: time.Now()}
}

// mergeGames adds to own, this node's games, those of the summaries of
// the nodes heard of within a lease's time, and sorts them in the TV's
// order; it forgets the summaries of the others, and those older than
// two keep-alives and a lease (their node publishes them, unchanged,
// every keep-alive).
func (cl *cluster) mergeGames(own []LiveGame) []LiveGame {
	seen := make(map[string]bool, len(own))
	for _, g := range own {
		seen[g.ID] = true
	}
	now := time.Now()
	cl.mu.Lock()
	for node, l := range cl.lists {
		if now.Sub(cl.heard[node]) > cl.ttl || now.Sub(l.at) > 2*gamesKeepAlive+cl.ttl {
			delete(cl.lists, node)
			continue
		}
		for _, g := range l.games {
			if !seen[g.ID] {
				seen[g.ID] = true
				own = append(own, g)
			}
		}
	}
	cl.mu.Unlock()
	sortGames(own)
	return own
}
