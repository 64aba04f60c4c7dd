package server

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The simuls are internal/simul's, tested there on a store and a hub of
// their own; this test is the server's wiring of them: the App's store
// as Config.Simuls, the routes, the pages in the server's frame, and the
// hub's resumed games across a restart.

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
