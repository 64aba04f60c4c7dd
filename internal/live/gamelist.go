package live

import (
	"encoding/json"
	"time"
)

// The list of games being played across nodes: with each renewal every
// node publishes on toguz.games a summary of the games it runs (the
// LiveGame rows of Games, the highest rated first, at most
// maxSharedGames), as it publishes its load. Every other node keeps the
// last summary of each node and merges those heard within a lease's time
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

// publishGames publishes the summary of this node's games.
func (cl *cluster) publishGames() {
	gs := cl.h.localGames()
	if len(gs) > maxSharedGames {
		gs = gs[:maxSharedGames]
	}
	b, _ := json.Marshal(gamesMsg{Node: cl.node, Games: gs})
	if err := cl.bus.Publish(subjGames, b); err != nil {
		cl.h.log.Error("bus: games", "err", err)
	}
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

// mergeGames adds to own, this node's games, those of the summaries heard
// within a lease's time, and sorts them in the TV's order; it forgets the
// older summaries.
func (cl *cluster) mergeGames(own []LiveGame) []LiveGame {
	seen := make(map[string]bool, len(own))
	for _, g := range own {
		seen[g.ID] = true
	}
	now := time.Now()
	cl.mu.Lock()
	for node, l := range cl.lists {
		if now.Sub(l.at) > cl.ttl {
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
