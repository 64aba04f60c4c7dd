package e2e

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// TestForum: a player starts a topic in the forum with the new topic's
// form, its post holding a board drawn from a position string (the
// fenced block the page's help shows) and a line that is not one (its
// error shown in its place); another player reports the post from its
// page; the operator makes a moderator (as `toguz mod grant` does); the
// moderator finds the post in the forum's reports and hides it: the
// reporter then sees "hidden" where the post was, and the audit log has
// it. Screenshots of the topic at 1366 and 360 px in kk and en, whose
// texts are the page language's.
func TestForum(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	base, browser, artifacts := setupWith(t, server.Options{Engines: 1, DB: db})
	signup := func(name string) string {
		return apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": name, "password": "correct horse battery"})["token"].(string)
	}
	poster, reporter, mod := signup("aigerim"), signup("bolat"), signup("moder")

	// The topic, by the form, with a board and a bad one.
	p := newUser(t, browser, base, "aigerim")
	p.do("cookies", setCookie(base, "toguz_session", poster), setCookie(base, "lang", "en"))
	p.do("the forum", chromedp.Navigate(base+"/forum"), chromedp.WaitVisible(chromedp.CSS("#forum-cat-general")),
		click(chromedp.CSS("#forum-cat-general")), chromedp.WaitVisible(chromedp.CSS("#forum-new-topic")),
		click(chromedp.CSS("#forum-new-topic")), chromedp.WaitVisible(chromedp.CSS("#forum-new-form")))
	text := "Бірінші жүрістен кейінгі жағдай:\n\n```board\n9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1\n```\n\n" +
		"Ал мынау қате:\n\n```board\n9S,9S/oops 0 0 S 1\n```"
	p.do("the new topic", chromedp.SendKeys(chromedp.CSS("#forum-title"), "Ашылу: 7-отау"),
		chromedp.SetValue(chromedp.CSS("#forum-text"), text),
		click(chromedp.CSS("#forum-submit")), chromedp.WaitVisible(chromedp.CSS("#forum-posts")))
	if n := eval[int](p, `document.querySelectorAll('#forum-posts .forum-board svg').length`); n != 1 {
		t.Fatalf("the post draws %d boards, want 1: %s", n, eval[string](p, `document.getElementById('forum-posts').outerHTML`))
	}
	if errText := eval[string](p, `(document.querySelector('.forum-embed-error')||{}).textContent||''`); !strings.Contains(errText, "This board cannot be drawn.") {
		t.Errorf("the bad board's error: %q", errText)
	}
	topic := eval[string](p, `location.pathname`)
	postID := strings.TrimPrefix(eval[string](p, `document.querySelector('#forum-posts article').id`), "p")

	cat := i18n.New()
	for _, lang := range []string{"en", "kk"} {
		tm := newTextMatcher(cat, lang)
		p.do("language", setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			p.do("viewport", chromedp.EmulateViewport(w, 800))
			for _, pg := range []struct{ name, path, ready string }{{"topic", topic, "forum-posts"}, {"index", "/forum", "forum-categories"},
				{"new", "/forum/new/general", "forum-new-form"}, {"search", "/forum/search?q=" + url.QueryEscape("ашылу"), "forum-hits"}} {
				p.do(pg.name, chromedp.Navigate(base+pg.path), chromedp.WaitVisible(chromedp.CSS("#"+pg.ready)))
				// The help on writing, opened: its texts are checked too.
				eval[bool](p, `(d => { if (d) d.open = true; return true })(document.getElementById('forum-help'))`)
				if wide := eval[float64](p, `document.documentElement.scrollWidth`); w == 360 && wide > 360 {
					t.Errorf("the forum's %s in %s is %v px wide at 360", pg.name, lang, wide)
				}
				for _, s := range eval[[]string](p, visibleTexts) {
					if !tm.match(s) {
						t.Errorf("the forum's %s shows %q, not a text of %s", pg.name, s, lang)
					}
				}
				p.shot(artifacts, fmt.Sprintf("forum-%s-%s-%d.png", pg.name, lang, w))
			}
		}
	}

	// The report, from the post's page.
	r := newUser(t, browser, base, "bolat")
	r.do("cookies", setCookie(base, "toguz_session", reporter), setCookie(base, "lang", "en"))
	r.do("the topic", chromedp.Navigate(base+topic), chromedp.WaitVisible(chromedp.CSS("#p"+postID+" .forum-report")),
		click(chromedp.CSS("#p"+postID+" .forum-report")), chromedp.WaitVisible(chromedp.CSS("#forum-report-form")),
		chromedp.SendKeys(chromedp.CSS("#forum-note"), "Off topic."),
		click(chromedp.CSS("#forum-report-submit")), chromedp.WaitVisible(chromedp.CSS("#forum-report-received")))

	// The operator grants the role.
	st, err := store.Open(context.Background(), db, store.Options{Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.UserByName(context.Background(), "moder")
	if err == nil {
		err = st.SetModerator(context.Background(), u.ID, true)
	}
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := newUser(t, browser, base, "moder")
	m.do("cookies", setCookie(base, "toguz_session", mod), setCookie(base, "lang", "en"))
	deadline := time.Now().Add(40 * time.Second) // the roles' snapshot is read every 15 s
	for {
		m.do("the reports", chromedp.Navigate(base+"/forum/reports"))
		if eval[bool](m, `!!document.getElementById('report-`+postID+`')`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the moderator never got the report: %s", eval[string](m, `document.body.innerText`))
		}
		time.Sleep(time.Second)
	}
	if txt := eval[string](m, `document.getElementById('report-`+postID+`').innerText`); !strings.Contains(txt, "reported by bolat") || !strings.Contains(txt, "Off topic.") {
		t.Errorf("the report as the moderator sees it: %q", txt)
	}
	m.shot(artifacts, "forum-reports-en-1366.png")
	m.do("hide", chromedp.SendKeys(chromedp.CSS("#report-"+postID+" input[name=reason]"), "Off topic"),
		click(chromedp.CSS("#report-"+postID+" .forum-hide")), chromedp.WaitVisible(chromedp.CSS("#forum-reports-empty")))

	// The reporter sees the post hidden; the audit log has the action.
	r.do("the topic again", chromedp.Navigate(base+topic), chromedp.WaitVisible(chromedp.CSS("#p"+postID)))
	if txt := eval[string](r, `document.getElementById('p`+postID+`').innerText`); !strings.Contains(txt, "A moderator hid this post.") || strings.Contains(txt, "Бірінші") {
		t.Errorf("the hidden post for the reporter: %q", txt)
	}
	if n := eval[int](r, `document.querySelectorAll('.forum-board svg').length`); n != 0 {
		t.Errorf("the hidden post's board is still drawn for the reporter")
	}
	r.shot(artifacts, "forum-hidden-en-1366.png")
	m.do("the log", chromedp.Navigate(base+"/mod/log"), chromedp.WaitVisible(chromedp.CSS("#mod-log")))
	if txt := eval[string](m, `document.getElementById('mod-log').innerText`); !strings.Contains(txt, "Forum post hidden") || !strings.Contains(txt, "aigerim") {
		t.Errorf("the audit log: %q", txt)
	}
}
