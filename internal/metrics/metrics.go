// Package metrics is the Prometheus side of `toguz serve -metrics-addr`: a
// registry of its own (never the client library's global default, so that
// two servers in one test process do not share counters), the families the
// server feeds, and the handler that the metrics listener serves.
//
// A nil *Metrics is valid and does nothing: a server without -metrics-addr
// calls the same methods and pays a nil check.
//
// The families (docs/deploy.md lists them with the alerts built on them):
//   - toguz_live_games, toguz_sockets{kind="player"|"spectator"|"lobby"}:
//     gauges;
//   - toguz_moves_total: every move stored, by people and by the engine;
//   - toguz_move_ack_seconds: from a socket's move to the acknowledgement
//     (or refusal) it is sent back;
//   - toguz_store_seconds{op}: the store's operations (store.Observer);
//   - toguz_bus_seconds{op}: the message bus between nodes (publish,
//     request, handle; bus.Bus.Observe, `serve -nats`);
//   - toguz_engine_queue, toguz_engine_search_seconds: the searches waiting
//     for an engine, and each search's time once it has one;
//   - toguz_http_requests_total{route,class}, toguz_http_request_seconds{route}:
//     route is the ServeMux pattern ("GET /game/{id}"), never the path, so
//     that strangers cannot make new series; class is "2xx".."5xx";
//   - the bounds' counters (App.Stats): toguz_bodies_too_large_total, …;
//   - go_* and process_*: the runtime's and the process's collectors.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Socket kinds, the values of toguz_sockets' kind label.
const (
	Player    = "player"
	Spectator = "spectator"
	Lobby     = "lobby"
)

// BusObserver is what the message bus between nodes is given to time its
// operations (publish, request, …); *Metrics is one. Defined here so that
// the bus's package needs no Prometheus import of its own.
type BusObserver interface {
	ObserveBus(op string, d time.Duration)
}

// Metrics holds the registry and the families the server feeds.
type Metrics struct {
	reg *prometheus.Registry

	moves       prometheus.Counter
	moveAck     prometheus.Histogram
	store       *prometheus.HistogramVec
	storeOps    map[string]prometheus.Observer // the store's known ops, looked up once (read-only)
	bus         *prometheus.HistogramVec
	search      prometheus.Histogram
	requests    *prometheus.CounterVec
	reqSeconds  *prometheus.HistogramVec
	sockets     *prometheus.GaugeVec
	rateLimited prometheus.Counter
}

// Latency buckets, in seconds: a move's round trip and a store operation
// are sub-millisecond to tens of milliseconds on a healthy server, an
// engine search up to its level's second and the clock's share.
var (
	fastBuckets   = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}
	searchBuckets = []float64{.01, .025, .05, .1, .25, .5, 1, 2, 5, 10}
)

// New returns the metrics with the Go runtime's and the process's
// collectors registered.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.moves = prometheus.NewCounter(prometheus.CounterOpts{Name: "toguz_moves_total",
		Help: "Moves stored in the live games, by people and by the engine."})
	m.moveAck = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "toguz_move_ack_seconds",
		Help: "From a move read on a player's socket to the acknowledgement (or refusal) written back.", Buckets: fastBuckets})
	m.store = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "toguz_store_seconds",
		Help: "The store's operations (op: write, commit, add_move, session, ...).", Buckets: fastBuckets}, []string{"op"})
	m.bus = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "toguz_bus_seconds",
		Help: "The message bus's operations between nodes.", Buckets: fastBuckets}, []string{"op"})
	m.search = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "toguz_engine_search_seconds",
		Help: "Each search of the live games' engine, from the moment it has an engine.", Buckets: searchBuckets})
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toguz_http_requests_total",
		Help: "HTTP requests by route pattern and status class (websocket upgrades are 1xx)."}, []string{"route", "class"})
	m.reqSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "toguz_http_request_seconds",
		Help: "HTTP requests' time to the end of the answer, by route pattern (websockets left out).", Buckets: fastBuckets}, []string{"route"})
	m.sockets = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "toguz_sockets",
		Help: "Websockets open, by kind: player, spectator, lobby."}, []string{"kind"})
	m.rateLimited = prometheus.NewCounter(prometheus.CounterOpts{Name: "toguz_rate_limited_total",
		Help: "State-changing HTTP requests refused with 429 by the rate per client address."})
	m.reg.MustRegister(m.moves, m.moveAck, m.store, m.bus, m.search, m.requests, m.reqSeconds, m.sockets, m.rateLimited,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// The store's operations (store.Observer's doc lists them) are known:
	// their series are made once, sparing each observation the label's
	// hashing; another op is recorded too, at the cost of that lookup.
	m.storeOps = map[string]prometheus.Observer{}
	for _, op := range []string{"write", "commit", "checkpoint", "create_game", "add_move", "end_game", "take_back", "save_clocks", "game", "live_games", "session"} {
		m.storeOps[op] = m.store.WithLabelValues(op)
	}
	// Every kind of socket is shown, at 0 before the first.
	for _, k := range []string{Player, Spectator, Lobby} {
		m.sockets.WithLabelValues(k)
	}
	return m
}

