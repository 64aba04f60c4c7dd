package server

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func (s *testServer) signup(name string) string {
	s.t.Helper()
	code, m := s.do("POST", "/api/signup", "", map[string]any{"name": name, "password": "correct horse"})
	if code != 201 {
		s.t.Fatalf("signup %s: %d %v", name, code, m)
	}
	return m["token"].(string)
}

// TestAccountsAndRatedGame: sign-up, login, logout; a rated game between
// two accounts played to its end changes both ratings, and the game is in
// both histories, on the profiles and (once rated) in the API.
func TestAccountsAndRatedGame(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	aigul := s.signup("Aigul")
	bolat := s.signup("Болат")
	if code, m := s.do("GET", "/api/me", aigul, nil); code != 200 || m["name"] != "Aigul" {
		t.Fatalf("me: %d %v", code, m)
	}
	if code, _ := s.do("POST", "/api/signup", "", map[string]any{"name": "aigul", "password": "another one"}); code != 409 {
		t.Errorf("duplicate name (other case): %d, want 409", code)
	}
	if code, m := s.do("POST", "/api/login", "", map[string]any{"name": "Aigul", "password": "wrong password"}); code != 401 {
		t.Errorf("wrong password: %d %v", code, m)
	}
	code, m := s.do("POST", "/api/login", "", map[string]any{"name": "aigul", "password": "correct horse"})
	if code != 200 {
		t.Fatalf("login: %d %v", code, m)
	}
	second := m["token"].(string)
	if code, _ := s.do("POST", "/api/logout", second, nil); code != 204 {
		t.Errorf("logout: %d", code)
	}
	if code, _ := s.do("GET", "/api/me", second, nil); code != 401 {
		t.Errorf("me after logout: %d", code)
	}
	// A guest cannot play rated.
	if code, m := s.do("POST", "/api/seeks", s.guest(), map[string]any{"tc": "3+2", "rated": true}); code != 403 {
		t.Errorf("rated guest seek: %d %v", code, m)
	}

	white, black, id := s.game(aigul, bolat, "3+2", true)
	w, b := s.dial(id, white), s.dial(id, black)
	st := w.until("state")
	b.until("state")
	if !strings.Contains(st.Raw, `"rated":true`) || !strings.Contains(st.Raw, `"category":"blitz"`) {
		t.Fatalf("state: %s", st.Raw)
	}
	end := playOut(t, rand.New(rand.NewPCG(7, 8)), w, b, st.FEN, 0)
	for _, name := range []string{"Aigul", "Болат"} {
		code, m := s.do("GET", "/api/users/"+url.PathEscape(name)+"/games", "", nil)
		games, _ := m["games"].([]any)
		if code != 200 || len(games) != 1 || games[0].(map[string]any)["result"] != end.Result {
			t.Errorf("%s's games: %d %v", name, code, m)
		}
		code, m = s.do("GET", "/api/users/"+url.PathEscape(name), "", nil)
		r, _ := m["ratings"].(map[string]any)["blitz"].(map[string]any)
		if code != 200 || r == nil || r["games"] != 1.0 || (end.Result != "1/2-1/2" && r["rating"] == 1500.0) {
			t.Errorf("%s's profile: %d %v", name, code, m)
		}
		resp, err := http.Get(s.URL + "/@/" + url.PathEscape(name))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "/game/"+id) || !strings.Contains(string(body), `id="rating-chart"`) {
			t.Errorf("profile page of %s: %d", name, resp.StatusCode)
		}
	}
	g, err := s.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if end.Result != "1/2-1/2" && (g.RatingDiff[0] == 0 || g.RatingDiff[1] == 0) {
		t.Errorf("rating changes %v after %s", g.RatingDiff, end.Result)
	}
}

// TestSQLLookingNames: names built to break SQL or HTML are refused with a
// clear error or stored and shown as plain text; the tables are intact.
func TestSQLLookingNames(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	for _, name := range []string{"Robert'); DROP TABLE users;--", "x' OR '1'='1", `<script>alert(1)</script>`, "a\"b", "Guest-123456"} {
		code, m := s.do("POST", "/api/signup", "", map[string]any{"name": name, "password": "password123"})
		e, _ := m["error"].(map[string]any)
		if code != 400 || e["code"] != "bad_name" {
			t.Errorf("name %q: %d %v, want 400 bad_name", name, code, m)
		}
	}
	// Names that are valid but look like SQL keywords are just names.
	tok := s.signup("DROP_TABLE-users")
	if code, m := s.do("GET", "/api/me", tok, nil); code != 200 || m["name"] != "DROP_TABLE-users" {
		t.Errorf("me: %d %v", code, m)
	}
	for _, path := range []string{"/api/users/x'%20OR%20'1'='1", "/@/Robert');%20DROP%20TABLE%20users;--", "/api/games/'%20OR%201=1--"} {
		resp, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
	if code, _ := s.do("GET", "/api/users/DROP_TABLE-users", "", nil); code != 200 {
		t.Errorf("the users table lost its user: %d", code)
	}
}
