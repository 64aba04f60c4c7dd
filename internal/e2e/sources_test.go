package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/lessons"
)

// internalSource matches what names the project's own files: the seed
// documents (by the word, by their files or by their numbers: "seed 000",
// "000-дерек", "источник 000"), the settled rules' file and the docs folder.
var internalSource = regexp.MustCompile(`(?i)seed|RULES\.md|docs/|\.md\b|\.txt\b|\b00[0-4]-\p{L}|\p{L} 00[0-4]\b`)

var (
	cyrillic = regexp.MustCompile(`\p{Cyrillic}`)
	latin    = regexp.MustCompile(`[A-Za-z]`)
)

// pageTexts is what a page shows in words (its rendered text, and the
// alternative texts and titles of its elements) and its quotations, each
// with its lang attribute.
const pageTexts = `(() => {
  const texts = [document.body.innerText];
  for (const el of document.body.querySelectorAll('[alt], [title], [aria-label]')) {
    for (const a of ['alt', 'title', 'aria-label']) {
      const v = (el.getAttribute(a) || '').trim();
      if (v) texts.push(v);
    }
  }
  const quotes = Array.from(document.body.querySelectorAll('q, blockquote')).map(q => ({
    Lang: (q.closest('[lang]') || document.documentElement).getAttribute('lang') || '',
    Text: q.textContent.replace(/\s+/g, ' ').trim(),
  }));
  return {Texts: texts, Quotes: quotes};
})()`

// TestLearningPagesCiteNamedSources: /learn, each lesson, /rules, /history
// and /key, in every language, never show players the project's own files
// as sources (a seed file, RULES.md, docs/…) but the books and articles by
// name; a page in Kazakh, Kyrgyz or Russian quotes nothing in English, and
// a page in Kazakh in the Latin alphabet quotes nothing in Cyrillic.
func TestLearningPagesCiteNamedSources(t *testing.T) {
	base, browser, _ := setup(t)
	paths := []string{"/learn", "/rules", "/history", "/key"}
	for _, l := range lessons.All() {
		paths = append(paths, "/learn/"+l.ID)
	}
	for _, lang := range i18n.Languages() {
		t.Run(lang.Tag, func(t *testing.T) {
			u := newUser(t, browser, base, "reader-"+lang.Tag)
			u.setLang(lang.Tag)
			for _, path := range paths {
				u.do("opening "+path, chromedp.Navigate(base+path))
				u.waitFor(path+" loaded", `document.readyState === 'complete' && document.documentElement.lang !== ''`, 10*time.Second)
				if got := eval[string](u, `document.documentElement.lang`); got != lang.Tag {
					t.Fatalf("%s is in %q, not %s", path, got, lang.Tag)
				}
				type quote struct{ Lang, Text string }
				shown := eval[struct {
					Texts  []string
					Quotes []quote
				}](u, pageTexts)
				for _, text := range shown.Texts {
					for _, line := range strings.Split(text, "\n") {
						if internalSource.MatchString(line) {
							t.Errorf("%s %s names the project's own files: %q", lang.Tag, path, strings.TrimSpace(line))
						}
					}
				}
				for _, q := range shown.Quotes {
					switch {
					// A quotation in Latin letters is English on a Cyrillic
					// page; on a kk-Latn page its lang attribute tells.
					case lang.Tag != "en" && (strings.HasPrefix(q.Lang, "en") || lang.Tag != "kk-Latn" && latin.MatchString(q.Text) && !cyrillic.MatchString(q.Text)):
						t.Errorf("%s %s quotes English: %q (lang %q)", lang.Tag, path, q.Text, q.Lang)
					case lang.Tag == "kk-Latn" && cyrillic.MatchString(q.Text):
						t.Errorf("%s %s quotes in Cyrillic: %q", lang.Tag, path, q.Text)
					}
				}
			}
		})
	}
}
