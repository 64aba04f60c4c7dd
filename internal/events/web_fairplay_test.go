package events_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// TestEventFairPlay: the arbiters' console shows the engine's evidence of
// the event's players to the arbiter and to a moderator, never to a
// player; a moderator's mark takes the marked player out of the running
// event, and the standings say the moderators removed him.
func TestEventFairPlay(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "t.db")
	l, err := server.StartLocal(ctx, server.Options{DB: db, Engines: 1, ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c := &siteClient{t: t, url: l.URL, http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	arbiter, a, b, d, mod := c.signup("Arbiter"), c.signup("Aigul"), c.signup("Bolat"), c.signup("Dana"), c.signup("Moder")
	resp, _ := c.do("POST", "/events", arbiter, url.Values{"name": {"Club cup"}, "kind": {"roundrobin"}, "tc": {"5+3"}, "ruleset": {"standard"}})
	loc := resp.Header.Get("Location")
	for _, tok := range []string{a, b, d} {
		if resp, body := c.do("POST", loc+"/join", tok, url.Values{}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("join: %d %s", resp.StatusCode, body)
		}
	}
	if resp, body := c.do("POST", loc+"/arbiter/start", arbiter, url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	ev := c.event(strings.TrimPrefix(loc, "/event/"))
	var gameID string
	for _, g := range ev.Rounds[0].Games {
		if g.GameID != "" {
			gameID = g.GameID
		}
	}
	if gameID == "" {
		t.Fatalf("no game in the first round: %+v", ev.Rounds)
	}

	// The fair-play model's evidence about the game's White, and the
	// moderator role, written as the review workers and `toguz mod grant`
	// do.
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.Game(ctx, gameID)
	if err == nil {
		err = st.PutFairPlay(ctx, game.FairPlay{GameID: gameID, Side: "white", UserID: g.Players[0].UserID, Moves: 30, Agree1: 0.97, Agree3: 1,
			Score: 5.25, IPR: 2777, Flag: true, Computed: time.Now()})
	}
	if err == nil {
		var m store.User
		if m, err = st.UserByName(ctx, "Moder"); err == nil {
			err = st.SetModerator(ctx, m.ID, true)
		}
	}
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Moderation().Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	for _, who := range []struct {
		name, tok string
		sees      bool
	}{{"arbiter", arbiter, true}, {"moderator", mod, true}, {"White", a, false}, {"Black", b, false}, {"Dana", d, false}, {"nobody", "", false}} {
		_, body := c.do("GET", loc, who.tok, nil)
		if got := strings.Contains(body, `id="ev-evidence"`) && strings.Contains(body, "2777") && strings.Contains(body, "5.25"); got != who.sees {
			t.Errorf("%s sees the evidence: %v, want %v", who.name, got, who.sees)
		}
		if !who.sees && strings.Contains(body, "2777") {
			t.Errorf("%s's page has the IPR", who.name)
		}
	}

	// The moderator marks White: he leaves the event, and the standings
	// say why.
	white := g.Players[0].Name
	if resp, body := c.do("POST", "/mod/@/"+white, mod, url.Values{"action": {"engine"}, "reason": {"engine"}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("mark: %d %s", resp.StatusCode, body)
	}
	ev = c.event(strings.TrimPrefix(loc, "/event/"))
	out := false
	for _, p := range ev.Players {
		if p.Name == white {
			out = p.Withdrawn
		}
	}
	if !out {
		t.Errorf("the marked player is still in the event: %+v", ev.Players)
	}
	_, body := c.do("GET", loc+"/live", "", nil)
	if !strings.Contains(body, "removed by the moderators") {
		t.Errorf("the standings do not say the moderators removed %s", white)
	}
}
