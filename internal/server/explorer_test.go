package server

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/explorer"
)

// explorerMoves reads the move table of GET /api/explorer: hole → games,
// White's wins, draws, Black's wins.
func explorerMoves(t *testing.T, s *testServer, query string) (int, map[int][4]int, map[string]any) {
	t.Helper()
	code, m := s.do("GET", "/api/explorer?"+query, "", nil)
	out := map[int][4]int{}
	if moves, ok := m["moves"].([]any); ok {
		for _, x := range moves {
			mv := x.(map[string]any)
			out[int(mv["hole"].(float64))] = [4]int{int(mv["games"].(float64)), int(mv["white"].(float64)), int(mv["draws"].(float64)), int(mv["black"].(float64))}
		}
	}
	return code, out, m
}

// TestExplorerLiveGame: a live game that ends (by resignation) is in the
// site's tree at once, in its positions' counts and games; the masters'
// database is not changed by it.
func TestExplorerLiveGame(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	_, before, _ := explorerMoves(t, s, "db=site")
	if len(before) != 0 {
		t.Fatalf("an empty site has moves: %v", before)
	}
	_, masters, _ := explorerMoves(t, s, "db=masters")
	white, black, id := s.game(s.guest(), s.guest(), "5+0", false)
	w, b := s.dial(id, white), s.dial(id, black)
	w.until("state")
	b.until("state")
	w.move(0, 7)
	b.until("move")
	b.move(1, 3)
	w.until("move")
	w.until("move")
	w.send(`{"type":"resign"}`)
	w.until("end")
	for _, c := range []struct {
		query string
		want  map[int][4]int
	}{
		{"db=site", map[int][4]int{7: {1, 0, 0, 1}}},
		{"db=site&moves=7", map[int][4]int{3: {1, 0, 0, 1}}},
		{"db=site&moves=7,3", map[int][4]int{}},
		{"db=site&tc=blitz", map[int][4]int{7: {1, 0, 0, 1}}}, // 5+0 is blitz
		{"db=site&tc=rapid", map[int][4]int{}},
		{"db=site&min=1400", map[int][4]int{}}, // a casual game has no ratings
	} {
		code, got, raw := explorerMoves(t, s, c.query)
		if code != 200 || len(got) != len(c.want) {
			t.Errorf("%s: %d %v, want %v (%v)", c.query, code, got, c.want, raw)
			continue
		}
		for h, w := range c.want {
			if got[h] != w {
				t.Errorf("%s: move %d: %v, want %v", c.query, h, got[h], w)
			}
		}
		if c.query == "db=site" {
			games, _ := raw["games"].([]any)
			if len(games) != 1 || games[0].(map[string]any)["id"] != id || games[0].(map[string]any)["url"] != "/game/"+id {
				t.Errorf("the games of the start: %v, want %s", games, id)
			}
		}
	}
	if _, after, _ := explorerMoves(t, s, "db=masters"); len(after) != len(masters) || after[7] != masters[7] {
		t.Errorf("the masters' tree changed: %v, was %v", after, masters)
	}
}

// TestExplorerAPI: the masters' database answers with notation and values,
// and bad requests get their error.
func TestExplorerAPI(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	code, got, raw := explorerMoves(t, s, "")
	if code != 200 || raw["db"] != "masters" || got[7][0] < 100 {
		t.Fatalf("the masters' start: %d %v", code, raw)
	}
	first := raw["moves"].([]any)[0].(map[string]any)
	if first["notation"] == "" || first["eval"] == nil {
		t.Errorf("the most played move has no notation or value: %v", first)
	}
	// Deep in a master game, past the book, the value is searched.
	ms, err := explorer.DefaultMasters()
	if err != nil {
		t.Fatal(err)
	}
	// A position of the masters that one game alone reached: the book
	// keeps moves played twice or more.
	var path []string
	for n := 1; n <= ms.Len() && path == nil; n++ {
		g, _ := ms.Game(n)
		p, _ := toguz.NewPosition(g.Record.Rules)
		var try []string
		for _, m := range g.Moves[:min(len(g.Moves), explorer.MaxPly-1)] {
			if p.Rules() != toguz.Standard() {
				break
			}
			if ms.Query(p.Key(), explorer.Filter{}).Total().Games == 1 {
				path = try
				break
			}
			try = append(try, strconv.Itoa(int(m)))
			p = p.After(m)
		}
	}
	_, got, raw = explorerMoves(t, s, "moves="+strings.Join(path, ","))
	if mv := raw["moves"].([]any); len(got) != 1 || mv[0].(map[string]any)["eval_source"] != "search" || mv[0].(map[string]any)["eval"] == nil {
		t.Errorf("master game 1 after %d plies: %v", len(path), raw)
	}
	for _, c := range []struct {
		query string
		code  int
		msg   string
	}{
		{"db=nope", 400, "masters, site or player"},
		{"moves=7,x", 400, "holes"},
		{"moves=0", 400, "holes"},
		{"min=abc", 400, "rating"},
		{"tc=fast", 400, "time control"},
		{"from=2024-13", 400, "YYYY-MM"},
		{"db=player", 400, "name"},
		{"db=player&player=nobody", 404, "nobody"},
		{"color=green", 400, "White or Black"},
	} {
		code, m := s.do("GET", "/api/explorer?"+c.query, "", nil)
		e, _ := m["error"].(map[string]any)
		if msg, _ := e["message"].(string); code != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: %d %v, want %d %q", c.query, code, m, c.code, c.msg)
		}
	}
}

// TestExplorerPage: the page shows the position's moves as links one ply
// deeper, in the page's language, and a master game's page its record.
func TestExplorerPage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	get := func(path, lang string) (int, string) {
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		req.Header.Set("Accept-Language", lang)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("/explorer?moves=7", "kk")
	for _, want := range []string{"Ашылулар зерттеушісі", `href="/explorer?db=masters&amp;moves=7%2C`, `<svg`, `id="explorer-moves"`, `href="/explorer/masters/`} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("kk page: %d, no %q", code, want)
		}
	}
	if strings.Contains(body, "to move</title>") {
		t.Error("the board's English title reached the page")
	}
	code, body = get("/explorer?moves=7,0", "en")
	if code != 400 || !strings.Contains(body, "explorer-error") {
		t.Errorf("a bad move: %d", code)
	}
	code, body = get("/explorer/masters/1", "ru")
	if code != 200 || !strings.Contains(body, `id="master-record"`) || !strings.Contains(body, "1. 76") {
		t.Errorf("master game 1: %d", code)
	}
	if code, _ := get("/explorer/masters/99999", "en"); code != 404 {
		t.Errorf("master game 99999: %d", code)
	}
}
