package events_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// site is an event manager on a real store and live hub, as the server
// wires them: the hub's OnEnd hands each ending to the manager.
type site struct {
	st   *store.Store
	hub  *live.Hub
	m    *events.Manager
	stop context.CancelFunc
}

func openSite(t *testing.T, path string) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Readers: 1, SessionSweep: -1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := events.New(ctx, events.Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	hctx, cancel := context.WithCancel(ctx)
	hub := live.NewHub(hctx, live.Config{Store: store.LiveStore{S: st}, FirstMoveTimeout: -1, Heartbeat: -1,
		OnEnd: func(s game.Saved) { go m.GameEnded(s) }})
	if _, err := hub.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.SetGames(ctx, hub); err != nil {
		t.Fatal(err)
	}
	return &site{st: st, hub: hub, m: m, stop: cancel}
}

func (s *site) close() {
	_ = s.hub.Stop(context.Background())
	s.stop()
	s.hub.Wait()
	s.st.Close()
}

func users(t *testing.T, st *store.Store, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := range n {
		u, err := st.CreateUser(context.Background(), fmt.Sprintf("player%d", i+1), "x")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	return ids
}

// resign makes the player of start lose his game of the last round by
// resignation, through his own connection, as on the site.
func resign(t *testing.T, s *site, e *events.Event, start int) {
	t.Helper()
	p, _, ok := e.Running(start)
	if !ok {
		t.Fatalf("player %d has no game in play", start)
	}
	c, err := s.hub.Join(context.Background(), p.GameID, fmt.Sprintf("u:%d", e.Player(start).UserID))
	if err != nil {
		t.Fatal(err)
	}
	c.Send(live.ClientMsg{Type: "resign"})
	synctest.Wait()
	c.Leave()
	synctest.Wait()
}

// TestRoundRobinOnTheSite: a round robin of 4 is created, joined and
// started; each round's games start as live games, and when the last of a
// round ends (a resignation) the next round is paired; after the 3 rounds
// the event is finished with the standings the results give. An arbiter's
// correction recomputes them. A restart in the middle of round 2 keeps
// the event and its games.
func TestRoundRobinOnTheSite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := openSite(t, path)
		ids := users(t, s.st, 5)
		creator := ids[4]
		ev := startRoundRobin(t, s, ids[:4], creator)
		e, _ := s.m.Get(ev.ID)
		if e.Status != events.Running || len(e.Rounds) != 1 || len(e.Rounds[0].Pairings) != 2 {
			t.Fatalf("after the start: %s, %d rounds", e.Status, len(e.Rounds))
		}
		// Berger round 1 of 4: 1-4, 2-3.
		if p := e.Rounds[0].Pairings; p[0].White != 1 || p[0].Black != 4 || p[1].White != 2 || p[1].Black != 3 {
			t.Errorf("round 1: %+v", p)
		}
		for _, p := range e.Rounds[0].Pairings {
			if st, err := s.hub.State(ctx, p.GameID); err != nil || st.Status != "playing" {
				t.Fatalf("game %s: %v %v", p.GameID, st.Status, err)
			}
		}
		// Round 1: the higher seed wins each game (Black resigns).
		for _, p := range e.Rounds[0].Pairings {
			resign(t, s, e, p.Black)
		}
		e, _ = s.m.Get(ev.ID)
		if len(e.Rounds) != 2 {
			t.Fatalf("round 2 not paired after round 1's results: %d rounds", len(e.Rounds))
		}
		// Round 2 half played, then the server restarts.
		resign(t, s, e, e.Rounds[1].Pairings[0].White)
		s.close()
		s = openSite(t, path)
		e = afterRestart(t, s, ev.ID)
		resign(t, s, e, e.Rounds[1].Pairings[1].White)
		e, _ = s.m.Get(ev.ID)
		if len(e.Rounds) != 3 {
			t.Fatalf("round 3 not paired: %d rounds", len(e.Rounds))
		}
		for _, p := range e.Rounds[2].Pairings {
			resign(t, s, e, p.Black)
		}
		e, _ = s.m.Get(ev.ID)
		if e.Status != events.Finished {
			t.Fatalf("after round 3: %s", e.Status)
		}
		got, want := standingPoints(e), resultPoints(e)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("points %v, want %v", got, want)
		}
		correctResult(t, s, ev.ID, ids[0], creator, got)
		s.close()
	})
}

