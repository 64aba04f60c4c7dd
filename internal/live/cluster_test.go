package live_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// node is one hub of a cluster in this process: its own store handle on
// the shared file, its own bus connection.
type node struct {
	st     *store.Store
	b      *bus.Bus
	h      *live.Hub
	cancel context.CancelFunc
}

func startNode(t *testing.T, path, url, id string) *node {
	return startNodeWith(t, path, url, id, live.Config{}, nil)
}

// pausable is the real store's leases whose renewals can be held back, as
// a node's are when its machine is overloaded.
type pausable struct {
	store.LiveStore
	paused *atomic.Bool
}

func (p pausable) RenewLeases(ctx context.Context, node string, now time.Time, ttl time.Duration) ([]string, error) {
	if p.paused.Load() {
		return nil, errors.New("renewal held back by the test")
	}
	return p.LiveStore.RenewLeases(ctx, node, now, ttl)
}

// startNodeWith starts node id with cfg's lease times and rebalancing
// (a lease of 600 ms renewed every 100 ms where they are zero), its
// renewals held back while paused (when not nil) is true.
func startNodeWith(t *testing.T, path, url, id string, cfg live.Config, paused *atomic.Bool) *node {
	t.Helper()
	st := openStore(t, path)
	b, err := bus.Connect(url, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ls := store.LiveStore{S: st}
	var leases live.Leases = ls
	if paused != nil {
		leases = pausable{ls, paused}
	}
	h := live.NewHub(ctx, live.Config{Store: ls, Leases: leases, Bus: b, Node: id, FirstMoveTimeout: -1,
		LeaseTTL: cmp.Or(cfg.LeaseTTL, 600*time.Millisecond), LeaseRenew: cmp.Or(cfg.LeaseRenew, 100*time.Millisecond),
		Rebalance: cfg.Rebalance})
	if _, err := h.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := &node{st: st, b: b, h: h, cancel: cancel}
	t.Cleanup(n.crash)
	return n
}

// crash stops the node as a SIGKILL would as far as the others see: its
// bus goes first, so it neither answers nor renews.
func (n *node) crash() {
	if n.cancel == nil {
		return
	}
	n.b.Close()
	n.cancel()
	n.h.Wait()
	n.st.Close()
	n.cancel = nil
}

// await returns the next message of c of one of the types, waiting up to
// 5 s; ok is false when c closed first.
func await(t *testing.T, c *live.Conn, types ...string) (msg, bool) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case b, open := <-c.Out():
			if !open {
				return msg{}, false
			}
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			for _, ty := range types {
				if m.Type == ty {
					return m, true
				}
			}
		case <-timeout:
			t.Fatalf("no %v message in 5 s", types)
		}
	}
}

