package server

import (
	"strings"
	"testing"
)

// TestTimeControlRefused: seeks and engine games with a clock nobody can
// play with ("0+0" used to be taken for no clock, "0.001+0" too) are
// refused with bad_tc and a message naming what is out of range.
func TestTimeControlRefused(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	g := s.guest()
	for _, tt := range []struct{ path, tc, want string }{
		{"/api/seeks", "0+0", "base time 0s + 40 × increment 0s"},
		{"/api/seeks", "0.001+0", "base time 0s + 40 × increment 0s"},
		{"/api/seeks", "0.2+0", "base time 12s"},
		{"/api/seeks", "5+-1", "increment -1s"},
		{"/api/seeks", "5+200", "increment 3m20s"},
		{"/api/seeks", "0d", "days per move"},
		{"/api/seeks", "15d", "days per move"},
		{"/api/engine-games", "0+0", "base time 0s"},
		{"/api/engine-games", "0.001+0", "base time 0s"},
	} {
		body := map[string]any{"tc": tt.tc, "color": "white"}
		if tt.path == "/api/engine-games" {
			body["level"] = 1
		}
		code, m := s.do("POST", tt.path, g, body)
		e, _ := m["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if code != 400 || e["code"] != "bad_tc" || !strings.Contains(msg, tt.want) {
			t.Errorf("POST %s tc %q: %d %v, want 400 bad_tc naming %q", tt.path, tt.tc, code, m, tt.want)
		}
	}
	if code, m := s.do("POST", "/api/seeks", g, map[string]any{"tc": "0.25+0", "color": "white"}); code != 201 {
		t.Errorf("the shortest clock, 0.25+0: %d %v", code, m)
	}
}
