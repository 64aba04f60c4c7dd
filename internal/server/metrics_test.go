package server

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/toguz/toguz/internal/cputime"
	"github.com/toguz/toguz/internal/metrics"
)

// scrape reads m's exposition as Prometheus would and parses it.
func scrape(t *testing.T, m *metrics.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /metrics: %d %s", rec.Code, rec.Body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse the exposition: %v", err)
	}
	return fams
}

// value returns the value of family name's series whose labels include
// labels (name=value pairs): a counter's or gauge's value, a histogram's
// count; -1 when there is none.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
series:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.Label {
				if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue series
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		case m.Untyped != nil:
			return m.Untyped.GetValue()
		}
	}
	return -1
}

// TestMetricsAfterGames plays a game between two guests with a spectator
// and the lobby open, and a game against the engine, on the whole server
// (Open) with metrics, then scrapes them: every family the server feeds is
// there with the counts the games made.
func TestMetricsAfterGames(t *testing.T) {
	m := metrics.New()
	app := openApp(t, Options{Metrics: m})
	s := &testServer{t: t, URL: app.URL}
	white, black, id := s.game(s.guest(), s.guest(), "5+3", false)
	ws, bs, spec := s.dial(id, white), s.dial(id, black), s.dial(id, "")
	for _, c := range []*wsClient{ws, bs, spec} {
		c.until("state")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lobby, _, err := websocket.Dial(ctx, "ws"+app.URL[4:]+"/api/lobby/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.CloseNow()
	if _, _, err := lobby.Read(ctx); err != nil { // the seek list
		t.Fatal(err)
	}
	// Six plies, each acknowledged to both players, then a refused move.
	fen := ""
	rng := rand.New(rand.NewPCG(1, 2))
	for ply := range 6 {
		mover, other := ws, bs
		if ply%2 == 1 {
			mover, other = bs, ws
		}
		hole := 1
		if fen != "" {
			hole = randomMove(t, rng, fen)
		}
		mover.move(ply, hole)
		got := mover.until("move", "error")
		if got.Type != "move" {
			t.Fatalf("ply %d: %s", ply, got.Raw)
		}
		other.until("move")
		fen = got.FEN
	}
	ws.move(0, 1) // a ply already played: refused
	if got := ws.until("move", "error"); got.Type != "error" {
		t.Fatalf("a replayed ply: %s", got.Raw)
	}
	// A game against the engine, which searches its first move as Black.
	tok := s.guest()
	code, eg := s.do("POST", "/api/engine-games", tok, map[string]any{"level": 1, "color": "white"})
	if code != 201 {
		t.Fatalf("engine game: %d %v", code, eg)
	}
	ec := s.dial(eg["game_id"].(string), tok)
	ec.until("state")
	ec.move(0, 1)
	ec.until("move")
	if got := ec.until("move"); got.By != "black" {
		t.Fatalf("the engine's move: %s", got.Raw)
	}
	// A body over its route's limit, for the bounds' counters.
	req, _ := http.NewRequest("POST", app.URL+"/api/login", strings.NewReader(`{"name":"`+strings.Repeat("x", 1<<20)+`"}`))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	fams := scrape(t, m)
	for _, c := range []struct {
		name   string
		labels []string
		min    float64 // at least
		max    float64 // at most (0: no bound)
	}{
		{"toguz_live_games", nil, 2, 2},
		{"toguz_sockets", []string{"kind", "player"}, 3, 3},
		{"toguz_sockets", []string{"kind", "spectator"}, 1, 1},
		{"toguz_sockets", []string{"kind", "lobby"}, 1, 1},
		{"toguz_moves_total", nil, 8, 8}, // six plies, the engine game's two
		// Eight moves sent by players: six plies, the refused one, the
		// engine game's first; the engine's move is no socket's.
		{"toguz_move_ack_seconds", nil, 8, 8},
		{"toguz_store_seconds", []string{"op", "add_move"}, 8, 8},
		{"toguz_store_seconds", []string{"op", "create_game"}, 2, 2},
		{"toguz_store_seconds", []string{"op", "write"}, 10, 0},
		{"toguz_store_seconds", []string{"op", "commit"}, 1, 0},
		{"toguz_engine_search_seconds", nil, 1, 1},
		{"toguz_engine_queue", nil, 0, 0},
		{"toguz_http_requests_total", []string{"route", "POST /api/seeks", "class", "2xx"}, 1, 1},
		// Refused before routing: the body limit is applied outside the mux.
		{"toguz_http_requests_total", []string{"route", "none", "class", "4xx"}, 1, 1},
		{"toguz_http_request_seconds", []string{"route", "POST /api/guest"}, 3, 3},
		{"toguz_bodies_too_large_total", nil, 1, 1},
		{"toguz_conns_refused_total", nil, 0, 0},
		{"toguz_engine_games_refused_total", nil, 0, 0},
		{"toguz_rate_limited_total", nil, 0, 0},
		{"toguz_password_hashes_total", nil, 0, 0},
		{"toguz_password_busy_total", nil, 0, 0},
		{"toguz_login_locked_total", nil, 0, 0},
		{"go_goroutines", nil, 1, 0},
		{"process_cpu_seconds_total", nil, 0, 0},
	} {
		v := value(fams, c.name, c.labels...)
		switch {
		case v < 0:
			t.Errorf("%s%v: not exposed", c.name, c.labels)
		case c.name == "process_cpu_seconds_total" || c.name == "go_goroutines":
			// present is enough
		case v < c.min || (c.max > 0 || c.min == 0) && v > c.max:
			t.Errorf("%s%v = %v, want %v..%v", c.name, c.labels, v, c.min, c.max)
		}
	}
	// A websocket's request is counted when it ends: close them all.
	for _, c := range []*wsClient{ws, bs, spec, ec} {
		c.c.Close(websocket.StatusNormalClosure, "")
	}
	lobby.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(10 * time.Second)
	for {
		fams = scrape(t, m)
		if value(fams, "toguz_http_requests_total", "route", "GET /api/games/{id}/ws", "class", "1xx") == 4 &&
			value(fams, "toguz_http_requests_total", "route", "GET /api/lobby/ws", "class", "1xx") == 1 &&
			value(fams, "toguz_sockets", "kind", "player")+value(fams, "toguz_sockets", "kind", "spectator")+value(fams, "toguz_sockets", "kind", "lobby") == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the sockets closed: sockets %v %v %v, upgrades counted %v %v",
				value(fams, "toguz_sockets", "kind", "player"), value(fams, "toguz_sockets", "kind", "spectator"), value(fams, "toguz_sockets", "kind", "lobby"),
				value(fams, "toguz_http_requests_total", "route", "GET /api/games/{id}/ws", "class", "1xx"), value(fams, "toguz_http_requests_total", "route", "GET /api/lobby/ws", "class", "1xx"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The websockets' upgrades are counted but are not a latency.
	if v := value(fams, "toguz_http_request_seconds", "route", "GET /api/games/{id}/ws"); v != -1 {
		t.Errorf("the game socket's life counted as a request's latency (%v)", v)
	}
	// Every route label is a pattern of the mux or "none": never a path.
	for _, mf := range fams["toguz_http_requests_total"].Metric {
		for _, l := range mf.Label {
			if l.GetName() == "route" && strings.Contains(l.GetValue(), id) {
				t.Errorf("route label %q holds a game id", l.GetValue())
			}
		}
	}
}

// TestReadiness: /readyz answers 200 while the node can take games, 503
// with the reason once Drain has begun (a shutdown) or the hub has
// stopped; /healthz answers 200 throughout, and the site is still served
// while draining.
func TestReadiness(t *testing.T) {
	app := openApp(t, Options{})
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(app.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct{ Status, Reason string }
		if strings.HasPrefix(path, "/api/") || strings.HasSuffix(path, "z") {
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		return resp.StatusCode, body.Status + " " + body.Reason
	}
	if code, b := get("/readyz"); code != 200 || b != "ready " {
		t.Fatalf("/readyz at start: %d %q", code, b)
	}
	app.Drain()
	for _, c := range []struct {
		path string
		code int
		body string
	}{
		{"/readyz", 503, "unready shutting down"},
		{"/healthz", 200, "ok "},
		{"/", 200, " "}, // still served
	} {
		if code, b := get(c.path); code != c.code || b != c.body {
			t.Errorf("draining: %s: %d %q, want %d %q", c.path, code, b, c.code, c.body)
		}
	}

	app2 := openApp(t, Options{})
	if err := app2.Hub.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(app2.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(b), "hub has stopped") {
		t.Errorf("the hub stopped: /readyz %d %s", resp.StatusCode, b)
	}
}

// BenchmarkMetricsCost is BenchmarkMoveRoundTrip on the whole server
// (Open) without and with metrics, scraped every 100 ms (150 times more
// often than Prometheus's default): the cost of the instrumentation per
// move, in wall time and in the process's CPU time (cpu-ns/op, client
// included). -count runs off and on in turn.
func BenchmarkMetricsCost(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := map[bool]string{false: "off", true: "on"}[on]
		b.Run(name, func(b *testing.B) {
			var m *metrics.Metrics
			if on {
				m = metrics.New()
			}
			app, err := Open(context.Background(), Options{DB: b.TempDir() + "/toguz.db", Engines: 1, Metrics: m, ReviewWorkers: -1,
				Settings: Settings{MessageRate: 1e6, MessageBurst: 1e6, WritesPerSecond: 1e6, WriteBurst: 1e6}, MaxConnsPerAddr: -1})
			if err != nil {
				b.Fatal(err)
			}
			ts := httptest.NewServer(app.Handler())
			defer func() {
				ts.CloseClientConnections()
				ts.Close()
				app.Close()
			}()
			if on {
				stop := make(chan struct{})
				defer close(stop)
				go func() {
					for {
						select {
						case <-stop:
							return
						case <-time.After(100 * time.Millisecond):
							rec := httptest.NewRecorder()
							m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
						}
					}
				}()
			}
			cpu0 := cputime.Process()
			playMoves(b, &testServer{t: b, URL: ts.URL})
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
