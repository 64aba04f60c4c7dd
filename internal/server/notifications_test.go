package server

import (
	"testing"
	"time"

	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/game"
)

// TestEventSoon: the entered players of an event starting within the lead
// are told once, the withdrawn are not; a moved start tells them again.
func TestEventSoon(t *testing.T) {
	now := time.Date(2026, 3, 21, 10, 0, 0, 0, time.UTC)
	ev := &events.Event{ID: "e1", Name: "Nauryz", Status: events.Upcoming, Start: now.Add(4 * time.Minute),
		Entries: []game.EventEntry{{UserID: 1}, {UserID: 2, Withdrawn: true}, {UserID: 3}}}
	later := &events.Event{ID: "e2", Name: "Later", Status: events.Upcoming, Start: now.Add(time.Hour), Entries: []game.EventEntry{{UserID: 1}}}
	told := map[string]time.Time{}
	ns := eventSoon([]*events.Event{ev, later}, now, told)
	if len(ns) != 2 || ns[0].To != 1 || ns[1].To != 3 || ns[0].URL != "/event/e1" || ns[0].Args[1] != 4 {
		t.Fatalf("told %+v", ns)
	}
	if ns := eventSoon([]*events.Event{ev, later}, now.Add(time.Minute), told); len(ns) != 0 {
		t.Errorf("told again: %+v", ns)
	}
	ev.Start = now.Add(5 * time.Minute)
	if ns := eventSoon([]*events.Event{ev}, now.Add(time.Minute), told); len(ns) != 2 {
		t.Errorf("a moved start: %+v", ns)
	}
	ev.Status = events.Running
	eventSoon([]*events.Event{ev}, now.Add(6*time.Minute), told)
	if len(told) != 0 {
		t.Errorf("told keeps %v", told)
	}
}
