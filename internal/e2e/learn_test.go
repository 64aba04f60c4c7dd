package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/lessons"
)

// learnStep is one exercise done on its lesson's page: how to answer it
// (a hole clicked, an option chosen, a ply written), a wrong answer and
// the sentence the judge gives for it, then the right one.
type learnStep struct {
	lesson, exercise string
	wrong, right     string
	wrongSays        func(cat *i18n.Catalog, lang string) string
}

var learnSteps = []learnStep{
	{"board", "hole9", "1", "9", func(c *i18n.Catalog, l string) string { return c.T(l, "learn.fb.hole_is", 1) }},
	{"atsyrau", "seed3", "white", "black", func(c *i18n.Catalog, l string) string { return c.T(l, "learn.fb.won.black", 76, 86) }},
	{"notation", "write76", "67", "76", func(c *i18n.Catalog, l string) string { return c.T(l, "learn.fb.ply_from", 7) }},
}

// answer gives a on the exercise's page: the board's hole, the option or
// the written ply.
func (u *user) answer(ex, a string) {
	u.t.Helper()
	root := "#ex-" + ex
	switch {
	case u.exists(root + " button.hole.playable"):
		u.do("clicking hole "+a, click(chromedp.CSS(fmt.Sprintf(`%s button.hole.playable[data-hole="%s"]`, root, a))))
	case u.exists(root + " button.choice"):
		u.do("choosing "+a, click(chromedp.CSS(fmt.Sprintf(`%s button.choice[data-answer="%s"]`, root, a))))
	default:
		u.do("writing "+a, chromedp.SetValue(chromedp.CSS(root+" input.answer"), a),
			click(chromedp.CSS(root+" form.answer-form button")))
	}
}

func (u *user) exists(sel string) bool {
	u.t.Helper()
	return eval[bool](u, fmt.Sprintf("!!document.querySelector(%q)", sel))
}

