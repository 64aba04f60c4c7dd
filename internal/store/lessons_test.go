package store

import (
	"slices"
	"testing"
)

// TestExercises: an account's solved exercises are kept once each, apart
// from another account's, and survive a reopen.
func TestExercises(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, path := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "shokan")
		for _, x := range []string{"board/hole9", "capture/seed1", "board/hole9"} {
			if err := s.MarkExercise(ctx, a.ID, x); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.MarkExercise(ctx, b.ID, "end/draw"); err != nil {
			t.Fatal(err)
		}
		got, err := s.Exercises(ctx, a.ID)
		if err != nil || !slices.Equal(got, []string{"board/hole9", "capture/seed1"}) {
			t.Errorf("abai's exercises %v, %v", got, err)
		}
		if err := s.MarkExercise(ctx, 999, "end/draw"); err == nil {
			t.Error("an exercise stored for no user")
		}
		s.Close()
		s2, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		if got, err := s2.Exercises(ctx, b.ID); err != nil || !slices.Equal(got, []string{"end/draw"}) {
			t.Errorf("after reopening, shokan's exercises %v, %v", got, err)
		}
	})
}

// TestLessonsMigrationDown: migration 5 goes down and up again.
func TestLessonsMigrationDown(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		path := be.db(t)
		db := rawDB(t, be, path)
		defer db.Close()
		p := newProvider(t, be, db)
		if _, err := p.Up(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := p.DownTo(t.Context(), 4); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`SELECT 1 FROM lesson_progress`); err == nil {
			t.Error("lesson_progress is still there after going down")
		}
		if _, err := p.Up(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
}
