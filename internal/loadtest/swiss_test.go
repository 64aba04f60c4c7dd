package loadtest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// Swiss200's size: the simulated event.
const (
	swissPlayers = 200
	swissRounds  = 9
	swissTC      = "1+0"
)

// swissEvent is what the test reads of GET /api/events/{id}.
type swissEvent struct {
	ID        string
	Status    string
	TieBreaks []string `json:"tiebreaks"`
	Players   []struct {
		Start     int
		Name      string
		Points    string
		Rank      int
		Withdrawn bool
		TieBreaks []float64 `json:"tiebreaks"`
	}
	Rounds []struct {
		Round int
		Games []struct {
			Board  int
			White  int
			Black  int
			GameID string `json:"game_id"`
			Result string
		}
	}
}

// TestSwiss200 is the simulated Swiss: on the real server (in this
// process, over HTTP and websockets as any client), 200 accounts sign up
// and join a 9-round Swiss at 1+0 that a 201st account creates and starts;
// every game of every round is played to its end by the engine at its
// lowest level (depth 1, seeded by round, board and ply) through the two
// players' own websockets. The server must pair each round when the last
// result of the one before is in; then the rounds must hold everyone once
// (a game or the one bye), no rematch, no second bye, the colour limits,
// every result the one the game ended with, and the standings that
// `toguz tournament standings` computes from the event's exported TRF
// (tournament.ReadTRF and Standings, which it runs) must be the site's,
// entry by entry: rank, start number, points and every tie-break.
//
// It takes minutes of CPU: it runs with TOGUZ_SWISS_TEST=1 (.ci/run has
// it as its own step), never under -short.
func TestSwiss200(t *testing.T) {
	if testing.Short() || os.Getenv("TOGUZ_SWISS_TEST") == "" {
		t.Skip("the 200-player Swiss takes minutes of CPU: TOGUZ_SWISS_TEST=1 runs it")
	}
	var ru0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	s, err := server.StartLocal(ctx, server.Options{
		DB:              filepath.Join(t.TempDir(), "toguz.db"),
		Settings:        server.Settings{WritesPerSecond: 1e6, WriteBurst: 1e6, MessageRate: 1e6, MessageBurst: 1e6},
		MaxConnsPerAddr: -1, AnalysisEngines: -1, ReviewWorkers: -1,
		// A loaded machine may take long to start a round's hundred
		// games: no game is aborted for a late first move.
		FirstMoveTimeout: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})

	// The accounts: 10 from each loopback address, within the sign-up
	// limit per address (a burst of 10).
	const perSource = 10
	srcs, err := newSources(Config{URL: s.URL, Games: swissPlayers + 1, Sources: (swissPlayers + perSource) / perSource, WritesPerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	clients := make([]*client, swissPlayers+1) // the last one creates and starts the event
	var wg sync.WaitGroup
	errs := make(chan error, len(clients))
	for i := range clients {
		clients[i] = &client{base: s.URL, src: srcs[i/perSource], retry: retryPolicy{max: 10}}
	}
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(clients); i += 4 {
				c := clients[i]
				var who struct{ Name, Token string }
				in := map[string]string{"name": fmt.Sprintf("swiss%03d", i+1), "password": "swiss sim password"}
				if err := c.call(ctx, http.MethodPost, "/api/signup", in, &who); err != nil {
					errs <- err
					return
				}
				c.name, c.token = who.Name, who.Token
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	arbiter := clients[swissPlayers]
	loc := postForm(ctx, t, arbiter, "/events", url.Values{"name": {"Swiss 200"}, "kind": {"swiss"}, "tc": {swissTC},
		"ruleset": {"standard"}, "rounds": {strconv.Itoa(swissRounds)}, "max_players": {strconv.Itoa(swissPlayers)}})
	id, ok := strings.CutPrefix(loc, "/event/")
	if !ok {
		t.Fatalf("creating the event led to %q", loc)
	}
	// They join one after another: the start numbers (all unrated, 1500)
	// follow the joining order.
	for _, c := range clients[:swissPlayers] {
		postForm(ctx, t, c, "/event/"+id+"/join", url.Values{})
	}
	ev := getEvent(ctx, t, arbiter, id)
	if len(ev.Players) != swissPlayers {
		t.Fatalf("%d players joined, want %d", len(ev.Players), swissPlayers)
	}
	byStart := map[int]*client{}
	byName := map[string]*client{}
	for _, c := range clients {
		byName[c.name] = c
	}
	for _, p := range ev.Players {
		byStart[p.Start] = byName[p.Name]
	}
	postForm(ctx, t, arbiter, "/event/"+id+"/arbiter/start", url.Values{})

	// The engines, shared by the games: depth 1, the lowest level.
	pool := make(chan *engine.Engine, 2)
	for range cap(pool) {
		opts := engine.DefaultOptions()
		opts.Threads, opts.HashMB, opts.Level = 1, 1, 1
		e, err := engine.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		pool <- e
	}
	var (
		mu     sync.Mutex
		ended  = map[string]string{} // game id → the result its "end" message said
		moves  int
		failed []error
	)
	paired := map[int]bool{}
	started := map[string]bool{} // the games being played
	var games sync.WaitGroup
	lastChange, seenResults := time.Now(), -1
	for {
		ev = getEvent(ctx, t, arbiter, id)
		for _, r := range ev.Rounds {
			if !paired[r.Round] {
				paired[r.Round] = true
				t.Logf("round %d paired after %v: %d boards", r.Round, time.Since(began).Round(time.Millisecond), len(r.Games))
			}
			for _, g := range r.Games {
				// A game not yet created on the hub has no id yet.
				if g.GameID == "" || g.Result != "" || started[g.GameID] {
					continue
				}
				started[g.GameID] = true
				seed := int64(r.Round)<<32 | int64(g.Board)<<16
				games.Go(func() {
					res, n, err := playSwissGame(ctx, byStart[g.White], byStart[g.Black], g.GameID, seed, pool)
					mu.Lock()
					defer mu.Unlock()
					moves += n
					if err != nil {
						failed = append(failed, fmt.Errorf("round %d board %d: %w", r.Round, g.Board, err))
						return
					}
					ended[g.GameID] = res
				})
			}
		}
		if ev.Status == "finished" {
			break
		}
		mu.Lock()
		n, f := len(ended), len(failed)
		mu.Unlock()
		if f > 0 {
			break
		}
		// Progress, not speed, is asserted: the event must move within
		// a generous time on a loaded machine.
		if n != seenResults {
			lastChange, seenResults = time.Now(), n
		} else if time.Since(lastChange) > 3*time.Minute {
			t.Fatalf("no game ended for 3 minutes: %d rounds paired, %d games ended", len(ev.Rounds), n)
		}
		if err := sleep(ctx, 250*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	games.Wait()
	for _, err := range failed {
		t.Error(err)
	}
	if len(failed) > 0 {
		t.FailNow()
	}
	var ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	t.Logf("%d games, %d moves in %v, %v of CPU (server, clients and engines in this process)",
		len(ended), moves, time.Since(began).Round(time.Millisecond), cpu.Round(time.Millisecond))

	checkSwissRounds(t, ev, ended)
	checkSwissTRF(t, ctx, arbiter, ev)
}

// postForm posts a form as the browser does, with c's token, and returns
// where the server sent it (it answers 303 to every form).
func postForm(ctx context.Context, t *testing.T, c *client, path string, form url.Values) string {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+c.token)
	hc := *c.src.http
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST %s as %s: %d %s", path, c.name, resp.StatusCode, body)
	}
	return resp.Header.Get("Location")
}

func getEvent(ctx context.Context, t *testing.T, c *client, id string) swissEvent {
	t.Helper()
	var ev swissEvent
	if err := c.call(ctx, http.MethodGet, "/api/events/"+id, nil, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// playSwissGame plays game id between white and black, each through his
// own websocket, the engine choosing every move, until the server ends it;
// it returns the result of the server's end message and the moves played.
func playSwissGame(ctx context.Context, white, black *client, id string, seed int64, pool chan *engine.Engine) (string, int, error) {
	var conns [2]*websocket.Conn
	for i, c := range []*client{white, black} {
		conn, err := c.dial(ctx, id)
		if err != nil {
			return "", 0, err
		}
		defer conn.CloseNow()
		conns[i] = conn
	}
	const timeout = 2 * time.Minute // a loaded machine, not a hung server
	p, ply := toguz.StartPosition(), 0
	// The state comes first, and the moves after it: a move sent before
	// the opponent's state arrived would be in that state, not after it.
	for _, conn := range conns {
		st, err := await(ctx, conn, "state", 0, timeout)
		if err != nil {
			return "", 0, fmt.Errorf("game %s: %w", id, err)
		}
		if st.Status != "playing" || st.Ply != 0 {
			return "", 0, fmt.Errorf("game %s starts %s at ply %d", id, st.Status, st.Ply)
		}
	}
	// next reads conn's messages until the move of ply n or the game's end.
	next := func(conn *websocket.Conn, n int) (message, error) {
		wait, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		var seen []string
		for {
			var m message
			_, raw, err := conn.Read(wait)
			if err == nil {
				err = json.Unmarshal(raw, &m)
			}
			seen = append(seen, string(raw[:min(len(raw), 300)]))
			switch {
			case err != nil:
				return m, fmt.Errorf("game %s before ply %d (seen %v): %w", id, n, seen, err)
			case m.Type == "error":
				return m, fmt.Errorf("game %s ply %d: %w", id, n, &serverError{Code: m.Code, Message: m.Message})
			case m.Type == "end", m.Type == "move" && m.Ply == n:
				return m, nil
			}
		}
	}
	for !p.IsOver() {
		me := p.Turn()
		e := <-pool
		opts := e.Options()
		opts.Seed = seed + int64(ply)
		err := e.SetOptions(opts)
		m := e.Search(ctx, p, engine.Limits{Depth: 1}, nil).Best
		pool <- e
		if err != nil {
			return "", ply, err
		}
		if err := send(ctx, conns[me], map[string]any{"type": "move", "ply": ply, "hole": int(m)}); err != nil {
			return "", ply, err
		}
		after := p.After(m)
		for _, side := range []toguz.Player{me, me.Other()} {
			got, err := next(conns[side], ply+1)
			if err != nil {
				return "", ply, err
			}
			if got.Type == "end" {
				// Off the board (a flag fell): both hear of it.
				if _, err := next(conns[side.Other()], -1); err != nil && side == me {
					return "", ply, err
				}
				return got.Result, ply, nil
			}
			if sp, _, err := toguz.ParseFEN(got.FEN, toguz.Standard()); err != nil || sp != after {
				return "", ply, fmt.Errorf("game %s ply %d: the server's position %q (%v), the rules' %s", id, ply+1, got.FEN, err, after.FEN())
			}
		}
		p, ply = after, ply+1
	}
	want := p.Outcome().Result.String()
	for _, conn := range conns {
		end, err := next(conn, -1)
		if err != nil {
			return "", ply, err
		}
		if end.Type != "end" || end.Result != want {
			return "", ply, fmt.Errorf("game %s: the server ends it %s %s, the rules %s", id, end.Type, end.Result, want)
		}
	}
	for _, conn := range conns {
		conn.Close(websocket.StatusNormalClosure, "")
	}
	return want, ply, nil
}

// eventResult is the event's result of a game that ended with res.
func eventResult(res string) string {
	switch res {
	case toguz.WhiteWins.String():
		return string(tournament.WhiteWins)
	case toguz.BlackWins.String():
		return string(tournament.BlackWins)
	case toguz.Draw.String():
		return string(tournament.Drawn)
	}
	return "?" + res
}

// checkSwissRounds checks the rounds as they were paired and played.
func checkSwissRounds(t *testing.T, ev swissEvent, ended map[string]string) {
	t.Helper()
	if ev.Status != "finished" || len(ev.Rounds) != swissRounds {
		t.Fatalf("the event is %s with %d rounds, want finished after %d", ev.Status, len(ev.Rounds), swissRounds)
	}
	met := map[[2]int]int{} // a pair of start numbers, lower first → the round they met
	byes := map[int]int{}
	colours := map[int]string{} // start → "w"/"b" a round
	results := map[string]int{}
	for _, r := range ev.Rounds {
		seen := map[int]int{}
		nbye := 0
		for _, g := range r.Games {
			seen[g.White]++
			if g.Black == 0 {
				nbye++
				if byes[g.White] > 0 {
					t.Errorf("round %d: player %d has a second bye (round %d's)", r.Round, g.White, byes[g.White])
				}
				byes[g.White] = r.Round
				colours[g.White] += "-"
				continue
			}
			seen[g.Black]++
			k := [2]int{min(g.White, g.Black), max(g.White, g.Black)}
			if m := met[k]; m != 0 {
				t.Errorf("round %d: %d and %d meet again (round %d)", r.Round, k[0], k[1], m)
			}
			met[k] = r.Round
			colours[g.White] += "w"
			colours[g.Black] += "b"
			end, ok := ended[g.GameID]
			switch {
			case g.GameID == "" || !ok:
				t.Errorf("round %d board %d: no game played (game %q, result %q)", r.Round, g.Board, g.GameID, g.Result)
			case g.Result != eventResult(end):
				t.Errorf("round %d board %d: the event says %q, the game ended %s", r.Round, g.Board, g.Result, end)
			}
			results[g.Result]++
		}
		if nbye > 1 || (swissPlayers%2 == 0) != (nbye == 0) {
			t.Errorf("round %d: %d byes for %d players", r.Round, nbye, swissPlayers)
		}
		for start := 1; start <= swissPlayers; start++ {
			if seen[start] != 1 {
				t.Errorf("round %d: player %d is paired %d times", r.Round, start, seen[start])
			}
		}
	}
	// The absolute colour criteria (C.04.3 B): before the last round
	// (whose top scorers are exempt) no one has the same colour three
	// times running or a colour difference beyond 2.
	for start, c := range colours {
		c = strings.ReplaceAll(c[:swissRounds-1], "-", "")
		if d := strings.Count(c, "w") - strings.Count(c, "b"); d > 2 || d < -2 || strings.Contains(c, "www") || strings.Contains(c, "bbb") {
			t.Errorf("player %d's colours in the first %d rounds: %s", start, swissRounds-1, c)
		}
	}
	// A digest of every pairing and result: equal across runs when the
	// event was played the same (the engines' seeds make it likely, their
	// shared hash tables do not promise it).
	h := sha256.New()
	for _, r := range ev.Rounds {
		for _, g := range r.Games {
			fmt.Fprintf(h, "%d %d %d %d %s\n", r.Round, g.Board, g.White, g.Black, g.Result)
		}
	}
	t.Logf("results: %v; digest of the pairings and results %x", results, h.Sum(nil)[:8])
}

// checkSwissTRF computes the standings from the exported TRF, as `toguz
// tournament standings` does, and compares them with the site's.
func checkSwissTRF(t *testing.T, ctx context.Context, c *client, ev swissEvent) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/event/"+ev.ID+"/trf", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.src.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	trf, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET the TRF: %d %v", resp.StatusCode, err)
	}
	te, err := tournament.ReadTRF(strings.NewReader(string(trf)))
	if err != nil {
		t.Fatalf("the exported TRF: %v", err)
	}
	if te.Played() != swissRounds || len(te.Players) != swissPlayers {
		t.Fatalf("the TRF has %d rounds and %d players", te.Played(), len(te.Players))
	}
	// FIDE's Free Pairings Checker: every round paired again from the
	// rounds before it comes out as the site paired it.
	checks, err := tournament.Check(te, dutch.Pairer{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if !c.Same() {
			t.Errorf("the checker pairs round %d otherwise: the site %s; the checker %s %v", c.Round,
				tournament.PairsText(c.File), tournament.PairsText(c.Ours), c.Err)
		}
	}
	var names []string
	for _, tb := range te.TieBreaks {
		names = append(names, tb.String())
	}
	if strings.Join(names, " ") != strings.Join(ev.TieBreaks, " ") || len(names) == 0 {
		t.Fatalf("the TRF's tie-breaks %v, the site's %v", names, ev.TieBreaks)
	}
	// The TRF holds the site's pairings, colours and results.
	for _, r := range ev.Rounds {
		for _, g := range r.Games {
			en := te.Player(g.White).Entry(r.Round)
			if g.Black == 0 {
				if en.Code != tournament.PairingBye {
					t.Errorf("TRF round %d: player %d's bye is %q", r.Round, g.White, en.Code)
				}
				continue
			}
			if en.Opponent != g.Black || en.Colour != tournament.White {
				t.Errorf("TRF round %d: player %d plays %d with %q, the site's board %d is %d–%d", r.Round, g.White, en.Opponent, en.Colour, g.Board, g.White, g.Black)
			}
		}
	}
	st := te.Standings(0)
	if len(st) != len(ev.Players) {
		t.Fatalf("%d standings from the TRF, %d on the site", len(st), len(ev.Players))
	}
	differ := 0
	for i, s := range st {
		p := ev.Players[i]
		pts, err := strconv.ParseFloat(p.Points, 64)
		same := err == nil && p.Rank == s.Rank && p.Start == s.Player.Start && p.Name == s.Player.Name && pts == s.Points &&
			len(p.TieBreaks) == len(s.Values)
		for j := range s.Values {
			same = same && j < len(p.TieBreaks) && p.TieBreaks[j] == s.Values[j]
		}
		if !same {
			differ++
			if differ <= 10 {
				t.Errorf("line %d: the site's rank %d no. %d %s %s %v; the TRF's rank %d no. %d %s %g %v",
					i+1, p.Rank, p.Start, p.Name, p.Points, p.TieBreaks, s.Rank, s.Player.Start, s.Player.Name, s.Points, s.Values)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d lines of the standings differ", differ, len(st))
	}
	top := st[0]
	t.Logf("winner: no. %d %s, %g points, %v %v", top.Player.Start, top.Player.Name, top.Points, names, top.Values)
}
