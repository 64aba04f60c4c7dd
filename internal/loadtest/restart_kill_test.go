package loadtest

// This file sorts after loadtest_test.go on purpose: TestIdle measures the
// heap of the process, and a big run just before it disturbs the measure
// (the heap still shrinks while the idle games are being made).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/testbin"
)

// serveProcess is `toguz serve` running as a child process, its bounds
// at their defaults.
type serveProcess struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when it has exited
}

// startServe starts `toguz serve` on addr with the database db (and the
// flags more) and waits until it listens.
func startServe(t *testing.T, bin, addr, db string, more ...string) *serveProcess {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "-addr", addr, "-db", db}, more...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{cmd: cmd, done: make(chan struct{})}
	listening := make(chan struct{})
	var log bytes.Buffer // what it said before listening, for a failure
	go func() {
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			if strings.HasPrefix(lines.Text(), "toguz serve: listening on ") {
				close(listening)
				break
			}
			log.WriteString(lines.Text() + "\n")
		}
		var rest io.Writer = io.Discard
		if d := os.Getenv("TOGUZ_NODE_LOGS"); d != "" { // a test's nodes' logs, for its author
			if f, err := os.OpenFile(filepath.Join(d, strings.ReplaceAll(addr, ":", "_")+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
				defer f.Close()
				rest = f
			}
		}
		io.Copy(rest, stderr)
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.kill() })
	select {
	case <-listening:
		return p
	case <-p.done:
		t.Fatalf("toguz serve exited before listening:\n%s", log.String())
	case <-time.After(30 * time.Second):
		p.kill()
		t.Fatal("toguz serve did not start")
	}
	return nil
}

// kill SIGKILLs the server and waits until it has exited.
func (p *serveProcess) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// countLines returns the number of lines of the file at path.
func countLines(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte{'\n'})
}

// TestKillDuringLoad runs a load test against `toguz serve` (a process,
// its bounds on, the players connecting from 4 loopback addresses),
// SIGKILLs the server 5 times during it and starts it again on the same
// database and port each time: the players reconnect and play on, and
// every move the server acknowledged is in the database afterwards, with
// its hole and the mover's clock as the acknowledgement gave them.
func TestKillDuringLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and plays for half a minute")
	}
	bin, cleanup, err := testbin.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	dir := t.TempDir()
	db, ackPath := filepath.Join(dir, "toguz.db"), filepath.Join(dir, "acks.jsonl")
	// A free port, to restart the server on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := startServe(t, bin, addr, db)

	acks, err := os.Create(ackPath)
	if err != nil {
		t.Fatal(err)
	}
	defer acks.Close()
	const kills = 5
	cfg := Config{URL: "http://" + addr, Games: 24, Interval: 50 * time.Millisecond, Duration: 30 * time.Second,
		TC: "10+5", Seed: 11, Sources: 4, AckLog: acks}
	type result struct {
		r   Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := Run(context.Background(), cfg)
		done <- result{r, err}
	}()
	// Kill it whenever the load has acknowledged 300 more moves since the
	// last restart: the players must have reconnected and played on.
	for i := range kills {
		from, deadline := countLines(t, ackPath), time.Now().Add(15*time.Second)
		for countLines(t, ackPath) < from+300 {
			if time.Now().After(deadline) {
				t.Fatalf("restart %d: %d moves acknowledged in 15 s, want 300", i, countLines(t, ackPath)-from)
			}
			time.Sleep(50 * time.Millisecond)
		}
		srv.kill()
		srv = startServe(t, bin, addr, db)
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	r := res.r
	t.Logf("%d games started, %d finished, %d moves, %d retries, %d reconnections, errors %v %q",
		r.Started, r.Finished, r.Moves, r.Retries, r.Reconnects, r.ErrorKinds, r.ErrorSample)
	// A restart may cost a game being set up (a seek the server forgot, an
	// acceptance whose answer was lost); a game being played must go on.
	for kind := range r.ErrorKinds {
		if !slices.Contains([]string{"seek", "accept", "dial", "state"}, kind) {
			t.Errorf("errors %q in games being played: %v", kind, r.ErrorSample)
		}
	}
	if r.Reconnects < kills {
		t.Errorf("%d reconnections after %d kills", r.Reconnects, kills)
	}
	// A clean stop, then the database as it is.
	srv.cmd.Process.Signal(syscall.SIGTERM)
	<-srv.done
	st, err := store.Open(context.Background(), db, store.Options{SessionSweep: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	if _, err := acks.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	stored := map[string][]store.Move{}
	n := 0
	lines := bufio.NewScanner(acks)
	for lines.Scan() {
		var a Ack
		if err := json.Unmarshal(lines.Bytes(), &a); err != nil {
			t.Fatalf("ack log line %d: %v", n+1, err)
		}
		n++
		ms, ok := stored[a.Game]
		if !ok {
			if ms, err = st.Moves(context.Background(), a.Game); err != nil {
				t.Fatal(err)
			}
			stored[a.Game] = ms
		}
		if a.Ply > len(ms) {
			t.Errorf("game %s: acknowledged ply %d (hole %d) is lost: %d stored", a.Game, a.Ply, a.Hole, len(ms))
			continue
		}
		m := ms[a.Ply-1]
		if int(m.Hole) != a.Hole || a.ClockMS == nil || m.Clock.Milliseconds() != *a.ClockMS {
			t.Errorf("game %s ply %d: stored hole %d, clock %d ms; acknowledged %s", a.Game, a.Ply, m.Hole, m.Clock.Milliseconds(), lines.Text())
		}
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	if n != r.Moves || n < (kills+1)*300 {
		t.Errorf("%d moves in the ack log, %d acknowledged, want the same and at least %d", n, r.Moves, (kills+1)*300)
	}
	t.Logf("%s", fmt.Sprintf("%d acknowledged moves in %d games, all stored with their clocks", n, len(stored)))
}