// startRoundRobin creates a round robin of creator's, which players join
// (a second time refused), and starts it (a player may not).
func startRoundRobin(t *testing.T, s *site, players []int64, creator int64) *events.Event {
	t.Helper()
	ctx := context.Background()
	ev, err := s.m.Create(ctx, creator, "Club round robin", time.Time{}, events.Settings{Kind: events.RoundRobin, Rules: "standard", TC: "5+3"})
	if err != nil {
		t.Fatal(err)
	}
	ev.Start = time.Time{}
	for i, id := range players {
		if _, err := s.m.Join(ctx, ev.ID, events.Player{UserID: id, Name: fmt.Sprintf("player%d", i+1), Rating: 1500 + 100*(4-i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.m.Join(ctx, ev.ID, events.Player{UserID: players[0], Name: "player1"}); err == nil {
		t.Error("a player joined twice")
	}
	if err := s.m.Start(ctx, ev.ID, players[0]); err == nil {
		t.Error("a player who is not an arbiter started the event")
	}
	if err := s.m.Start(ctx, ev.ID, creator); err != nil {
		t.Fatal(err)
	}
	synctest.Wait()
	return ev
}

// afterRestart checks the round robin id after a restart in round 2, its
// first game over and its second still played, and returns it.
func afterRestart(t *testing.T, s *site, id string) *events.Event {
	t.Helper()
	e, _ := s.m.Get(id)
	if e.Status != events.Running || len(e.Rounds) != 2 || e.Rounds[1].Pairings[0].Result != "0-1" || e.Rounds[1].Pairings[1].Result != "" {
		t.Fatalf("after the restart: %s %+v", e.Status, e.Rounds)
	}
	if st, err := s.hub.State(context.Background(), e.Rounds[1].Pairings[1].GameID); err != nil || st.Status != "playing" {
		t.Fatalf("round 2's game after the restart: %v %v", st.Status, err)
	}
	return e
}

// standingPoints is each player's points in e's standings, by start.
func standingPoints(e *events.Event) map[int]float64 {
	out := map[int]float64{}
	for _, st := range e.Tournament(0).Standings(0) {
		out[st.Player.Start] = st.Points
	}
	return out
}

// resultPoints is each player's points counted from e's decisive results.
func resultPoints(e *events.Event) map[int]float64 {
	want := map[int]float64{1: 0, 2: 0, 3: 0, 4: 0}
	for _, r := range e.Rounds {
		for _, p := range r.Pairings {
			switch p.Result {
			case "1-0":
				want[p.White]++
			case "0-1":
				want[p.Black]++
			}
		}
	}
	return want
}

// correctResult: the arbiter (not a player) corrects round 1 board 1 of
// event id to a draw; the standings move half a point from got, and the
// arbiter's log has the correction after the start.
func correctResult(t *testing.T, s *site, id string, player, arbiter int64, got map[int]float64) {
	t.Helper()
	ctx := context.Background()
	if err := s.m.SetResult(ctx, id, player, 1, 1, "1/2"); err == nil {
		t.Error("a player corrected a result")
	}
	if err := s.m.SetResult(ctx, id, arbiter, 1, 1, "1/2"); err != nil {
		t.Fatal(err)
	}
	e, _ := s.m.Get(id)
	p := e.Rounds[0].Pairings[0]
	got2 := standingPoints(e)
	if got2[p.White] != got[p.White]-0.5 || got2[p.Black] != got[p.Black]+0.5 {
		t.Errorf("after the correction %v, before %v", got2, got)
	}
	log, err := s.m.Log(ctx, id)
	if err != nil || len(log) != 2 || log[0].Action != "result" || log[0].UserID != arbiter || log[1].Action != "start" {
		t.Errorf("arbiter log %+v %v", log, err)
	}
}

// TestArenaScore: lichess's arena points: 2 a win, 1 a draw, doubled
// from the third win in a row on (the fire) until a game is not won; a
// berserk win one more; forfeits score nothing.
func TestArenaScore(t *testing.T) {
	e := &events.Event{Settings: events.Settings{Kind: events.Arena, Berserk: true}}
	for i := range 3 {
		e.Entries = append(e.Entries, game.EventEntry{Start: i + 1, Name: fmt.Sprint(i + 1)})
	}
	games := []struct {
		w, b    int
		res     string
		berserk string
	}{
		{1, 2, "1-0", ""},  // 1: 2
		{3, 1, "0-1", ""},  // 1: 2 (two wins: on fire)
		{1, 2, "1-0", "w"}, // 1: 4 + 1 berserk
		{1, 3, "1/2", ""},  // 1: 2 (a draw on fire), the streak ends; 3: 1
		{2, 1, "0-1", ""},  // 1: 2
		{1, 3, "+-", ""},   // a forfeit: nothing
		{2, 3, "1-0", "b"}, // 2: 2, Black's berserk lost: nothing more
	}
	for i, g := range games {
		e.Rounds = append(e.Rounds, game.EventRound{Round: i + 1, Pairings: []game.EventPairing{{Board: 1, White: g.w, Black: g.b, Result: g.res, Berserk: g.berserk}}})
	}
	lines := events.ArenaScore(e, 0)
	want := map[int]struct {
		score int
		sheet string
		fire  bool
	}{1: {13, "[2 2 5 2 2]", false}, 2: {2, "[0 0 0 2]", false}, 3: {1, "[0 1 0]", false}}
	for _, l := range lines {
		w := want[l.Entry.Start]
		if l.Score != w.score || fmt.Sprint(l.Sheet) != w.sheet || l.Fire != w.fire {
			t.Errorf("player %d: %d %v fire %v, want %d %s %v", l.Entry.Start, l.Score, l.Sheet, l.Fire, w.score, w.sheet, w.fire)
		}
	}
	if lines[0].Entry.Start != 1 || lines[1].Entry.Start != 2 {
		t.Errorf("order %d %d %d", lines[0].Entry.Start, lines[1].Entry.Start, lines[2].Entry.Start)
	}
	// Two more wins light the fire.
	e.Rounds = append(e.Rounds, game.EventRound{Round: 8, Pairings: []game.EventPairing{{Board: 1, White: 1, Black: 2, Result: "1-0"}}},
		game.EventRound{Round: 9, Pairings: []game.EventPairing{{Board: 1, White: 1, Black: 3, Result: "1-0"}}})
	if l := events.ArenaScore(e, 0)[0]; !l.Fire || l.Score != 19 {
		t.Errorf("after two more wins: %d fire %v", l.Score, l.Fire)
	}
}

// TestArenaPairing: an arena pairs its waiting players at once, by score
// then rating, never into an immediate rematch while another opponent
// waits, and finishes after its duration once its games are over.
func TestArenaPairing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := openSite(t, path)
		defer s.close()
		ids := users(t, s.st, 4)
		ev, err := s.m.Create(ctx, ids[0], "Arena", time.Time{}, events.Settings{Kind: events.Arena, Rules: "standard", TC: "3+2", Minutes: 30})
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			if _, err := s.m.Join(ctx, ev.ID, events.Player{UserID: id, Name: fmt.Sprintf("player%d", i+1), Rating: 2000 - 100*i}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.m.Start(ctx, ev.ID, ids[0]); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		e, _ := s.m.Get(ev.ID)
		if len(e.Rounds) != 1 || len(e.Rounds[0].Pairings) != 2 {
			t.Fatalf("first wave: %+v", e.Rounds)
		}
		first := e.Rounds[0].Pairings
		if first[0].White+first[0].Black != 3 || first[1].White+first[1].Black != 7 {
			t.Errorf("first wave by rating: %+v", first)
		}
		// Board 1 ends; its two players wait, but would meet again: they
		// wait for board 2.
		resign(t, s, e, first[0].Black)
		e, _ = s.m.Get(ev.ID)
		if len(e.Rounds) != 1 {
			t.Fatalf("an immediate rematch: %+v", e.Rounds[1:])
		}
		resign(t, s, e, first[1].Black)
		e, _ = s.m.Get(ev.ID)
		if len(e.Rounds) != 2 || len(e.Rounds[1].Pairings) != 2 {
			t.Fatalf("second wave: %+v", e.Rounds)
		}
		for _, p := range e.Rounds[1].Pairings {
			if (p.White+p.Black == 3) || (p.White+p.Black == 7) {
				t.Errorf("a rematch in the second wave: %+v", p)
			}
		}
		time.Sleep(31 * time.Minute)
		s.m.Tick(ctx)
		e, _ = s.m.Get(ev.ID)
		if e.Status != events.Running {
			t.Errorf("finished with games in play: %s", e.Status)
		}
		for _, p := range e.Rounds[1].Pairings {
			resign(t, s, e, p.White)
		}
		s.m.Tick(ctx)
		e, _ = s.m.Get(ev.ID)
		if e.Status != events.Finished || len(e.Rounds) != 2 {
			t.Errorf("after the end: %s, %d waves", e.Status, len(e.Rounds))
		}
	})
}

// TestRepair: before a round's games begin, the arbiter pairs it anew;
// the old games are aborted and new ones start.
func TestRepair(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := openSite(t, path)
		defer s.close()
		ids := users(t, s.st, 4)
		ev, _ := s.m.Create(ctx, ids[0], "RR", time.Time{}, events.Settings{Kind: events.DoubleRoundRobin, Rules: "standard", TC: "5+0"})
		for i, id := range ids {
			s.m.Join(ctx, ev.ID, events.Player{UserID: id, Name: fmt.Sprintf("player%d", i+1), Rating: 1500})
		}
		if err := s.m.Start(ctx, ev.ID, ids[0]); err != nil {
			t.Fatal(err)
		}
		e, _ := s.m.Get(ev.ID)
		old := e.Rounds[0].Pairings
		if err := s.m.Repair(ctx, ev.ID, ids[0], []tournament.Pair{{White: 1, Black: 2}, {White: 1, Black: 3}}); err == nil {
			t.Error("a player paired twice was accepted")
		}
		if err := s.m.Repair(ctx, ev.ID, ids[0], []tournament.Pair{{White: 4, Black: 1}, {White: 3, Black: 2}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		e, _ = s.m.Get(ev.ID)
		if p := e.Rounds[0].Pairings; len(p) != 2 || p[0].White != 4 || p[0].GameID == old[0].GameID {
			t.Fatalf("after the re-pairing: %+v", p)
		}
		if st, _ := s.hub.State(ctx, old[0].GameID); st.Status != "aborted" {
			t.Errorf("the old game: %s", st.Status)
		}
		if st, _ := s.hub.State(ctx, e.Rounds[0].Pairings[0].GameID); st.Status != "playing" {
			t.Errorf("the new game: %s", st.Status)
		}
	})
}

// TestRoundRobinBye: the bye of an odd round robin scores nothing on the
// site; a game's result counts as package tournament scores it.
func TestRoundRobinBye(t *testing.T) {
	e := &events.Event{Settings: events.Settings{Kind: events.RoundRobin}}
	for i := range 3 {
		e.Entries = append(e.Entries, game.EventEntry{Start: i + 1, Name: fmt.Sprint(i + 1)})
	}
	e.Rounds = []game.EventRound{{Round: 1, Pairings: []game.EventPairing{{Board: 1, White: 2, Black: 3, Result: "1-0"}, {Board: 2, White: 1, Black: 0, Result: "U"}}}}
	got := map[int]float64{}
	for _, st := range e.Tournament(0).Standings(0) {
		got[st.Player.Start] = st.Points
	}
	if got[1] != 0 || got[2] != 1 || got[3] != 0 {
		t.Errorf("points %v", got)
	}
}

// TestSettings: what the create form may ask, and the refusals' keys.
func TestSettings(t *testing.T) {
	ok := events.Settings{Kind: events.RoundRobin, Rules: "standard", TC: "5+3"}
	with := func(f func(*events.Settings)) events.Settings { s := ok; f(&s); return s }
	for _, tc := range []struct {
		s   events.Settings
		key string
	}{
		{ok, ""},
		{with(func(s *events.Settings) { s.Kind = "ladder" }), "apierr.event_kind"},
		{with(func(s *events.Settings) { s.TC = "-" }), "apierr.event_tc"},
		{with(func(s *events.Settings) { s.Rules = "chess" }), "apierr.bad_ruleset"},
		{with(func(s *events.Settings) { s.Kind = events.Swiss; s.Rounds = 16 }), "apierr.event_rounds"},
		{with(func(s *events.Settings) { s.Kind = events.Arena; s.Minutes = 5 }), "apierr.event_minutes"},
		{with(func(s *events.Settings) { s.Kind = events.Arena; s.Minutes = 60; s.TC = "1d" }), "apierr.event_tc"},
		{with(func(s *events.Settings) { s.Repetition = 1 }), "apierr.event_repetition"},
		{with(func(s *events.Settings) { s.Repetition = 3 }), ""},
		{with(func(s *events.Settings) { s.MinRating, s.MaxRating = 1800, 1500 }), "apierr.event_limits"},
		{with(func(s *events.Settings) { s.Sex = "x" }), "apierr.event_limits"},
	} {
		err := tc.s.Check()
		var key string
		if e, isEv := err.(*events.Error); isEv {
			key = e.Key
		} else if err != nil {
			key = err.Error()
		}
		if key != tc.key {
			t.Errorf("%+v: %q, want %q", tc.s, key, tc.key)
		}
	}
}

// TestJoinLimits: the rating limits and the sections (age on the start
// date, sex) decide who may join; Swiss needs a connected pairer.
func TestJoinLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := openSite(t, path)
		defer s.close()
		ids := users(t, s.st, 2)
		if _, err := s.m.Create(ctx, ids[0], "Swiss", time.Time{}, events.Settings{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 5}); err == nil {
			t.Error("a Swiss event without a Swiss pairer")
		}
		ev, err := s.m.Create(ctx, ids[0], "Girls U14", time.Time{}, events.Settings{Kind: events.RoundRobin, Rules: "standard", TC: "5+3",
			MaxAge: 14, Sex: "w", MinRating: 1400, MaxRating: 1600})
		if err != nil {
			t.Fatal(err)
		}
		year := time.Now().Year()
		for _, tc := range []struct {
			p   events.Player
			key string
		}{
			{events.Player{Rating: 1700, BirthYear: year - 12, Sex: "w"}, "apierr.event_rating"},
			{events.Player{Rating: 1500, BirthYear: year - 12, Sex: "m"}, "apierr.event_section"},
			{events.Player{Rating: 1500, BirthYear: year - 15, Sex: "w"}, "apierr.event_section"},
			{events.Player{Rating: 1500, Sex: "w"}, "apierr.event_section"},
			{events.Player{Rating: 1500, BirthYear: year - 12, Sex: "w"}, ""},
		} {
			tc.p.UserID, tc.p.Name = ids[1], "player2"
			_, err := s.m.Join(ctx, ev.ID, tc.p)
			var key string
			if e, isEv := err.(*events.Error); isEv {
				key = e.Key
			}
			if key != tc.key {
				t.Errorf("%+v: %v, want %q", tc.p, err, tc.key)
			}
		}
	})
}

