package store

import (
	"errors"
	"testing"
	"time"
)

// TestChampionships: a championship is written whole, read back as it was,
// and a write at a version another write has passed is refused, so that no
// arbiter's change is lost; the list is newest first, without documents.
func TestChampionships(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		day := time.Date(2026, 5, 10, 9, 0, 0, 0, time.UTC)
		c := Championship{ID: "c1", Creator: 7, Name: "Asian Cup", Status: "upcoming", Doc: []byte(`{"a":1}`), Created: day, Updated: day}
		if err := s.SaveChampionship(ctx, &c); err != nil || c.Version != 1 {
			t.Fatalf("create: %v, version %d", err, c.Version)
		}
		dup := Championship{ID: "c1", Creator: 8, Name: "X", Status: "upcoming", Doc: []byte(`{}`), Created: day, Updated: day}
		if err := s.SaveChampionship(ctx, &dup); !errors.Is(err, ErrConflict) {
			t.Errorf("the same id twice: %v, want ErrConflict", err)
		}
		later := Championship{ID: "c2", Creator: 7, Name: "Nomad Games", Status: "upcoming", Doc: []byte(`{}`), Created: day.Add(time.Hour), Updated: day}
		if err := s.SaveChampionship(ctx, &later); err != nil {
			t.Fatal(err)
		}
		stale := c
		c.Status, c.Doc, c.Updated = "running", []byte(`{"a":2}`), day.Add(time.Minute)
		if err := s.SaveChampionship(ctx, &c); err != nil || c.Version != 2 {
			t.Fatalf("update: %v, version %d", err, c.Version)
		}
		stale.Doc = []byte(`{"a":3}`)
		if err := s.SaveChampionship(ctx, &stale); !errors.Is(err, ErrConflict) {
			t.Errorf("a write at version 1 after version 2: %v, want ErrConflict", err)
		}
		got, err := s.Championship(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != "Asian Cup" || got.Creator != 7 || got.Status != "running" || got.Version != 2 || string(got.Doc) != `{"a":2}` ||
			!got.Created.Equal(day) || !got.Updated.Equal(day.Add(time.Minute)) {
			t.Errorf("read back %+v", got)
		}
		if _, err := s.Championship(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown id: %v, want ErrNotFound", err)
		}
		list, err := s.Championships(ctx, 10)
		if err != nil || len(list) != 2 || list[0].ID != "c2" || list[1].ID != "c1" || list[0].Doc != nil {
			t.Fatalf("list: %v %+v", err, list)
		}
		if list, _ := s.Championships(ctx, 1); len(list) != 1 {
			t.Errorf("limit 1: %d", len(list))
		}
	})
}
