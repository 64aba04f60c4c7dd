package team

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
)

// stopAfter is a notify.Sender that keeps the notices and ends a context
// once it has n of them: a node stopping in the middle of a message.
type stopAfter struct {
	sitetest.Notices
	n, got int
	stop   context.CancelFunc
}

func (s *stopAfter) Send(ctx context.Context, n notify.Notice) error {
	if s.got++; s.got == s.n {
		s.stop()
	}
	return s.Notices.Send(ctx, n)
}

// TestMessageToManyMembers: a leaders' message to a team larger than a
// batch is told after the request, batch by batch; a worker stopped in the
// middle leaves the message held until its lease is past, with its
// progress, and the next worker tells exactly the members not yet told.
func TestMessageToManyMembers(t *testing.T) {
	clk := sitetest.NewClock(time.Now())
	st := sitetest.OpenStore(t, "", store.Options{Now: clk.Now})
	ctx := t.Context()
	const members = 2*broadcastBatch + 37
	var ids []int64
	for i := range members {
		u, err := st.CreateUser(ctx, fmt.Sprintf("m%04d", i), "x")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	rec := &stopAfter{n: broadcastBatch + 10}
	svc := NewService(Config{Store: st, Notify: rec})
	tm, err := svc.Create(ctx, ids[0], Fields{Name: "Aral", JoinMode: Open})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[1:] {
		if err := st.AdmitTeam(ctx, tm.ID, id, "", bounds); err != nil {
			t.Fatal(err)
		}
	}
	told, err := svc.Message(ctx, tm.ID, ids[0], "m0000", "Training moves to Sunday.")
	if err != nil || told != members-1 {
		t.Fatalf("message: %d, %v", told, err)
	}
	if n := len(rec.Take()); n != 0 {
		t.Fatalf("%d notices inside the request", n)
	}

	// A worker stops during its second batch.
	wctx, stop := context.WithCancel(ctx)
	rec.stop = stop
	if err := svc.tellPending(wctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped worker: %v", err)
	}
	first := rec.Take()
	if len(first) != broadcastBatch+10 {
		t.Fatalf("%d notices before the stop, want %d", len(first), broadcastBatch+10)
	}
	// Its lease holds the message from the other workers for a while.
	if _, err := st.ClaimTeamBroadcast(ctx, broadcastLease); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("claimed within the lease: %v", err)
	}
	clk.Add(broadcastLease + time.Second)
	if err := svc.tellPending(ctx); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]int{}
	for _, n := range append(first, rec.Take()...) {
		if n.Kind != notify.Team || n.Args[2] != "Training moves to Sunday." || n.URL != "/team/"+tm.ID {
			t.Fatalf("notice %+v", n)
		}
		seen[n.To]++
	}
	for _, id := range ids[1:] {
		if seen[id] != 1 {
			t.Errorf("member %d told %d times", id, seen[id])
		}
	}
	if seen[ids[0]] != 0 || len(seen) != members-1 {
		t.Errorf("%d told, the sender %d times", len(seen), seen[ids[0]])
	}
	// Told whole, the message is gone.
	if _, err := st.ClaimTeamBroadcast(ctx, broadcastLease); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a message told whole is still kept: %v", err)
	}
}

// TestStalledWorker: a worker that stalled past its lease records nothing
// once another took the message over; the other finishes it.
func TestStalledWorker(t *testing.T) {
	clk := sitetest.NewClock(time.Now())
	st := sitetest.OpenStore(t, "", store.Options{Now: clk.Now})
	ctx := t.Context()
	lead, err := st.CreateUser(ctx, "lead", "x")
	if err != nil {
		t.Fatal(err)
	}
	svc := NewService(Config{Store: st, Notify: &sitetest.Notices{}})
	tm, err := svc.Create(ctx, lead.ID, Fields{Name: "Aral", JoinMode: Open})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Message(ctx, tm.ID, lead.ID, "lead", "Hello"); err != nil {
		t.Fatal(err)
	}
	stalled, err := st.ClaimTeamBroadcast(ctx, broadcastLease)
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(broadcastLease + time.Second)
	other, err := st.ClaimTeamBroadcast(ctx, broadcastLease)
	if err != nil || other.ID != stalled.ID {
		t.Fatalf("the message past its lease: %+v, %v", other, err)
	}
	if err := st.TeamBroadcastTold(ctx, &stalled, 99, broadcastLease, false); !errors.Is(err, store.ErrConflict) {
		t.Errorf("the stalled worker recorded its progress: %v", err)
	}
	if err := st.TeamBroadcastTold(ctx, &other, 5, broadcastLease, false); err != nil || other.After != 5 {
		t.Fatalf("the worker holding it: %v, after %d", err, other.After)
	}
	if err := st.TeamBroadcastTold(ctx, &other, 7, broadcastLease, true); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ClaimTeamBroadcast(ctx, broadcastLease); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a finished message is still kept: %v", err)
	}
}
