package loadtest

import (
	"context"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/testbin"
)

// timedAck is an acknowledged move and when it was seen.
type timedAck struct {
	nodeAck
	at time.Time
}

// TestTwoNodesStop is a rolling restart's step: two `toguz serve`
// processes on one store and one NATS; games sought on node 1 and
// accepted on node 2 (so node 1 owns them), each game's White on node 1
// and Black and a spectator on node 2. Node 1 is stopped cleanly
// (SIGTERM): node 2 takes every game over at once, not after the lease's
// 4 s, the games are played to their end there, and every acknowledged
// move is stored with its clock. The pause is the longest gap between
// two acknowledged moves of a game across the stop.
func TestTwoNodesStop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs two servers")
	}
	bin, cleanup, err := testbin.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	em, err := bus.StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	dir := t.TempDir()
	db := testDSN(t, dir)
	addr1, addr2 := freeAddr(t), freeAddr(t)
	n1 := startServe(t, bin, addr1, db, "-nats", em.URL(), "-node", "n1", "-first-move", "-1")
	n2 := startServe(t, bin, addr2, db, "-nats", em.URL(), "-node", "n2", "-first-move", "-1")
	u1, u2 := "http://"+addr1, "http://"+addr2

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	src := &source{http: &http.Client{Timeout: 10 * time.Second}}
	newClient := func(base string) *client {
		c := &client{base: base, src: src, retry: retryPolicy{max: 3, retried: new(atomic.Int64)}}
		if err := c.guest(ctx); err != nil {
			t.Fatal(err)
		}
		return c
	}
	const games = 4
	var mu sync.Mutex
	acks := make([][]timedAck, games)
	total := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, a := range acks {
			n += len(a)
		}
		return n
	}
	ids := make([]string, games)
	errc := make(chan error, 3*games)
	for g := range games {
		white, black, watcher := newClient(u1), newClient(u2), newClient(u2)
		seek, err := white.seek(ctx, "5+0")
		if err != nil {
			t.Fatal(err)
		}
		id, err := black.accept(ctx, seek)
		if err != nil {
			t.Fatal(err)
		}
		ids[g] = id
		acked := func(a nodeAck) {
			mu.Lock()
			acks[g] = append(acks[g], timedAck{a, time.Now()})
			mu.Unlock()
		}
		seats := []*nodeSeat{
			{c: white, bases: []string{u1, u2}, id: id},
			{c: black, bases: []string{u2, u1}, id: id},
			{c: watcher, bases: []string{u2, u1}, id: id},
		}
		go func() { errc <- seats[0].play(ctx, "white", rand.New(rand.NewPCG(uint64(g), 2)), acked) }()
		go func() { errc <- seats[1].play(ctx, "black", rand.New(rand.NewPCG(uint64(g), 4)), acked) }()
		go func() { _, err := seats[2].watch(ctx); errc <- err }()
	}
	for total() < 20*games {
		if ctx.Err() != nil {
			t.Fatal("the moves were not acknowledged in time")
		}
		time.Sleep(10 * time.Millisecond)
	}
	st, err := store.Open(ctx, db, store.Options{SessionSweep: -1, Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, id := range ids {
		if l, err := st.Lease(ctx, id); err != nil || l.Node != "n1" {
			t.Fatalf("before the stop game %s's lease is %+v, %v; want node n1's", id, l, err)
		}
	}
	stopped := time.Now()
	n1.cmd.Process.Signal(syscall.SIGTERM)
	<-n1.done
	t.Logf("node 1 stopped in %v", time.Since(stopped).Round(time.Millisecond))
	for range 3 * games {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	var pauses []time.Duration
	for g, id := range ids {
		as := acks[g]
		var pause time.Duration
		for i := 1; i < len(as); i++ {
			if as[i].at.After(stopped) && as[i-1].at.Before(stopped.Add(10*time.Second)) {
				pause = max(pause, as[i].at.Sub(as[i-1].at))
			}
		}
		pauses = append(pauses, pause)
		moves, err := st.Moves(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range as {
			if a.Ply > len(moves) {
				t.Errorf("game %s: acknowledged ply %d is lost: %d stored", id, a.Ply, len(moves))
				continue
			}
			if m := moves[a.Ply-1]; int(m.Hole) != a.Hole || m.Clock.Milliseconds() != a.ClockMS {
				t.Errorf("game %s ply %d: stored hole %d, clock %d ms; acknowledged hole %d, clock %d ms",
					id, a.Ply, m.Hole, m.Clock.Milliseconds(), a.Hole, a.ClockMS)
			}
		}
		if g, err := st.Game(ctx, id); err != nil || g.Status.String() == "started" {
			t.Errorf("game %s not over: %v", id, err)
		}
	}
	worst := slices.Max(pauses)
	t.Logf("pause across the clean stop, per game: %v; longest %v (%d moves acknowledged)", pauses, worst, total())
	// A crash costs the lease's 4 s and a sweep; a clean stop must not.
	if worst >= 3*time.Second {
		t.Errorf("a clean stop paused a game for %v", worst)
	}
	n2.cmd.Process.Signal(syscall.SIGTERM)
	<-n2.done
}
