package live

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// GamesOfAll is GamesOf on every node (a bot's event stream, opened on any
// node, lists its games being played wherever they run): this node's
// games, and those each other node heard of answers within a second
// (toguz.node.N.gamesof). Without a bus it is GamesOf.
func (h *Hub) GamesOfAll(ctx context.Context, viewer string) []game.Spec {
	out := h.GamesOf(viewer)
	cl := h.cl
	if cl == nil {
		return out
	}
	var nodes []string
	cl.mu.Lock()
	for node, at := range cl.heard {
		if node != cl.node && time.Since(at) <= cl.ttl {
			nodes = append(nodes, node)
		}
	}
	cl.mu.Unlock()
	seen := map[string]bool{}
	for _, s := range out {
		seen[s.ID] = true
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	rctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	for _, node := range nodes {
		wg.Go(func() {
			b, err := cl.bus.Request(rctx, subjNode+node+".gamesof", []byte(viewer))
			var specs []specWire
			if err != nil || json.Unmarshal(b, &specs) != nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, w := range specs {
				if s, ok := w.spec(); ok && !seen[s.ID] {
					seen[s.ID] = true
					out = append(out, s)
				}
			}
		})
	}
	wg.Wait()
	return out
}

// specWire is what a bot's event stream needs of a game's spec, as the
// nodes send it.
type specWire struct {
	ID    string    `json:"id"`
	White game.Seat `json:"white"`
	Black game.Seat `json:"black"`
	TC    string    `json:"tc"`
	Rules string    `json:"rules"`
	Rated bool      `json:"rated"`
}

func (w specWire) spec() (game.Spec, bool) {
	tc, err1 := clock.ParseStored(w.TC)
	rules, err2 := toguz.ParseRules(w.Rules)
	if err1 != nil || err2 != nil {
		return game.Spec{}, false
	}
	return game.Spec{ID: w.ID, White: w.White, Black: w.Black, TC: tc, Rules: rules, Rated: w.Rated}, true
}

func (cl *cluster) onGamesOf(_ string, data []byte, reply func([]byte)) {
	specs := cl.h.GamesOf(string(data))
	out := make([]specWire, 0, len(specs))
	for _, s := range specs {
		out = append(out, specWire{ID: s.ID, White: s.White, Black: s.Black, TC: s.TC.String(), Rules: s.Rules.String(), Rated: s.Rated})
	}
	b, _ := json.Marshal(out)
	reply(b)
}
