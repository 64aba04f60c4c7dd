package friends

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func user(t *testing.T, st *store.Store, name string) int64 {
	t.Helper()
	u, err := st.CreateUser(t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// TestFollowing: the list shows who is playing first, then who is online,
// and hides both for a player whose settings do not let the viewer see
// him online; the panel follows the same settings and counts follows.
func TestFollowing(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	me, abai, bolat, dana := user(t, st, "me"), user(t, st, "abai"), user(t, st, "bolat"), user(t, st, "dana")
	for _, o := range []int64{abai, bolat, dana} {
		if err := st.Follow(ctx, me, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetPrivacy(ctx, dana, store.Privacy{Online: privacy.Nobody}); err != nil {
		t.Fatal(err)
	}
	online := map[int64]bool{abai: true, dana: true}
	s := New(nil, Config{Store: st, Privacy: privacy.New(privacy.Config{Store: st}),
		Online: func(id int64) bool { return online[id] },
		Playing: func(seat string) []string {
			if seat == "u:3" {
				return []string{"GAME1"}
			}
			return nil
		}})
	fs, more, err := s.following(ctx, me, 1)
	if err != nil || more {
		t.Fatal(err, more)
	}
	if len(fs) != 3 || fs[0].Name != "bolat" || len(fs[0].Playing) != 1 || fs[1].Name != "abai" || !fs[1].Online || fs[2].Name != "dana" || !fs[2].Hidden || fs[2].Online {
		t.Errorf("following %+v", fs)
	}
	p, err := s.Panel(ctx, abai, me, "me")
	if err != nil {
		t.Fatal(err)
	}
	if !p.CanFollow || p.Following || p.Follows != 3 || p.Followers != 0 || !p.Visible {
		t.Errorf("panel %+v", p)
	}
	p, _ = s.Panel(ctx, me, dana, "dana")
	if p.Visible || p.Online || !p.Following || p.Followers != 1 {
		t.Errorf("dana's panel %+v", p)
	}
	// Friends: both ways.
	if ok, _ := st.Friends(ctx, me, abai); ok {
		t.Error("friends one way")
	}
	if err := st.Follow(ctx, abai, me); err != nil {
		t.Fatal(err)
	}
	if ok, _ := st.Friends(ctx, me, abai); !ok {
		t.Error("not friends both ways")
	}
}

// TestActivity: a day's games, puzzles and public studies are summed in
// the feed, newest day first.
func TestActivity(t *testing.T) {
	d1 := time.Date(2026, 3, 21, 9, 0, 0, 0, time.UTC)
	acts := []store.Activity{
		{At: d1, Kind: "game", Result: "win"}, {At: d1.Add(time.Hour), Kind: "game", Result: "loss"},
		{At: d1, Kind: "puzzle_solved"}, {At: d1, Kind: "puzzle"},
		{At: d1.AddDate(0, 0, 1), Kind: "study", ID: "s1", Name: "Openings"},
	}
	ds := days(acts)
	if len(ds) != 2 || ds[0].Day != "2026-03-22" || len(ds[0].Studies) != 1 || ds[1].Games != 2 || ds[1].Wins != 1 || ds[1].Losses != 1 ||
		ds[1].Puzzles != 2 || ds[1].Solved != 1 {
		t.Errorf("days %+v", ds)
	}
}

// TestActivityOf: the store's feed of a player, from the real tables.
func TestActivityOf(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	me := user(t, st, "me")
	if _, err := st.RecordPuzzle(ctx, me, "p1", true, rating.Default()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordPuzzle(ctx, me, "p2", false, rating.Default()); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	acts, err := st.ActivityOf(ctx, me, now.Add(-time.Hour), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ds := days(acts)
	if len(ds) != 1 || ds[0].Puzzles != 2 || ds[0].Solved != 1 {
		t.Errorf("activity %+v", ds)
	}
	if acts, _ := st.ActivityOf(ctx, me, now.Add(time.Hour), now.Add(2*time.Hour)); len(acts) != 0 {
		t.Errorf("outside the window: %+v", acts)
	}
}
