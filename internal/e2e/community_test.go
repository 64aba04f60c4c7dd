package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// TestNotificationArrives: in Kazakh and English, a challenge to an
// account arrives on its open page as it happens (the header's count, a
// notice shown, the list), in the page's language; marking all read
// clears the count; the list and the settings' panel fit 360 px.
func TestNotificationArrives(t *testing.T) {
	base, b, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			T := func(key string, args ...any) string { return cat.T(lang, key, args...) }
			aru, aruTok := loggedIn(t, base, b, "aru-"+lang, lang)
			bek := "bek-" + lang
			bekSession := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": bek, "password": "correct horse battery"})["token"].(string)
			aru.do("the notices", chromedp.Navigate(base+"/notifications"), chromedp.WaitVisible(chromedp.CSS("#notify-list")))
			if !eval[bool](aru, `document.getElementById('notify-count').hidden`) || aru.text("notices-none") != T("notify.none") {
				t.Fatalf("a new account's notices: count shown %q, list %q", aru.text("notify-count"), aru.text("notices-none"))
			}
			time.Sleep(300 * time.Millisecond) // the page's socket is open
			tok := apiCall(t, "POST", base+"/api/token", bekSession, map[string]any{"description": "challenges", "scopes": []string{"challenge:write"}})["token"].(string)
			apiCall(t, "POST", base+"/api/challenge/"+aru.name, tok, nil)
			want := T("notify.challenge", bek)
			aru.waitFor("the count", `document.getElementById('notify-count').textContent === '1' && !document.getElementById('notify-count').hidden`, 10*time.Second)
			aru.waitFor("the notice shown", fmt.Sprintf(`(document.getElementById('notify-toast')||{}).textContent === %q`, want), 5*time.Second)
			aru.waitFor("the list", fmt.Sprintf(`[...document.querySelectorAll('#notices .notice-text')].some(e => e.textContent === %q)`, want), 5*time.Second)
			aru.do("the list again", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#notices")))
			if got := eval[string](aru, `document.querySelector('#notices .notice.unread .notice-text').textContent`); got != want {
				t.Errorf("the stored notice %q, want %q", got, want)
			}
			if got := eval[string](aru, `document.querySelector('#notices .notice .notice-text').getAttribute('href')`); got != "/@/"+bek {
				t.Errorf("the notice leads to %q", got)
			}
			for _, w := range []int64{1366, 360} {
				aru.do("viewport", chromedp.EmulateViewport(w, 800))
				fits360(t, aru, "the notices", w)
				aru.shot(artifacts, fmt.Sprintf("notifications-%s-%d.png", lang, w))
			}
			aru.do("mark all read", chromedp.EmulateViewport(1366, 800), click(chromedp.CSS("#notify-read-all")))
			aru.waitFor("the count cleared", `document.getElementById('notify-count').hidden && !document.querySelector('#notices .notice.unread')`, 10*time.Second)
			aru.do("the settings", chromedp.Navigate(base+"/settings"), chromedp.WaitVisible(chromedp.CSS("#notify-prefs")))
			if got := aru.text("notify-prefs-title"); got != T("notify.prefs.title") {
				t.Errorf("the panel's title %q", got)
			}
			for _, w := range []int64{1366, 360} {
				aru.do("viewport", chromedp.EmulateViewport(w, 800), chromedp.ScrollIntoView(chromedp.CSS("#notify-prefs")))
				fits360(t, aru, "the settings", w)
				aru.shot(artifacts, fmt.Sprintf("notify-prefs-%s-%d.png", lang, w))
			}
			// Challenges turned off: the next one is not told.
			aru.do("challenges off", chromedp.EmulateViewport(1366, 800), click(chromedp.CSS("#pref-site-challenge")),
				click(chromedp.CSS("#pref-push-challenge")), click(chromedp.CSS("#notify-prefs-save")))
			aru.waitFor("saved", `document.getElementById('notify-prefs-saved')`, 10*time.Second)
			apiCall(t, "POST", base+"/api/challenge/"+aru.name, tok, nil)
			time.Sleep(time.Second)
			if n := apiCall(t, "GET", base+"/api/notifications/unread", aruTok, nil)["unread"].(float64); n != 0 {
				t.Errorf("a challenge turned off was told: %v unread", n)
			}
		})
	}
}

