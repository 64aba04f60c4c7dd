package e2e

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// loggedIn is an account made by the API, at its own browser in lang.
func loggedIn(t *testing.T, base string, b context.Context, name, lang string) (*user, string) {
	t.Helper()
	tok := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": name, "password": "correct horse battery"})["token"].(string)
	u := newUser(t, b, base, name)
	u.do("cookies", setCookie(base, "toguz_session", tok), setCookie(base, "lang", lang))
	return u, tok
}

// TestKidMode: in Kazakh and English, an account switches kid mode on
// from its page (no password asked); the chat is gone from the lobby and
// from a game; switching it off asks for the password, refuses a wrong
// one with the catalog's words and takes the right one; the chat is back.
func TestKidMode(t *testing.T) {
	base, b, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			T := func(key string, args ...any) string { return cat.T(lang, key, args...) }
			u, tok := loggedIn(t, base, b, "kamila-"+lang, lang)
			u.do("kid mode on",
				chromedp.Navigate(base+"/account/kid"),
				chromedp.WaitVisible(chromedp.CSS("#kid-on")),
				click(chromedp.CSS("#kid-on")),
			)
			u.waitFor("kid mode on", `document.getElementById('kid-password')`, 10*time.Second)
			if got := u.text("kid-state"); !strings.Contains(got, T("privacy.kid.on")) {
				t.Errorf("kid state %q, want %q", got, T("privacy.kid.on"))
			}
			for _, w := range []int64{1366, 360} {
				u.do("viewport", chromedp.EmulateViewport(w, 800))
				u.shot(artifacts, fmt.Sprintf("kid-%s-%d.png", lang, w))
			}
			u.do("the lobby", chromedp.EmulateViewport(1366, 800), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seek-form")))
			if !eval[bool](u, `document.getElementById('chat').hidden && document.getElementById('chat').offsetParent === null`) {
				t.Error("the lobby shows a kid the chat")
			}
			game := apiCall(t, "POST", base+"/api/engine-games", tok, map[string]any{"level": 1, "color": "white", "tc": "10+0"})["game_id"].(string)
			u.do("a game", chromedp.Navigate(base+"/game/"+game), chromedp.WaitVisible(chromedp.CSS("#board")))
			if !eval[bool](u, `document.getElementById('chat').hidden && document.getElementById('chat').offsetParent === null`) {
				t.Error("the game page shows a kid the chat")
			}
			u.do("kid mode off, a wrong password",
				chromedp.Navigate(base+"/account/kid"),
				chromedp.WaitVisible(chromedp.CSS("#kid-password")),
				chromedp.SendKeys(chromedp.CSS("#kid-password"), "not the password"),
				click(chromedp.CSS("#kid-off")),
			)
			u.waitFor("the refusal", `document.getElementById('kid-error')`, 10*time.Second)
			if got := u.text("kid-error"); got != T("privacy.password.wrong") {
				t.Errorf("refusal %q, want %q", got, T("privacy.password.wrong"))
			}
			u.do("kid mode off",
				chromedp.SendKeys(chromedp.CSS("#kid-password"), "correct horse battery"),
				click(chromedp.CSS("#kid-off")),
			)
			u.waitFor("kid mode off", `document.getElementById('kid-on')`, 10*time.Second)
			u.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#chat-form")))
		})
	}
}

