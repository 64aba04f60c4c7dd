package server

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
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
