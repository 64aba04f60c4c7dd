package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
)

// text returns the text of the element with id.
func (u *user) text(id string) string {
	u.t.Helper()
	return eval[string](u, fmt.Sprintf(`(document.getElementById(%q)||{}).textContent||''`, id))
}

// TestSocial plays, in Kazakh and in English, what players expect from
// lichess around a game between two guests: chat (sent as text, never
// markup; muted and shown again; reported), a takeback by consent, and a
// rematch after a resignation that brings both boards to the new game. The
// texts the page shows are the catalog's in the page's language.
func TestSocial(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			T := func(key string, args ...any) string { return cat.T(lang, key, args...) }
			white := newUser(t, browser, base, "white-"+lang)
			black := newUser(t, browser, base, "black-"+lang)
			white.setLang(lang)
			black.setLang(lang)

			// A casual seek by White, accepted by Black, both as guests.
			white.do("creating a seek",
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.CSS("#seek-form")),
				chromedp.SetValue(chromedp.CSS("#seek-tc"), "5+3"),
				chromedp.SetValue(chromedp.CSS(`#seek-form select[name="color"]`), "white"),
				click(chromedp.CSS("#seek-submit")),
			)
			white.waitFor("the challenge page", `document.getElementById('challenge')`, 10*time.Second)
			white.do("back to the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
			if got := white.text("chat-title"); got != T("social.chat.lobby") {
				t.Errorf("the lobby's chat is titled %q, want %q", got, T("social.chat.lobby"))
			}
			black.do("accepting the seek",
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.CSS("#seeks button.accept-seek")),
				click(chromedp.CSS("#seeks button.accept-seek")),
			)
			const onBoard = `document.querySelector('#board button.hole') && document.getElementById('game').dataset.status === 'playing'`
			black.waitFor("the game page", onBoard, 15*time.Second)
			white.waitFor("the game page", onBoard, 15*time.Second)
			id := white.gameID()
			for _, u := range []*user{white, black} {
				// Dialogs answer yes: the report's and the resignation's.
				eval[bool](u, `(window.confirm = () => true, true)`)
				u.waitFor("the players' chat", fmt.Sprintf(`document.getElementById('chat-title').textContent === %q`, T("social.chat.players")), 10*time.Second)
			}

			// Chat: markup arrives as text.
			const hello = `Сәлем <b id="injected">!</b>`
			white.do("writing in the chat",
				chromedp.SendKeys(chromedp.CSS("#chat-input"), hello),
				click(chromedp.CSS("#chat-send")),
			)
			line := fmt.Sprintf(`[...document.querySelectorAll('#chat-log .chat-text')].some(e => e.textContent === %q)`, hello)
			black.waitFor("White's message", line, 10*time.Second)
			white.waitFor("her own message", line, 10*time.Second)
			if eval[bool](black, `!!document.getElementById('injected')`) {
				t.Fatal("a chat message became markup")
			}
			// Mute hides her, for the session; shown again on request.
			black.do("muting White", click(chromedp.CSS("#chat-log .chat-mute")))
			black.waitFor("White's message hidden", `!document.querySelector('#chat-log .chat-line') && document.querySelector('#chat-muted .chat-unmute')`, 5*time.Second)
			black.do("reloading", chromedp.Reload())
			black.waitFor("the page again", onBoard, 15*time.Second)
			eval[bool](black, `(window.confirm = () => true, true)`)
			black.waitFor("White still muted after a reload", `document.querySelector('#chat-muted .chat-unmute') && !document.querySelector('#chat-log .chat-line')`, 10*time.Second)
			black.do("showing White again", click(chromedp.CSS("#chat-muted .chat-unmute")))
			black.waitFor("White's message back (the history)", line, 5*time.Second)
			black.do("reporting White's message", click(chromedp.CSS("#chat-log .chat-report")))
			black.waitFor("the report's thanks", fmt.Sprintf(`document.getElementById('chat-error').textContent === %q`, T("social.chat.reported")), 10*time.Second)

			// Takeback: White moves, proposes, Black accepts.
			p := toguz.StartPosition()
			m := p.LegalMoves().First()
			white.click(toguz.White, m)
			white.waitPly(1)
			black.waitPly(1)
			white.waitFor("the takeback button", `!document.getElementById('takeback').hidden`, 10*time.Second)
			if got := white.text("takeback"); got != T("social.takeback") {
				t.Errorf("the takeback button says %q, want %q", got, T("social.takeback"))
			}
			white.do("proposing a takeback", click(chromedp.CSS("#takeback")))
			black.waitFor("the proposal", `!document.getElementById('takeback-accept').hidden`, 10*time.Second)
			if got := black.text("social-status"); got != T("social.takeback.offered") {
				t.Errorf("Black is told %q, want %q", got, T("social.takeback.offered"))
			}
			black.screenshot(artifacts, "social-takeback-"+lang+".png")
			black.do("accepting the takeback", click(chromedp.CSS("#takeback-accept")))
			white.waitPly(0)
			black.waitPly(0)
			if got := white.text("social-status"); got != T("social.takeback.done") {
				t.Errorf("White is told %q, want %q", got, T("social.takeback.done"))
			}

			// Rematch after a resignation: both boards go to the new game.
			white.do("resigning", click(chromedp.CSS("#resign")))
			for _, u := range []*user{white, black} {
				u.waitFor("the end", `document.getElementById('game').dataset.status === 'ended'`, 10*time.Second)
			}
			black.waitFor("the rematch button", `!document.getElementById('rematch').hidden`, 10*time.Second)
			black.do("offering a rematch", click(chromedp.CSS("#rematch")))
			white.waitFor("the offer", `!document.getElementById('rematch-accept').hidden`, 10*time.Second)
			if got := white.text("social-status"); got != T("social.rematch.offered") {
				t.Errorf("White is told %q, want %q", got, T("social.rematch.offered"))
			}
			white.do("phone viewport", chromedp.EmulateViewport(360, 900))
			white.screenshot(artifacts, "social-rematch-"+lang+"-360.png")
			white.do("accepting the rematch", click(chromedp.CSS("#rematch-accept")))
			newGame := fmt.Sprintf(`document.getElementById('game') && document.getElementById('game').dataset.id !== %q && document.getElementById('game').dataset.status === 'playing'`, id)
			white.waitFor("the rematch's page", newGame, 15*time.Second)
			black.waitFor("the rematch's page", newGame, 15*time.Second)
			if a, b := white.gameID(), black.gameID(); a != b {
				t.Fatalf("White went to %s, Black to %s", a, b)
			}
			// Black of the first game plays White now: his holes are playable.
			black.click(toguz.White, m)
			black.waitPly(1)
			if w := white.text("chat-log"); strings.Contains(w, "Сәлем") {
				t.Errorf("the rematch's chat starts with the old game's: %q", w)
			}
		})
	}
}
