package events_test

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

	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/tournament"
)

// TestEventPages: on the whole server (server.StartLocal), an account
// creates a round robin with the form of /events, two players join, the
// creator starts it; the round's game is a live game whose page links back
// to the event; the arbiter's result finishes the event and the standings
// say so; the live part answers 304 to its own ETag; a guest cannot create
// one.
func TestEventPages(t *testing.T) {
	ctx := context.Background()
	l, err := server.StartLocal(ctx, server.Options{DB: filepath.Join(t.TempDir(), "t.db"), Engines: 1, ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c := &siteClient{t: t, url: l.URL, http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	arbiter, a, b := c.signup("Arbiter"), c.signup("Aigul"), c.signup("Bolat")
	if resp, _ := c.do("POST", "/events", "", url.Values{"name": {"x"}, "kind": {"roundrobin"}, "tc": {"5+3"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a tournament without an account: %d", resp.StatusCode)
	}
	resp, _ := c.do("POST", "/events", arbiter, url.Values{"name": {"Club cup"}, "kind": {"roundrobin"}, "tc": {"5+3"}, "ruleset": {"standard"}})
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/event/") {
		t.Fatalf("create: %d %q", resp.StatusCode, loc)
	}
	id := strings.TrimPrefix(loc, "/event/")
	for _, tok := range []string{a, b} {
		if resp, body := c.do("POST", loc+"/join", tok, url.Values{}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("join: %d %s", resp.StatusCode, body)
		}
	}
	if resp, _ := c.do("POST", loc+"/arbiter/start", a, url.Values{}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a player started the event: %d", resp.StatusCode)
	}
	if resp, body := c.do("POST", loc+"/arbiter/start", arbiter, url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	ev := c.event(id)
	if ev.Status != "running" || len(ev.Rounds) != 1 || len(ev.Rounds[0].Games) != 1 || ev.Rounds[0].Games[0].GameID == "" {
		t.Fatalf("after the start: %+v", ev)
	}
	game := ev.Rounds[0].Games[0].GameID
	if _, body := c.do("GET", "/game/"+game, a, nil); !strings.Contains(body, `href="/event/`+id+`"`) {
		t.Error("the game page has no link back to the event")
	}
	_, page := c.do("GET", loc, arbiter, nil, "Accept-Language", "kk")
	for _, want := range []string{"Club cup", "Турнир кестесі", "Төрешінің басқару тақтасы", "/game/" + game,
		`<abbr title="Зоннеборн — Бергер" translate="no">SB</abbr>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the event page lacks %q", want)
		}
	}
	if resp, body := c.do("POST", loc+"/arbiter/result", arbiter, url.Values{"round": {"1"}, "board": {"1"}, "result": {"0-1"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("result: %d %s", resp.StatusCode, body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for ev = c.event(id); ev.Status != "finished" && time.Now().Before(deadline); ev = c.event(id) {
		time.Sleep(50 * time.Millisecond)
	}
	if ev.Status != "finished" || ev.Players[0].Points != "1" || ev.Players[1].Points != "0" {
		t.Errorf("after the result: %+v", ev)
	}
	c.checkLive(loc)
	// The arbiter's log reads in the page's language, and the standings'
	// codes are explained in words on the page, not only in tooltips.
	_, page = c.do("GET", loc, arbiter, nil, "Accept-Language", "kk")
	for _, want := range []string{"Arbiter турнирді бастады", "Arbiter нәтижені қойды: 1-тур, 1-үстел: 0-1 (бұрын: жоқ)",
		`<dt translate="no">SB</dt><dd>Зоннеборн — Бергер</dd>`, "w — ақ, b — қара"} {
		if !strings.Contains(page, want) {
			t.Errorf("the arbiter's page in Kazakh lacks %q", want)
		}
	}
	if strings.Contains(page, "Arbiter start") || strings.Contains(page, "round 1 board 1") {
		t.Error("the arbiter's log is in English on the Kazakh page")
	}
	if _, body := c.do("GET", "/events", "", nil); !strings.Contains(body, "Club cup") {
		t.Error("/events does not list the event")
	}
	// The TRF export: the event as the federations' software reads it,
	// with the same standings and tie-breaks as the API's.
	if !strings.Contains(page, `href="/event/`+id+`/trf"`) {
		t.Error("the event page has no link to its TRF")
	}
	c.checkTRF(loc, ev)
}

// siteClient sends the requests of TestEventPages to a whole server, its
// redirects not followed, as a browser's form posts seen one at a time.
type siteClient struct {
	t    *testing.T
	url  string
	http *http.Client
}

// signup makes an account and returns its token.
func (c *siteClient) signup(name string) string {
	c.t.Helper()
	resp, err := http.Post(c.url+"/api/signup", "application/json", strings.NewReader(`{"name":"`+name+`","password":"correct horse"}`))
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	tok, _ := m["token"].(string)
	if tok == "" {
		c.t.Fatalf("signup %s: %d %v", name, resp.StatusCode, m)
	}
	return tok
}

// do sends a request with token (if any), form (if any) and the header's
// name and value pairs, and returns the answer and its body.
func (c *siteClient) do(method, path, token string, form url.Values, header ...string) (*http.Response, string) {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, c.url+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// event is GET /api/events/{id}.
func (c *siteClient) event(id string) events.EventJSON {
	c.t.Helper()
	var ev events.EventJSON
	_, body := c.do("GET", "/api/events/"+id, "", nil)
	if err := json.Unmarshal([]byte(body), &ev); err != nil {
		c.t.Fatal(err, body)
	}
	return ev
}

// checkLive: the live part of the event page loc has an ETag, and
// answers 304 to it.
func (c *siteClient) checkLive(loc string) {
	c.t.Helper()
	resp, _ := c.do("GET", loc+"/live", "", nil)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || etag == "" {
		c.t.Fatalf("live part: %d %q", resp.StatusCode, etag)
	}
	if resp, _ := c.do("GET", loc+"/live", "", nil, "If-None-Match", etag); resp.StatusCode != http.StatusNotModified {
		c.t.Errorf("live part with its own ETag: %d", resp.StatusCode)
	}
}

// checkTRF: the TRF of the event page loc reads back with the standings
// and the tie-breaks of ev, the API's, and passes the pairings checker.
func (c *siteClient) checkTRF(loc string, ev events.EventJSON) {
	c.t.Helper()
	resp, trf := c.do("GET", loc+"/trf", "", nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		c.t.Fatalf("TRF: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	te, err := tournament.ReadTRF(strings.NewReader(trf))
	if err != nil {
		c.t.Fatalf("the exported TRF: %v\n%s", err, trf)
	}
	checkPairings(c.t, []byte(trf))
	st := te.Standings(0)
	if te.Name != "Club cup" || len(st) != 2 || st[0].Player.Name != "Bolat" || st[0].Points != 1 || len(ev.TieBreaks) == 0 ||
		strings.Join(ev.TieBreaks, " ") != tieBreakNames(te) || len(ev.Players[0].TieBreaks) != len(ev.TieBreaks) {
		c.t.Errorf("the exported TRF's standings %+v, tie-breaks %s; the API's %v %+v", st, tieBreakNames(te), ev.TieBreaks, ev.Players)
	}
}

func tieBreakNames(e *tournament.Event) string {
	var names []string
	for _, tb := range e.TieBreaks {
		names = append(names, tb.String())
	}
	return strings.Join(names, " ")
}