// TestCloseAccount: an account that played a game closes itself from its
// page (the confirmation box and the password); it is logged out, its
// profile says closed, its game shows a neutral name and not its own,
// and logging in again fails.
func TestCloseAccount(t *testing.T) {
	base, b, artifacts := setup(t)
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			name := "ketken-" + lang
			u, tok := loggedIn(t, base, b, name, lang)
			done := finishedEngineGame(t, base, tok)
			u.do("the close page", chromedp.Navigate(base+"/account/close"), chromedp.WaitVisible(chromedp.CSS("#close-form")))
			for _, w := range []int64{1366, 360} {
				u.do("viewport", chromedp.EmulateViewport(w, 800))
				u.shot(artifacts, fmt.Sprintf("close-%s-%d.png", lang, w))
			}
			u.do("closing",
				click(chromedp.CSS("#close-confirm")),
				chromedp.SendKeys(chromedp.CSS("#close-password"), "correct horse battery"),
				click(chromedp.CSS("#close-submit")),
			)
			u.waitFor("closed", `document.getElementById('close-done')`, 10*time.Second)
			u.do("the game", chromedp.EmulateViewport(1366, 800), chromedp.Navigate(base+"/game/"+done), chromedp.WaitVisible(chromedp.CSS("#board")))
			text := eval[string](u, `document.body.innerText`)
			if strings.Contains(strings.ToLower(text), name) || !strings.Contains(text, "closed-") {
				t.Errorf("the game page after closing shows %q", text)
			}
			u.shot(artifacts, fmt.Sprintf("closed-game-%s-1366.png", lang))
			u.do("the archive", chromedp.Navigate(base+"/archive"), chromedp.WaitReady(chromedp.CSS("body")))
			if text := eval[string](u, `document.body.innerText`); strings.Contains(strings.ToLower(text), name) {
				t.Errorf("the archive names the closed account: %q", text)
			}
			u.do("the profile", chromedp.Navigate(base+"/@/"+name), chromedp.WaitVisible(chromedp.CSS("#profile-closed")))
			if eval[bool](u, `!!document.getElementById('me-name')`) {
				t.Error("still logged in after closing")
			}
			u.do("logging in again",
				chromedp.Navigate(base+"/login"),
				chromedp.WaitVisible(chromedp.CSS("#auth-form")),
				chromedp.SendKeys(chromedp.CSS("#auth-name"), name),
				chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
				click(chromedp.CSS("#auth-submit")),
			)
			u.waitFor("the login refused", `document.getElementById('form-error')`, 10*time.Second)
		})
	}
}

// TestDataExport: the export page's button downloads one zip (the
// browser's download, as a user gets it) whose entries are the profile,
// the settings, the ratings, the games as records and the studies.
func TestDataExport(t *testing.T) {
	base, b, artifacts := setup(t)
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			u, tok := loggedIn(t, base, b, "data-"+lang, lang)
			done := finishedEngineGame(t, base, tok)
			dir := t.TempDir()
			progress := chromedp.Events(u.ctx, browser.DownloadProgress)
			u.do("the export page", chromedp.Navigate(base+"/account/export"), chromedp.WaitVisible(chromedp.CSS("#export-download")))
			for _, w := range []int64{1366, 360} {
				u.do("viewport", chromedp.EmulateViewport(w, 800))
				u.shot(artifacts, fmt.Sprintf("export-%s-%d.png", lang, w))
			}
			yes := true
			u.do("downloading",
				chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
					_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
						Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &yes,
						BrowserContextID: chromedp.FromContext(u.ctx).BrowserContextID})
					return err
				}),
				click(chromedp.CSS("#export-download")),
			)
			var file string
			for ev, err := range progress {
				if err != nil {
					t.Fatal(err)
				}
				if ev.State == browser.DownloadProgressStateCanceled {
					t.Fatal("the download was canceled")
				}
				if ev.State == browser.DownloadProgressStateCompleted {
					file = filepath.Join(dir, ev.GUID)
					break
				}
			}
			z, err := zip.OpenReader(file)
			if err != nil {
				t.Fatalf("the download is no zip: %v", err)
			}
			defer z.Close()
			var names []string
			var games string
			for _, f := range z.File {
				names = append(names, f.Name)
				if f.Name == "games.pgn" {
					rc, _ := f.Open()
					b, _ := io.ReadAll(rc)
					rc.Close()
					games = string(b)
				}
			}
			for _, want := range []string{"README.txt", "profile.json", "settings.json", "ratings.json", "rating-history.json", "games.pgn", "reports.json"} {
				if !slices.Contains(names, want) {
					t.Errorf("the zip lacks %s: %v", want, names)
				}
			}
			if !strings.Contains(games, `[ID "`+done+`"]`) {
				t.Errorf("games.pgn lacks the game %s:\n%s", done, games)
			}
		})
	}
}
