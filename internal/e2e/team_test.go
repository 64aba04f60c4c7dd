package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
)

// TestTeamBattle, in Kazakh: two leaders create their teams with the
// /team form, a player joins each on its page, the first leader makes a
// team battle of the two teams from his team's page; both players enter
// it on the event page, the leader starts it, the arena pairs them, one
// resigns, and once the arena's time is over (the events' clock is moved
// on) the battle's page shows it finished with the winner's team first.
// On the way a member writes in the team's chat and the leader reads it;
// then the leaders play a match of their teams over one board.
// The teams' pages are then seen at 1366 and 360 px in kk and en: they
// fit the phone and read in the page's language.
func TestTeamBattle(t *testing.T) {
	var ahead atomic.Int64 // how far the events' clock runs ahead of the time
	clock := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	base, browser, artifacts := setupWith(t, server.Options{EventClock: clock})
	const lang = "kk"
	cat := i18n.New()
	lead1, lead2 := newUser(t, browser, base, "serik"), newUser(t, browser, base, "gulnar")
	p1, p2 := newUser(t, browser, base, "arman"), newUser(t, browser, base, "dana")
	for _, u := range []*user{lead1, lead2, p1, p2} {
		u.signup()
		u.do("language", setCookie(base, "lang", lang))
	}
	team := func(u *user, name string) string {
		u.do("the new team's form",
			chromedp.Navigate(base+"/team"),
			chromedp.WaitVisible(chromedp.CSS("#team-create")),
			chromedp.SendKeys(chromedp.CSS("#team-name"), name),
			chromedp.SendKeys(chromedp.CSS("#team-desc"), "Тоғызқұмалақ үйірмесі"),
			click(chromedp.CSS("#team-create-go")),
		)
		u.waitFor("the team's page", `location.pathname.startsWith('/team/') && document.getElementById('team-message')`, 10*time.Second)
		return strings.TrimPrefix(eval[string](u, `location.pathname`), "/team/")
	}
	a, b := team(lead1, "Арал"), team(lead2, "Балқаш")
	join := func(u *user, id string) {
		u.do("the team's page", chromedp.Navigate(base+"/team/"+id), chromedp.WaitVisible(chromedp.CSS("#team-join")))
		eval[bool](u, `window.before = true`)
		u.do("joining", click(chromedp.CSS("#team-join")))
		u.waitFor("the page after joining", `!window.before && document.getElementById('team-leave')`, 10*time.Second)
		if members := eval[string](u, `document.querySelector('.team-members').innerText`); !strings.Contains(members, u.name) {
			t.Fatalf("%s is not among the members: %q", u.name, members)
		}
	}
	join(p1, a)
	join(p2, b)

	// The team's chat: a member writes, the leader reads it.
	chatReady := fmt.Sprintf(`document.getElementById('chat-title').textContent === %q`, cat.T(lang, "team.chat"))
	lead1.do("the team's chat", chromedp.Navigate(base+"/team/"+a), chromedp.WaitVisible(chromedp.CSS("#chat-input")))
	lead1.waitFor("the chat's room", chatReady, 10*time.Second)
	p1.waitFor("the chat's room", chatReady, 10*time.Second)
	said := `Array.from(document.querySelectorAll('#chat-log .chat-line')).some(l => l.textContent.includes('Сәлем, команда!'))`
	for try := 0; ; try++ {
		p1.do("writing", chromedp.SendKeys(chromedp.CSS("#chat-input"), "Сәлем, команда!"), click(chromedp.CSS("#chat-send")))
		time.Sleep(500 * time.Millisecond)
		if eval[bool](lead1, said) {
			break
		}
		if try == 5 {
			t.Fatalf("the leader never read the member's message: %q", eval[string](lead1, `document.getElementById('chat-log').innerText`))
		}
	}

	lead1.do("the battle's form",
		chromedp.Navigate(base+"/team/"+a),
		chromedp.WaitVisible(chromedp.CSS("#team-battle")),
		chromedp.SendKeys(chromedp.CSS("#battle-name"), "Көлдер кубогы"),
		chromedp.SendKeys(chromedp.CSS("#battle-teams"), b),
		chromedp.SetValue(chromedp.CSS("#battle-minutes"), "10"),
		chromedp.SetValue(chromedp.CSS("#battle-leaders"), "2"),
		click(chromedp.CSS("#team-battle-go")),
	)
	lead1.waitFor("the battle's event page", `location.pathname.startsWith('/event/') && document.getElementById('event-start')`, 10*time.Second)
	ev := strings.TrimPrefix(eval[string](lead1, `location.pathname`), "/event/")
	if link := eval[string](lead1, `(document.getElementById('event-team-battle')||{}).textContent||''`); link != cat.T(lang, "team.battle.standings") {
		t.Errorf("the event page's link to the teams' standings: %q", link)
	}
	for _, p := range []*user{p1, p2} {
		p.do("entering", chromedp.Navigate(base+"/event/"+ev), chromedp.WaitVisible(chromedp.CSS("#event-join-button")))
		eval[bool](p, `window.before = true`)
		p.do("entering", click(chromedp.CSS("#event-join-button")))
		p.waitFor("the page after entering", `!window.before && document.readyState === 'complete'`, 10*time.Second)
		if !eval[bool](p, `!!document.getElementById('event-withdraw')`) {
			t.Fatalf("%s: entering: %s", p.name, eval[string](p, `document.body.innerText`))
		}
	}
	lead1.do("starting", chromedp.Navigate(base+"/event/"+ev), chromedp.WaitVisible(chromedp.CSS("#event-start")),
		click(chromedp.CSS("#event-start")))
	p1.do("the event page", chromedp.Navigate(base+"/event/"+ev))
	p1.waitFor("the arena's game", `document.querySelector('#event-live .game-link')`, 20*time.Second)
	href := eval[string](p1, `document.querySelector('#event-live .game-link').getAttribute('href')`)
	p1.do("the game", chromedp.Navigate(base+href))
	p1.waitFor("the resign button", `(() => { const b = document.getElementById('resign'); return b && !b.hidden && b.offsetParent; })()`, 15*time.Second)
	eval[bool](p1, `window.confirm = () => true; true`)
	p1.do("resigning", click(chromedp.CSS("#resign")))

	// The battle's standings take the result; then the arena's time runs
	// out and, its one game over, it finishes.
	p2.do("the battle's page", chromedp.Navigate(base+"/team/battle/"+ev))
	rows := `Array.from(document.querySelectorAll('#battle-standings tbody tr')).map(r => r.cells[1].textContent.trim() + ' ' + r.cells[2].textContent.trim()).join(', ')`
	deadline := time.Now().Add(20 * time.Second)
	for eval[string](p2, rows) != "Балқаш 2, Арал 0" {
		if time.Now().After(deadline) {
			t.Fatalf("the battle's standings: %q", eval[string](p2, rows))
		}
		time.Sleep(300 * time.Millisecond)
		p2.do("reloading", chromedp.Reload())
	}
	ahead.Store(int64(11 * time.Minute))
	finished := cat.T(lang, "team.battle.status.finished")
	deadline = time.Now().Add(20 * time.Second)
	for !strings.Contains(eval[string](p2, `document.querySelector('.team-battle .help').textContent`), finished) {
		if time.Now().After(deadline) {
			t.Fatalf("the battle did not finish: %q", eval[string](p2, `document.querySelector('.team-battle').innerText`))
		}
		time.Sleep(300 * time.Millisecond)
		p2.do("reloading", chromedp.Reload())
	}
	if got := eval[string](p2, rows); got != "Балқаш 2, Арал 0" {
		t.Errorf("the final standings: %q", got)
	}
	// The team's page lists the battle with its place.
	p2.do("the team's page", chromedp.Navigate(base+"/team/"+b), chromedp.WaitVisible(chromedp.CSS(".team-battles")))
	if place, want := eval[string](p2, `document.querySelector('.team-battles').textContent`), cat.T(lang, "team.battle.place", 1, 2, 2); !strings.Contains(place, want) {
		t.Errorf("the team's battles %q lack %q", place, want)
	}

	// A match of the two teams over one board: each leader sets his lineup,
	// the second starts it, and the board's game is linked.
	lead1.do("the match's form",
		chromedp.Navigate(base+"/team/"+a),
		chromedp.WaitVisible(chromedp.CSS("#team-match")),
		chromedp.SendKeys(chromedp.CSS("#match-opponent"), b),
		chromedp.SetValue(chromedp.CSS("#match-boards"), "1"),
		click(chromedp.CSS("#team-match-go")),
	)
	lead1.waitFor("the match's page", `location.pathname.startsWith('/team/match/') && document.getElementById('match-lineup-a')`, 10*time.Second)
	match := eval[string](lead1, `location.pathname`)
	lead1.do("A's lineup", chromedp.SendKeys(chromedp.CSS("#lineup-a"), "arman"), click(chromedp.CSS("#lineup-a-go")))
	lead1.waitFor("A's lineup saved", `document.getElementById('lineup-a') && document.getElementById('lineup-a').value === 'arman'`, 10*time.Second)
	lead2.do("B's lineup", chromedp.Navigate(base+match), chromedp.WaitVisible(chromedp.CSS("#lineup-b")),
		chromedp.SendKeys(chromedp.CSS("#lineup-b"), "dana"), click(chromedp.CSS("#lineup-b-go")))
	lead2.waitFor("the start", `document.getElementById('match-start')`, 10*time.Second)
	lead2.do("starting", click(chromedp.CSS("#match-start")))
	lead2.waitFor("the board's game", `document.querySelector('#match-boards .match-game')`, 10*time.Second)
	if row := eval[string](lead2, `document.querySelector('#match-boards tbody tr').innerText`); !strings.Contains(row, "arman") || !strings.Contains(row, "dana") {
		t.Errorf("the match's board: %q", row)
	}

	// The pages at 1366 and 360 px, in kk and en.
	for _, l := range []string{"kk", "en"} {
		m := newTextMatcher(cat, l)
		lead1.do("language", setCookie(base, "lang", l))
		for _, p := range []page{{"teams", "/team", `document.readyState === 'complete'`}, {"team", "/team/" + a, `document.getElementById('team-battle')`},
			{"team-battle", "/team/battle/" + ev, `document.getElementById('battle-standings')`},
			{"team-match", match, `document.getElementById('match-boards')`}, {"team-search", "/team?q=" + url.QueryEscape("бал"), `document.readyState === 'complete'`}} {
			for _, w := range []int64{1366, 360} {
				lead1.open(p, w)
				if w == 360 {
					if sw := eval[int](lead1, `document.documentElement.scrollWidth`); sw > 360 {
						t.Errorf("%s %s is %d px wide on a 360 px phone: %s", l, p.name, sw, eval[string](lead1, `Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > 362 && !Array.from(e.children).some(c => c.getBoundingClientRect().right > 362)).slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id + ':' + Math.round(e.getBoundingClientRect().right)).join(' ')`))
					}
				} else {
					var bad []string
					for _, text := range eval[[]string](lead1, visibleTexts) {
						if !m.match(text) {
							bad = append(bad, text)
						}
					}
					if len(bad) > 0 {
						t.Errorf("%s (%s) shows texts that are not %s: %q", p.name, p.path, l, bad)
					}
				}
				lead1.shot(artifacts, fmt.Sprintf("team-%s-%s-%d.png", p.name, l, w))
			}
		}
	}
}
