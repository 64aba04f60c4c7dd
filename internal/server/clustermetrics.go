package server

import (
	"context"
	"sync"
	"time"

	"github.com/toguz/toguz/internal/metrics"
	"github.com/toguz/toguz/internal/site"
)

// connectedBus is a bus that tells whether it is connected (*bus.Bus).
type connectedBus interface{ Connected() bool }

// registerClusterMetrics adds the metrics of several nodes (with a bus)
// and the review queue's depth (docs/deploy.md, "Metrics").
func (a *App) registerClusterMetrics(m *metrics.Metrics) {
	if a.Hub.Node() != "" {
		m.GaugeFunc("toguz_leases", "Game leases this node held at its last renewal.", func() float64 { return float64(a.Hub.ClusterStats().Leases) })
		m.CounterFunc("toguz_takeovers_total", "Games this node took over from a node that died or stopped.", func() float64 { return float64(a.Hub.ClusterStats().Takeovers) })
		m.CounterFunc("toguz_games_handed_over_total", "Games this node handed to a less loaded node.", func() float64 { return float64(a.Hub.ClusterStats().HandedOver) })
		m.CounterFunc("toguz_games_adopted_total", "Games another node handed over to this one.", func() float64 { return float64(a.Hub.ClusterStats().Adopted) })
	}
	if a.bus != nil {
		m.GaugeFunc("toguz_nats_connected", "1 while the connection to NATS is up, 0 while it reconnects.", func() float64 {
			if a.bus.Connected() {
				return 1
			}
			return 0
		})
	}
	if a.Reviews != nil {
		depth := &cachedCount{every: 5 * time.Second, f: a.Store.PendingReviews}
		m.GaugeFunc("toguz_review_queue", "Game reviews waiting for a worker (the store's, shared by every node).", depth.get)
	}
}

// cachedCount is a count from the store, asked at most once every every,
// however often it is scraped.
type cachedCount struct {
	every time.Duration
	f     func(context.Context) (int, error)

	mu sync.Mutex
	at time.Time
	n  float64
}

func (c *cachedCount) get() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.at) >= c.every {
		ctx, cancel := context.WithTimeout(context.Background(), site.StoreTimeout)
		defer cancel()
		if n, err := c.f(ctx); err == nil {
			c.n = float64(n)
		}
		c.at = time.Now()
	}
	return c.n
}