// TestFollowFriendOnline: in Kazakh and English, an account follows
// another from his profile, sees him online while he has a page open, then
// playing with a link to watch his game; the page and the profile's panel
// fit 360 px.
func TestFollowFriendOnline(t *testing.T) {
	base, b, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			T := func(key string, args ...any) string { return cat.T(lang, key, args...) }
			me, _ := loggedIn(t, base, b, "follower-"+lang, lang)
			friend, friendTok := loggedIn(t, base, b, "friend-"+lang, lang)
			me.do("the friend's profile", chromedp.Navigate(base+"/@/"+friend.name), chromedp.WaitVisible(chromedp.CSS("#follow")))
			me.do("follow", click(chromedp.CSS("#follow")))
			me.waitFor("following", `document.getElementById('unfollow')`, 10*time.Second)
			if got := me.text("follow-counts"); !strings.Contains(got, T("friends.followers", 1)) {
				t.Errorf("the counts %q", got)
			}
			me.do("the list", chromedp.Navigate(base+"/following"), chromedp.WaitVisible(chromedp.CSS("#following")))
			row := fmt.Sprintf("document.getElementById(%q)", "friend-"+friend.name)
			if eval[bool](me, `!!`+row+`.querySelector('.presence')`) {
				t.Error("a friend with no page open is shown online")
			}
			friend.do("a page open", chromedp.Navigate(base+"/puzzles"), chromedp.WaitReady(chromedp.CSS("body")))
			time.Sleep(500 * time.Millisecond)
			me.do("the list again", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#following")))
			if got := eval[string](me, row+`.querySelector('.presence.online')?.textContent || ''`); got != T("friends.online") {
				t.Errorf("online %q, want %q", got, T("friends.online"))
			}
			game := apiCall(t, "POST", base+"/api/engine-games", friendTok, map[string]any{"level": 1, "color": "white", "tc": "10+0"})["game_id"].(string)
			me.do("the list while he plays", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#following")))
			if got := eval[string](me, row+`.querySelector('.watch-link')?.getAttribute('href') || ''`); got != "/game/"+game {
				t.Errorf("the watch link %q, want /game/%s", got, game)
			}
			for _, w := range []int64{1366, 360} {
				me.do("viewport", chromedp.EmulateViewport(w, 800))
				fits360(t, me, "the followed players", w)
				me.shot(artifacts, fmt.Sprintf("following-%s-%d.png", lang, w))
			}
			me.do("the profile", chromedp.EmulateViewport(1366, 800), chromedp.Navigate(base+"/@/"+friend.name), chromedp.WaitVisible(chromedp.CSS("#profile-social")))
			if got := eval[string](me, `document.querySelector('#profile-social .watch-link')?.getAttribute('href') || ''`); got != "/game/"+game {
				t.Errorf("the profile's watch link %q", got)
			}
			for _, w := range []int64{1366, 360} {
				me.do("viewport", chromedp.EmulateViewport(w, 800))
				fits360(t, me, "the profile", w)
				me.shot(artifacts, fmt.Sprintf("profile-social-%s-%d.png", lang, w))
			}
		})
	}
}

// TestWebPushServiceWorker: a Web Push message delivered to the site's
// service worker (through the DevTools protocol: headless Chromium has no
// push service) is shown as a notification with its text, and posted to
// the open page, which shows it.
func TestWebPushServiceWorker(t *testing.T) {
	base, b, _ := setup(t)
	u, _ := loggedIn(t, base, b, "pushed", "en")
	u.do("notifications allowed", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetPermission, browser.SetPermissionParams{Permission: &browser.PermissionDescriptor{Name: "notifications"},
			Setting: browser.PermissionSettingGranted, Origin: base, BrowserContextID: chromedp.FromContext(u.ctx).BrowserContextID})
		return err
	}))
	regs := chromedp.Events(u.ctx, serviceworker.WorkerRegistrationUpdated)
	u.do("the settings", chromedp.Navigate(base+"/settings"), chromedp.WaitVisible(chromedp.CSS("#notify-prefs")))
	u.waitFor("the service worker", `navigator.serviceWorker.controller || (window.__swReady = window.__swReady || navigator.serviceWorker.ready.then(() => window.__swOK = true), window.__swOK)`, 30*time.Second)
	u.do("the service worker domain", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, serviceworker.Enable, cdp.Empty{})
		return err
	}))
	var reg serviceworker.RegistrationID
	for ev, err := range regs {
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range ev.Registrations {
			if !r.IsDeleted && strings.HasPrefix(r.ScopeURL, base) {
				reg = r.RegistrationID
			}
		}
		if reg != "" {
			break
		}
	}
	msg, _ := json.Marshal(map[string]string{"title": "Toguz", "body": "bolat: your move", "url": "/notifications", "kind": "your_move"})
	u.do("a push", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{Origin: base, RegistrationID: reg, Data: string(msg)})
		return err
	}))
	u.waitFor("the page told", `(document.getElementById('notify-toast')||{}).textContent === 'bolat: your move'`, 10*time.Second)
	// Chromium shows (and lists) a notification only after fetching its
	// icon, by our reading of it:
	// the wait is longer than the page's, which needs no fetch (a CI run
	// once missed it at 10 s with the page told).
	u.waitFor("the notification shown", `(navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => { window.__n = ns.map(n => n.body + '|' + n.data.url) }), (window.__n || []).includes('bolat: your move|/notifications'))`, 30*time.Second)
}

