package store

import (
	"testing"
	"time"
)

// TestHandLease: a lease handed from A to B is B's, expired at the
// handover: A's renewals leave it alone, B takes it at once and learns
// when A stopped; a lease not A's is not handed.
func TestHandLease(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		ttl := 4 * time.Second
		if _, ok, err := s.TakeLease(ctx, "g1", "A", t0, ttl); !ok || err != nil {
			t.Fatalf("A takes g1: %v %v", ok, err)
		}
		at := t0.Add(time.Second)
		if err := s.HandLease(ctx, "g1", "A", "B", at); err != nil {
			t.Fatal(err)
		}
		if held, err := s.RenewLeases(ctx, "A", at.Add(10*time.Millisecond), ttl); err != nil || len(held) != 0 {
			t.Errorf("A renews %v, %v after handing g1 over; want none", held, err)
		}
		if l, err := s.Lease(ctx, "g1"); err != nil || l.Node != "B" || !l.Expires.Equal(at) {
			t.Errorf("the handed lease: %+v, %v; want B's, expired at the handover", l, err)
		}
		prev, ok, err := s.TakeLease(ctx, "g1", "B", at.Add(20*time.Millisecond), ttl)
		if !ok || err != nil || !prev.Renewed.Equal(at) {
			t.Errorf("B takes it: %+v %v %v; want renewed at the handover", prev, ok, err)
		}
		if err := s.HandLease(ctx, "g1", "A", "C", at); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Lease(ctx, "g1"); l.Node != "B" {
			t.Errorf("A handed B's lease to %s", l.Node)
		}
	})
}
