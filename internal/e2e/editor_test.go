package e2e

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz"
)

// TestEditorRulesetAndFEN: the editor's ruleset control brings the board
// of the chosen ruleset; a FEN pasted in shows its position (read by the
// server), and the FEN shown follows the position as it is edited.
func TestEditorRulesetAndFEN(t *testing.T) {
	base, browser, _ := setup(t)
	u := newUser(t, browser, base, "marat")
	u.do("the editor", chromedp.Navigate(base+"/editor"), chromedp.WaitVisible(chromedp.CSS("#editor-setup")))
	u.do("choosing seven", chromedp.SetValue(chromedp.CSS(`#editor-setup select[name="ruleset"]`), "seven"))
	u.waitFor("the 2×7 board", `document.querySelectorAll('#editor .hole-input').length === 14 && document.getElementById('editor').dataset.ruleset === 'seven'`, 10*time.Second)
	if got := eval[string](u, `document.getElementById('editor-fen').textContent`); got != toguz.FormatFEN(mustStart(t, toguz.Seven()), 1) {
		t.Errorf("the seven board's FEN is %q", got)
	}

	// A standard position, pasted.
	u.do("the standard editor", chromedp.Navigate(base+"/editor"), chromedp.WaitVisible(chromedp.CSS("#editor-paste")))
	p := toguz.StartPosition().After(7).After(6).After(9)
	fen := toguz.FormatFEN(p, 2)
	u.do("pasting a FEN", chromedp.SetValue(chromedp.CSS("#editor-paste"), fen),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('editor-paste').dispatchEvent(new Event('paste'))`))
	u.waitFor("the pasted position", `document.getElementById('editor-fen').textContent === `+jsString(fen), 10*time.Second)
	st := p.Setup()
	if got := eval[int](u, `+document.querySelector('#editor input[name="b6"]').value`); got != st.Board[toguz.Black][5] {
		t.Errorf("Black's hole 6 shows %d stones, the FEN has %d", got, st.Board[toguz.Black][5])
	}
	// Moving a stone from a hole to the kazan: the server's FEN follows.
	w1 := st.Board[toguz.White][0]
	u.do("editing", chromedp.SetValue(chromedp.CSS(`#editor input[name="w1"]`), itoa(w1-1)),
		chromedp.SetValue(chromedp.CSS(`#editor input[name="kw"]`), itoa(st.Kazan[0]+1)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('editor').dispatchEvent(new Event('input', {bubbles: true}))`))
	st.Board[toguz.White][0]--
	st.Kazan[0]++
	q, err := st.Position()
	if err != nil {
		t.Fatal(err)
	}
	u.waitFor("the edited position's FEN", `document.getElementById('editor-fen').textContent === `+jsString(toguz.FormatFEN(q, 1)), 10*time.Second)
}

func mustStart(t *testing.T, r toguz.Rules) toguz.Position {
	t.Helper()
	p, err := toguz.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }
