package live_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// startBalancing is startNode with rebalancing every 200 ms.
func startBalancing(t *testing.T, path, url, id string) *node {
	t.Helper()
	return startNodeWith(t, path, url, id, live.Config{Rebalance: 200 * time.Millisecond}, nil)
}

// TestRebalance: a node that joins gets its share of the games being
// played: the node that ran them all hands half over, their sockets
// close (and reconnect, here through the node now running the game), the
// moves played before are all there and the games go on.
func TestRebalance(t *testing.T) {
	busURL := startBus(t)
	path := filepath.Join(t.TempDir(), "t.db")
	a := startBalancing(t, path, busURL, "A")
	ctx := context.Background()
	w, bl := seats()
	white := live.Chatter{ID: w.ID, Name: w.Name}
	var ids []string
	conns := map[string]*live.Conn{}
	for range 10 {
		id, err := a.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.h.PlayPly(ctx, id, white, toguz.Ply{Move: 7}); err != nil {
			t.Fatal(err)
		}
		c, err := a.h.Join(ctx, id, bl.ID)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		conns[id] = c
	}
	time.Sleep(time.Second) // A alone: nothing moves
	if a.h.Live() != 10 {
		t.Fatalf("A runs %d games alone, want 10", a.h.Live())
	}
	b := startBalancing(t, path, busURL, "B")
	deadline := time.Now().Add(5 * time.Second)
	for a.h.Live() != 5 || b.h.Live() != 5 {
		if time.Now().After(deadline) {
			t.Fatalf("after B joined: A runs %d games, B %d; want 5 each", a.h.Live(), b.h.Live())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // and it stays so
	if a.h.Live() != 5 || b.h.Live() != 5 {
		t.Fatalf("a second later: A runs %d games, B %d; want 5 each", a.h.Live(), b.h.Live())
	}
	ls := store.LiveStore{S: a.st}
	black := live.Chatter{ID: bl.ID, Name: bl.Name}
	closed := 0
	for _, id := range ids {
		l, err := ls.Lease(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if l.Node == "B" {
			// The socket on A closed; Black plays on through A anyway.
			if _, open := await(t, conns[id], "never"); !open {
				closed++
			}
		}
		if err := a.h.Act(ctx, id, black, live.ClientMsg{Type: "move", Hole: 2}); err != nil {
			t.Errorf("game %s on %s: Black's move through A: %v", id, l.Node, err)
		}
		if st, err := b.h.State(ctx, id); err != nil || st.Ply != 2 {
			t.Errorf("game %s on %s: ply %d, %v; want 2", id, l.Node, st.Ply, err)
		}
	}
	if closed != 5 {
		t.Errorf("%d sockets of the games handed over closed, want 5", closed)
	}
}

// TestByeEndsJoin: a join that a stopping node received but will never
// answer (its process exits first) ends when the node says goodbye, and
// the socket joins the game where it runs next, here; it does not wait a
// lease's time for the answer.
func TestByeEndsJoin(t *testing.T) {
	busURL := startBus(t)
	path := filepath.Join(t.TempDir(), "t.db")
	const ttl = 30 * time.Second
	a := startNodeWith(t, path, busURL, "A", live.Config{LeaseTTL: ttl}, nil)
	b := startNodeWith(t, path, busURL, "B", live.Config{LeaseTTL: ttl}, nil)
	ctx := context.Background()
	w, bl := seats()
	id, err := a.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl})
	if err != nil {
		t.Fatal(err)
	}
	// A stops as far as its game goes; "A" holds the lease again, and
	// hears joins without answering them: a process about to exit.
	a.crash()
	if _, ok, err := b.st.TakeLease(ctx, id, "A", time.Now(), ttl); !ok || err != nil {
		t.Fatalf("take the lease as A: %v, %v", ok, err)
	}
	mute, err := bus.Connect(busURL, "A", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mute.Close()
	heard := make(chan struct{}, 1)
	if _, err := mute.Subscribe("toguz.node.A.join", func(string, []byte, func([]byte)) {
		select {
		case heard <- struct{}{}:
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}
	fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := mute.Flush(fctx); err != nil {
		t.Fatal(err)
	}
	type joined struct {
		c   *live.Conn
		err error
	}
	done := make(chan joined, 1)
	go func() {
		c, err := b.h.Join(ctx, id, bl.ID)
		done <- joined{c, err}
	}()
	select {
	case <-heard:
	case <-time.After(10 * time.Second):
		t.Fatal("B did not ask A to join the game")
	}
	if err := b.st.ReleaseLease(ctx, id, "A", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := mute.Publish("toguz.bye", []byte("A")); err != nil {
		t.Fatal(err)
	}
	var j joined
	select {
	case j = <-done:
	case <-time.After(ttl / 3):
		t.Fatal("the join still waits for the node that said goodbye")
	}
	if j.err != nil {
		t.Fatalf("join after the goodbye: %v", j.err)
	}
	if _, ok := await(t, j.c, "state"); !ok {
		t.Fatal("no state")
	}
	if b.h.Live() != 1 {
		t.Errorf("B runs %d games; want the one A gave up", b.h.Live())
	}
}
