package forum

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/store"
)

const startFEN = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"

// TestRender: Markdown is rendered and sanitised (no script, no
// javascript: link, raw HTML dropped); a board block draws an SVG board,
// a bad one its error with the column, an unknown ruleset its error; a
// game link alone on its line embeds the game's final position with a
// link, another site's link stays a link, a missing game says so; the
// embeds are counted for the bound.
func TestRender(t *testing.T) {
	s := newTestSite(t)
	ctx := t.Context()
	a := s.user("Aigerim", 30*24*time.Hour)
	b := s.user("Bolat", 30*24*time.Hour)
	g, err := s.st.CreateGame(ctx, store.Game{Players: [2]game.Seat{game.UserSeat(a, "Aigerim"), game.UserSeat(b, "Bolat")}, Rules: toguz.Standard(), Status: game.Playing}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range []toguz.Move{7, 3} {
		if err := s.st.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: h, Played: s.clock.Now()}, nil); err != nil {
			t.Fatal(err)
		}
	}
	rd := renderer{cat: i18n.New(), lang: "en", host: "toguz.example", store: s.st}
	for _, c := range []struct {
		name, in     string
		want, absent []string
	}{
		{"markdown", "**bold** and *it*\n\n> quoted", []string{"<strong>bold</strong>", "<em>it</em>", "<blockquote>"}, nil},
		{"script", "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>",
			nil, []string{"<script", "javascript:", "onerror"}},
		{"board", "Look:\n\n```board\n" + startFEN + "\n```\n\nnice", []string{"<svg", "forum-board", "Look:", "nice", "kazan"}, []string{"forum-embed-error"}},
		{"bad board", "```board\n9S9S/oops 0 0 S 1\n```", []string{"forum-embed-error", "This board cannot be drawn.", "column 1", `<code translate="no">`}, []string{"<svg"}},
		{"bad ruleset", "```board nosuch\n" + startFEN + "\n```", []string{"There is no ruleset called nosuch."}, []string{"<svg"}},
		{"empty board", "```board\n```", []string{"The block holds no position string."}, nil},
		{"game link", "https://toguz.example/game/" + g.ID, []string{"<svg", `href="/game/` + g.ID + `"`, "Aigerim – Bolat, 2 moves", "being played"}, nil},
		{"game path", "[the game](/game/" + g.ID + ")", []string{"<svg", "forum-game"}, nil},
		{"game block", "```game\n" + g.ID + "\n```", []string{"<svg", "forum-game"}, nil},
		{"other site", "https://lichess.org/game/abc", []string{`href="https://lichess.org/game/abc"`}, []string{"<svg", "forum-embed-error"}},
		{"no game", "/game/nosuch1\n\nand [text](/game/nosuch2)", []string{"There is no game nosuch1.", `<a href="/game/nosuch2"`}, []string{"<svg", "There is no game nosuch2."}},
		{"in a sentence", "see https://toguz.example/game/" + g.ID + " here", []string{"<a href"}, []string{"<svg"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := string(rd.Render(ctx, c.in))
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q renders without %q:\n%s", c.in, w, got)
				}
			}
			for _, w := range c.absent {
				if strings.Contains(got, w) {
					t.Errorf("%q renders with %q:\n%s", c.in, w, got)
				}
			}
		})
	}
	kid := rd
	kid.kid = true
	got := string(kid.Render(ctx, "[away](https://evil.example/x) and [home](/forum) ![img](https://evil.example/i.png)\n\nhttps://toguz.example/game/"+g.ID))
	if !strings.Contains(got, "<p>away and home") || strings.Contains(got, "evil.example") || strings.Contains(got, `href="/forum"`) || !strings.Contains(got, `href="/game/`+g.ID+`"`) {
		t.Errorf("for a kid, a post renders as %q; want no link, no image, the game's embed", got)
	}
	if got := excerpt("**Bold** [link](/x)\n\n```board\n" + startFEN + "\n```\n\n> `code` <b>raw</b> end"); got != "Bold link code raw end" {
		t.Errorf("excerpt: %q", got)
	}
	if n := countEmbeds("```board\nx\n```\n\nhttps://any.example/game/abc\n\n/game/def\n\ntext /game/ghi"); n != 3 {
		t.Errorf("embeds counted: %d, want 3", n)
	}
	if _, err := checkText(strings.Repeat("```board\n"+startFEN+"\n```\n\n", MaxEmbeds+1)); err == nil {
		t.Error("a text over MaxEmbeds was taken")
	}
}

