package server

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
)

// pageAs gets a page with a token's identity.
func pageAs(t *testing.T, s *testServer, path, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Accept-Language", "en")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestAnalysisTreeRoundTrip imports a record with variations, comments and
// marks as the board does, exports the tree it got back, and finds the same
// record; the shared link opens the same tree.
func TestAnalysisTreeRoundTrip(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	data, err := os.ReadFile("../../testdata/tree/variations.toguz")
	if err != nil {
		t.Fatal(err)
	}
	code, m := s.do("POST", "/api/analysis/import", "", map[string]any{"record": string(data)})
	if code != 200 || m["games"] != 2.0 || m["game"] != 1.0 {
		t.Fatalf("import: %d %v", code, m)
	}
	root := m["root"].(map[string]any)
	first := root["children"].([]any)
	if len(first) != 3 || first[0].(map[string]any)["notation"] != "76" || first[0].(map[string]any)["mark"] != "!" ||
		first[1].(map[string]any)["comment"] != "too slow" {
		t.Fatalf("the first moves: %v", first)
	}
	code, out := s.do("POST", "/api/analysis/export", "", m)
	want := strings.SplitAfter(string(data), "\n\n[")[0]
	want = regexp.MustCompile(`\(\d+\)`).ReplaceAllString(strings.TrimSuffix(want, "["), "") // the board keeps no kazan totals
	if code != 200 || out["record"] != want || out["shareable"] != true {
		t.Fatalf("export: %d\n%v\nwant\n%s", code, out["record"], want)
	}
	// The link carries the record; the page opens its tree.
	code, body := pageAs(t, s, "/analysis?record="+url.QueryEscape(want), "")
	if code != 200 || !strings.Contains(html.UnescapeString(body), `"comment":"another idea"`) {
		t.Errorf("the shared link: %d", code)
	}
	// The second game of the file.
	if code, m := s.do("POST", "/api/analysis/import", "", map[string]any{"record": string(data), "game": 2}); code != 200 || m["ruleset"] != "bestemshe" {
		t.Errorf("game 2: %d %v", code, m)
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"no game 3", map[string]any{"record": string(data), "game": 3}, "bad_request"},
		{"bad variation", map[string]any{"record": "[Result \"*\"]\n\n1. 76 (1. 98\n*\n"}, "bad_format"},
		{"too many moves", map[string]any{"record": "1. 76 " + strings.Repeat("(1. 19) (1. 98) ", 1001) + "*\n"}, "bad_request"},
	} {
		code, m := s.do("POST", "/api/analysis/import", "", tc.body)
		if e, _ := m["error"].(map[string]any); code != 400 || e["code"] != tc.code {
			t.Errorf("%s: %d %v", tc.name, code, m)
		}
	}
	if _, m := s.do("POST", "/api/analysis/import", "", map[string]any{"record": "1. 76 " + strings.Repeat("(1. 19) (1. 98) ", 1001) + "*\n"}); m["error"].(map[string]any)["message"] != "A move tree holds at most 2000 moves." {
		t.Errorf("a tree of 2,003 moves: %v", m)
	}
	if _, m := s.do("POST", "/api/analysis/import", "", map[string]any{"record": "[Result \"*\"]\n\n1. 76 (1. 98\n*\n"}); !strings.Contains(m["error"].(map[string]any)["message"].(string), "line 3") {
		t.Errorf("the error of a bad variation names no line: %v", m)
	}
}

