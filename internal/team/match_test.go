package team

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

func TestScore(t *testing.T) {
	for halves, want := range map[int]string{0: "0", 1: "½", 2: "1", 3: "1½", 8: "4", 21: "10½"} {
		if got := Score(halves); got != want {
			t.Errorf("Score(%d) = %q, want %q", halves, got, want)
		}
	}
}

// TestMatch: a leader challenges a team over two boards; each team's
// coach or leader sets its lineup (only members, once each, as many as
// the boards); the start creates one game a board with the colours
// alternating; the score follows the games' ends.
func TestMatch(t *testing.T) {
	s := newTestSite(t)
	ctx := context.Background()
	hub := live.NewHub(ctx, live.Config{Store: store.LiveStore{S: s.st}, FirstMoveTimeout: -1})
	t.Cleanup(func() { hub.Stop(ctx) })
	s.svc.games = hub
	la, lb, a1, a2, b1, b2, x := s.user("la"), s.user("lb"), s.user("a1"), s.user("a2"), s.user("b1"), s.user("b2"), s.user("x")
	_, m := s.do("POST", "/api/team", la, map[string]any{"name": "Aral"})
	a := m["id"].(string)
	_, m = s.do("POST", "/api/team", lb, map[string]any{"name": "Balkhash"})
	b := m["id"].(string)
	for _, p := range []string{a1, a2} {
		s.do("POST", "/api/team/"+a+"/join", p, nil)
	}
	for _, p := range []string{b1, b2} {
		s.do("POST", "/api/team/"+b+"/join", p, nil)
	}
	if code, m := s.do("POST", "/api/team/"+a+"/match", la, map[string]any{"opponent": a, "boards": 2}); code != http.StatusBadRequest {
		t.Errorf("a match against itself: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+a+"/match", la, map[string]any{"opponent": b, "boards": MaxBoards + 1}); code != http.StatusBadRequest {
		t.Errorf("too many boards: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+a+"/match", a1, map[string]any{"opponent": b, "boards": 2}); code != http.StatusForbidden {
		t.Errorf("a member challenges: %d %v", code, m)
	}
	code, m := s.do("POST", "/api/team/"+a+"/match", la, map[string]any{"opponent": b, "boards": 2, "tc": "5+3"})
	if code != http.StatusCreated {
		t.Fatalf("the challenge: %d %v", code, m)
	}
	id := m["id"].(string)
	lineup := func(who, team string, players ...string) (int, map[string]any) {
		return s.do("POST", "/api/team-match/"+id+"/lineup", who, map[string]any{"team": team, "players": players})
	}
	if code, m := lineup(lb, a, "a1", "a2"); code != http.StatusForbidden {
		t.Errorf("B's leader sets A's lineup: %d %v", code, m)
	}
	if code, m := lineup(la, a, "a1"); code != http.StatusBadRequest {
		t.Errorf("a lineup short of a board: %d %v", code, m)
	}
	if code, m := lineup(la, a, "a1", "x"); code != http.StatusBadRequest {
		t.Errorf("a lineup with a stranger: %d %v", code, m)
	}
	if code, m := lineup(la, a, "a1", "a1"); code != http.StatusBadRequest {
		t.Errorf("a player on two boards: %d %v", code, m)
	}
	if code, m := lineup(la, a, "a1", "a2"); code != 200 {
		t.Fatalf("A's lineup: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team-match/"+id+"/start", la, map[string]any{"team": a}); code != http.StatusBadRequest {
		t.Errorf("starting without B's lineup: %d %v", code, m)
	}
	if code, m := lineup(lb, b, "b2", "b1"); code != 200 {
		t.Fatalf("B's lineup: %d %v", code, m)
	}
	_, page := s.get("/team/match/"+id, lb)
	if !strings.Contains(page, `id="match-start"`) || !strings.Contains(page, `id="match-lineup-b"`) || strings.Contains(page, `id="match-lineup-a"`) {
		t.Errorf("B's leader's match page lacks the start or his lineup's form, or has A's")
	}
	if code, m := s.do("POST", "/api/team-match/"+id+"/start", x, map[string]any{"team": a}); code != http.StatusForbidden {
		t.Errorf("a stranger starts: %d %v", code, m)
	}
	code, m = s.do("POST", "/api/team-match/"+id+"/start", lb, map[string]any{"team": b})
	if code != 200 || m["status"] != "playing" {
		t.Fatalf("the start: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team-match/"+id+"/start", la, map[string]any{"team": a}); code != http.StatusConflict {
		t.Errorf("a second start: %d %v", code, m)
	}
	if code, m := lineup(la, a, "a2", "a1"); code != http.StatusConflict {
		t.Errorf("a lineup after the start: %d %v", code, m)
	}
	v, err := s.svc.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// Board 1: a1 White against b2; board 2: b1 White against a2.
	for board, want := range [][2]string{{"a1", "b2"}, {"b1", "a2"}} {
		g, err := s.st.Game(ctx, v.Boards2[board].Game)
		if err != nil {
			t.Fatal(err)
		}
		if g.Players[0].Name != want[0] || g.Players[1].Name != want[1] || g.TimeControl.String() != "5+3" {
			t.Errorf("board %d: %s (White) against %s, %s; want %v", board+1, g.Players[0].Name, g.Players[1].Name, g.TimeControl, want)
		}
	}
	// a1 wins board 1 (b2 resigns) and a2 board 2 (b1 resigns): 2 : 0.
	act := func(gameID, token, typ string) {
		t.Helper()
		seat := game.UserSeat(s.idOf(token), token[strings.IndexByte(token, ':')+1:])
		if err := hub.Act(ctx, gameID, live.Chatter{ID: seat.ID, Name: seat.Name}, live.ClientMsg{Type: typ}); err != nil {
			t.Fatalf("%s in %s: %v", typ, gameID, err)
		}
	}
	act(v.Boards2[0].Game, b2, "resign")
	act(v.Boards2[1].Game, b1, "resign")
	deadline := time.Now().Add(5 * time.Second)
	for {
		code, m = s.do("GET", "/api/team-match/"+id, "", nil)
		if m["status"] == "finished" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if sc, _ := m["score"].([]any); code != 200 || m["status"] != "finished" || len(sc) != 2 || sc[0] != float64(2) || sc[1] != float64(0) {
		t.Fatalf("the match: %d %v", code, m)
	}
	if g, _ := s.st.Game(ctx, v.Boards2[1].Game); g.Result != toguz.WhiteWins && g.Result != toguz.BlackWins {
		t.Errorf("board 2's result %v", g.Result)
	}
	_, page = s.get("/team/"+a, "")
	if !strings.Contains(page, `href="/team/match/`+id+`"`) || !strings.Contains(page, "2 : 0") {
		t.Errorf("A's page lacks the match and its score")
	}
}