// TestErrorKeys: every error key and the texts the pages use exist in
// English (and so, by the catalog's completeness test, everywhere).
func TestErrorKeys(t *testing.T) {
	cat := i18n.New()
	keys := append(ErrorKeys(), "forum.embed.error_board", "forum.embed.error_game", "forum.notice.reply", "forum.why.login",
		"forum.why.kid", "forum.why.locked", "mod.reason."+ReportReason)
	for _, l := range Langs {
		keys = append(keys, "forum.cat."+l)
	}
	for _, a := range []string{"forum_hide", "forum_unhide", "forum_dismiss", "forum_lock", "forum_unlock", "forum_move"} {
		keys = append(keys, "mod.action."+a)
	}
	for _, k := range keys {
		if cat.T("en", k) == k {
			t.Errorf("no English text for %s", k)
		}
	}
}

func topicID(t *testing.T, loc string) string {
	t.Helper()
	i := strings.LastIndexByte(loc, '/')
	if i < 0 {
		t.Fatalf("location %q", loc)
	}
	return loc[i+1:]
}

// TestForumFlow: a topic written with the form, a reply by the API that
// notices the topic's earlier writers (not the replier), a quote, an edit
// within the window and refused after it or by another, the edits'
// history for the moderators only, a report into the moderators' queue,
// hiding (its text gone for all but the moderators, the audit log
// written), locking and moving; the bounds on posting (a new account's
// stricter, kid mode and nobody refused); the search and the pages.
func TestForumFlow(t *testing.T) {
	s := newTestSite(t)
	ctx := t.Context()
	month := 30 * 24 * time.Hour
	a, b, mod := s.user("Aigerim", month), s.user("Bolat", month), s.user("Moder", month)
	s.mods[mod] = true

	// A topic by the form.
	code, loc, body := s.do("POST", "/forum/new/general", "Aigerim", url.Values{"title": {"Ашық   тоғыз"}, "text": {"Бірінші жүріс.\n\n```board\n" + startFEN + "\n```"}})
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/forum/general/") {
		t.Fatalf("new topic: %d %q %s", code, loc, body)
	}
	tid := topicID(t, loc)
	code, _, page := s.do("GET", loc, "", nil)
	if code != 200 || !strings.Contains(page, "Ашық тоғыз") || !strings.Contains(page, "<svg") || !strings.Contains(page, "Sign in to write in the forum.") {
		t.Fatalf("topic page: %d\n%s", code, page)
	}
	// A bad form keeps what was written.
	code, _, page = s.do("POST", "/forum/new/general", "Aigerim", url.Values{"title": {""}, "text": {"kept text"}})
	if code != http.StatusBadRequest || !strings.Contains(page, "The topic needs a title.") || !strings.Contains(page, "kept text") {
		t.Errorf("a topic without a title: %d\n%s", code, page)
	}

	// A reply by the API tells Aigerim, not Bolat.
	code, m := s.json("POST", "/api/forum/general/"+tid, "Bolat", map[string]any{"text": "Жауап"})
	if code != http.StatusCreated {
		t.Fatalf("reply: %d %v", code, m)
	}
	reply := fmt.Sprint(m["id"])
	ns := s.notices.Take()
	if len(ns) != 1 || ns[0].To != a || ns[0].Actor != b || ns[0].Kind != notify.ForumReply || ns[0].URL != "/forum/post/"+reply ||
		ns[0].Key != "forum.notice.reply" || ns[0].Args[1] != "Ашық тоғыз" {
		t.Errorf("notices: %+v", ns)
	}
	s.clock.Add(time.Minute + time.Second)
	if code, m := s.json("POST", "/api/forum/general/"+tid, "Aigerim", map[string]any{"text": "Рақмет"}); code != http.StatusCreated {
		t.Fatalf("second reply: %d %v", code, m)
	}
	if ns := s.notices.Take(); len(ns) != 1 || ns[0].To != b {
		t.Errorf("notices of the second reply: %+v", ns)
	}

	// The topic's posts; a quote.
	code, m = s.json("GET", "/api/forum/general/"+tid, "", nil)
	posts := m["posts"].([]any)
	if code != 200 || len(posts) != 3 || m["pages"].(float64) != 1 {
		t.Fatalf("topic: %d %v", code, m)
	}
	first := fmt.Sprint(posts[0].(map[string]any)["id"])
	_, _, page = s.do("GET", "/forum/general/"+tid+"?quote="+first, "Bolat", nil)
	if !strings.Contains(page, "&gt; **@Aigerim**") || !strings.Contains(page, "&gt; Бірінші жүріс.") {
		t.Errorf("the quote is not in the reply form:\n%s", page)
	}
	if code, _, _ := s.do("GET", "/forum/post/"+reply, "", nil); code != http.StatusSeeOther {
		t.Errorf("a post's link: %d", code)
	}

	// Editing: the author within the window.
	if code, m := s.json("PUT", "/api/forum/post/"+reply, "Aigerim", map[string]any{"text": "mine now"}); code != http.StatusForbidden {
		t.Errorf("another's edit: %d %v", code, m)
	}
	if code, m := s.json("PUT", "/api/forum/post/"+reply, "Bolat", map[string]any{"text": "Жауап, түзетілген"}); code != 200 || m["text"] != "Жауап, түзетілген" {
		t.Errorf("edit: %d %v", code, m)
	}
	s.clock.Add(EditWindow)
	if code, m := s.json("PUT", "/api/forum/post/"+reply, "Bolat", map[string]any{"text": "late"}); code != http.StatusForbidden {
		t.Errorf("an edit after the window: %d %v", code, m)
	}
	if code, _, _ := s.do("GET", "/forum/post/"+reply+"/history", "Bolat", nil); code != http.StatusForbidden {
		t.Errorf("the history for a player: %d", code)
	}
	if code, _, page := s.do("GET", "/forum/post/"+reply+"/history", "Moder", nil); code != 200 || !strings.Contains(page, "Жауап, түзетілген") || !strings.Contains(page, "Жауап</pre>") {
		t.Errorf("the history for a moderator: %d\n%s", code, page)
	}

	// A report reaches the moderators' queue and the forum's list.
	if code, _, page := s.do("POST", "/forum/post/"+first+"/report", "Bolat", url.Values{"note": {"spam"}}); code != 200 || !strings.Contains(page, "the moderators have your report") {
		t.Errorf("report: %d\n%s", code, page)
	}
	if code, m := s.json("POST", "/api/forum/post/"+first+"/report", "Aigerim", map[string]any{}); code != http.StatusBadRequest {
		t.Errorf("a report of one's own post: %d %v", code, m)
	}
	reps, err := s.st.ModReportsOf(ctx, a, 10)
	if err != nil || len(reps) != 1 || reps[0].Reason != ReportReason || reps[0].Note != "/forum/post/"+first+" spam" {
		t.Errorf("the moderators' queue: %+v, %v", reps, err)
	}
	if code, _, _ := s.do("GET", "/forum/reports", "Bolat", nil); code != http.StatusForbidden {
		t.Errorf("the reports for a player: %d", code)
	}
	_, _, page = s.do("GET", "/forum/reports", "Moder", nil)
	if !strings.Contains(page, "reported by Bolat") || !strings.Contains(page, "Бірінші жүріс.") {
		t.Errorf("the reports' list:\n%s", page)
	}

	// Hiding: a player cannot; a moderator can; the text is gone for others.
	if code, m := s.json("POST", "/api/forum/post/"+first+"/mod", "Bolat", map[string]any{"action": "hide"}); code != http.StatusForbidden {
		t.Errorf("a player hid: %d %v", code, m)
	}
	if code, loc, _ := s.do("POST", "/forum/post/"+first+"/mod", "Moder", url.Values{"action": {"hide"}, "reason": {"spam"}}); code != http.StatusSeeOther || !strings.Contains(loc, "#p"+first) {
		t.Errorf("hide: %d %q", code, loc)
	}
	_, _, page = s.do("GET", "/forum/general/"+tid, "Bolat", nil)
	if strings.Contains(page, "Бірінші жүріс.") || !strings.Contains(page, "A moderator hid this post.") {
		t.Errorf("a hidden post for a player:\n%s", page)
	}
	if _, _, page = s.do("GET", "/forum/general/"+tid, "Moder", nil); !strings.Contains(page, "Бірінші жүріс.") || !strings.Contains(page, "Show again") {
		t.Errorf("a hidden post for a moderator:\n%s", page)
	}
	if _, _, page = s.do("GET", "/forum/reports", "Moder", nil); !strings.Contains(page, "No post is reported.") {
		t.Errorf("the reports after hiding:\n%s", page)
	}
	log, err := s.st.ModActions(ctx, a, 10)
	if err != nil || len(log) != 1 || log[0].Action != "forum_hide" || log[0].ModID != mod || log[0].Reason != "/forum/post/"+first+" spam" {
		t.Errorf("the audit log: %+v, %v", log, err)
	}
	if reps, err := s.st.ModReportsOf(ctx, a, 10); err != nil || len(reps) != 1 || reps[0].Open {
		t.Errorf("the queue's report after hiding: %+v, %v", reps, err)
	}
	// A report a moderator dismisses: the post stays, the reports close.
	if code, _, _ := s.do("POST", "/forum/post/"+reply+"/report", "Aigerim", url.Values{}); code != 200 {
		t.Errorf("report of the reply: %d", code)
	}
	if code, m := s.json("POST", "/api/forum/post/"+reply+"/mod", "Moder", map[string]any{"action": "dismiss"}); code != 200 {
		t.Errorf("dismiss: %d %v", code, m)
	}
	if reps, _ := s.st.ModReportsOf(ctx, b, 10); len(reps) != 1 || reps[0].Open {
		t.Errorf("the queue's report after dismissing: %+v", reps)
	}
	if log, _ := s.st.ModActions(ctx, b, 10); len(log) != 1 || log[0].Action != "forum_dismiss" {
		t.Errorf("the audit log of the dismissal: %+v", log)
	}
	if code, m := s.json("POST", "/api/forum/post/"+reply+"/mod", "Moder", map[string]any{"action": "delete"}); code != http.StatusBadRequest {
		t.Errorf("an unknown action: %d %v", code, m)
	}

	// The search: any case, hidden posts left out, bounded.
	code, m = s.json("GET", "/api/forum/search?q="+url.QueryEscape("ТҮЗЕТІЛГЕН"), "", nil)
	if hits := m["hits"].([]any); code != 200 || len(hits) != 1 {
		t.Errorf("search: %d %v", code, m)
	}
	if _, m := s.json("GET", "/api/forum/search?q="+url.QueryEscape("бірінші"), "", nil); len(m["hits"].([]any)) != 0 {
		t.Errorf("search found a hidden post: %v", m)
	}
	if code, _ := s.json("GET", "/api/forum/search?q=a", "", nil); code != http.StatusBadRequest {
		t.Errorf("a one-letter search: %d", code)
	}

	// Lock and move.
	if code, _, _ := s.do("POST", "/forum/general/"+tid+"/mod", "Moder", url.Values{"action": {"lock"}}); code != http.StatusSeeOther {
		t.Errorf("lock: %d", code)
	}
	if code, m := s.json("POST", "/api/forum/general/"+tid, "Bolat", map[string]any{"text": "more"}); code != http.StatusForbidden {
		t.Errorf("a reply to a locked topic: %d %v", code, m)
	}
	if code, m := s.json("POST", "/api/forum/general/"+tid+"/mod", "Moder", map[string]any{"action": "move", "to": "kk"}); code != 200 || m["url"] != "/forum/kk/"+tid {
		t.Errorf("move: %d %v", code, m)
	}
	if code, loc, _ := s.do("GET", "/forum/general/"+tid, "", nil); code != http.StatusMovedPermanently || loc != "/forum/kk/"+tid {
		t.Errorf("the old address of a moved topic: %d %q", code, loc)
	}
	if code, _, page := s.do("GET", "/forum/kk/"+tid, "", nil, "kk"); code != 200 || !strings.Contains(page, "Бұл тақырып жабылған") {
		t.Errorf("the moved topic in Kazakh: %d\n%s", code, page)
	}
}

