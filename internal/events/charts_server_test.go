package events_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
)

// TestEventPictures: once a round's result is in, the event page draws
// the leaders' score progression and the players' ratings, titled in the
// page's language; before the start it draws no progression.
func TestEventPictures(t *testing.T) {
	l, err := server.StartLocal(context.Background(), server.Options{DB: filepath.Join(t.TempDir(), "t.db"), Engines: 1, ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c := &siteClient{t: t, url: l.URL, http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	arbiter, a, b := c.signup("Arbiter"), c.signup("Aigul"), c.signup("Bolat")
	resp, _ := c.do("POST", "/events", arbiter, url.Values{"name": {"Club cup"}, "kind": {"roundrobin"}, "tc": {"5+3"}, "ruleset": {"standard"}})
	loc := resp.Header.Get("Location")
	id := strings.TrimPrefix(loc, "/event/")
	for _, tok := range []string{a, b} {
		c.do("POST", loc+"/join", tok, url.Values{})
	}
	if _, page := c.do("GET", loc, "", nil); strings.Contains(page, `id="event-progress"`) {
		t.Error("a progression before the start")
	}
	c.do("POST", loc+"/arbiter/start", arbiter, url.Values{})
	c.do("POST", loc+"/arbiter/result", arbiter, url.Values{"round": {"1"}, "board": {"1"}, "result": {"0-1"}})
	deadline := time.Now().Add(5 * time.Second)
	for ev := c.event(id); ev.Status != "finished" && time.Now().Before(deadline); ev = c.event(id) {
		time.Sleep(50 * time.Millisecond)
	}
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		for _, path := range []string{loc, loc + "/live"} {
			_, page := c.do("GET", path, "", nil, "Accept-Language", lang)
			page = html.UnescapeString(page)
			ratings, _, _ := strings.Cut(cat.T(lang, "chart.event.ratings", ""), ":")
			for _, want := range []string{`id="event-progress"`, "<title>" + cat.N(lang, "chart.event.progress", 1, 1) + "</title>",
				">Aigul<", ">Bolat<", `id="event-ratings"`, "<title>" + ratings} {
				if !strings.Contains(page, want) {
					t.Errorf("%s %s lacks %q", lang, path, want)
				}
			}
		}
	}
}
