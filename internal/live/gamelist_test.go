package live_test

import (
	"context"
	"path/filepath"
	"strings"
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

// keeper is the real store's leases of a node that takes over no game, so
// that another node's games stay that node's after it stops and the test
// sees them leave the list rather than move.
type keeper struct{ store.LiveStore }

func (keeper) Orphans(context.Context, time.Time) ([]string, error) { return nil, nil }

func startListNode(t *testing.T, path, url, id string, ttl time.Duration, keep bool) *node {
	t.Helper()
	st := openStore(t, path)
	b, err := bus.Connect(url, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ls := store.LiveStore{S: st}
	var leases live.Leases = ls
	if keep {
		leases = keeper{ls}
	}
	h := live.NewHub(ctx, live.Config{Store: ls, Leases: leases, Bus: b, Node: id, FirstMoveTimeout: -1,
		LeaseTTL: ttl, LeaseRenew: 100 * time.Millisecond, Rebalance: -1})
	if _, err := h.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := &node{st: st, b: b, h: h, cancel: cancel}
	t.Cleanup(n.crash)
	return n
}

// listed returns the ids of h.Games().
func listed(h *live.Hub) map[string]live.LiveGame {
	out := map[string]live.LiveGame{}
	for _, g := range h.Games() {
		out[g.ID] = g
	}
	return out
}

// waitListed waits up to within for h's list to hold id (want) or not.
func waitListed(t *testing.T, h *live.Hub, id string, want bool, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		if _, ok := listed(h)[id]; ok == want {
			return time.Since(start)
		}
		if time.Since(start) > within {
			t.Fatalf("node %s: game %s listed %v after %v; want %v", h.Node(), id, !want, within, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestGamesAcrossNodes: a game running on node B is in node A's list of
// games being played (and its TV's choice), with B's seats and
// spectators, and A's own games in B's; when B stops cleanly its games
// leave A's list at once (its goodbye), and when B dies they leave it once
// B has been silent for a lease's time.
func TestGamesAcrossNodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		ttl  time.Duration
		// within: how soon B's game must leave A's list after B stops.
		within time.Duration
		clean  bool
	}{
		// A lease far longer than the wait: only the goodbye can do it.
		{"clean stop", 10 * time.Second, 3 * time.Second, true},
		{"crash", 600 * time.Millisecond, 5 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			busURL := startBus(t)
			path := filepath.Join(t.TempDir(), "t.db")
			a := startListNode(t, path, busURL, "A", tc.ttl, true)
			b := startListNode(t, path, busURL, "B", tc.ttl, true)
			ctx := context.Background()
			w, bl := seats()
			blitz, _ := clock.ParseTimeControl("5+0")
			onB, err := b.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl, TC: blitz, Rated: false})
			if err != nil {
				t.Fatal(err)
			}
			rw := game.Seat{ID: "u1", Name: "Aigerim", Rating: 2100}
			rb := game.Seat{ID: "u2", Name: "Bolat", Rating: 2000}
			rapid, _ := clock.ParseTimeControl("10+5")
			onA, err := a.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: rw, Black: rb, TC: rapid})
			if err != nil {
				t.Fatal(err)
			}
			spec, err := b.h.Join(ctx, onB, "someone")
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := await(t, spec, "state"); !ok {
				t.Fatal("no state")
			}
			if a.h.Live() != 1 || b.h.Live() != 1 {
				t.Fatalf("actors: A %d, B %d; want one each", a.h.Live(), b.h.Live())
			}
			waitListed(t, a.h, onB, true, 15*time.Second)
			waitListed(t, b.h, onA, true, 15*time.Second)
			var got live.LiveGame
			for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
				got = listed(a.h)[onB]
				if got.Spectators == 1 || time.Since(start) > 15*time.Second {
					break
				}
			}
			want := live.LiveGame{ID: onB, White: live.SeatJSON{Name: "Guest-a", Guest: true}, Black: live.SeatJSON{Name: "Guest-b", Guest: true},
				TC: "5+0", Ruleset: toguz.Standard().String(), Category: "blitz", Spectators: 1, URL: "/game/" + onB}
			got.Created = time.Time{}
			if got != want {
				t.Errorf("B's game on A's list:\n got %+v\nwant %+v", got, want)
			}
			for name, h := range map[string]*live.Hub{"A": a.h, "B": b.h} {
				gs := h.Games()
				if len(gs) != 2 || gs[0].ID != onA || gs[1].ID != onB {
					t.Errorf("%s lists %+v; want %s (rated higher) then %s", name, gs, onA, onB)
				}
			}
			// The TV picks among every node's games: A's, the higher
			// rated, until it ends; then B's.
			if tv, ok := b.h.TV(); !ok || tv.ID != onA {
				t.Errorf("B's TV: %+v %v; want A's game %s", tv, ok, onA)
			}
			if err := a.h.Act(ctx, onA, live.Chatter{ID: rw.ID, Name: rw.Name}, live.ClientMsg{Type: "abort"}); err != nil {
				t.Fatal(err)
			}
			waitListed(t, a.h, onA, false, 3*time.Second)
			waitListed(t, b.h, onA, false, 3*time.Second)
			if tv, ok := a.h.TV(); !ok || tv.ID != onB {
				t.Errorf("A's TV: %+v %v; want B's game %s", tv, ok, onB)
			}

			if tc.clean {
				if err := b.h.Stop(ctx); err != nil {
					t.Fatal(err)
				}
			} else {
				b.crash()
			}
			took := waitListed(t, a.h, onB, false, tc.within)
			t.Logf("B's game left A's list %v after B stopped", took)
			if _, ok := a.h.TV(); ok {
				t.Error("A's TV still shows a game")
			}
			if a.h.Live() != 0 {
				t.Errorf("A runs %d games; its leases took none", a.h.Live())
			}
		})
	}
}