// TestBounds: nobody and guests cannot write, kid mode and a muted
// account cannot, a new
// account writes NewPostsPerMinute a minute and NewTopicsPerDay topics
// a day, an older one PostsPerMinute; sizes are bounded.
func TestBounds(t *testing.T) {
	s := newTestSite(t)
	kid, muted := s.user("Kid", 30*24*time.Hour), s.user("Muted", 30*24*time.Hour)
	s.user("Old", 30*24*time.Hour)
	s.user("Newbie", time.Hour)
	s.kids[kid], s.muted[muted] = true, true
	newTopic := func(who string, n int) (int, map[string]any) {
		return s.json("POST", "/api/forum/general", who, map[string]any{"title": fmt.Sprint("T", n), "text": "x"})
	}
	if code, _ := newTopic("", 0); code != http.StatusUnauthorized {
		t.Errorf("nobody: %d", code)
	}
	if code, m := newTopic("Kid", 0); code != http.StatusForbidden {
		t.Errorf("kid mode: %d %v", code, m)
	}
	if code, m := newTopic("Muted", 0); code != http.StatusForbidden || !strings.Contains(fmt.Sprint(m), "muted") {
		t.Errorf("a muted account: %d %v", code, m)
	}
	if code, _, page := s.do("GET", "/forum/general", "Kid", nil); code != 200 || !strings.Contains(page, "kid mode") {
		t.Errorf("the category for a kid: %d\n%s", code, page)
	}
	code, m := newTopic("Newbie", 1)
	if code != http.StatusCreated {
		t.Fatalf("a new account's topic: %d %v", code, m)
	}
	tid := fmt.Sprint(m["id"])
	if code, m := s.json("POST", "/api/forum/general/"+tid, "Newbie", map[string]any{"text": "again"}); code != http.StatusTooManyRequests {
		t.Errorf("a new account's second post in a minute: %d %v", code, m)
	}
	for i := range NewTopicsPerDay - 1 {
		s.clock.Add(time.Minute + time.Second)
		if code, m := newTopic("Newbie", i+2); code != http.StatusCreated {
			t.Fatalf("topic %d: %d %v", i+2, code, m)
		}
	}
	s.clock.Add(time.Minute + time.Second)
	if code, m := newTopic("Newbie", 9); code != http.StatusTooManyRequests {
		t.Errorf("a new account's topic past the day's bound: %d %v", code, m)
	}
	for i := range PostsPerMinute {
		if code, m := s.json("POST", "/api/forum/general/"+tid, "Old", map[string]any{"text": fmt.Sprint("r", i)}); code != http.StatusCreated {
			t.Fatalf("reply %d: %d %v", i, code, m)
		}
	}
	if code, m := s.json("POST", "/api/forum/general/"+tid, "Old", map[string]any{"text": "one too many"}); code != http.StatusTooManyRequests {
		t.Errorf("past PostsPerMinute: %d %v", code, m)
	}
	s.clock.Add(time.Minute + time.Second)
	for _, c := range []struct {
		title, text string
	}{{strings.Repeat("t", MaxTitle+1), "x"}, {"t", strings.Repeat("ж", MaxText+1)}, {"t", "  \n "}} {
		if code, m := s.json("POST", "/api/forum/general", "Old", map[string]any{"title": c.title, "text": c.text}); code != http.StatusBadRequest {
			t.Errorf("title %d, text %d characters: %d %v", len(c.title), len(c.text), code, m)
		}
	}
	if code, _ := s.json("POST", "/api/forum/nosuch", "Old", map[string]any{"title": "t", "text": "x"}); code != http.StatusNotFound {
		t.Errorf("a category that does not exist: %d", code)
	}
}

