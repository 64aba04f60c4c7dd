package simul

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// TestSimulOfThree: a host and three participants; the start makes one
// live game each, the host White in all; the results table follows the
// games; the grid is the host's only.
func TestSimulOfThree(t *testing.T) {
	s := newTestSite(t, siteOpts{})
	host := s.guest()
	code, m := s.do("POST", "/api/simuls", host, map[string]any{"ruleset": "standard", "tc": "none", "max": 3, "color": "white"})
	if code != 201 {
		t.Fatalf("create: %d %v", code, m)
	}
	id := m["id"].(string)
	var players []string
	for range 3 {
		p := s.guest()
		if code, m := s.do("POST", "/api/simuls/"+id+"/join", p, nil); code != 200 {
			t.Fatalf("join: %d %v", code, m)
		}
		players = append(players, p)
	}
	if code, _ := s.do("POST", "/api/simuls/"+id+"/join", s.guest(), nil); code != 409 {
		t.Errorf("a fourth participant of 3: %d, want 409", code)
	}
	if code, _ := s.do("POST", "/api/simuls/"+id+"/start", players[0], nil); code != 403 {
		t.Errorf("a participant starts: %d, want 403", code)
	}
	code, m = s.do("POST", "/api/simuls/"+id+"/start", host, nil)
	if code != 200 {
		t.Fatalf("start: %d %v", code, m)
	}
	boards := m["boards"].([]any)
	if len(boards) != 3 {
		t.Fatalf("%d boards, want 3", len(boards))
	}
	for i, b := range boards {
		b := b.(map[string]any)
		g, err := s.hub.State(t.Context(), b["game"].(string))
		if err != nil {
			t.Fatalf("game of board %d: %v", i+1, err)
		}
		if w := g.White.Name; w != host {
			t.Errorf("board %d: White %v, want the host %s", i+1, w, host)
		}
		if b["host_to_move"] != true {
			t.Errorf("board %d: the host (White) is not to move: %v", i+1, b)
		}
	}
	// Participant 2 resigns: the table has his result and the host's point.
	g2 := boards[1].(map[string]any)["game"].(string)
	s.resign(g2, players[1])
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, m = s.do("GET", "/api/simuls/"+id, host, nil)
		if r := m["boards"].([]any)[1].(map[string]any)["result"]; r == "1-0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("board 2 has no result: %v", m)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if sc := fmt.Sprint(m["score"]); sc != "[1 0]" {
		t.Errorf("score %s, want [1 0]", sc)
	}
	// The pages: the results table, the host's grid (his only).
	for _, page := range []string{"/simuls", "/simul/" + id} {
		if code, body := s.get(page, host); code != 200 || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s: %d", page, code)
		}
	}
	code, body := s.get("/simul/"+id+"/host", host)
	if code != 200 || strings.Count(body, `id="simul-board-`) != 3 || !strings.Contains(body, "my-move") {
		t.Errorf("host grid: %d, %d boards", code, strings.Count(body, `id="simul-board-`))
	}
	if code, _ := s.get("/simul/"+id+"/host", players[0]); code != 403 {
		t.Errorf("a participant's grid: %d, want 403", code)
	}
	if code, body := s.get("/simul/"+id+"/board/1.svg", host); code != 200 || !strings.Contains(body, "<svg") {
		t.Errorf("board svg: %d", code)
	}
}

// TestSimulsExpireInTheStore: a simul older than keep is not loaded
// and is deleted from the store when the hall is made (New, as the server
// starts); a recent one is loaded.
func TestSimulsExpireInTheStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ctx := t.Context()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	host := game.Seat{ID: "g:someone", Name: "someone", Guest: true}
	for id, age := range map[string]time.Duration{"old": keep + time.Minute, "recent": time.Hour} {
		sm := store.Simul{ID: id, Host: host, Ruleset: "standard", TC: "-", Max: 2, Created: time.Now().Add(-age)}
		if err := st.CreateSimul(ctx, sm); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	s := newTestSite(t, siteOpts{db: db})
	if code, m := s.do("GET", "/api/simuls/old", "", nil); code != 404 {
		t.Errorf("the expired simul: %d %v, want 404", code, m)
	}
	if code, m := s.do("GET", "/api/simuls/recent", "", nil); code != 200 || m["host"] != "someone" {
		t.Errorf("the recent simul: %d %v", code, m)
	}
	list, err := s.st.Simuls(ctx, time.Time{})
	if err != nil || len(list) != 1 || list[0].ID != "recent" {
		t.Errorf("stored after the start: %+v %v, want only the recent one", list, err)
	}
}

