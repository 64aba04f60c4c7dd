package server

import (
	"bufio"
	"encoding/json"
	"flag"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/testbin"
)

// toguzBin is the toguz binary TestMain builds for the restart test; empty
// under -short or when the build failed (buildErr).
var toguzBin, buildErr = "", error(nil)

func TestMain(m *testing.M) {
	flag.Parse()
	cleanup := func() {}
	if !testing.Short() {
		toguzBin, cleanup, buildErr = testbin.Build()
	}
	code := m.Run()
	if buildErr == nil {
		cleanup()
	}
	os.Exit(code)
}

// serveProcess is `toguz serve` running as a child process.
type serveProcess struct {
	cmd *exec.Cmd
	url string
}

func startServe(t *testing.T, db string) *serveProcess {
	t.Helper()
	cmd := exec.Command(toguzBin, "serve", "-addr", "127.0.0.1:0", "-db", db, "-first-move", "-1", "-engines", "1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	found := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if u, ok := strings.CutPrefix(lines.Text(), "toguz serve: listening on "); ok {
				found <- u
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-found:
		p := &serveProcess{cmd: cmd, url: u}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return p
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("toguz serve did not start")
	}
	return nil
}

func (p *serveProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
}

// TestRestartSafety runs `toguz serve` as a process, plays moves in three
// live games (a blitz game, a correspondence game, a game against the
// engine), SIGKILLs the server, some moves in flight, and starts it again on
// the same database: every acknowledged move is there, the side to move has
// been charged the time he used until the kill (to within the heartbeat)
// and the correspondence deadline moved by the downtime only, and play goes
// on in every game.
func TestRestartSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	db := filepath.Join(t.TempDir(), "toguz.db")
	p := startServe(t, db)
	s := &testServer{t: t, URL: p.url}
	rng := rand.New(rand.NewPCG(9, 10))

	type live struct {
		id           string
		white, black string
		acked        int
	}
	var games []*live
	for _, tc := range []string{"5+0", "3d"} {
		w, b, id := s.game(s.guest(), s.guest(), tc, false)
		games = append(games, &live{id: id, white: w, black: b})
	}
	// Plays n plies in g, each acknowledged to the mover.
	play := func(g *live, n int) {
		w, b := s.dial(g.id, g.white), s.dial(g.id, g.black)
		st := w.until("state")
		b.until("state")
		fen, ply := st.FEN, *st.Ply
		for range n {
			pos, _, _ := toguz.ParseFEN(fen, toguz.Standard())
			c, o := w, b
			if pos.Turn() == toguz.Black {
				c, o = b, w
			}
			c.move(ply, randomMove(t, rng, fen))
			m := c.until("move", "error")
			if m.Type != "move" {
				t.Fatalf("move refused: %s", m.Raw)
			}
			o.until("move")
			fen, ply = m.FEN, *m.Ply
			g.acked = ply
		}
		w.c.CloseNow()
		b.c.CloseNow()
	}
	for _, g := range games {
		play(g, 7)
	}
	// The engine game: the guest plays White and the engine answers.
	eg := &live{white: s.guest()}
	code, m := s.do("POST", "/api/engine-games", eg.white, map[string]any{"level": 1, "color": "white", "tc": "10+5"})
	if code != 201 {
		t.Fatalf("engine game: %d %v", code, m)
	}
	eg.id = m["game_id"].(string)
	{
		c := s.dial(eg.id, eg.white)
		st := c.until("state")
		fen, ply := st.FEN, *st.Ply
		for range 3 {
			c.move(ply, randomMove(t, rng, fen))
			c.until("move")       // ours
			mv := c.until("move") // the engine's
			fen, ply = mv.FEN, *mv.Ply
			eg.acked = ply
		}
		c.c.CloseNow()
	}
	games = append(games, eg)

	// The states before the kill, from the API.
	statesAt := time.Now()
	states := map[string]map[string]any{}
	for _, g := range games {
		code, m := s.do("GET", "/api/games/"+g.id, "", nil)
		if code != 200 || int(m["ply"].(float64)) != g.acked {
			t.Fatalf("state of %s: %d %v, want ply %d", g.id, code, m, g.acked)
		}
		states[g.id] = m
	}
	// A move in flight when the server dies: it may or may not be stored,
	// but the game must be consistent either way.
	inflight := games[0]
	c := s.dial(inflight.id, inflight.white)
	st := c.until("state")
	pos, _, _ := toguz.ParseFEN(st.FEN, toguz.Standard())
	mover := c
	if pos.Turn() == toguz.Black {
		mover = s.dial(inflight.id, inflight.black)
		mover.until("state")
	}
	// The players to move think 2.5 s more: that time must be charged.
	time.Sleep(2500 * time.Millisecond)
	mover.move(*st.Ply, randomMove(t, rng, st.FEN))
	killAt := time.Now()
	p.kill(t)
	// Two seconds down: a server that charged the downtime would show it.
	time.Sleep(2 * time.Second)

	restartAt := time.Now()
	p2 := startServe(t, db)
	down := time.Since(killAt)
	s2 := &testServer{t: t, URL: p2.url}
	for _, g := range games {
		code, m := s2.do("GET", "/api/games/"+g.id, "", nil)
		// The resumed clock has run since the new process resumed the
		// game, at most since it started: under load the rest of its start
		// (and the GETs before this one) took more than a second.
		ran := float64(time.Since(restartAt).Milliseconds())
		if code != 200 {
			t.Fatalf("after restart %s: %d %v", g.id, code, m)
		}
		before := states[g.id]
		ply := int(m["ply"].(float64))
		switch {
		case ply < g.acked:
			t.Errorf("game %s lost acknowledged moves: ply %d, %d were acknowledged", g.id, ply, g.acked)
		case ply > g.acked+1 || (ply == g.acked+1 && g != inflight):
			t.Errorf("game %s has ply %d, acknowledged %d", g.id, ply, g.acked)
		}
		if m["status"] != "playing" {
			t.Errorf("game %s is %v after restart", g.id, m["status"])
		}
		if ply == g.acked {
			if m["fen"] != before["fen"] {
				t.Errorf("game %s: position %v, was %v", g.id, m["fen"], before["fen"])
			}
			bm, _ := json.Marshal(before["moves"])
			am, _ := json.Marshal(m["moves"])
			if string(am) != string(bm) {
				t.Errorf("game %s: moves %s, were %s", g.id, am, bm)
			}
			// The clocks: the side not to move has exactly the stored time;
			// the side to move was charged the time he used until the kill
			// (to within the 1 s heartbeat) and the time his clock has run
			// since the restart, not the downtime and not given back the
			// time since his opponent's move; a correspondence deadline
			// moved by the downtime only (to within the heartbeat).
			cb, ca := before["clock"].(map[string]any), m["clock"].(map[string]any)
			run := ca["running"].(string)
			used := float64(killAt.Sub(statesAt).Milliseconds())
			for _, side := range []string{"white", "black"} {
				b, a := cb[side+"_ms"].(float64), ca[side+"_ms"].(float64)
				if side != run && a != b {
					t.Errorf("game %s: %s's clock %v, was %v", g.id, side, a, b)
				}
				if side == run && before["tc"] != "3d" && (a > b-used+1100 || a < b-used-ran-100) {
					t.Errorf("game %s: %s's running clock %v, was %v %v ms before the kill; want %v to %v (down %v, restarted %v ms ago)",
						g.id, side, a, b, used, b-used-ran-100, b-used+1100, down, ran)
				}
			}
			if before["tc"] == "3d" {
				moved := ca["deadline_ms"].(float64) - cb["deadline_ms"].(float64)
				if moved < 0 || moved > float64(down.Milliseconds())+1100 {
					t.Errorf("game %s: the deadline moved %v ms, the server was down %v", g.id, moved, down)
				}
			}
			if run != cb["running"] {
				t.Errorf("game %s: running %q, was %q", g.id, run, cb["running"])
			}
		}
		t.Logf("game %s (%v): ply %d after restart, %d acknowledged; clock %v", g.id, before["tc"], ply, g.acked, m["clock"])
	}
	// Play goes on in every game.
	for _, g := range games {
		c := s2.dial(g.id, g.white)
		st := c.until("state")
		pos, _, _ := toguz.ParseFEN(st.FEN, toguz.Standard())
		if g == eg {
			// The engine moves by itself when it is to move.
			if pos.Turn() == toguz.Black {
				st = c.until("move")
			}
			c.move(*st.Ply, randomMove(t, rng, st.FEN))
			c.until("move")
			if m := c.until("move"); m.By != "black" {
				t.Errorf("the engine did not answer after the restart: %s", m.Raw)
			}
			continue
		}
		if pos.Turn() == toguz.Black {
			c.c.CloseNow()
			c = s2.dial(g.id, g.black)
			c.until("state")
		}
		c.move(*st.Ply, randomMove(t, rng, st.FEN))
		if m := c.until("move", "error"); m.Type != "move" {
			t.Errorf("game %s: move after restart: %s", g.id, m.Raw)
		}
	}
	// A clean stop on SIGTERM.
	p2.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p2.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("SIGTERM: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Error("the server did not stop on SIGTERM")
	}
}