// TestPages: a topic's posts are paged (PostsPage a page, ?page=last),
// a post's link finds its page; the category's list and the index count
// them.
func TestPages(t *testing.T) {
	s := newTestSite(t)
	ctx := context.Background()
	a := s.user("Aigerim", 30*24*time.Hour)
	tid, _, err := s.st.AddForumTopic(ctx, store.ForumCategory{ID: "en", Kind: KindLang, Ref: "en"}, store.ForumTopic{Title: "Long", AuthorID: a}, "post 1", store.ForumBounds{})
	if err != nil {
		t.Fatal(err)
	}
	var last int64
	for i := 2; i <= PostsPage+5; i++ {
		if last, err = s.st.AddForumPost(ctx, store.ForumPost{TopicID: tid, AuthorID: a, Body: fmt.Sprint("post ", i)}, store.ForumBounds{}); err != nil {
			t.Fatal(err)
		}
	}
	_, _, page := s.do("GET", fmt.Sprintf("/forum/en/%d?page=last", tid), "", nil)
	if !strings.Contains(page, fmt.Sprintf("post %d", PostsPage+5)) || strings.Contains(page, "<p>post 1</p>") || !strings.Contains(page, `aria-current="page"><strong>2</strong>`) {
		t.Errorf("the last page:\n%s", page)
	}
	if _, loc, _ := s.do("GET", fmt.Sprint("/forum/post/", last), "", nil); loc != fmt.Sprintf("/forum/en/%d?page=2#p%d", tid, last) {
		t.Errorf("the last post's link: %q", loc)
	}
	_, _, page = s.do("GET", "/forum", "", nil, "kk")
	if !strings.Contains(page, "Жалпы талқылау") || !strings.Contains(page, ">25<") {
		t.Errorf("the index:\n%s", page)
	}
	_, m := s.json("GET", "/api/forum/en", "", nil)
	if ts := m["topics"].([]any); len(ts) != 1 || ts[0].(map[string]any)["posts"].(float64) != PostsPage+5 {
		t.Errorf("the category: %v", m)
	}
}

