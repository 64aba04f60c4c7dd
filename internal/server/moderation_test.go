package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/game"
)

// TestModerationWiring: on the whole server, the header links a moderator
// (and nobody else) to the queue, a warned player sees the warning on his
// next page, a muted player's seat is what the hub's chat check asks
// about (live's TestMutedChat), and a closed account's
// session is nobody's from then on.
func TestModerationWiring(t *testing.T) {
	ctx := context.Background()
	l, err := StartLocal(ctx, Options{DB: filepath.Join(t.TempDir(), "t.db"), Engines: 1, ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path, token string, form url.Values) (int, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, l.URL+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	signup := func(name string) string {
		resp, err := http.Post(l.URL+"/api/signup", "application/json", strings.NewReader(`{"name":"`+name+`","password":"correct horse"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]string
		json.NewDecoder(resp.Body).Decode(&m)
		return m["token"]
	}
	mod, player := signup("Moder"), signup("Player")
	u, err := l.app.Store.UserByName(ctx, "Moder")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.app.Store.SetModerator(ctx, u.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := l.Moderation().Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, body := do("GET", "/", mod, nil); !strings.Contains(body, `id="mod-link"`) {
		t.Error("the moderator's header has no link to the queue")
	}
	if _, body := do("GET", "/settings", mod, nil); !strings.Contains(body, `id="settings-mod-link"`) {
		t.Error("the moderator's settings have no link to the queue")
	}
	if _, body := do("GET", "/", player, nil); strings.Contains(body, `id="mod-link"`) {
		t.Error("a player's header links to the queue")
	}
	if code, _ := do("GET", "/mod", player, nil); code != http.StatusForbidden {
		t.Errorf("GET /mod by a player: %d", code)
	}
	for _, a := range []url.Values{{"action": {"warn"}, "reason": {"Mind your words."}}, {"action": {"mute"}, "reason": {"insults"}}} {
		if code, body := do("POST", "/mod/@/Player", mod, a); code != http.StatusOK {
			t.Fatalf("%s: %d %s", a.Get("action"), code, body)
		}
	}
	if _, body := do("GET", "/", player, nil); !strings.Contains(body, `id="mod-warning-banner"`) {
		t.Error("the warned player's next page does not say so")
	}
	pu, _ := l.app.Store.UserByName(ctx, "Player")
	if !l.Moderation().Muted(game.UserSeat(pu.ID, pu.Name).ID) {
		t.Error("the muted player's seat is not muted")
	}
	if code, _ := do("GET", "/api/me", player, nil); code != http.StatusOK {
		t.Fatalf("the player before the close: %d", code)
	}
	if code, body := do("POST", "/mod/@/Player", mod, url.Values{"action": {"close"}, "reason": {"spam"}}); code != http.StatusOK {
		t.Fatalf("close: %d %s", code, body)
	}
	if code, _ := do("GET", "/api/me", player, nil); code != http.StatusUnauthorized {
		t.Errorf("a closed account's session: %d, want 401", code)
	}
}
