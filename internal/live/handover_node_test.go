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
	st := openStore(t, path)
	b, err := bus.Connect(url, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ls := store.LiveStore{S: st}
	h := live.NewHub(ctx, live.Config{Store: ls, Leases: ls, Bus: b, Node: id, FirstMoveTimeout: -1,
		LeaseTTL: 600 * time.Millisecond, LeaseRenew: 100 * time.Millisecond, Rebalance: 200 * time.Millisecond})
	if _, err := h.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := &node{st: st, b: b, h: h, cancel: cancel}
	t.Cleanup(n.crash)
	return n
}

// TestRebalance: a node that joins gets its share of the games being
// played: the node that ran them all hands half over, their sockets
// close (and reconnect, here through the node now running the game), the
// moves played before are all there and the games go on.
func TestRebalance(t *testing.T) {
	em, err := bus.StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	path := filepath.Join(t.TempDir(), "t.db")
	a := startBalancing(t, path, em.URL(), "A")
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
	b := startBalancing(t, path, em.URL(), "B")
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
