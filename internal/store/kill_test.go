package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

const killChildEnv = "TOGUZ_STORE_KILL_CHILD"

// TestKillDuringWrites runs a writer in a child process, kills it with
// SIGKILL in the middle of its writes, and checks that every move the child
// was told was stored is in the file, in order, with its clock.
func TestKillDuringWrites(t *testing.T) {
	if path := os.Getenv(killChildEnv); path != "" {
		killChild(path)
		return
	}
	path := sqliteBackend.db(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringWrites$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]int{} // game → last acknowledged ply
	lines := bufio.NewScanner(out)
	n := 0
	for lines.Scan() {
		var id string
		var ply int
		if _, err := fmt.Sscanf(lines.Text(), "ack %s %d", &id, &ply); err != nil {
			continue
		}
		acked[id] = max(acked[id], ply)
		if n++; n == 400 {
			cmd.Process.Kill() // SIGKILL: no deferred Close, no checkpoint
			break
		}
	}
	for lines.Scan() { // what the child printed before it died was acknowledged too
		var id string
		var ply int
		if _, err := fmt.Sscanf(lines.Text(), "ack %s %d", &id, &ply); err == nil {
			acked[id] = max(acked[id], ply)
		}
	}
	cmd.Wait()
	if n < 400 {
		t.Fatalf("the child acknowledged only %d moves", n)
	}
	s, err := Open(t.Context(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, last := range acked {
		moves, err := s.Moves(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) < last {
			t.Errorf("game %s: %d moves stored, but %d were acknowledged", id, len(moves), last)
		}
		for i, m := range moves {
			if m.Ply != i+1 || m.Hole != toguz.Move(i%9+1) {
				t.Errorf("game %s: move %d is %+v", id, i, m)
				break
			}
		}
		st, err := s.Clock(t.Context(), id)
		if err != nil || st.Remaining[0] != time.Duration(len(moves))*time.Millisecond {
			t.Errorf("game %s: clock %+v, %v; want the state of ply %d", id, st, err, len(moves))
		}
	}
	t.Logf("%d games, %d acknowledged moves before the kill, all found", len(acked), n)
}

// killChild appends moves to four games from four goroutines forever,
// printing each one once AppendMove has returned.
func killChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		g, err := s.CreateGame(ctx, Game{Players: [2]game.Seat{{Name: "a"}, {Name: "b"}}, Rules: toguz.Standard(), Status: game.Playing}, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		wg.Go(func() {
			for ply := 1; ; ply++ {
				st := clock.State{Remaining: [2]time.Duration{time.Duration(ply) * time.Millisecond}, Running: true, Since: time.Now()}
				if err := s.AppendMove(ctx, g.ID, Move{Ply: ply, Hole: toguz.Move((ply-1)%9 + 1)}, &st); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				mu.Lock()
				fmt.Fprintf(os.Stdout, "ack %s %d\n", g.ID, ply)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
