package loadtest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/server"
)

// startServer starts the real server in this process with a fresh
// database, the write limits a load test from one address needs, and no
// message rate limit, since the tests move much faster than people.
func startServer(t testing.TB) *server.Local {
	t.Helper()
	s, err := server.StartLocal(context.Background(), server.Options{
		DB:              filepath.Join(t.TempDir(), "toguz.db"),
		Settings:        server.Settings{WritesPerSecond: 1e6, WriteBurst: 1e6, MessageRate: 1e6, MessageBurst: 1e6},
		ReviewWorkers:   -1,
		MaxConnsPerAddr: -1, // thousands of websockets from loopback
		Lobby:           live.LobbyConfig{PerAddress: -1},
		// TestIdle's spectators all come from 127.0.0.1.
		SpectatorsPerAddress: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// TestRun plays a few whole games fast and requires every move and ending
// to agree with the rules and no error at all.
func TestRun(t *testing.T) {
	s := startServer(t)
	cfg := Config{URL: s.URL, Games: 4, Interval: 5 * time.Millisecond, Duration: 10 * time.Second, TC: "", Seed: 7}
	if testing.Short() {
		cfg.Games, cfg.Duration = 2, 3*time.Second
	}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games started, %d finished, %d moves, round trip %v", r.Started, r.Finished, r.Moves, r.Latency)
	if r.Errors != 0 {
		t.Errorf("%d errors: %v %v", r.Errors, r.ErrorKinds, r.ErrorSample)
	}
	if r.Started < cfg.Games || r.Moves == 0 || r.Latency.N != r.Moves {
		t.Errorf("started %d games (want at least %d), %d moves, %d latencies", r.Started, cfg.Games, r.Moves, r.Latency.N)
	}
	if !testing.Short() && r.Finished == 0 {
		t.Errorf("no game finished in %v", cfg.Duration)
	}
	// Every game left going at the end was resigned: none stays live.
	deadline := time.Now().Add(5 * time.Second)
	for s.LiveGames() != 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := s.LiveGames(); n != 0 {
		t.Errorf("%d games still live after the run", n)
	}
}

func TestIdle(t *testing.T) {
	s := startServer(t)
	games, spectators := 200, 400
	if testing.Short() {
		games, spectators = 20, 40
	}
	r, err := Idle(context.Background(), s.URL, "", games, spectators, ProcessMemory)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r)
	if r.PerConn.Heap <= 0 || r.PerGame.Heap <= 0 || r.PerSpectator.Heap <= 0 {
		t.Errorf("heap per connection %v, per game %v, per spectator %v: want all positive", r.PerConn, r.PerGame, r.PerSpectator)
	}
	// An idle connection's one goroutine is its reader: its writes run on
	// a goroutine only while messages wait (live.Conn.WriteEach), pings from
	// a timer. A spectator's are the same, and a watched game's fan-out
	// goroutine is shared by its spectators.
	if r.PerConn.Goroutines > 1.5 || r.PerSpectator.Goroutines > 2 {
		t.Errorf("%.1f goroutines per idle player's connection, %.1f per spectator's: want 1", r.PerConn.Goroutines, r.PerSpectator.Goroutines)
	}
	if r.PerSpectator.Goroutines < 0.9 {
		t.Errorf("%.1f goroutines per spectator: the spectators did not stay connected", r.PerSpectator.Goroutines)
	}
}

func TestPercentiles(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := percentiles(ds)
	want := Percentiles{N: 100, P50: 50 * time.Millisecond, P90: 90 * time.Millisecond, P99: 99 * time.Millisecond, Max: 100 * time.Millisecond}
	if got != want {
		t.Errorf("percentiles = %+v, want %+v", got, want)
	}
	if got := percentiles(nil); got != (Percentiles{}) {
		t.Errorf("percentiles(nil) = %+v, want zero", got)
	}
}

func TestNodesOf(t *testing.T) {
	const a, b, c = "http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"
	tests := []struct {
		cfg          Config
		pair         int
		white, black string
	}{
		{Config{URL: a}, 5, a, a},
		{Config{URL: a, Nodes: []string{b}}, 0, a, b},
		{Config{URL: a, Nodes: []string{b}}, 1, b, a},
		{Config{URL: a, Nodes: []string{b, c}}, 2, c, a},
		{Config{URL: a, Nodes: []string{b}, SplitGames: true}, 0, a, a},
		{Config{URL: a, Nodes: []string{b}, SplitGames: true}, 1, b, b},
		{Config{URL: a, Nodes: []string{b, c}, SplitGames: true}, 5, c, c},
	}
	for _, tt := range tests {
		if w, bl := tt.cfg.nodesOf(tt.pair); w != tt.white || bl != tt.black {
			t.Errorf("nodes %v split %v, pair %d: White on %s, Black on %s; want %s, %s",
				append([]string{tt.cfg.URL}, tt.cfg.Nodes...), tt.cfg.SplitGames, tt.pair, w, bl, tt.white, tt.black)
		}
	}
}

// TestRunEndsMidMove ends a run whose games move back to back, so that
// it ends while most of them wait for a move's broadcast: every one must
// still be resigned, none left live. (When the run's end cancelled those
// reads, closing their websockets, 3 to 5 of the 8 stayed live each time.)
func TestRunEndsMidMove(t *testing.T) {
	s := startServer(t)
	cfg := Config{URL: s.URL, Games: 8, Interval: time.Nanosecond, Duration: 500 * time.Millisecond, Seed: 3}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Errors != 0 || r.Started < cfg.Games {
		t.Errorf("started %d games (want at least %d), %d errors: %v %v", r.Started, cfg.Games, r.Errors, r.ErrorKinds, r.ErrorSample)
	}
	// Every resignation's end message has come back before Run returns; the
	// hub lets go of the game just after.
	deadline := time.Now().Add(5 * time.Second)
	for s.LiveGames() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := s.LiveGames(); n != 0 {
		t.Errorf("%d games still live after the run", n)
	}
}
