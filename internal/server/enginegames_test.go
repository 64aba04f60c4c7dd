package server

import (
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
)

// TestEngineGamesBound: a person may play live.DefaultMaxEngineGames games
// against the engine at once; the next is refused with 429
// too_many_engine_games, and another person is not.
func TestEngineGamesBound(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok, other := s.guest(), s.guest()
	create := func(tok string) (int, map[string]any) {
		// The engine plays Black: it never searches here.
		return s.do("POST", "/api/engine-games", tok, map[string]any{"level": 1, "color": "white"})
	}
	for i := range live.DefaultMaxEngineGames {
		if code, m := create(tok); code != 201 {
			t.Fatalf("game %d: %d %v", i+1, code, m)
		}
	}
	if code, m := create(tok); code != 429 || m["error"].(map[string]any)["code"] != string(apierr.CodeTooManyEngineGames) {
		t.Fatalf("one game too many: %d %v, want 429 %s", code, m, apierr.CodeTooManyEngineGames)
	}
	if n := s.hub.EngineGamesRefused(); n != 1 {
		t.Fatalf("%d engine games counted as refused, want 1", n)
	}
	if code, m := create(other); code != 201 {
		t.Fatalf("another person: %d %v", code, m)
	}
}
