package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/i18n"
)

// TestAnalysisGameNames: the analysis board of a game against the engine
// names the engine in the page's language, as the game's page does.
func TestAnalysisGameNames(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok := s.guest()
	code, m := s.do("POST", "/api/engine-games", tok, map[string]any{"level": 1, "color": "white"})
	if code != 201 {
		t.Fatalf("engine game: %d %v", code, m)
	}
	id := m["game_id"].(string)
	w := s.dial(id, tok)
	w.until("state")
	w.send(`{"type":"resign"}`)
	w.until("end")
	cat := i18n.New()
	for _, lang := range []string{"kk", "ru", "en"} {
		req, _ := http.NewRequest("GET", s.URL+"/analysis/game/"+id, nil)
		req.Header.Set("Accept-Language", lang)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := string(b)
		// The players' line above the board (the record's own tags, in the
		// page's data, keep the record's English).
		_, line, _ := strings.Cut(body, `id="analysis-back"`)
		line, _, _ = strings.Cut(line, "</p>")
		if want := cat.T(lang, "game.engine", 1); resp.StatusCode != 200 || !strings.Contains(line, want) {
			t.Errorf("%s: the analysis of an engine game: %d, its players %q, want the engine named %q", lang, resp.StatusCode, line, want)
		}
	}
}
