package server

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz/internal/live"
)

// local is the whole server (Open) on loopback, as `toguz serve` runs it,
// with a client for its API.
type local struct {
	*testServer
	l     *Local
	close func() error // once
}

func startAbuse(t *testing.T, opts Options) *local {
	t.Helper()
	if opts.DB == "" {
		opts.DB = filepath.Join(t.TempDir(), "toguz.db")
	}
	opts.Engines = 1
	if opts.ReviewWorkers == 0 {
		opts.ReviewWorkers = -1 // no reviews unless the test asks
	}
	if opts.WritesPerSecond == 0 {
		opts.WritesPerSecond, opts.WriteBurst = 1e6, 1e6
	}
	l, err := StartLocal(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &local{testServer: &testServer{t: t, URL: l.URL}, l: l, close: sync.OnceValue(l.Close)}
	t.Cleanup(func() {
		if err := s.close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func (s *local) wsURL(path string) string { return "ws" + strings.TrimPrefix(s.URL, "http") + path }

// percentile returns the p-th percentile of sorted d.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// TestSpectatorsDoNotSlowPlayers attaches many spectators to a game, each
// asking for the state within its allowed message rate and half of them
// never reading, and measures the players' move round trip.
func TestSpectatorsDoNotSlowPlayers(t *testing.T) {
	spectators := 1000
	if testing.Short() {
		spectators = 500
	}
	if raceDetector {
		spectators = 100
	}
	if v := os.Getenv("SPECTATORS"); v != "" { // SPECTATORS=0: the figures without them
		spectators, _ = strconv.Atoi(v)
	}
	// All the spectators come from one address: the caps on its connections
	// and spectators (TestSpectatorCaps, TestConnectionCap) are lifted.
	s := startAbuse(t, Options{Settings: Settings{MessageRate: 1000, MessageBurst: 1000}, SpectatorsPerAddress: -1, MaxConnsPerAddr: -1})
	white, black, id := s.game(s.guest(), s.guest(), "", false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var wg sync.WaitGroup
	var received atomic.Int64
	conns := make([]*websocket.Conn, 0, spectators)
	var mu sync.Mutex
	sem := make(chan struct{}, 32)
	for i := range spectators {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, _, err := websocket.Dial(ctx, s.wsURL("/api/games/"+id+"/ws"), nil)
			if err != nil {
				t.Errorf("spectator %d: %v", i, err)
				return
			}
			c.SetReadLimit(1 << 20)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("%d spectators attached", len(conns))
	for i, c := range conns {
		// Every spectator asks for the state 5 times a second (its limit
		// is 20); the odd ones never read what they are sent.
		go func() {
			tick := time.NewTicker(200 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
					if c.Write(ctx, websocket.MessageText, []byte(`{"type":"sync"}`)) != nil {
						return
					}
				}
			}
		}()
		if i%2 == 0 {
			go func() {
				for {
					_, b, err := c.Read(ctx)
					if err != nil {
						return
					}
					received.Add(int64(len(b)))
				}
			}()
		}
	}
	time.Sleep(500 * time.Millisecond) // the syncs get going

	players := [2]*wsClient{s.dial(id, white), s.dial(id, black)}
	fen := players[0].until("state").FEN
	players[1].until("state")
	rng := rand.New(rand.NewPCG(1, 2))
	var rtt []time.Duration
	start := time.Now()
	for ply := 0; ply < 100 && time.Since(start) < 3*time.Second; ply++ {
		p := players[ply%2]
		t0 := time.Now()
		p.move(ply, randomMove(t, rng, fen))
		m := p.until("move", "end", "error")
		if m.Type != "move" {
			if m.Type == "error" {
				t.Fatalf("ply %d: %s", ply, m.Raw)
			}
			break
		}
		rtt = append(rtt, time.Since(t0))
		players[1-ply%2].until("move")
		time.Sleep(20 * time.Millisecond) // the spectators' fan-out runs between the moves too
		fen = m.FEN
		if strings.Contains(m.Raw, `"legal":[]`) {
			break
		}
	}
	cancel()
	slices.Sort(rtt)
	p50, p99 := percentile(rtt, 0.5), percentile(rtt, 0.99)
	t.Logf("%d spectators: %d moves, round trip p50 %v p90 %v p99 %v; spectators received %d KB",
		len(conns), len(rtt), p50, percentile(rtt, 0.9), p99, received.Load()>>10)
	// Every move was answered and the spectators who read were sent the
	// game: with or without a bound on the time, the fan-out worked.
	if len(rtt) < 10 {
		t.Errorf("only %d moves were played in 3 s with %d spectators", len(rtt), len(conns))
	}
	if received.Load() == 0 {
		t.Errorf("the %d spectators who read were sent nothing", (len(conns)+1)/2)
	}
	// The bound on the time is the attack's own scale: unbounded, these
	// spectators made the p50 133 ms (0.86 ms without them). It holds only
	// on CPUs the test has to itself, so it is checked where the test runs
	// alone (TOGUZ_TIMING_TEST=1, a step of .ci/run of its own): beside
	// another package's tests on two cores, 1000 spectators' own clients in
	// this process pushed a bounded run's p50 to 89 and 105 ms. p99 is left
	// to the report: one move in a hundred may wait for another process.
	if os.Getenv("TOGUZ_TIMING_TEST") == "" || raceDetector {
		t.Logf("the bound on the round trip (p50 under 40 ms) is checked alone: TOGUZ_TIMING_TEST=1")
		return
	}
	if p50 > 40*time.Millisecond {
		t.Errorf("with %d spectators the players' round trip is p50 %v (p99 %v), want under 40 ms", len(conns), p50, p99)
	}
}

// TestSpectatorCaps: one address may open 50 spectator sockets; the 51st
// is told too_many_spectators and closed with 1013.
func TestSpectatorCaps(t *testing.T) {
	s := startAbuse(t, Options{})
	_, _, id := s.game(s.guest(), s.guest(), "", false)
	for i := range 51 {
		c, _, err := websocket.Dial(context.Background(), s.wsURL("/api/games/"+id+"/ws"), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		w := &wsClient{t: t, c: c}
		m := w.read()
		if i < 50 {
			if m.Type != "state" {
				t.Fatalf("spectator %d: %s", i+1, m.Raw)
			}
			continue
		}
		if m.Code != "too_many_spectators" {
			t.Fatalf("spectator 51: %s", m.Raw)
		}
		_, err = w.tryRead(5 * time.Second)
		if websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
			t.Fatalf("spectator 51 closed with %v, want 1013", err)
		}
	}
}

// lobbyWatcher counts what a lobby watcher receives.
type lobbyWatcher struct {
	c     *websocket.Conn
	bytes atomic.Int64
	msgs  chan map[string]any
}

func (s *local) watchLobby(token string) *lobbyWatcher {
	s.t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	c, _, err := websocket.Dial(context.Background(), s.wsURL("/api/lobby/ws"), &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		s.t.Fatal(err)
	}
	c.SetReadLimit(64 << 20)
	w := &lobbyWatcher{c: c, msgs: make(chan map[string]any, 1<<16)}
	s.t.Cleanup(func() { c.CloseNow() })
	go func() {
		defer close(w.msgs)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				return
			}
			w.bytes.Add(int64(len(b)))
			var m map[string]any
			json.Unmarshal(b, &m)
			w.msgs <- m
		}
	}()
	return w
}

// apply applies a lobby message to list as docs/api.md says a client
// does (lobby.js does the same) and returns the new list.
func apply(list []map[string]any, limit int, m map[string]any) []map[string]any {
	switch m["type"] {
	case "seeks":
		list = nil
		for _, s := range m["seeks"].([]any) {
			list = append(list, s.(map[string]any))
		}
	case "seek_added":
		list = slices.Insert(list, 0, m["seek"].(map[string]any))
		if len(list) > limit {
			list = list[:limit]
		}
	case "seek_removed":
		list = slices.DeleteFunc(list, func(s map[string]any) bool { return s["id"] == m["id"] })
		if n, ok := m["next"]; ok {
			list = append(list, n.(map[string]any))
		}
	}
	return list
}

// TestLobbyFlood: a lobby watcher receives one small delta per seek, not
// the whole list each time, and the list it keeps from them is the
// server's newest seeks, through additions and removals; the seeks of one
// address are bounded with too_many_seeks.
func TestLobbyFlood(t *testing.T) {
	s := startAbuse(t, Options{Lobby: live.LobbyConfig{PerAddress: -1}})
	w := s.watchLobby("")
	first := <-w.msgs
	limit := int(first["limit"].(float64))
	list := apply(nil, limit, first)
	n := 300
	var guests []string
	var ids []string
	for len(ids) < n {
		g := s.guest()
		guests = append(guests, g)
		for range 5 {
			code, m := s.do("POST", "/api/seeks", g, map[string]any{"tc": "5+3"})
			if code != 201 {
				t.Fatalf("seek %d: %d %v", len(ids), code, m)
			}
			ids = append(ids, m["id"].(string))
		}
	}
	var last map[string]any
	for range n {
		last = <-w.msgs
		list = apply(list, limit, last)
	}
	bytes := w.bytes.Load()
	t.Logf("%d seeks created: the watcher received %d bytes (%d per seek), last total %v", n, bytes, bytes/int64(n), last["total"])
	if bytes > int64(n)*600 || last["total"] != float64(n) {
		t.Errorf("a watcher received %d bytes for %d seeks (last total %v), want at most 600 a seek", bytes, n, last["total"])
	}
	// Cancel seeks among the newest and older ones: the watcher's list
	// stays the server's.
	for i, k := range []int{n - 1, n - 3, 10, n - limit, 0} {
		g := guests[k/5]
		if code, m := s.do("DELETE", "/api/seeks/"+ids[k], g, nil); code != 204 {
			t.Fatalf("cancel %d: %d %v", i, code, m)
		}
		list = apply(list, limit, <-w.msgs)
	}
	_, m := s.do("GET", "/api/seeks", "", nil)
	var want []string
	for _, sk := range m["seeks"].([]any) {
		want = append(want, sk.(map[string]any)["id"].(string))
	}
	var got []string
	for _, sk := range list {
		got = append(got, sk["id"].(string))
	}
	if !slices.Equal(got, want) || len(got) != limit || m["total"] != float64(n-5) {
		t.Errorf("the watcher's list %v\nthe server's %v (total %v)", got, want, m["total"])
	}

	// With the default bound, one address opens 20 seeks and no more.
	d := startAbuse(t, Options{})
	made := 0
	for made < 40 {
		g := d.guest()
		for range 5 {
			code, m := d.do("POST", "/api/seeks", g, map[string]any{"tc": "5+3", "private": made%2 == 0})
			if code != 201 {
				if e, _ := m["error"].(map[string]any); code != 429 || e["code"] != "too_many_seeks" {
					t.Fatalf("seek %d: %d %v, want 429 too_many_seeks", made, code, m)
				}
				t.Logf("seek %d from one address refused: %d %v", made+1, code, m["error"])
				if made != 20 {
					t.Errorf("%d seeks from one address, want 20", made)
				}
				return
			}
			made++
		}
	}
	t.Errorf("%d seeks from one address were all accepted", made)
}

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestSeekEnds: seeks expire, go when their creator leaves the lobby (after
// the grace period, not while he has another tab), can be cancelled by
// their creator only, and one's own seek is marked so and cannot be
// accepted.
func TestSeekEnds(t *testing.T) {
	clk := &fakeClock{t: time.Now()}
	s := startAbuse(t, Options{Lobby: live.LobbyConfig{Now: clk.Now, SweepEvery: 10 * time.Millisecond, Grace: 10 * time.Second}})
	w := s.watchLobby("")
	<-w.msgs
	wait := func(typ, id string) {
		t.Helper()
		timeout := time.After(5 * time.Second)
		for {
			select {
			case m := <-w.msgs:
				if m["type"] == typ && (m["id"] == id || m["seek"] != nil && m["seek"].(map[string]any)["id"] == id) {
					return
				}
			case <-timeout:
				t.Fatalf("no %s of %s", typ, id)
			}
		}
	}
	seek := func(token string) string {
		t.Helper()
		code, m := s.do("POST", "/api/seeks", token, map[string]any{"tc": "5+3"})
		if code != 201 {
			t.Fatalf("seek: %d %v", code, m)
		}
		wait("seek_added", m["id"].(string))
		return m["id"].(string)
	}
	has := func(id string) bool {
		code, _ := s.do("GET", "/api/seeks/"+id, "", nil)
		return code == 200
	}

	t.Run("expiry", func(t *testing.T) {
		a := s.guest()
		id := seek(a)
		clk.Add(29 * time.Minute)
		time.Sleep(100 * time.Millisecond)
		if !has(id) {
			t.Fatal("gone before its 30 minutes")
		}
		clk.Add(time.Minute)
		wait("seek_removed", id)
		if has(id) {
			t.Fatal("an expired seek is still open")
		}
	})
	t.Run("creator leaves", func(t *testing.T) {
		a := s.guest()
		tab1 := s.watchLobby(a)
		<-tab1.msgs
		id := seek(a)
		tab2 := s.watchLobby(a)
		<-tab2.msgs
		tab1.c.Close(websocket.StatusNormalClosure, "")
		time.Sleep(100 * time.Millisecond)
		clk.Add(time.Minute)
		time.Sleep(100 * time.Millisecond)
		if !has(id) {
			t.Fatal("the seek went while its creator had another tab open")
		}
		tab2.c.Close(websocket.StatusNormalClosure, "")
		time.Sleep(100 * time.Millisecond)
		clk.Add(5 * time.Second)
		time.Sleep(100 * time.Millisecond)
		if !has(id) {
			t.Fatal("the seek went within the grace period")
		}
		clk.Add(6 * time.Second)
		wait("seek_removed", id)
	})
	t.Run("cancel and own", func(t *testing.T) {
		a, b := s.guest(), s.guest()
		id := seek(a)
		for _, who := range []struct {
			token string
			own   bool
		}{{a, true}, {b, false}, {"", false}} {
			_, m := s.do("GET", "/api/seeks", who.token, nil)
			own := false
			for _, sk := range m["seeks"].([]any) {
				if sk := sk.(map[string]any); sk["id"] == id {
					own, _ = sk["own"].(bool)
				}
			}
			if own != who.own {
				t.Errorf("own is %v for %q, want %v", own, who.token, who.own)
			}
		}
		if code, m := s.do("POST", "/api/seeks/"+id+"/accept", a, nil); code != 409 || m["error"].(map[string]any)["code"] != "own_seek" {
			t.Errorf("accepting one's own seek: %d %v", code, m)
		}
		if code, m := s.do("DELETE", "/api/seeks/"+id, b, nil); code != 403 {
			t.Errorf("someone else cancels: %d %v", code, m)
		}
		if code, m := s.do("DELETE", "/api/seeks/"+id, a, nil); code != 204 {
			t.Errorf("the creator cancels: %d %v", code, m)
		}
		wait("seek_removed", id)
	})
}

// TestForgedGuestTokens: only guest tokens the server signed are guests;
// the others are refused with bad_guest_token, on the API and the
// websockets; a guest keeps his identity across a restart.
func TestForgedGuestTokens(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	s := startAbuse(t, Options{DB: db})
	real := s.guest()
	_, me := s.do("GET", "/api/me", real, nil)
	altered := real[:len(real)-1] + string("AB"[bytesIndex(real[len(real)-1])])
	for _, tok := range []string{"guest_x", "guest_" + strings.Repeat("A", 52), altered, strings.SplitN(real, ".", 2)[0]} {
		code, m := s.do("POST", "/api/seeks", tok, map[string]any{"tc": "5+3"})
		if e, _ := m["error"].(map[string]any); code != 401 || e["code"] != "bad_guest_token" {
			t.Errorf("a seek with the token %q: %d %v, want 401 bad_guest_token", tok, code, m)
		}
		if code, m := s.do("GET", "/api/me", tok, nil); code != 401 {
			t.Errorf("GET /api/me with %q: %d %v", tok, code, m)
		}
		for _, path := range []string{"/api/lobby/ws", "/api/games/x/ws"} {
			_, resp, err := websocket.Dial(context.Background(), s.wsURL(path), &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
			if err == nil || resp == nil || resp.StatusCode != 401 {
				t.Errorf("%s with %q: %v", path, tok, err)
			}
		}
		// POST /api/guest is the way out: a new, signed guest.
		if code, m := s.do("POST", "/api/guest", tok, nil); code != 200 || m["token"] == tok {
			t.Errorf("POST /api/guest with %q: %d %v", tok, code, m)
		}
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	s2 := startAbuse(t, Options{DB: db})
	if _, again := s2.do("GET", "/api/me", real, nil); again["name"] != me["name"] || me["name"] == nil {
		t.Errorf("after a restart the guest %v is %v", me, again)
	}
}

func bytesIndex(c byte) int {
	if c == 'A' {
		return 1
	}
	return 0
}
