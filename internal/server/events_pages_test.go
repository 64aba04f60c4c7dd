package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/store"
)

// TestEventsPaged: /events lists the newest events.FinishedListed of 120
// finished events, links the older ones page by page and back, and GET
// /api/events does the same with older_page.
func TestEventsPaged(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, "arbiter", "x")
	if err != nil {
		t.Fatal(err)
	}
	settings, err := json.Marshal(events.Settings{Kind: events.RoundRobin, Rules: "standard", TC: "5+3", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	const n = 120
	day := time.Now().Add(-1000 * time.Hour)
	for i := range n {
		at := day.Add(time.Duration(i) * time.Hour)
		ev := store.Event{ID: fmt.Sprintf("ev%03d", i), Creator: u.ID, Name: fmt.Sprintf("Cup %03d", i), Kind: string(events.RoundRobin),
			Settings: settings, Status: string(events.Finished), Created: at, Start: at, Ended: at.Add(time.Hour)}
		if err := st.SaveEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	s := startAbuse(t, Options{DB: db})
	for _, c := range []struct {
		page         string
		newest       int // the first listed, newest first
		count        int
		newer, older string
	}{
		{"", n - 1, events.FinishedListed, "", `href="/events?page=2" id="events-older"`},
		{"?page=2", n - 1 - events.FinishedListed, events.FinishedListed, `href="/events" id="events-newer"`, `href="/events?page=3" id="events-older"`},
		{"?page=3", n - 1 - 2*events.FinishedListed, n - 2*events.FinishedListed, `href="/events?page=2" id="events-newer"`, ""},
	} {
		code, body := getAs(t, s.testServer, "", "/events"+c.page)
		if code != 200 {
			t.Fatalf("/events%s: %d", c.page, code)
		}
		if got := strings.Count(body, `href="/event/ev`); got != c.count {
			t.Errorf("/events%s lists %d events, want %d", c.page, got, c.count)
		}
		if first := fmt.Sprintf("Cup %03d", c.newest); !strings.Contains(body, first) || strings.Contains(body, fmt.Sprintf("Cup %03d", c.newest+1)) {
			t.Errorf("/events%s does not begin with %s", c.page, first)
		}
		for _, link := range []string{c.newer, c.older} {
			if link != "" && !strings.Contains(body, link) {
				t.Errorf("/events%s has no %s", c.page, link)
			}
		}
		if c.newer == "" && strings.Contains(body, `id="events-newer"`) || c.older == "" && strings.Contains(body, `id="events-older"`) {
			t.Errorf("/events%s links a page that is not there", c.page)
		}
	}
	code, m := s.do("GET", "/api/events", "", nil)
	if code != 200 || len(m["events"].([]any)) != events.FinishedListed || m["older_page"] != 2.0 {
		t.Errorf("GET /api/events: %d, %d events, older_page %v", code, len(m["events"].([]any)), m["older_page"])
	}
	if _, m := s.do("GET", "/api/events?page=3", "", nil); len(m["events"].([]any)) != n-2*events.FinishedListed || m["older_page"] != nil {
		t.Errorf("GET /api/events?page=3: %d events, older_page %v", len(m["events"].([]any)), m["older_page"])
	}
}