// TestGamesSummaryOnChange: a node publishes its summary of games when it
// changes (a game made, a spectator come), not at every renewal while it
// stays the same; the other node keeps listing its games meanwhile, for
// many lease times, as long as it is heard of.
func TestGamesSummaryOnChange(t *testing.T) {
	busURL := startBus(t)
	const ttl = 400 * time.Millisecond // renewals every 100 ms
	path := filepath.Join(t.TempDir(), "t.db")
	a := startListNode(t, path, busURL, "A", ttl, true)
	b := startListNode(t, path, busURL, "B", ttl, true)
	watch, err := bus.Connect(busURL, "watch", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	var fromB atomic.Int32
	unsub, err := watch.Subscribe("toguz.games", func(_ string, data []byte, _ func([]byte)) {
		if strings.Contains(string(data), `"node":"B"`) {
			fromB.Add(1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer unsub()
	ctx := context.Background()
	w, bl := seats()
	blitz, _ := clock.ParseTimeControl("5+0")
	onB, err := b.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl, TC: blitz})
	if err != nil {
		t.Fatal(err)
	}
	waitListed(t, a.h, onB, true, 15*time.Second)
	time.Sleep(300 * time.Millisecond) // the renewal that published the game is past
	before := fromB.Load()
	time.Sleep(2 * time.Second) // twenty renewals, five lease times, nothing new
	if n := fromB.Load() - before; n > 1 {
		t.Errorf("B published %d summaries in 2 s without a change", n)
	}
	if _, ok := listed(a.h)[onB]; !ok {
		t.Error("A forgot B's game while B was heard of")
	}
	// A spectator is a change: published at the next renewal.
	before = fromB.Load()
	spec, err := b.h.Join(ctx, onB, "someone")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := await(t, spec, "state"); !ok {
		t.Fatal("no state")
	}
	for start := time.Now(); listed(a.h)[onB].Spectators != 1; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 3*time.Second {
			t.Fatalf("A lists %+v; want one spectator", listed(a.h)[onB])
		}
	}
	if fromB.Load() == before {
		t.Error("the spectator reached A with no summary published")
	}
}