// TestSimulsExpireWhenMade: the hall sweeps the simuls older than keep
// (by its clock) when a simul is made, from memory and the store.
func TestSimulsExpireWhenMade(t *testing.T) {
	var now atomic.Int64 // the hall's clock, in Unix nanoseconds
	now.Store(time.Now().UnixNano())
	s := newTestSite(t, siteOpts{now: func() time.Time { return time.Unix(0, now.Load()) }})
	create := func() string {
		t.Helper()
		code, m := s.do("POST", "/api/simuls", s.guest(), map[string]any{"ruleset": "standard", "tc": "none", "max": 2, "color": "white"})
		if code != 201 {
			t.Fatalf("create: %d %v", code, m)
		}
		return m["id"].(string)
	}
	old := create()
	now.Add(int64(keep - time.Minute))
	if code, m := s.do("GET", "/api/simuls/"+old, "", nil); code != 200 {
		t.Fatalf("a simul a minute before it expires: %d %v", code, m)
	}
	recent := create()
	if code, m := s.do("GET", "/api/simuls/"+old, "", nil); code != 200 {
		t.Fatalf("a simul a minute before it expires, another made: %d %v", code, m)
	}
	now.Add(int64(2 * time.Minute))
	newest := create()
	if code, m := s.do("GET", "/api/simuls/"+old, "", nil); code != 404 {
		t.Errorf("the expired simul after another was made: %d %v, want 404", code, m)
	}
	list, err := s.st.Simuls(t.Context(), time.Time{})
	var ids []string
	for _, sm := range list {
		ids = append(ids, sm.ID)
	}
	slices.Sort(ids)
	want := []string{recent, newest}
	slices.Sort(want)
	if err != nil || !slices.Equal(ids, want) {
		t.Errorf("stored: %v %v, want %v", ids, err, want)
	}
}

// TestSimulsPaged: /simuls lists listed simuls a page, newest first,
// and links the older ones and back.
func TestSimulsPaged(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ctx := t.Context()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = listed + 3
	for i := range n {
		host := game.Seat{ID: fmt.Sprintf("g:h%03d", i), Name: fmt.Sprintf("host%03d", i), Guest: true}
		sm := store.Simul{ID: fmt.Sprintf("s%03d", i), Host: host, Ruleset: "standard", TC: "-", Max: 2,
			Created: time.Now().Add(-time.Duration(n-i) * time.Minute)}
		if err := st.CreateSimul(ctx, sm); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	s := newTestSite(t, siteOpts{db: db})
	code, body := s.get("/simuls", "")
	if code != 200 || strings.Count(body, `href="/simul/s`) != listed || !strings.Contains(body, fmt.Sprintf("/simul/s%03d", n-1)) ||
		strings.Contains(body, `href="/simul/s002"`) || !strings.Contains(body, `href="/simuls?page=2" id="simuls-older"`) ||
		strings.Contains(body, `id="simuls-newer"`) {
		t.Errorf("/simuls: %d, %d simuls listed, newest %v, older link %v", code, strings.Count(body, `href="/simul/s`),
			strings.Contains(body, fmt.Sprintf("/simul/s%03d", n-1)), strings.Contains(body, `id="simuls-older"`))
	}
	code, body = s.get("/simuls?page=2", "")
	if code != 200 || strings.Count(body, `href="/simul/s`) != 3 || !strings.Contains(body, `href="/simul/s000"`) ||
		!strings.Contains(body, `href="/simuls" id="simuls-newer"`) || strings.Contains(body, `id="simuls-older"`) {
		t.Errorf("/simuls?page=2: %d, %d simuls listed, the oldest %v", code, strings.Count(body, `href="/simul/s`), strings.Contains(body, `href="/simul/s000"`))
	}
}

// gatedSimuls is the store's simuls, whose writes of one simul (by
// its id, or for a new one its host's name) wait while the gate is shut,
// each saying on arrived that it waits.
type gatedSimuls struct {
	Store
	mu       sync.Mutex
	id, host string
	shut     chan struct{} // nil: open
	arrived  chan string
}

// close shuts the gate for the writes of simul id, or of a new simul of
// host.
func (g *gatedSimuls) close(id, host string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.id, g.host, g.shut = id, host, make(chan struct{})
}

func (g *gatedSimuls) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut != nil {
		close(g.shut)
		g.shut = nil
	}
}

