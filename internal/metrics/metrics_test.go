package metrics

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestStatusClass(t *testing.T) {
	for _, c := range []struct {
		status int
		want   string
	}{{0, "2xx"}, {101, "1xx"}, {200, "2xx"}, {302, "3xx"}, {404, "4xx"}, {429, "4xx"}, {503, "5xx"}, {42, "other"}, {600, "other"}} {
		if got := statusClass(c.status); got != c.want {
			t.Errorf("statusClass(%d) = %q, want %q", c.status, got, c.want)
		}
	}
}

// TestNil: a server without metrics calls the same methods on a nil
// *Metrics, which do nothing.
func TestNil(t *testing.T) {
	var m *Metrics
	m.MovePlayed()
	m.ObserveMoveAck(time.Millisecond)
	m.ObserveStore("write", time.Millisecond)
	m.ObserveBus("publish", time.Millisecond)
	m.ObserveSearch(time.Millisecond)
	m.ObserveHTTP("GET /", 200, time.Millisecond)
	m.RateLimited()
	m.SocketOpened(Player)()
	m.GaugeFunc("x", "x", func() float64 { return 0 })
	m.CounterFunc("y", "y", func() float64 { return 0 })
}

// TestBus: the bus's observer hook (for the nodes' message bus) shows its
// operations as toguz_bus_seconds{op}.
func TestBus(t *testing.T) {
	m := New()
	var obs BusObserver = m
	obs.ObserveBus("publish", 3*time.Millisecond)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `toguz_bus_seconds_count{op="publish"} 1`) {
		t.Errorf("the exposition lacks the bus's publish:\n%s", rec.Body)
	}
	// Two registries apart: a second server in the same process.
	New().ObserveBus("publish", time.Millisecond)
}

// BenchmarkPerMove is what the metrics add to one move between people:
// the store's three observations (the write, its commit, add_move), the
// move counted, its round trip observed, and a request's count and time
// for good measure.
func BenchmarkPerMove(b *testing.B) {
	m := New()
	for b.Loop() {
		m.ObserveStore("write", 300*time.Microsecond)
		m.ObserveStore("commit", 200*time.Microsecond)
		m.ObserveStore("add_move", 320*time.Microsecond)
		m.MovePlayed()
		m.ObserveMoveAck(time.Millisecond)
		m.ObserveHTTP("GET /game/{id}", 200, time.Millisecond)
	}
}