// TestLearnExercises: in Kazakh and in English, a guest opens three
// lessons (a hole to play, an atsyrau to judge, a ply to write), answers
// wrong and reads the server's verdict in his language, answers right and
// sees the exercise done, still done after a reload (his browser keeps
// it) and counted on /learn. An account's progress is the store's: a new
// browser of the same account, with nothing in localStorage, sees it.
func TestLearnExercises(t *testing.T) {
	base, browser, _ := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			u := newUser(t, browser, base, "learner-"+lang)
			u.setLang(lang)
			for _, st := range learnSteps {
				ex := "#ex-" + st.exercise
				u.do("opening /learn/"+st.lesson, chromedp.Navigate(base+"/learn/"+st.lesson))
				u.waitFor("the lesson", fmt.Sprintf("document.querySelector(%q)", ex), 10*time.Second)
				u.answer(st.exercise, st.wrong)
				u.waitFor("the verdict on the wrong answer", fmt.Sprintf("document.querySelector(%q).textContent !== ''", ex+" .feedback.wrong"), 10*time.Second)
				got := eval[string](u, fmt.Sprintf("document.querySelector(%q).textContent", ex+" .feedback"))
				for _, want := range []string{cat.T(lang, "learn.wrong"), st.wrongSays(cat, lang)} {
					if !strings.Contains(got, want) {
						t.Errorf("%s/%s wrong answer %q: the page says %q, not %q", st.lesson, st.exercise, st.wrong, got, want)
					}
				}
				if eval[bool](u, fmt.Sprintf("document.querySelector(%q).classList.contains('done')", ex)) {
					t.Errorf("%s/%s done after a wrong answer", st.lesson, st.exercise)
				}
				u.answer(st.exercise, st.right)
				u.waitFor("the exercise done", fmt.Sprintf("document.querySelector(%q)", ex+".done .feedback.right"), 10*time.Second)
				if got := eval[string](u, fmt.Sprintf("document.querySelector(%q).textContent", ex+" .feedback")); !strings.HasPrefix(got, cat.T(lang, "learn.right")) {
					t.Errorf("%s/%s right answer: %q", st.lesson, st.exercise, got)
				}
				u.do("reloading", chromedp.Reload())
				u.waitFor("the exercise still done after a reload", fmt.Sprintf("document.readyState === 'complete' && document.querySelector(%q)", ex+".done"), 10*time.Second)
				if got := eval[string](u, fmt.Sprintf("document.querySelector(%q).textContent", ex+" .ex-mark")); got != cat.T(lang, "learn.exdone") {
					t.Errorf("%s/%s mark after the reload %q", st.lesson, st.exercise, got)
				}
			}
			u.do("opening /learn", chromedp.Navigate(base+"/learn"))
			u.waitFor("the index", `document.readyState === 'complete' && document.querySelector('.lesson-row.current')`, 10*time.Second)
			for _, lesson := range []string{"board", "atsyrau", "notation"} {
				if got := eval[string](u, fmt.Sprintf(`document.querySelector('[data-lesson=%q] .lesson-count').textContent`, lesson)); !strings.HasPrefix(got, "1/") {
					t.Errorf("/learn counts %s of lesson %s", got, lesson)
				}
			}
			if got, want := eval[string](u, `document.getElementById('learn-progress').textContent`), cat.T(lang, "learn.progress", 3, lessons.Count()); got != want {
				t.Errorf("/learn says %q, want %q", got, want)
			}
		})
	}

	// A guest who solved an exercise and then signs up finds it done in his
	// account: his browser sends the kept answer again, the server judges
	// and stores it, and another browser of the account sees it.
	g := newUser(t, browser, base, "zere")
	g.do("opening /learn/board as a guest", chromedp.Navigate(base+"/learn/board"))
	g.waitFor("the lesson", `document.querySelector('#ex-hole9')`, 10*time.Second)
	g.answer("hole9", "9")
	g.waitFor("the exercise done", `document.querySelector('#ex-hole9.done')`, 10*time.Second)
	g.signup()
	g.do("opening /learn", chromedp.Navigate(base+"/learn"))
	g.waitFor("the guest's answer moved", `document.readyState === 'complete' && (localStorage.getItem('toguz.learn') || '[]') === '[]' && JSON.parse(document.getElementById('learn').dataset.done || '[]').length === 1`, 15*time.Second)
	got, err := chromedp.Run(g.ctx, chromedp.Evaluate[string](`fetch('/api/learn/progress').then(r => r.json()).then(a => JSON.stringify(a.done))`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(got, "hole9") {
		t.Errorf("the account's progress after sign-up: %s %v", got, err)
	}

	// An account: the store keeps its progress, not the browser.
	a := newUser(t, browser, base, "aigerim")
	a.signup()
	a.setLang("kk")
	a.do("opening /learn/tuzdik", chromedp.Navigate(base+"/learn/tuzdik"))
	a.waitFor("the lesson", `document.querySelector('#ex-seed2')`, 10*time.Second)
	a.answer("seed2", "8")
	a.waitFor("the verdict", `document.querySelector('#ex-seed2 .feedback.wrong')`, 10*time.Second)
	a.answer("seed2", "7")
	a.waitFor("the exercise done", `document.querySelector('#ex-seed2.done')`, 10*time.Second)
	if got := eval[string](a, `localStorage.getItem('toguz.learn') || ''`); got != "" {
		t.Errorf("an account's progress in localStorage: %q", got)
	}
	b := newUser(t, browser, base, "aigerim")
	b.do("logging in", chromedp.Navigate(base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#auth-form")),
		chromedp.SendKeys(chromedp.CSS("#auth-name"), "aigerim"),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
		click(chromedp.CSS("#auth-submit")))
	b.waitFor("logged in", `(document.getElementById('me-name')||{}).textContent === 'aigerim'`, 10*time.Second)
	b.do("opening /learn/tuzdik", chromedp.Navigate(base+"/learn/tuzdik"))
	b.waitFor("the exercise done in another browser", `document.readyState === 'complete' && document.querySelector('#ex-seed2.done')`, 10*time.Second)
}
