package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestForum: topics and posts in order with their numbers, the counts,
// the edit kept in the history and refused past its window, a locked
// topic refusing a reply, the writers, the bounds' counts, reports
// collapsing and closed by hiding (with the audit log's entry), a move,
// and the search in any case (Cyrillic included), without hidden posts
// and LIKE's wildcards taken as letters.
func TestForum(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b, mod := mustUser(t, s, "Aigerim"), mustUser(t, s, "Bolat"), mustUser(t, s, "Mod")
		general := ForumCategory{ID: "general", Kind: "general"}
		tid, p1, err := s.AddForumTopic(ctx, general, ForumTopic{Title: "Ашық тоғыз", AuthorID: a.ID}, "Бірінші жүріс 100%", ForumBounds{})
		if err != nil {
			t.Fatal(err)
		}
		p2, err := s.AddForumPost(ctx, ForumPost{TopicID: tid, AuthorID: b.ID, Body: "a reply"}, ForumBounds{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddForumPost(ctx, ForumPost{TopicID: 999, AuthorID: b.ID, Body: "x"}, ForumBounds{}); !errors.Is(err, ErrNotFound) {
			t.Errorf("a post in no topic: %v", err)
		}
		posts, err := s.ForumPosts(ctx, tid, 10, 0)
		if err != nil || len(posts) != 2 || posts[0].ID != p1 || posts[1].ID != p2 || posts[1].N != 2 || posts[1].AuthorName != "Bolat" || posts[0].Category != "general" {
			t.Fatalf("posts: %+v, %v", posts, err)
		}
		if p, err := s.ForumPost(ctx, p2); err != nil || p.N != 2 {
			t.Errorf("post 2: %+v, %v", p, err)
		}
		topics, total, err := s.ForumTopics(ctx, "general", 10, 0)
		if err != nil || total != 1 || len(topics) != 1 || topics[0].Posts != 2 || topics[0].AuthorName != "Aigerim" {
			t.Fatalf("topics: %+v %d, %v", topics, total, err)
		}
		stats, err := s.ForumCategoryStats(ctx, []string{"general", "en"})
		if err != nil || stats["general"].Topics != 1 || stats["general"].Posts != 2 || stats["en"].Topics != 0 {
			t.Errorf("stats: %+v, %v", stats, err)
		}

		// Editing: by the author within the window; the old text kept.
		if err := s.EditForumPost(ctx, p2, a.ID, "not mine", time.Time{}); !errors.Is(err, ErrNotFound) {
			t.Errorf("another's edit: %v", err)
		}
		if err := s.EditForumPost(ctx, p2, b.ID, "late", time.Now().Add(time.Hour)); !errors.Is(err, ErrConflict) {
			t.Errorf("an edit past its window: %v", err)
		}
		if err := s.EditForumPost(ctx, p2, b.ID, "a better reply", time.Time{}); err != nil {
			t.Fatal(err)
		}
		edits, err := s.ForumEdits(ctx, p2)
		if err != nil || len(edits) != 1 || edits[0].Body != "a reply" {
			t.Errorf("edits: %+v, %v", edits, err)
		}
		if p, _ := s.ForumPost(ctx, p2); p.Body != "a better reply" || p.Edited.IsZero() {
			t.Errorf("the edited post: %+v", p)
		}

		// The search: any case, the title of the first post's topic, no wildcards.
		for _, c := range []struct {
			q    string
			want int
		}{{"АШЫҚ", 1}, {"бірінші", 1}, {"BETTER", 1}, {"100%", 1}, {"1_0", 0}, {"reply", 1}, {"nothing", 0}} {
			hits, err := s.SearchForum(ctx, c.q, []string{"general"}, 10, 0)
			if err != nil || len(hits) != c.want {
				t.Errorf("search %q: %d hits %+v, %v; want %d", c.q, len(hits), hits, err, c.want)
			}
			if len(hits) > 0 && hits[0].Title != "Ашық тоғыз" {
				t.Errorf("search %q: title %q", c.q, hits[0].Title)
			}
		}
		if hits, _ := s.SearchForum(ctx, "reply", []string{"en"}, 10, 0); len(hits) != 0 {
			t.Errorf("search outside the categories: %+v", hits)
		}

		// The bounds count a's topic and its post, in the write.
		for _, c := range []struct {
			b     ForumBounds
			topic bool
			which string
		}{
			{ForumBounds{PerMinute: 1}, false, "minute"},
			{ForumBounds{PerMinute: 5, PerDay: 1}, false, "day"},
			{ForumBounds{PerMinute: 5, TopicsPerDay: 1}, true, "topics"},
		} {
			var err error
			if c.topic {
				_, _, err = s.AddForumTopic(ctx, general, ForumTopic{Title: "more", AuthorID: a.ID}, "more", c.b)
			} else {
				_, err = s.AddForumPost(ctx, ForumPost{TopicID: tid, AuthorID: a.ID, Body: "more"}, c.b)
			}
			if be, ok := errors.AsType[*ForumBoundError](err); !ok || be.Which != c.which || be.Max != 1 {
				t.Errorf("past %+v: %v, want the %s bound", c.b, err, c.which)
			}
		}
		if w, err := s.ForumWriters(ctx, tid, 10); err != nil || len(w) != 2 || w[0] != b.ID {
			t.Errorf("writers: %v, %v", w, err)
		}

		// Reports collapse; hiding closes them and writes the audit log.
		for range 2 {
			if _, err := s.ReportForumPost(ctx, p2, a.ID, "spam"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.ReportForumPost(ctx, 999, a.ID, ""); !errors.Is(err, ErrNotFound) {
			t.Errorf("a report of no post: %v", err)
		}
		reps, err := s.ForumReports(ctx, 10)
		if err != nil || len(reps) != 1 || reps[0].ReporterName != "Aigerim" || reps[0].Post.ID != p2 || reps[0].Title != "Ашық тоғыз" {
			t.Fatalf("reports: %+v, %v", reps, err)
		}
		// The queue's reports of the post close with it; another post's stay.
		for i, r := range []int64{a.ID, mod.ID} {
			note := []string{fmt.Sprintf("/forum/post/%d spam", p2), fmt.Sprintf("/forum/post/%d0", p2)}[i]
			if _, _, err := s.AddModReport(ctx, ModReport{TargetID: b.ID, ReporterID: r, Reason: "forum", Note: note}, ModReportLimits{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.ModerateForum(ctx, ForumModeration{ModID: mod.ID, Action: "forum_hide", Post: p2, Reason: "spam"}); err != nil {
			t.Fatal(err)
		}
		if reps, _ := s.ForumReports(ctx, 10); len(reps) != 0 {
			t.Errorf("reports after hiding: %+v", reps)
		}
		if hits, _ := s.SearchForum(ctx, "better", []string{"general"}, 10, 0); len(hits) != 0 {
			t.Errorf("a hidden post found: %+v", hits)
		}
		if err := s.EditForumPost(ctx, p2, b.ID, "again", time.Time{}); !errors.Is(err, ErrConflict) {
			t.Errorf("an edit of a hidden post: %v", err)
		}
		if q, err := s.ModReportsOf(ctx, b.ID, 10); err != nil || len(q) != 2 || q[0].Open == q[1].Open {
			t.Errorf("the queue's reports after hiding: %+v, %v", q, err)
		} else {
			for _, r := range q {
				if r.Open != strings.HasSuffix(r.Note, "0") {
					t.Errorf("the queue's report %q: open %v", r.Note, r.Open)
				}
			}
		}
		log, err := s.ModActions(ctx, b.ID, 10)
		if err != nil || len(log) != 1 || log[0].Action != "forum_hide" || log[0].ModID != mod.ID {
			t.Errorf("audit log: %+v, %v", log, err)
		}

		// Lock and move.
		if err := s.ModerateForum(ctx, ForumModeration{ModID: mod.ID, Action: "forum_lock", Topic: tid}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddForumPost(ctx, ForumPost{TopicID: tid, AuthorID: b.ID, Body: "x"}, ForumBounds{}); !errors.Is(err, ErrConflict) {
			t.Errorf("a post in a locked topic: %v", err)
		}
		if err := s.ModerateForum(ctx, ForumModeration{ModID: mod.ID, Action: "forum_move", Topic: tid, To: ForumCategory{ID: "kk", Kind: "lang", Ref: "kk"}}); err != nil {
			t.Fatal(err)
		}
		if tp, err := s.ForumTopic(ctx, tid); err != nil || tp.Category != "kk" || !tp.Locked {
			t.Errorf("moved topic: %+v, %v", tp, err)
		}
		if err := s.ModerateForum(ctx, ForumModeration{ModID: mod.ID, Action: "forum_lock", Topic: 999}); !errors.Is(err, ErrNotFound) {
			t.Errorf("lock of no topic: %v", err)
		}
	})
}

// TestForumBoundsAtOnce: posts sent at once by one author get no more
// through than his bound a minute, as writes on several nodes would.
func TestForumBoundsAtOnce(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "Aigerim"), mustUser(t, s, "Bolat")
		tid, _, err := s.AddForumTopic(ctx, ForumCategory{ID: "general", Kind: "general"}, ForumTopic{Title: "t", AuthorID: a.ID}, "x", ForumBounds{})
		if err != nil {
			t.Fatal(err)
		}
		const n, perMinute = 20, 3
		var ok, refused atomic.Int32
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, err := s.AddForumPost(ctx, ForumPost{TopicID: tid, AuthorID: b.ID, Body: fmt.Sprint(i)}, ForumBounds{PerMinute: perMinute})
				switch _, bound := errors.AsType[*ForumBoundError](err); {
				case err == nil:
					ok.Add(1)
				case bound:
					refused.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != perMinute || refused.Load() != n-perMinute {
			t.Errorf("%d let through and %d refused of %d, want %d through", ok.Load(), refused.Load(), n, perMinute)
		}
	})
}