// TestTwoNodes: a game created on node A is played by one player on A and
// one on B, watched from B; A dies; B takes the game's lease, its sockets
// reconnect there, the game goes on with the clock A stored, charged only
// until A's last renewal.
func TestTwoNodes(t *testing.T) {
	busURL := startBus(t)
	path := filepath.Join(t.TempDir(), "t.db")
	a := startNode(t, path, busURL, "A")
	b := startNode(t, path, busURL, "B")
	if a.h.Node() != "A" || b.h.Node() != "B" {
		t.Fatalf("nodes %q %q", a.h.Node(), b.h.Node())
	}
	ctx := context.Background()
	w, bl := seats()
	tc, _ := clock.ParseTimeControl("5+0")
	id, err := a.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl, TC: tc})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := a.h.Join(ctx, id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := b.h.Join(ctx, id, bl.ID) // proxied to A
	if err != nil {
		t.Fatal(err)
	}
	spec, err := b.h.Join(ctx, id, "someone")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*live.Conn{cw, cb, spec} {
		if _, ok := await(t, c, "state"); !ok {
			t.Fatal("no state")
		}
	}
	if st, err := b.h.State(ctx, id); err != nil || st.Ply != 0 {
		t.Fatalf("state from B: %+v, %v", st.Ply, err)
	}
	if a.h.Live() != 1 || b.h.Live() != 0 {
		t.Fatalf("actors: A %d, B %d; want the game on A only", a.h.Live(), b.h.Live())
	}
	p := toguz.StartPosition()
	conns := [2]*live.Conn{cw, cb}
	var last msg
	for ply := range 6 {
		hole := int(p.LegalMoves().First())
		move(conns[p.Turn()], ply, hole)
		for _, c := range []*live.Conn{cw, cb, spec} {
			m, ok := await(t, c, "move")
			if !ok || *m.Ply != ply+1 {
				t.Fatalf("ply %d: got %+v %v", ply+1, m, ok)
			}
			last = m
		}
		p, _ = p.Play(toguz.Move(hole))
		time.Sleep(20 * time.Millisecond)
	}

	a.crash()
	// B's proxies close (A is silent); B has taken the lease by then.
	for _, c := range []*live.Conn{cb, spec} {
		for {
			if _, ok := await(t, c, "never"); !ok {
				break
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for b.h.Live() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("B did not take the game over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cw, err = b.h.Join(ctx, id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	cb, err = b.h.Join(ctx, id, bl.ID)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Ply   int            `json:"ply"`
		Clock live.ClockJSON `json:"clock"`
	}
	bs := <-cw.Out()
	if err := json.Unmarshal(bs, &st); err != nil || st.Ply != 6 {
		t.Fatalf("state after the takeover: %s", bs)
	}
	// White is to move: charged from his opponent's last move until A's
	// last renewal, at most a lease's time (0.6 s) plus the moves' gaps.
	if used := last.Clock.WhiteMS - st.Clock.WhiteMS; used < 0 || used > 1000 {
		t.Errorf("white's clock went from %d to %d ms across the takeover", last.Clock.WhiteMS, st.Clock.WhiteMS)
	}
	if st.Clock.BlackMS != last.Clock.BlackMS {
		t.Errorf("black's clock, not running, went from %d to %d ms", last.Clock.BlackMS, st.Clock.BlackMS)
	}
	conns = [2]*live.Conn{cw, cb}
	hole := int(p.LegalMoves().First())
	move(conns[p.Turn()], 6, hole)
	if m, ok := await(t, cb, "move"); !ok || *m.Ply != 7 {
		t.Fatalf("ply 7 on B: %+v %v", m, ok)
	}
	moves, err := b.st.Moves(ctx, id)
	if err != nil || len(moves) != 7 {
		t.Fatalf("stored moves: %d, %v", len(moves), err)
	}
}

// TestTwoNodesLobby: a seek made on one node is seen by the other's lobby
// watchers, accepted there (the game is made, and runs, on the seek's
// node), and a copy cancelled by its creator goes on both.
func TestTwoNodesLobby(t *testing.T) {
	busURL := startBus(t)
	path := filepath.Join(t.TempDir(), "t.db")
	a := startNode(t, path, busURL, "A")
	b := startNode(t, path, busURL, "B")
	la, lb := live.NewLobby(a.h), live.NewLobby(b.h)
	w, bl := seats()
	tc, _ := clock.ParseTimeControl("5+0")
	watcher := lb.Subscribe("")
	if m := <-watcher.Out(); !json.Valid(m) {
		t.Fatal("no list")
	}
	s, err := la.Add(live.Seek{By: w, TC: tc, Color: "white", Rules: toguz.Standard()})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-watcher.Out():
		var added struct {
			Type string
			Seek struct{ ID string }
		}
		json.Unmarshal(m, &added)
		if added.Type != "seek_added" || added.Seek.ID != s.ID {
			t.Fatalf("B's watcher got %s", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("B's watcher did not hear of A's seek")
	}
	if list := lb.List(); len(list) != 1 || list[0].ID != s.ID {
		t.Fatalf("B lists %v", list)
	}
	gid, err := lb.Accept(context.Background(), s.ID, bl)
	if err != nil {
		t.Fatal(err)
	}
	if a.h.Live() != 1 || b.h.Live() != 0 {
		t.Errorf("game %s: actors A %d, B %d; want it on A, the seek's node", gid, a.h.Live(), b.h.Live())
	}
	if _, g, ok := la.Get(s.ID); !ok || g != gid {
		t.Errorf("A: seek %s taken by game %q, %v; want %s", s.ID, g, ok, gid)
	}
	if _, err := lb.Accept(context.Background(), s.ID, bl); err == nil {
		t.Error("a seek was accepted twice")
	}

	// A private seek made on B, cancelled from A by its creator.
	p, err := lb.Add(live.Seek{By: bl, TC: tc, Color: "random", Rules: toguz.Standard(), Private: true})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, _, ok := la.Get(p.ID); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("A does not know B's private seek")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := la.Cancel(p.ID, w.ID); err == nil {
		t.Error("someone else cancelled a seek")
	}
	if err := la.Cancel(p.ID, bl.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := lb.Get(p.ID); ok {
		t.Error("the cancelled seek is still open on its node")
	}
}

// TestSlowOwnerKeepsGame: a node whose lease renewals fail for longer than
// a lease (a slow store, an overloaded machine) but which still says on
// the bus that it runs keeps its game: the other node does not take it
// over (the game would hop between nodes), and the game goes on on its
// owner once it renews again (its actor, stopped by the fence once its
// renewals have failed for a lease's time, starts again there on the next
// join, relayed from B).
func TestSlowOwnerKeepsGame(t *testing.T) {
	busURL := startBus(t)
	path := filepath.Join(t.TempDir(), "t.db")
	var paused atomic.Bool
	a := startNodeWith(t, path, busURL, "A", live.Config{}, &paused)
	b := startNode(t, path, busURL, "B")
	ctx := context.Background()
	w, bl := seats()
	id, err := a.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl})
	if err != nil {
		t.Fatal(err)
	}
	paused.Store(true)
	time.Sleep(2 * time.Second) // past the 600 ms lease, B sweeping every 100 ms
	if l, _ := b.st.Lease(ctx, id); l.Node != "A" || b.h.Live() != 0 {
		t.Fatalf("with A slow but running, the lease is %+v and B runs %d games; want A's, none", l, b.h.Live())
	}
	// A socket on B is relayed to A, the owner still.
	cb, err := b.h.Join(ctx, id, bl.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := await(t, cb, "state"); !ok {
		t.Fatal("no state through B")
	}
	paused.Store(false)
	time.Sleep(300 * time.Millisecond)
	if l, _ := b.st.Lease(ctx, id); l.Node != "A" || !l.Expires.After(time.Now()) {
		t.Errorf("after A renews again the lease is %+v", l)
	}
}

// startBus starts an embedded NATS server for the test, stopped after the
// test's nodes, and returns its URL.
func startBus(t *testing.T) string {
	t.Helper()
	em, err := bus.StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(em.Close)
	return em.URL()
}
