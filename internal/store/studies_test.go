package store

import (
	"errors"
	"testing"
)

// TestStudies: a study, its chapters, members and roles persist across a
// reopen, within their bounds.
func TestStudies(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, path := openTest(t, be)
		ctx := t.Context()
		coach, pupil, other := mustUser(t, s, "coach"), mustUser(t, s, "pupil"), mustUser(t, s, "other")
		st, err := s.CreateStudy(ctx, coach.ID, "Openings", "private", 2, "one", "rec0")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateStudy(ctx, coach.ID, "Two", "public", 2, "one", "r"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateStudy(ctx, coach.ID, "Three", "public", 2, "one", "r"); !errors.Is(err, ErrLimit) {
			t.Errorf("a third study of two: %v", err)
		}
		if err := s.SaveChapter(ctx, st.ID, 1, "two", "rec1"); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveChapter(ctx, st.ID, 0, "one!", "rec0b"); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveChapter(ctx, st.ID, 5, "gap", "x"); !errors.Is(err, ErrConflict) {
			t.Errorf("chapter 5 of 2: %v", err)
		}
		if err := s.SetStudyMember(ctx, st.ID, pupil.ID, "viewer", 1); err != nil {
			t.Fatal(err)
		}
		if err := s.SetStudyMember(ctx, st.ID, pupil.ID, "editor", 1); err != nil {
			t.Errorf("changing a member's role counts him twice: %v", err)
		}
		if err := s.SetStudyMember(ctx, st.ID, other.ID, "viewer", 1); !errors.Is(err, ErrLimit) {
			t.Errorf("a second member of one: %v", err)
		}
		s.Close()
		s, err = Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		got, err := s.GetStudy(ctx, st.ID)
		if err != nil || got.Name != "Openings" || got.Owner != "coach" || got.Visibility != "private" || got.Chapters != 2 {
			t.Errorf("study %+v, %v", got, err)
		}
		names, recs, err := s.Chapters(ctx, st.ID)
		if err != nil || len(names) != 2 || names[0] != "one!" || recs[0] != "rec0b" || recs[1] != "rec1" {
			t.Errorf("chapters %q %q %v", names, recs, err)
		}
		for _, c := range []struct {
			id   int64
			want string
		}{{coach.ID, "owner"}, {pupil.ID, "editor"}, {other.ID, ""}} {
			if r, err := s.StudyRole(ctx, st.ID, c.id); r != c.want || err != nil {
				t.Errorf("role of %d: %q, %v; want %q", c.id, r, err, c.want)
			}
		}
		mine, public, err := s.StudiesOf(ctx, pupil.ID, true, 10)
		if err != nil || len(mine) != 1 || mine[0].ID != st.ID || len(public) != 1 || public[0].Name != "Two" {
			t.Errorf("pupil's studies %+v, public %+v, %v", mine, public, err)
		}
		if _, err := s.GetStudy(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("no study: %v", err)
		}
		if err := s.SetStudyMember(ctx, st.ID, pupil.ID, "", 1); err != nil {
			t.Fatal(err)
		}
		if ms, _ := s.StudyMembers(ctx, st.ID); len(ms) != 0 {
			t.Errorf("members after removal %+v", ms)
		}
	})
}

// TestClasses: a coach invites by account, the student accepts or leaves.
func TestClasses(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		coach, a, b := mustUser(t, s, "coach"), mustUser(t, s, "aru"), mustUser(t, s, "bek")
		c, err := s.CreateClass(ctx, coach.ID, "Tuesday", 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateClass(ctx, coach.ID, "Wednesday", 1); !errors.Is(err, ErrLimit) {
			t.Errorf("a second class of one: %v", err)
		}
		for _, u := range []User{a, b, a} {
			if err := s.InviteStudent(ctx, c.ID, u.ID, 2); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.InviteStudent(ctx, c.ID, coach.ID, 2); !errors.Is(err, ErrLimit) {
			t.Errorf("a third student of two: %v", err)
		}
		if err := s.AnswerClass(ctx, c.ID, a.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := s.AnswerClass(ctx, c.ID, b.ID, false); err != nil {
			t.Fatal(err)
		}
		if err := s.AnswerClass(ctx, c.ID, b.ID, true); !errors.Is(err, ErrNotFound) {
			t.Errorf("accepting after leaving: %v", err)
		}
		st, err := s.ClassStudents(ctx, c.ID)
		if err != nil || len(st) != 1 || st[0].Name != "aru" || !st[0].Accepted {
			t.Errorf("students %+v, %v", st, err)
		}
		coached, joined, acc, err := s.ClassesOf(ctx, a.ID)
		if err != nil || len(coached) != 0 || len(joined) != 1 || !acc[0] || joined[0].Coach != "coach" {
			t.Errorf("aru's classes %+v %+v %v %v", coached, joined, acc, err)
		}
	})
}
