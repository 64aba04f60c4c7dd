package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/toguz/toguz/internal/i18n"
)

// TestKeyStepper: on /key, in Kazakh and English, the form's calculation
// (base 8, 347 + 56) is shown one step at a time: the buttons and the
// arrow keys go through the steps, the third is the units' carry (one
// stone on to hole 2, seven into the kazan), Play runs to the last step,
// and the carry's highlight is not animated under prefers-reduced-motion.
func TestKeyStepper(t *testing.T) {
	base, browser, _ := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			u := newUser(t, browser, base, "key-"+lang)
			u.do("language", setCookie(base, "lang", lang))
			u.do("the key", chromedp.Navigate(base+"/key"), chromedp.WaitVisible(chromedp.CSS("#key-form")))
			u.do("the form", chromedp.SetValue(chromedp.CSS("#key-base"), "8"), chromedp.SetValue(chromedp.CSS("#key-a"), "347"),
				chromedp.SetValue(chromedp.CSS("#key-op"), "add"), chromedp.SetValue(chromedp.CSS("#key-b"), "56"),
				click(chromedp.CSS("#key-submit")))
			u.waitFor("the stepper", `location.search.includes('a=347') && document.querySelector('#key-stepper.stepping')`, 10*time.Second)
			shown := func() int {
				return eval[int](u, `[...document.querySelectorAll('.key-step')].filter(s => !s.hidden).map(s => +s.dataset.step).concat([0])[0]`)
			}
			status := func() string { return eval[string](u, `document.getElementById('key-status').textContent`) }
			if n := eval[int](u, `[...document.querySelectorAll('.key-step')].filter(s => !s.hidden).length`); n != 1 || shown() != 1 {
				t.Fatalf("%d steps shown, the first %d", n, shown())
			}
			if got, want := status(), cat.T(lang, "key.step.n", 1, 5); got != want {
				t.Errorf("status %q, want %q", got, want)
			}
			if !eval[bool](u, `document.getElementById('key-prev').disabled`) {
				t.Errorf("Previous is enabled on the first step")
			}
			u.do("next, next", click(chromedp.CSS("#key-next")), click(chromedp.CSS("#key-next")))
			if shown() != 3 {
				t.Fatalf("after two Next: step %d", shown())
			}
			step := `document.getElementById('key-step-3')`
			if h := eval[string](u, step+`.querySelector('.key-heading').textContent`); !strings.Contains(h, cat.T(lang, "key.step.carry", 1, 1)) {
				t.Errorf("step 3 says %q", h)
			}
			if got := eval[string](u, step+`.querySelector('.key-first td.to').textContent + '/' + `+step+`.querySelector('.key-first td.from').textContent + '/' + `+step+`.querySelector('.k1').textContent`); got != "5/5/7" {
				t.Errorf("step 3: carried-to hole / emptied hole / kazan = %s, want 5/5/7", got)
			}
			if got, want := eval[string](u, step+`.querySelector('.key-moves li').textContent`), cat.T(lang, "key.move", cat.T(lang, "key.ref.first", 1), cat.T(lang, "key.ref.first", 2), 1); got != want {
				t.Errorf("the carry's move %q, want %q", got, want)
			}
			if a := eval[string](u, `getComputedStyle(`+step+`.querySelector('td.to')).animationName`); a != "key-land" {
				t.Errorf("the carry is not animated: %q", a)
			}
			u.do("arrow left", chromedp.Focus(chromedp.CSS("#key-next")), chromedp.KeyEvent(kb.ArrowLeft))
			u.waitFor("step 2", `document.getElementById('key-stepper').dataset.current === '2'`, 5*time.Second)
			u.do("play", click(chromedp.CSS("#key-play")))
			u.waitFor("the last step", `document.getElementById('key-stepper').dataset.current === '5' && document.getElementById('key-play').getAttribute('aria-pressed') === 'false'`, 10*time.Second)
			if got := eval[string](u, `document.getElementById('key-step-5').querySelector('.key-first').textContent.replace(/\s+/g, '')`); !strings.HasPrefix(got, "524") {
				t.Errorf("the last step's first row %q, want 5 2 4 (425 in base 8, units first)", got)
			}
			if got := eval[string](u, `document.getElementById('key-sentence').textContent`); got != "347 + 56 = 425" {
				t.Errorf("result %q", got)
			}
			if _, err := chromedp.Call(u.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
				t.Fatal(err)
			}
			if a := eval[string](u, `getComputedStyle(document.querySelector('#key-step-3 td.to')).animationName`); a != "none" {
				t.Errorf("reduced motion: the carry is animated (%q)", a)
			}
		})
	}
}