// TestAnalysisExportChecks: the export replays the board's tree, so an
// illegal move, a bad mark or too many moves are refused.
func TestAnalysisExportChecks(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	node := func(hole int, children ...any) map[string]any {
		return map[string]any{"hole": hole, "children": children}
	}
	tree := func(root map[string]any) map[string]any {
		return map[string]any{"ruleset": "standard", "tags": [][2]string{{"White", "Ainur"}}, "root": root}
	}
	// 7 then 9, with 1 as a variation of 7 and a mark and comment.
	v := node(1)
	v["mark"], v["comment"] = "?!", "weak"
	code, m := s.do("POST", "/api/analysis/export", "", tree(map[string]any{"children": []any{node(7, node(9)), v}}))
	want := "[White \"Ainur\"]\n[Result \"*\"]\n[Ruleset \"standard\"]\n\n1. 76 (1. 19?! {weak}) 1... 98\n*\n\n"
	if code != 200 || m["record"] != want {
		t.Errorf("export: %d %q, want %q", code, m["record"], want)
	}
	for _, tc := range []struct {
		name string
		root map[string]any
		code string
	}{
		{"illegal", map[string]any{"children": []any{node(7, node(0))}}, "illegal_move"},
		{"bad mark", map[string]any{"children": []any{map[string]any{"hole": 7, "mark": "!!!", "children": []any{}}}}, "bad_request"},
		{"bad FEN", map[string]any{"fen": "x", "children": []any{}}, "bad_position"},
	} {
		code, m := s.do("POST", "/api/analysis/export", "", tree(tc.root))
		if e, _ := m["error"].(map[string]any); code != 400 || e["code"] != tc.code {
			t.Errorf("%s: %d %v", tc.name, code, m)
		}
	}
	// Too many moves: 2,005 (401 times 76 98 66 87 12) are refused, 2,000
	// are written.
	wide := []any{}
	for range 401 {
		wide = append(wide, node(7, node(9, node(6, node(8, node(1))))))
	}
	if code, m := s.do("POST", "/api/analysis/export", "", tree(map[string]any{"children": wide})); code != 400 ||
		m["error"].(map[string]any)["message"] != "A move tree holds at most 2000 moves." {
		t.Errorf("a tree of 2,005 moves: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/analysis/export", "", tree(map[string]any{"children": wide[:400]})); code != 200 {
		t.Errorf("a tree of 2,000 moves: %d %v", code, m)
	}
}

// TestAnalysisPages: the board opens from the start of a ruleset, a FEN and
// a finished game, and an Analyse link leads there from the game page; a
// game in progress does not open for its players (403, with a sentence),
// and a FEN it cannot read is shown with the reason.
func TestAnalysisPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	code, body := pageAs(t, s, "/analysis?ruleset=bestemshe", "")
	if code != 200 || !strings.Contains(body, `id="analysis"`) || !strings.Contains(html.UnescapeString(body), `"ruleset":"bestemshe"`) {
		t.Fatalf("/analysis?ruleset=bestemshe: %d", code)
	}
	fen := "9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1"
	if code, body := pageAs(t, s, "/analysis?fen="+url.QueryEscape(fen), ""); code != 200 || !strings.Contains(html.UnescapeString(body), `"fen":"`+fen+`"`) {
		t.Errorf("/analysis?fen=: %d", code)
	}
	if code, body := pageAs(t, s, "/analysis?fen=nonsense", ""); code != 400 || !strings.Contains(body, `id="analysis-error" role="alert">`) {
		t.Errorf("/analysis?fen=nonsense: %d", code)
	}

	white, black, id := s.game(s.guest(), s.guest(), "5+0", false)
	w := s.dial(id, white)
	w.until("state")
	w.move(0, 7)
	w.until("move")
	code, body = pageAs(t, s, "/analysis/game/"+id, black)
	if code != 403 || !strings.Contains(body, "its players can analyse it once it has ended") {
		t.Errorf("a player opens his game in progress: %d", code)
	}
	if code, _ := pageAs(t, s, "/analysis/game/"+id, s.guest()); code != 200 {
		t.Errorf("a spectator opens a game in progress: %d", code)
	}
	w.send(`{"type":"resign"}`)
	w.until("end")
	code, body = pageAs(t, s, "/analysis/game/"+id, black)
	if code != 200 || !strings.Contains(html.UnescapeString(body), `"notation":"76"`) || !strings.Contains(body, `<a href="/game/`+id+`" id="analysis-back">Back to the game</a>`) {
		t.Errorf("a player opens his finished game: %d", code)
	}
	if _, body := pageAs(t, s, "/game/"+id, black); !strings.Contains(body, `href="/analysis/game/`+id+`"`) {
		t.Errorf("the finished game's page has no Analyse link")
	}
	if code, _ := pageAs(t, s, "/analysis/game/nosuchgame", ""); code != 404 {
		t.Errorf("an unknown game: %d", code)
	}
}