// TestTeamCategory: a team's category is its members' (others get 404,
// as if it did not exist), made on its first use; the search never reads it.
func TestTeamCategory(t *testing.T) {
	s := newTestSite(t)
	m1 := s.user("Member", 30*24*time.Hour)
	s.user("Stranger", 30*24*time.Hour)
	s.teams["red"] = []int64{m1}
	if code, _, _ := s.do("GET", "/forum/team-red", "Stranger", nil); code != http.StatusNotFound {
		t.Errorf("a stranger in the team's category: %d", code)
	}
	if code, _, _ := s.do("GET", "/forum/team-red", "", nil); code != http.StatusNotFound {
		t.Errorf("nobody in the team's category: %d", code)
	}
	if code, _, page := s.do("GET", "/forum/team-red", "Member", nil); code != 200 || !strings.Contains(page, "Team red") {
		t.Errorf("a member in the team's category: %d\n%s", code, page)
	}
	code, m := s.json("POST", "/api/forum/team-red", "Member", map[string]any{"title": "Our secret plan", "text": "Secret words"})
	if code != http.StatusCreated {
		t.Fatalf("a member's topic: %d %v", code, m)
	}
	tid := fmt.Sprint(m["id"])
	if code, _ := s.json("GET", "/api/forum/team-red/"+tid, "Stranger", nil); code != http.StatusNotFound {
		t.Errorf("a stranger reads a team's topic: %d", code)
	}
	if code, _ := s.json("POST", "/api/forum/team-red/"+tid, "Stranger", map[string]any{"text": "hi"}); code != http.StatusNotFound {
		t.Errorf("a stranger replies in a team's topic: %d", code)
	}
	if _, m := s.json("GET", "/api/forum/search?q=secret", "Member", nil); len(m["hits"].([]any)) != 0 {
		t.Errorf("the search read a team's category: %v", m)
	}
}

// BenchmarkRender: a post of some paragraphs, a list, a quote and a
// board, rendered, sanitised and its board drawn, as a topic's page does
// for each of its posts.
func BenchmarkRender(b *testing.B) {
	rd := renderer{cat: i18n.New(), lang: "kk"}
	body := strings.Repeat("Бірінші **жүріс** туралы [сілтеме](/rules) және *тағы* біраз сөз.\n\n", 10) +
		"- бір\n- екі\n\n> дәйексөз\n\n```board\n" + startFEN + "\n```\n"
	ctx := context.Background()
	for b.Loop() {
		rd.Render(ctx, body)
	}
}