// Handler serves the registry in the Prometheus text format (or
// OpenMetrics when the scraper asks for it).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, EnableOpenMetrics: true})
}

// Gatherer returns the registry, for tests.
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.reg }

// GaugeFunc registers a gauge whose value f gives at each scrape.
func (m *Metrics) GaugeFunc(name, help string, f func() float64) {
	if m != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
	}
}

// CounterFunc registers a counter whose value f gives at each scrape (a
// counter kept elsewhere, as the bounds' are).
func (m *Metrics) CounterFunc(name, help string, f func() float64) {
	if m != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
	}
}

// MovePlayed counts one move stored.
func (m *Metrics) MovePlayed() {
	if m != nil {
		m.moves.Inc()
	}
}

// ObserveMoveAck records a move's round trip on a player's socket.
func (m *Metrics) ObserveMoveAck(d time.Duration) {
	if m != nil {
		m.moveAck.Observe(d.Seconds())
	}
}

// ObserveStore records a store operation (store.Observer).
func (m *Metrics) ObserveStore(op string, d time.Duration) {
	if m == nil {
		return
	}
	o, ok := m.storeOps[op]
	if !ok {
		o = m.store.WithLabelValues(op)
	}
	o.Observe(d.Seconds())
}

// ObserveBus records an operation of the bus between nodes (BusObserver).
func (m *Metrics) ObserveBus(op string, d time.Duration) {
	if m != nil {
		m.bus.WithLabelValues(op).Observe(d.Seconds())
	}
}

// ObserveSearch records one engine search.
func (m *Metrics) ObserveSearch(d time.Duration) {
	if m != nil {
		m.search.Observe(d.Seconds())
	}
}

// RateLimited counts one request refused by the write rate.
func (m *Metrics) RateLimited() {
	if m != nil {
		m.rateLimited.Inc()
	}
}

// SocketOpened counts a websocket of kind open; the function it returns
// counts it closed.
func (m *Metrics) SocketOpened(kind string) (closed func()) {
	if m == nil {
		return func() {}
	}
	g := m.sockets.WithLabelValues(kind)
	g.Inc()
	return g.Dec
}

// ObserveHTTP records a request to route that was answered with status
// and took d; a websocket's upgrade (status 101) is counted but its time,
// the socket's whole life, is not a latency.
func (m *Metrics) ObserveHTTP(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(route, statusClass(status)).Inc()
	if status != http.StatusSwitchingProtocols {
		m.reqSeconds.WithLabelValues(route).Observe(d.Seconds())
	}
}

// statusClass is "2xx" for 200..299 and so on; an unwritten status (0) is
// the 200 net/http sends.
func statusClass(status int) string {
	if status == 0 {
		status = http.StatusOK
	}
	if status < 100 || status > 599 {
		return "other"
	}
	return strconv.Itoa(status/100) + "xx"
}
