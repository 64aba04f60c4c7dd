package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/store"
)

// TestSimulOfThree: a host and three participants; the start makes one
// live game each, the host White in all; the results table follows the
// games; the grid is the host's only.
func TestSimulOfThree(t *testing.T) {
	s := newTestServer(t, serverOpts{})
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
	var hostName string
	if _, me := s.do("GET", "/api/me", host, nil); me != nil {
		hostName = me["name"].(string)
	}
	for i, b := range boards {
		b := b.(map[string]any)
		code, g := s.do("GET", "/api/games/"+b["game"].(string), "", nil)
		if code != 200 {
			t.Fatalf("game of board %d: %d %v", i+1, code, g)
		}
		if w := g["white"].(map[string]any)["name"]; w != hostName {
			t.Errorf("board %d: White %v, want the host %s", i+1, w, hostName)
		}
		if b["host_to_move"] != true {
			t.Errorf("board %d: the host (White) is not to move: %v", i+1, b)
		}
	}
	// Participant 2 resigns: the table has his result and the host's point.
	g2 := boards[1].(map[string]any)["game"].(string)
	c := s.dial(g2, players[1])
	c.read()
	c.send(map[string]any{"type": "resign"})
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
		if code, body := getAs(t, s, host, page); code != 200 || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s: %d", page, code)
		}
	}
	code, body := getAs(t, s, host, "/simul/"+id+"/host")
	if code != 200 || strings.Count(body, `id="simul-board-`) != 3 || !strings.Contains(body, "my-move") {
		t.Errorf("host grid: %d, %d boards", code, strings.Count(body, `id="simul-board-`))
	}
	if code, _ := getAs(t, s, players[0], "/simul/"+id+"/host"); code != 403 {
		t.Errorf("a participant's grid: %d, want 403", code)
	}
	if code, body := getAs(t, s, host, "/simul/"+id+"/board/1.svg"); code != 200 || !strings.Contains(body, "<svg") {
		t.Errorf("board svg: %d", code)
	}
}

