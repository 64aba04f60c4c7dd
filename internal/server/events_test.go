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
	"time"

	"github.com/toguz/toguz/internal/tournament"
)

// TestEventPages: on the whole server (Open), an account creates a round
// robin with the form of /events, two players join, the creator starts
// it; the round's game is a live game whose page links back to the event;
// the arbiter's result finishes the event and the standings say so; the
// live part answers 304 to its own ETag; a guest cannot create one.
func TestEventPages(t *testing.T) {
	ctx := context.Background()
	l, err := StartLocal(ctx, Options{DB: filepath.Join(t.TempDir(), "t.db"), Engines: 1, ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	signup := func(name string) string {
		resp, err := http.Post(l.URL+"/api/signup", "application/json", strings.NewReader(`{"name":"`+name+`","password":"correct horse"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		tok, _ := m["token"].(string)
		if tok == "" {
			t.Fatalf("signup %s: %d %v", name, resp.StatusCode, m)
		}
		return tok
	}
	do := func(method, path, token string, form url.Values, header ...string) (*http.Response, string) {
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
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	arbiter, a, b := signup("Arbiter"), signup("Aigul"), signup("Bolat")
	if resp, _ := do("POST", "/events", "", url.Values{"name": {"x"}, "kind": {"roundrobin"}, "tc": {"5+3"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a tournament without an account: %d", resp.StatusCode)
	}
	resp, _ := do("POST", "/events", arbiter, url.Values{"name": {"Club cup"}, "kind": {"roundrobin"}, "tc": {"5+3"}, "ruleset": {"standard"}})
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/event/") {
		t.Fatalf("create: %d %q", resp.StatusCode, loc)
	}
	id := strings.TrimPrefix(loc, "/event/")
	for _, tok := range []string{a, b} {
		if resp, body := do("POST", loc+"/join", tok, url.Values{}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("join: %d %s", resp.StatusCode, body)
		}
	}
	if resp, _ := do("POST", loc+"/arbiter/start", a, url.Values{}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a player started the event: %d", resp.StatusCode)
	}
	if resp, body := do("POST", loc+"/arbiter/start", arbiter, url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	var ev eventJSON
	getEvent := func() {
		_, body := do("GET", "/api/events/"+id, "", nil)
		if err := json.Unmarshal([]byte(body), &ev); err != nil {
			t.Fatal(err, body)
		}
	}
	getEvent()
	if ev.Status != "running" || len(ev.Rounds) != 1 || len(ev.Rounds[0].Games) != 1 || ev.Rounds[0].Games[0].GameID == "" {
		t.Fatalf("after the start: %+v", ev)
	}
	game := ev.Rounds[0].Games[0].GameID
	if _, body := do("GET", "/game/"+game, a, nil); !strings.Contains(body, `href="/event/`+id+`"`) {
		t.Error("the game page has no link back to the event")
	}
	_, page := do("GET", loc, arbiter, nil, "Accept-Language", "kk")
	for _, want := range []string{"Club cup", "Турнир кестесі", "Төрешінің басқару тақтасы", "/game/" + game,
		`<abbr title="Зоннеборн — Бергер" translate="no">SB</abbr>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the event page lacks %q", want)
		}
	}
	if resp, body := do("POST", loc+"/arbiter/result", arbiter, url.Values{"round": {"1"}, "board": {"1"}, "result": {"0-1"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("result: %d %s", resp.StatusCode, body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for getEvent(); ev.Status != "finished" && time.Now().Before(deadline); getEvent() {
		time.Sleep(50 * time.Millisecond)
	}
	if ev.Status != "finished" || ev.Players[0].Points != "1" || ev.Players[1].Points != "0" {
		t.Errorf("after the result: %+v", ev)
	}
	resp, _ = do("GET", loc+"/live", "", nil)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || etag == "" {
		t.Fatalf("live part: %d %q", resp.StatusCode, etag)
	}
	if resp, _ := do("GET", loc+"/live", "", nil, "If-None-Match", etag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("live part with its own ETag: %d", resp.StatusCode)
	}
	if _, body := do("GET", "/events", "", nil); !strings.Contains(body, "Club cup") {
		t.Error("/events does not list the event")
	}
	// The TRF export: the event as the federations' software reads it,
	// with the same standings and tie-breaks as the API's.
	if !strings.Contains(page, `href="/event/`+id+`/trf"`) {
		t.Error("the event page has no link to its TRF")
	}
	resp, trf := do("GET", loc+"/trf", "", nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("TRF: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	te, err := tournament.ReadTRF(strings.NewReader(trf))
	if err != nil {
		t.Fatalf("the exported TRF: %v\n%s", err, trf)
	}
	st := te.Standings(0)
	if te.Name != "Club cup" || len(st) != 2 || st[0].Player.Name != "Bolat" || st[0].Points != 1 || len(ev.TieBreaks) == 0 ||
		strings.Join(ev.TieBreaks, " ") != tieBreakNames(te) || len(ev.Players[0].TieBreaks) != len(ev.TieBreaks) {
		t.Errorf("the exported TRF's standings %+v, tie-breaks %s; the API's %v %+v", st, tieBreakNames(te), ev.TieBreaks, ev.Players)
	}
}

func tieBreakNames(e *tournament.Event) string {
	var names []string
	for _, tb := range e.TieBreaks {
		names = append(names, tb.String())
	}
	return strings.Join(names, " ")
}

// TestPointsExact: scores and tie-breaks are shown exactly; a
// Sonneborn-Berger with draws has quarters, which one decimal rounded.
func TestPointsExact(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0, "0"}, {2, "2"}, {0.5, "0.5"}, {0.25, "0.25"}, {12.75, "12.75"}, {47.5, "47.5"}} {
		if got := points(c.v); got != c.want {
			t.Errorf("points(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
