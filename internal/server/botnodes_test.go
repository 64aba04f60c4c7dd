package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/botclient"
	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/game"
)

// TestBotsAcrossNodes: two nodes on one database and one bus, each bot on
// its own node behind them: a challenge made on the first reaches the
// bot on the second, which accepts it there; both are told the game
// started, play it to its end from their own nodes (moves sent to a node
// that does not own the game are run by the owner), and are told it
// finished; the challenge is listed on both nodes while open and is
// answered once.
func TestBotsAcrossNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game between two engines on two nodes")
	}
	em, err := bus.StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	db := filepath.Join(t.TempDir(), "toguz.db")
	conn := func(id string) *bus.Bus {
		b, err := bus.Connect(em.URL(), id, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.Close)
		return b
	}
	n1 := newTestServer(t, serverOpts{writes: 1000, db: db, bus: conn("n1"), node: "n1"})
	n2 := newTestServer(t, serverOpts{writes: 1000, db: db, bus: conn("n2"), node: "n2"})
	ta, tb := n1.botAccount("alphabot"), n1.botAccount("betabot")

	// A challenge listed on both nodes; the other node declines a
	// challenge only once.
	code, m := n1.botForm("POST", "/api/challenge/betabot", ta, url.Values{"tc": {"1+0"}})
	if code != 200 {
		t.Fatalf("challenge: %d %v", code, m)
	}
	first := m["id"].(string)
	waitFor(t, func() bool {
		_, in := n2.botForm("GET", "/api/challenge", tb, nil)
		l, _ := in["in"].([]any)
		return len(l) == 1
	})
	if code, m := n2.botForm("POST", "/api/challenge/"+first+"/decline", tb, nil); code != 200 {
		t.Fatalf("decline on n2: %d %v", code, m)
	}
	if code, _ := n1.botForm("POST", "/api/challenge/"+first+"/decline", tb, nil); code != http.StatusNotFound {
		t.Errorf("a second decline on n1: %d, want 404", code)
	}

	newEngine, err := botclient.Builtin(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	over := make(chan string, 2)
	var wg sync.WaitGroup
	bots := map[string]*botclient.Bot{}
	for name, at := range map[string]struct {
		url, tok string
	}{"alphabot": {n1.URL, ta}, "betabot": {n2.URL, tb}} {
		b, err := botclient.New(ctx, botclient.Config{URL: at.url, Token: at.tok, NewEngine: newEngine, Policy: botclient.DefaultPolicy(),
			MinBackoff: 50 * time.Millisecond, OnGameOver: func(id, status string) { over <- id + " " + status }})
		if err != nil {
			t.Fatal(err)
		}
		bots[name] = b
		wg.Add(1)
		go func() { defer wg.Done(); b.Run(ctx) }()
	}
	evCtx, evCancel := context.WithCancel(context.Background())
	defer evCancel()
	events := n1.stream(evCtx, "/api/stream/event", ta) // alphabot's, on n1
	waitFor(t, func() bool {
		return n1.botEvents().Online(userID(t, n1, "alphabot")) && n2.botEvents().Online(userID(t, n1, "betabot"))
	})
	second, err := bots["alphabot"].Challenge(ctx, "betabot", url.Values{"tc": {"1+0"}, "color": {"white"}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		select {
		case r := <-over:
			ids = append(ids, r)
		case <-ctx.Done():
			t.Fatal("the game did not end")
		}
	}
	cancel()
	wg.Wait()
	id, status, _ := strings.Cut(ids[0], " ")
	if ids[0] != ids[1] || status == "started" || status == "aborted" || status == "" {
		t.Fatalf("games over: %v", ids)
	}
	g, err := n1.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != game.Ended || g.Plies < 10 {
		t.Errorf("stored game: status %s, plies %d", g.Status, g.Plies)
	}
	if n2.hub.Live() == 0 && n1.hub.Live() == 0 {
		t.Log("the game has ended on its node")
	}
	// The stream was subscribed before the challenge, so it tells the
	// game's start and end once each, in order, and the challenge, once,
	// before them: the challenger is told of it before the challenged,
	// who may accept it at once on the other node. Its first lines may
	// come after the game started (a loaded machine): the challenge,
	// accepted by then, is not told. The first challenge's decline,
	// relayed from n2, may come late: other challenges are left out.
	var seen []string
	for _, line := range lines(events, "gameFinish", 10*time.Second) {
		var ev struct {
			Type      string
			Challenge struct{ ID string }
			Game      struct{ ID string }
		}
		json.Unmarshal([]byte(line), &ev)
		switch {
		case ev.Challenge.ID == first:
		case ev.Challenge.ID == second || ev.Game.ID == id:
			seen = append(seen, ev.Type)
		default:
			seen = append(seen, ev.Type+" of another")
		}
	}
	if got := strings.Join(seen, " "); got != "challenge gameStart gameFinish" && got != "gameStart gameFinish" {
		t.Errorf("alphabot's event stream on n1: %v, want challenge (unless the game had started), gameStart, gameFinish", seen)
	}
}

// lines returns the lines of events until one of type last or timeout.
func lines(events <-chan string, last string, timeout time.Duration) []string {
	var out []string
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-events:
			if !ok {
				return out
			}
			out = append(out, line)
			var ev struct{ Type string }
			if json.Unmarshal([]byte(line), &ev); ev.Type == last {
				return out
			}
		case <-deadline:
			return out
		}
	}
}
