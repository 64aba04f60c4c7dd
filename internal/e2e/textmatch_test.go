package e2e

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/toguz/toguz/internal/i18n"
)

// textMatcher tells whether a text seen on a page is a text of one
// language: one of its catalog texts (a formatted one with its fmt verbs
// matching anything), several such texts in a row, or between them only
// numbers, clocks, punctuation and symbols ("Error 404", "White: Tuzdik",
// "5+3", "1:05"). A catalog text with nothing but verbs ("%s") says
// nothing about the language and is left out, so that it cannot match
// anything.
type textMatcher struct {
	lang string
	re   *regexp.Regexp
}

// fmtVerb is a fmt verb of a catalog text: %s, %d, %[2]s, %.1f, %q, ….
var fmtVerb = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*\d*(?:\.\d+)?[a-zA-Z%]`)

// newTextMatcher builds the matcher of lang from every text of the
// catalog in that language (each plural form) and the holes' names and
// their meanings.
func newTextMatcher(cat *i18n.Catalog, lang string) *textMatcher {
	var alts []string
	// A hole's name may be two words (Kyrgyz "көк моюн"): an argument may
	// be one of them too.
	var names []string
	for _, n := range i18n.HoleNames(lang) {
		names = append(names, regexp.QuoteMeta(n))
	}
	word := `(?:` + strings.Join(names, "|") + `|\S+?)`
	add := func(s string) {
		s = strings.Join(strings.Fields(s), " ")
		if !hasLetter(fmtVerb.ReplaceAllString(s, "")) {
			return
		}
		var b strings.Builder
		last := 0
		for _, loc := range fmtVerb.FindAllStringIndex(s, -1) {
			b.WriteString(regexp.QuoteMeta(s[last:loc[0]]))
			switch v := s[loc[0]:loc[1]]; {
			case v == "%%":
				b.WriteString("%")
			case strings.ContainsAny(v[len(v)-1:], "dfg"):
				b.WriteString(`[-+]?[\d.,]+`)
			default:
				// One word: an argument is a name, an id, a clock or a
				// translated word, and a wider wildcard would let "Ойын %s"
				// pass "Ойын түрі Ruleset".
				b.WriteString(word)
			}
			last = loc[1]
		}
		b.WriteString(regexp.QuoteMeta(s[last:]))
		alts = append(alts, b.String())
	}
	for _, k := range cat.Keys() {
		for _, s := range cat.Texts(lang, k) {
			add(s)
		}
	}
	for _, n := range i18n.HoleNames(lang) {
		add(n)
	}
	for _, h := range i18n.Holes(lang) { // the names' meanings, in ru and en
		add(h.Gloss)
	}
	other := `[\p{N}\p{P}\p{S}\s]`
	return &textMatcher{lang: lang, re: regexp.MustCompile(`^(?:` + strings.Join(alts, "|") + `|` + other + `)+$`)}
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// match reports whether text, as a page shows it, is of the language.
func (m *textMatcher) match(text string) bool {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return true
	}
	return m.re.MatchString(text)
}

// TestTextMatcher: the matcher of the visible-text test accepts a
// language's texts (formatted ones too, and several in a row) with
// numbers, clocks and punctuation, and refuses a text of another language,
// such as an English one on a Kazakh page.
func TestTextMatcher(t *testing.T) {
	cat := i18n.New()
	kk, en := newTextMatcher(cat, "kk"), newTextMatcher(cat, "en")
	for _, tc := range []struct {
		m    *textMatcher
		text string
		want bool
	}{
		{kk, cat.T("kk", "form.ruleset"), true},
		{kk, cat.T("kk", "ruleset.seven.help"), true},
		{kk, cat.T("kk", "form.level.range", 10), true},
		{kk, cat.T("kk", "lobby.ruleset") + ": " + cat.T("kk", "ruleset.bestemshe"), true},
		{kk, "5+3", true},
		{kk, "1:05 · 12", true},
		{kk, "∑ 162 / 162", true},
		{kk, "маңдай", true}, // a hole's name
		{kk, cat.T("en", "form.ruleset"), false},
		{kk, cat.T("en", "ruleset.seven.help"), false},
		{kk, cat.T("en", "form.level.range", 10), false},
		{kk, cat.T("kk", "form.ruleset") + " Ruleset", false},
		{kk, "aigul", false}, // a name not marked translate="no"
		{en, cat.T("en", "form.level.range", 10), true},
		{en, cat.T("en", "form.level.range", 12) + " now", false},
		{en, cat.T("kk", "form.ruleset"), false},
		{en, "Engine level (1–x)", false}, // %d takes a number only
	} {
		if got := tc.m.match(tc.text); got != tc.want {
			t.Errorf("%s: match(%q) = %v, want %v", tc.m.lang, tc.text, got, tc.want)
		}
	}
}