// getAs GETs a page with a bearer token.
func getAs(t *testing.T, s *testServer, token, path string) (int, string) {
	t.Helper()
	req, _ := newReq("GET", s.URL+path, token)
	client := http.DefaultClient // a server of StartLocal has no httptest one
	if s.ts != nil {
		client = s.ts.Client()
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

func newReq(method, u, token string) (*http.Request, error) {
	req, err := http.NewRequest(method, u, nil)
	if err == nil && token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, err
}

// TestSimulSurvivesRestart: a started simul and one still open, made,
// joined and left before `toguz serve` restarts on the same database, are
// there after it as they were: their participants, boards and games, the
// host's grid, a participant's game that goes on, the bound of simuls per
// host; and the open one can still be joined and started.
func TestSimulSurvivesRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	s := startAbuse(t, Options{DB: db, FirstMoveTimeout: -1})
	host := s.guest()
	code, m := s.do("POST", "/api/simuls", host, map[string]any{"ruleset": "standard", "tc": "none", "max": 4, "color": "black"})
	if code != 201 {
		t.Fatalf("create: %d %v", code, m)
	}
	id := m["id"].(string)
	var players []string
	for range 4 {
		p := s.guest()
		if code, m := s.do("POST", "/api/simuls/"+id+"/join", p, nil); code != 200 {
			t.Fatalf("join: %d %v", code, m)
		}
		players = append(players, p)
	}
	// The second leaves: the others keep their order.
	if code, m := s.do("POST", "/api/simuls/"+id+"/leave", players[1], nil); code != 200 {
		t.Fatalf("leave: %d %v", code, m)
	}
	players = append(players[:1], players[2:]...)
	code, m = s.do("POST", "/api/simuls", host, map[string]any{"ruleset": "standard", "tc": "10+5", "max": 2, "color": "white"})
	if code != 201 {
		t.Fatalf("create the second: %d %v", code, m)
	}
	open := m["id"].(string)
	if code, m := s.do("POST", "/api/simuls/"+open+"/join", players[0], nil); code != 200 {
		t.Fatalf("join the second: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/simuls/"+id+"/start", host, nil); code != 200 {
		t.Fatalf("start: %d %v", code, m)
	}
	_, before := s.do("GET", "/api/simuls/"+id, host, nil)
	_, openBefore := s.do("GET", "/api/simuls/"+open, host, nil)
	if err := s.close(); err != nil {
		t.Fatal(err)
	}

	s2 := startAbuse(t, Options{DB: db, FirstMoveTimeout: -1})
	code, after := s2.do("GET", "/api/simuls/"+id, host, nil)
	if code != 200 {
		t.Fatalf("after the restart: %d %v", code, after)
	}
	for _, k := range []string{"host", "ruleset", "tc", "max", "host_color", "started", "players", "boards"} {
		if fmt.Sprint(after[k]) != fmt.Sprint(before[k]) {
			t.Errorf("%s: %v after the restart, %v before", k, after[k], before[k])
		}
	}
	if n := len(after["players"].([]any)); n != 3 {
		t.Errorf("%d participants after the restart, want 3", n)
	}
	if code, m := s2.do("GET", "/api/simuls/"+open, host, nil); code != 200 || fmt.Sprint(m) != fmt.Sprint(openBefore) {
		t.Errorf("the open simul after the restart: %d %v, before %v", code, m, openBefore)
	}
	code, body := getAs(t, s2.testServer, host, "/simuls")
	if code != 200 || !strings.Contains(body, "/simul/"+id) || !strings.Contains(body, "/simul/"+open) {
		t.Errorf("/simuls after the restart: %d, lists %s: %v, %s: %v", code, id, strings.Contains(body, "/simul/"+id), open, strings.Contains(body, "/simul/"+open))
	}
	code, body = getAs(t, s2.testServer, host, "/simul/"+id+"/host")
	if code != 200 || strings.Count(body, `id="simul-board-`) != 3 {
		t.Errorf("host grid after the restart: %d, %d boards", code, strings.Count(body, `id="simul-board-`))
	}
	if code, body := getAs(t, s2.testServer, host, "/simul/"+id+"/board/2.svg"); code != 200 || !strings.Contains(body, "<svg") {
		t.Errorf("board svg after the restart: %d", code)
	}
	// The participant of board 1 (White) resigns his resumed game: the
	// table has the host's point.
	g1 := after["boards"].([]any)[0].(map[string]any)["game"].(string)
	c := s2.dial(g1, players[0])
	c.read()
	c.send(map[string]any{"type": "resign"})
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, m = s2.do("GET", "/api/simuls/"+id, host, nil)
		if r := m["boards"].([]any)[0].(map[string]any)["result"]; r == "0-1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("board 1 has no result after the resignation: %v", m)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if sc := fmt.Sprint(m["score"]); sc != "[1 0]" {
		t.Errorf("score %s, want [1 0]", sc)
	}
	// The bound counts the loaded simuls: the host has two not over.
	if code, m := s2.do("POST", "/api/simuls", host, map[string]any{"ruleset": "standard", "tc": "none", "max": 2, "color": "white"}); code != 429 {
		t.Errorf("a third simul of the host after the restart: %d %v, want 429", code, m)
	}
	if code, _ := s2.do("POST", "/api/simuls/"+id+"/leave", players[1], nil); code != 409 {
		t.Errorf("leaving a started simul: %d, want 409", code)
	}
	if code, m := s2.do("POST", "/api/simuls/"+open+"/join", players[2], nil); code != 200 {
		t.Fatalf("join the open simul after the restart: %d %v", code, m)
	}
	code, m = s2.do("POST", "/api/simuls/"+open+"/start", host, nil)
	if code != 200 || len(m["boards"].([]any)) != 2 {
		t.Fatalf("start the open simul after the restart: %d %v", code, m)
	}
}

// TestSimulsExpireInTheStore: a simul older than simulKeep is not loaded
// and is deleted from the store when the server starts; a recent one is.
func TestSimulsExpireInTheStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ctx := t.Context()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	host := store.SimulSeat{Seat: "g:someone", Name: "someone", Guest: true}
	for id, age := range map[string]time.Duration{"old": simulKeep + time.Minute, "recent": time.Hour} {
		sm := store.Simul{ID: id, Host: host, Ruleset: "standard", TC: "-", Max: 2, Created: time.Now().Add(-age)}
		if err := st.CreateSimul(ctx, sm); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	s := startAbuse(t, Options{DB: db})
	if code, m := s.do("GET", "/api/simuls/old", "", nil); code != 404 {
		t.Errorf("the expired simul: %d %v, want 404", code, m)
	}
	if code, m := s.do("GET", "/api/simuls/recent", "", nil); code != 200 || m["host"] != "someone" {
		t.Errorf("the recent simul: %d %v", code, m)
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	list, err := st.Simuls(ctx, time.Time{})
	if err != nil || len(list) != 1 || list[0].ID != "recent" {
		t.Errorf("stored after the start: %+v %v, want only the recent one", list, err)
	}
}

// TestSimulsPaged: /simuls lists simulsListed simuls a page, newest
// first, and links the older ones and back.
func TestSimulsPaged(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ctx := t.Context()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = simulsListed + 3
	for i := range n {
		host := store.SimulSeat{Seat: fmt.Sprintf("g:h%03d", i), Name: fmt.Sprintf("host%03d", i), Guest: true}
		sm := store.Simul{ID: fmt.Sprintf("s%03d", i), Host: host, Ruleset: "standard", TC: "-", Max: 2,
			Created: time.Now().Add(-time.Duration(n-i) * time.Minute)}
		if err := st.CreateSimul(ctx, sm); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	s := startAbuse(t, Options{DB: db})
	code, body := getAs(t, s.testServer, "", "/simuls")
	if code != 200 || strings.Count(body, `href="/simul/s`) != simulsListed || !strings.Contains(body, fmt.Sprintf("/simul/s%03d", n-1)) ||
		strings.Contains(body, `href="/simul/s002"`) || !strings.Contains(body, `href="/simuls?page=2" id="simuls-older"`) ||
		strings.Contains(body, `id="simuls-newer"`) {
		t.Errorf("/simuls: %d, %d simuls listed, newest %v, older link %v", code, strings.Count(body, `href="/simul/s`),
			strings.Contains(body, fmt.Sprintf("/simul/s%03d", n-1)), strings.Contains(body, `id="simuls-older"`))
	}
	code, body = getAs(t, s.testServer, "", "/simuls?page=2")
	if code != 200 || strings.Count(body, `href="/simul/s`) != 3 || !strings.Contains(body, `href="/simul/s000"`) ||
		!strings.Contains(body, `href="/simuls" id="simuls-newer"`) || strings.Contains(body, `id="simuls-older"`) {
		t.Errorf("/simuls?page=2: %d, %d simuls listed, the oldest %v", code, strings.Count(body, `href="/simul/s`), strings.Contains(body, `href="/simul/s000"`))
	}
}

// gatedSimuls is the store's SimulStore, whose writes of one simul (by
// its id, or for a new one its host's name) wait while the gate is shut,
// each saying on arrived that it waits.
type gatedSimuls struct {
	SimulStore
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
	return g.SimulStore.CreateSimul(ctx, sm)
}

func (g *gatedSimuls) AddSimulPlayer(ctx context.Context, id string, p store.SimulSeat) error {
	if err := g.pass(ctx, "join", id, ""); err != nil {
		return err
	}
	return g.SimulStore.AddSimulPlayer(ctx, id, p)
}

func (g *gatedSimuls) RemoveSimulPlayer(ctx context.Context, id, seat string) error {
	if err := g.pass(ctx, "leave", id, ""); err != nil {
		return err
	}
	return g.SimulStore.RemoveSimulPlayer(ctx, id, seat)
}

func (g *gatedSimuls) StartSimul(ctx context.Context, id string, games []string) error {
	if err := g.pass(ctx, "start", id, ""); err != nil {
		return err
	}
	return g.SimulStore.StartSimul(ctx, id, games)
}

// TestSimulStoreOutsideLock: while a change of a simul waits in the store,
// the hall answers everyone else: that simul and the list are shown as
// they were before the change, another simul can be joined, and the
// change's rival for the same seat or bound is answered at once or after
// it, never both let through. After the store answers, the change is
// there.
func TestSimulStoreOutsideLock(t *testing.T) {
	g := &gatedSimuls{arrived: make(chan string, 16)}
	s := newTestServer(t, serverOpts{simuls: func(st SimulStore) SimulStore { g.SimulStore = st; return g }})
	t.Cleanup(g.open) // before the server closes
	quick := &http.Client{Timeout: 3 * time.Second}
	// ask sends a request that must be answered while the change waits.
	ask := func(method, path, token string) (int, map[string]any) {
		t.Helper()
		req, _ := newReq(method, s.URL+path, token)
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
			_, me := s.do("GET", "/api/me", host, nil)
			id := create(host, tt.max)
			var players []string
			for range tt.joined {
				p := s.guest()
				join(id, p)
				players = append(players, p)
			}
			other := create(s.guest(), 2)
			g.close(id, me["name"].(string))
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