// gatedHub is the real hub whose game creation waits for its gate: a
// loaded server creating a round's hundred games.
type gatedHub struct {
	*live.Hub
	gate chan struct{}
}

func (g gatedHub) Create(ctx context.Context, s game.Spec) (string, error) {
	<-g.gate
	return g.Hub.Create(ctx, s)
}

// TestRoundGamesStarting: a round's pairings are stored before its games
// are created on the hub; until a game is there, Starting says so (the
// pages and the API hide its link), so that a player who follows it at
// once is not told there is no such game. TestSwiss200 found it: a
// hundred games take a while to create.
func TestRoundGamesStarting(t *testing.T) {
	ctx := context.Background()
	s := openSite(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.close()
	g := gatedHub{Hub: s.hub, gate: make(chan struct{})}
	if err := s.m.SetGames(ctx, g); err != nil {
		t.Fatal(err)
	}
	ids := users(t, s.st, 3)
	ev, err := s.m.Create(ctx, ids[2], "Gated", time.Time{}, events.Settings{Kind: events.RoundRobin, Rules: "standard", TC: "5+3"})
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids[:2] {
		if _, err := s.m.Join(ctx, ev.ID, events.Player{UserID: id, Name: fmt.Sprintf("player%d", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
	started := make(chan error, 1)
	go func() { started <- s.m.Start(ctx, ev.ID, ids[2]) }()
	var e *events.Event
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if e, _ = s.m.Get(ev.ID); len(e.Rounds) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("round 1 is not paired")
		}
	}
	game := e.Rounds[0].Pairings[0].GameID
	if game == "" || !s.m.Starting(game) {
		t.Fatalf("round 1's game %q is stored and not created, but Starting says %v", game, s.m.Starting(game))
	}
	if _, err := s.hub.State(ctx, game); err == nil {
		t.Fatal("the game is on the hub before it was created")
	}
	close(g.gate)
	if err := <-started; err != nil {
		t.Fatal(err)
	}
	if s.m.Starting(game) {
		t.Error("the game was created and Starting still says so")
	}
	if st, err := s.hub.State(ctx, game); err != nil || st.Status != "playing" {
		t.Errorf("the created game: %v %v", st.Status, err)
	}
}