// TestMessageArrivesAsNotification: in Kazakh and English, a player
// writes to another from his profile; the message arrives on the other's
// open page as a notification (the count, the notice) that leads to the
// conversation; he reports it, and a moderator, and only a moderator,
// reads the reported conversation. The pages fit 360 px.
func TestMessageArrivesAsNotification(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	base, b, artifacts := setupWith(t, server.Options{Engines: 1, DB: db})
	cat := i18n.New()
	_, modTok := loggedIn(t, base, b, "inbox-mod", "en")
	st, err := store.Open(context.Background(), db, store.Options{Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	modUser, err := st.UserByName(context.Background(), "inbox-mod")
	if err == nil {
		err = st.SetModerator(context.Background(), modUser.ID, true)
	}
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			T := func(key string, args ...any) string { return cat.T(lang, key, args...) }
			from, fromTok := loggedIn(t, base, b, "writer-"+lang, lang)
			to, _ := loggedIn(t, base, b, "reader-"+lang, lang)
			to.do("a page open", chromedp.Navigate(base+"/puzzles"), chromedp.WaitReady(chromedp.CSS("#notify-count")))
			time.Sleep(300 * time.Millisecond)
			from.do("the profile", chromedp.Navigate(base+"/@/"+to.name), chromedp.WaitVisible(chromedp.CSS("#write-link")),
				click(chromedp.CSS("#write-link")), chromedp.WaitVisible(chromedp.CSS("#inbox-form")))
			body := "Сәлем! A game tomorrow at 10?"
			from.do("write", chromedp.SendKeys(chromedp.CSS("#inbox-body"), body), click(chromedp.CSS("#inbox-send")))
			from.waitFor("the message in the thread", fmt.Sprintf(`[...document.querySelectorAll('#messages .msg-body')].some(e => e.textContent === %q)`, body), 10*time.Second)
			want := T("notify.message", from.name)
			to.waitFor("the notice", fmt.Sprintf(`(document.getElementById('notify-toast')||{}).textContent === %q && document.getElementById('notify-count').textContent === '1'`, want), 10*time.Second)
			to.do("open it", click(chromedp.CSS("#notify-toast a")))
			to.waitFor("the conversation", fmt.Sprintf(`[...document.querySelectorAll('#messages .msg-body')].some(e => e.textContent === %q)`, body), 10*time.Second)
			to.waitFor("the notice read", `document.getElementById('notify-count').hidden`, 10*time.Second)
			for _, w := range []int64{1366, 360} {
				to.do("viewport", chromedp.EmulateViewport(w, 800))
				fits360(t, to, "the conversation", w)
				to.shot(artifacts, fmt.Sprintf("inbox-thread-%s-%d.png", lang, w))
			}
			to.do("the inbox", chromedp.EmulateViewport(1366, 800), chromedp.Navigate(base+"/inbox"), chromedp.WaitVisible(chromedp.CSS("#conversations")))
			for _, w := range []int64{1366, 360} {
				to.do("viewport", chromedp.EmulateViewport(w, 800))
				fits360(t, to, "the inbox", w)
				to.shot(artifacts, fmt.Sprintf("inbox-%s-%d.png", lang, w))
			}
			to.do("report", chromedp.EmulateViewport(1366, 800), chromedp.Navigate(base+"/inbox/"+from.name), chromedp.WaitVisible(chromedp.CSS("#inbox-report")),
				click(chromedp.CSS("#inbox-report")))
			to.waitFor("reported", `document.getElementById('inbox-reported')`, 10*time.Second)
			if got := to.text("inbox-reported"); got != T("inbox.reported") {
				t.Errorf("reported %q", got)
			}
			// The writer is no moderator: the conversation's moderators' page is refused.
			if code := statusOf(t, base+"/mod/inbox/"+to.name+"/"+from.name, fromTok); code != 403 {
				t.Errorf("a player reads the moderators' page: %d", code)
			}
			deadline := time.Now().Add(40 * time.Second) // the roles' snapshot is read every 15 s
			for statusOf(t, base+"/mod/inbox/"+to.name+"/"+from.name, modTok) != 200 {
				if time.Now().After(deadline) {
					t.Fatal("the moderator never read the reported conversation")
				}
				time.Sleep(time.Second)
			}
			if got := apiCall(t, "GET", base+"/api/inbox/"+to.name, fromTok, nil)["messages"].([]any); len(got) != 1 {
				t.Errorf("the writer's thread %v", got)
			}
		})
	}
}

// statusOf is the status of GET url as the session tok.
func statusOf(t *testing.T, url, tok string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.AddCookie(&http.Cookie{Name: "toguz_session", Value: tok})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