// pass waits at the gate if it is shut for simul id or host.
func (g *gatedSimuls) pass(ctx context.Context, op, id, host string) error {
	g.mu.Lock()
	shut := g.shut
	if shut == nil || (id != g.id && (host == "" || host != g.host)) {
		shut = nil
	}
	g.mu.Unlock()
	if shut == nil {
		return nil
	}
	g.arrived <- op
	select {
	case <-shut:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gatedSimuls) CreateSimul(ctx context.Context, sm store.Simul) error {
	if err := g.pass(ctx, "create", sm.ID, sm.Host.Name); err != nil {
		return err
	}
	return g.Store.CreateSimul(ctx, sm)
}

func (g *gatedSimuls) AddSimulPlayer(ctx context.Context, id string, p game.Seat) error {
	if err := g.pass(ctx, "join", id, ""); err != nil {
		return err
	}
	return g.Store.AddSimulPlayer(ctx, id, p)
}

func (g *gatedSimuls) RemoveSimulPlayer(ctx context.Context, id, seat string) error {
	if err := g.pass(ctx, "leave", id, ""); err != nil {
		return err
	}
	return g.Store.RemoveSimulPlayer(ctx, id, seat)
}

func (g *gatedSimuls) StartSimul(ctx context.Context, id string, games []string) error {
	if err := g.pass(ctx, "start", id, ""); err != nil {
		return err
	}
	return g.Store.StartSimul(ctx, id, games)
}

// TestStoreOutsideLock: while a change of a simul waits in the store,
// the hall answers everyone else: that simul and the list are shown as
// they were before the change, another simul can be joined, and the
// change's rival for the same seat or bound is answered at once or after
// it, never both let through. After the store answers, the change is
// there.
func TestStoreOutsideLock(t *testing.T) {
	g := &gatedSimuls{arrived: make(chan string, 16)}
	s := newTestSite(t, siteOpts{wrap: func(st Store) Store { g.Store = st; return g }})
	t.Cleanup(g.open) // before the server closes
	quick := &http.Client{Timeout: 3 * time.Second}
	// ask sends a request that must be answered while the change waits.
	ask := func(method, path, token string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, s.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := quick.Do(req)
		if err != nil {
			t.Errorf("%s %s while a write of the simul waits in the store: %v", method, path, err)
			return 0, nil
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	create := func(host string, max int) string {
		t.Helper()
		code, m := s.do("POST", "/api/simuls", host, map[string]any{"ruleset": "standard", "tc": "none", "max": max, "color": "white"})
		if code != 201 {
			t.Fatalf("create: %d %v", code, m)
		}
		return m["id"].(string)
	}
	join := func(id, p string) {
		t.Helper()
		if code, m := s.do("POST", "/api/simuls/"+id+"/join", p, nil); code != 200 {
			t.Fatalf("join: %d %v", code, m)
		}
	}
	shown := func(id string) (players int, started bool) {
		t.Helper()
		code, m := ask("GET", "/api/simuls/"+id, "")
		if code != 200 {
			t.Errorf("GET /api/simuls/%s: %d %v", id, code, m)
			return -1, false
		}
		return len(m["players"].([]any)), m["started"] == true
	}
	tests := []struct {
		name   string
		max    int
		joined int // participants before the change
		// change is the request that waits in the store (on simul id of
		// host, players the participants); rival, where set, is sent
		// while it waits, and both must not get in.
		change     func(id, host string, players []string) (method, path, token string)
		rival      func(id, host string, players []string) (method, path, token string)
		code       int // the change's answer
		rivalCode  int // the rival's
		wait       string
		while      int // participants shown while it waits
		after      int // and after
		startedNow bool
	}{
		{name: "join, a rival for the last seat", max: 1, joined: 0,
			change: func(id, _ string, _ []string) (string, string, string) {
				return "POST", "/api/simuls/" + id + "/join", s.guest()
			},
			rival: func(id, _ string, _ []string) (string, string, string) {
				return "POST", "/api/simuls/" + id + "/join", s.guest()
			},
			code: 200, rivalCode: 409, wait: "join", while: 0, after: 1},
		{name: "leave", max: 3, joined: 2,
			change: func(id, _ string, players []string) (string, string, string) {
				return "POST", "/api/simuls/" + id + "/leave", players[0]
			},
			code: 200, wait: "leave", while: 2, after: 1},
		{name: "create, a rival past the host's bound", max: 2, joined: 1,
			change: func(_, host string, _ []string) (string, string, string) {
				return "POST", "/api/simuls", host
			},
			rival: func(_, host string, _ []string) (string, string, string) {
				return "POST", "/api/simuls", host
			},
			code: 201, rivalCode: 429, wait: "create", while: 1, after: 1},
		{name: "start, a join while the games are made", max: 3, joined: 2,
			change: func(id, host string, _ []string) (string, string, string) {
				return "POST", "/api/simuls/" + id + "/start", host
			},
			rival: func(id, _ string, _ []string) (string, string, string) {
				return "POST", "/api/simuls/" + id + "/join", s.guest()
			},
			code: 200, rivalCode: 409, wait: "start", while: 2, after: 2, startedNow: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := s.guest()
			id := create(host, tt.max)
			var players []string
			for range tt.joined {
				p := s.guest()
				join(id, p)
				players = append(players, p)
			}
			other := create(s.guest(), 2)
			g.close(id, host)
			defer g.open()
			method, path, token := tt.change(id, host, players)
			type answer struct {
				code int
				m    map[string]any
			}
			changed := make(chan answer, 1)
			go func() {
				code, m := s.do(method, path, token, map[string]any{"ruleset": "standard", "tc": "none", "max": 2, "color": "white"})
				changed <- answer{code, m}
			}()
			select {
			case op := <-g.arrived:
				if op != tt.wait {
					t.Fatalf("%s waits in the store, want %s", op, tt.wait)
				}
			case a := <-changed:
				t.Fatalf("%s %s did not reach the store: %d %v", method, path, a.code, a.m)
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s did not reach the store in 10 s", method, path)
			}
			// While it waits: the simul as before, the list, another
			// simul's join.
			if n, started := shown(id); n != tt.while || started {
				t.Errorf("while the %s waits: %d participants shown, started %v; want %d, not started", tt.wait, n, started, tt.while)
			}
			if code, _ := ask("GET", "/simuls", ""); code != 200 {
				t.Errorf("GET /simuls while the %s waits: %d", tt.wait, code)
			}
			if code, m := ask("POST", "/api/simuls/"+other+"/join", s.guest()); code != 200 {
				t.Errorf("joining another simul while the %s waits: %d %v", tt.wait, code, m)
			}
			rivals := make(chan answer, 1)
			if tt.rival != nil {
				method, path, token := tt.rival(id, host, players)
				go func() {
					code, m := s.do(method, path, token, map[string]any{"ruleset": "standard", "tc": "none", "max": 2, "color": "white"})
					rivals <- answer{code, m}
				}()
				// The rival is answered at once, or waits for the change
				// (not in the store: the gate would tell).
				select {
				case a := <-rivals:
					rivals <- a
				case op := <-g.arrived:
					t.Errorf("the rival's %s reached the store while the change's waits", op)
				case <-time.After(200 * time.Millisecond):
				}
			}
			g.open()
			a := <-changed
			if a.code != tt.code {
				t.Errorf("%s %s: %d %v, want %d", method, path, a.code, a.m, tt.code)
			}
			if tt.rival != nil {
				if r := <-rivals; r.code != tt.rivalCode {
					t.Errorf("the rival: %d %v, want %d", r.code, r.m, tt.rivalCode)
				}
			}
			if n, started := shown(id); n != tt.after || started != tt.startedNow {
				t.Errorf("after the %s: %d participants, started %v; want %d, %v", tt.wait, n, started, tt.after, tt.startedNow)
			}
			if tt.wait == "create" {
				if code, m := ask("GET", "/api/simuls/"+a.m["id"].(string), ""); code != 200 {
					t.Errorf("the new simul: %d %v", code, m)
				}
			}
		})
	}
}
