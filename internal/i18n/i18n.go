// Package i18n is the message catalog of every text the server shows to
// people, in the five interface languages: English, Kazakh in Cyrillic,
// Kazakh in the Latin script of 2021, Kyrgyz and Russian.
//
// # Index
//
//   - locales/<tag>/*.json: the table of each language, key → text, in
//     files by area (site.json, game.json, …) so that a key lives in the
//     file of the same name in every language. A key in two files of one
//     language is an error. A text is a
//     string with fmt verbs, or, where it counts something, an object of
//     CLDR plural forms ("one", "few", "many", "other"). English is the
//     reference: every key exists there, and TestCatalogComplete fails on a
//     key that another language lacks, a plural form it needs and lacks, or
//     verbs that differ from the English text's.
//   - kk-Latn is Kazakh transliterated by Latin (the 2021 alphabet); its
//     file holds only the texts where a transliteration is not the right
//     spelling.
//   - Catalog.T looks a key up with fmt-style arguments; Catalog.N chooses a
//     plural form for a count first (golang.org/x/text/feature/plural). A
//     key missing in a language falls back to English, an unknown key to the
//     key itself, so that a gap shows and never panics.
//   - Languages, Match (Accept-Language by golang.org/x/text/language) and
//     Parse (a language the user chose).
//   - Holes, HoleNames, HoleGlosses: the traditional names of the holes
//     1..9 in each language, with a gloss of their meaning for ru and en.
//     termination (errors.json's outcome.* keys).
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

//go:embed locales
var locales embed.FS

// Language is an interface language.
type Language struct {
	Tag  string // BCP 47: en, kk, kk-Latn, ky, ru
	Name string // its own name for itself
}

// Languages returns the languages of the catalog, English first.
func Languages() []Language {
	return []Language{
		{"en", "English"},
		{"kk", "Қазақша"},
		{"kk-Latn", "Qazaqşa"},
		{"ky", "Кыргызча"},
		{"ru", "Русский"},
	}
}

// text is one entry: a plain text, or plural forms keyed by CLDR name.
type text struct {
	plain string
	forms map[string]string
}

func (t *text) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' {
		return json.Unmarshal(b, &t.forms)
	}
	return json.Unmarshal(b, &t.plain)
}

// form returns the plural form f, or another where the table lacks it
// (Russian integers never take "other").
func (t text) form(f string) string {
	for _, f := range []string{f, "other", "many", "one"} {
		if s, ok := t.forms[f]; ok {
			return s
		}
	}
	return ""
}

// pluralForms names the CLDR forms a locale file may hold.
var pluralForms = map[plural.Form]string{
	plural.Zero: "zero", plural.One: "one", plural.Two: "two",
	plural.Few: "few", plural.Many: "many", plural.Other: "other",
}

// Catalog holds the message tables. It is read-only after New.
type Catalog struct {
	tables  map[string]map[string]text
	tags    []language.Tag
	matcher language.Matcher
}

// New returns the built-in catalog. The locale files are part of the binary
// and checked by the package's tests, so a malformed one panics here.
func New() *Catalog {
	c := &Catalog{tables: map[string]map[string]text{}}
	for _, l := range Languages() {
		c.tags = append(c.tags, language.MustParse(l.Tag))
		table, err := readTable(l.Tag)
		if err != nil {
			panic(err)
		}
		c.tables[l.Tag] = table
	}
	// Kazakh in Latin script: the Cyrillic texts transliterated, where the
	// file has no spelling of its own.
	latn := c.tables["kk-Latn"]
	for k, t := range c.tables["kk"] {
		if _, ok := latn[k]; ok {
			continue
		}
		l := text{plain: Latin(t.plain)}
		if t.forms != nil {
			l.forms = map[string]string{}
			for f, s := range t.forms {
				l.forms[f] = Latin(s)
			}
		}
		latn[k] = l
	}
	c.matcher = language.NewMatcher(c.tags)
	return c
}

// readTable reads and merges the locale files of lang.
func readTable(lang string) (map[string]text, error) {
	dir := "locales/" + lang
	files, err := fs.Glob(locales, dir+"/*.json")
	if err != nil {
		return nil, err
	}
	table := map[string]text{}
	from := map[string]string{}
	for _, f := range files {
		b, err := locales.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("i18n: %w", err)
		}
		var part map[string]text
		if err := json.Unmarshal(b, &part); err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", f, err)
		}
		for k, t := range part {
			if other, ok := from[k]; ok {
				return nil, fmt.Errorf("i18n: %s: key %q is also in %s", f, k, other)
			}
			table[k], from[k] = t, f
		}
	}
	return table, nil
}

// lookup returns the entry of key in lang, falling back to English.
func (c *Catalog) lookup(lang, key string) (text, bool) {
	if t, ok := c.tables[lang][key]; ok {
		return t, true
	}
	t, ok := c.tables["en"][key]
	return t, ok
}

// T returns the text of key in lang, formatted with args. A plural text
// takes its "other" form.
func (c *Catalog) T(lang, key string, args ...any) string {
	t, ok := c.lookup(lang, key)
	if !ok {
		return key
	}
	s := t.plain
	if t.forms != nil {
		s = t.form("other")
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// N returns the text of key in lang in the plural form that n takes in
// that language, formatted with args (n is not an argument unless passed).
func (c *Catalog) N(lang, key string, n int, args ...any) string {
	t, ok := c.lookup(lang, key)
	if !ok {
		return key
	}
	s := t.plain
	if t.forms != nil {
		s = t.form(pluralForms[c.pluralForm(lang, n)])
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

func (c *Catalog) pluralForm(lang string, n int) plural.Form {
	tag, err := language.Parse(lang)
	if err != nil {
		tag = language.English
	}
	if base, _ := tag.Base(); base.String() == "kk" {
		tag = language.Kazakh // x/text has the rules of kk, not of kk-Latn
	}
	return plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)
}

// Forms returns the CLDR plural forms that lang's whole numbers take, such
// as [one other] for English and [one few many] for Russian.
func (c *Catalog) Forms(lang string) []string {
	seen := map[string]bool{}
	for n := range 200 {
		seen[pluralForms[c.pluralForm(lang, n)]] = true
	}
	var forms []string
	for _, f := range []string{"zero", "one", "two", "few", "many", "other"} {
		if seen[f] {
			forms = append(forms, f)
		}
	}
	return forms
}

// Has reports whether the English table has key (tests check that every key
// the templates use exists).
func (c *Catalog) Has(key string) bool { _, ok := c.tables["en"][key]; return ok }

// Keys returns the English keys, sorted.
func (c *Catalog) Keys() []string {
	keys := make([]string, 0, len(c.tables["en"]))
	for k := range c.tables["en"] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Texts returns every text of key in lang: the plain text or each plural
// form. Tests use it to recognise a page's visible texts.
func (c *Catalog) Texts(lang, key string) []string {
	t, ok := c.tables[lang][key]
	if !ok {
		return nil
	}
	if t.forms == nil {
		return []string{t.plain}
	}
	var out []string
	for _, s := range t.forms {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Translated reports whether lang has a text of its own for key.
func (c *Catalog) Translated(lang, key string) bool { _, ok := c.tables[lang][key]; return ok }

// Match returns the language of the catalog that best fits an
// Accept-Language header, or "en".
func (c *Catalog) Match(acceptLanguage string) string {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return "en"
	}
	_, i, conf := c.matcher.Match(tags...)
	if conf == language.No {
		return "en"
	}
	return Languages()[i].Tag
}

// Parse returns the catalog's tag for a language the user chose (a cookie,
// a form, an account's setting): one of Languages' tags, matched without
// regard to case; ok is false for anything else.
func Parse(s string) (tag string, ok bool) {
	for _, l := range Languages() {
		if strings.EqualFold(s, l.Tag) {
			return l.Tag, true
		}
	}
	return "", false
}

// HoleName is the traditional name of a hole and, for a reader to whom the
// name is a foreign word, a short gloss of what it means.
type HoleName struct {
	Name  string // as the language's readers write it
	Gloss string // its meaning in the reader's language; "" where Name is his own word
}

// String returns the name, followed by its gloss where it has one:
// "арт — зад".
func (h HoleName) String() string {
	if h.Gloss == "" {
		return h.Name
	}
	return h.Name + " — " + h.Gloss
}

// The traditional names of holes 1..9 (seed 004's table, docs/glossary.md):
// hole 1 is the back (Kazakh арт, Kyrgyz куйрук "tail"), hole 9 the front
// (маңдай "forehead", ооз "mouth"). The Kyrgyz set is a set of its own, not
// a translation of the Kazakh one.
var (
	kazakhHoles  = [9]string{"арт", "тектұрмас", "атөтпес", "атсыратар", "бел", "белбасар", "қандықақпан", "көкмойын", "маңдай"}
	kyrgyzHoles  = [9]string{"куйрук", "ат өтпөс", "жаман үй", "далы", "бел", "ак колтук", "эки тишти", "көк моюн", "ооз"}
	russianGloss = [9]string{"зад", "не стоит без дела", "конь не пройдёт", "изнуряет коня", "пояс", "за поясом", "кровавый капкан", "сизая шея", "лоб"}
	englishGloss = [9]string{"back", "never idle", "no horse passes", "tires the horse", "waist", "past the waist", "bloody trap", "blue neck", "forehead"}
)

// Holes returns the names of holes 1..9 for readers of lang: Kazakh for
// "kk", Kazakh in Latin script for "kk-Latn", Kyrgyz for "ky"; for "ru"
// the Kazakh names (the federation's) with Russian glosses, and for "en"
// and any other language the Kazakh names in Latin script with English
// glosses.
func Holes(lang string) [9]HoleName {
	var hs [9]HoleName
	for i := range hs {
		switch lang {
		case "kk":
			hs[i] = HoleName{Name: kazakhHoles[i]}
		case "kk-Latn":
			hs[i] = HoleName{Name: Latin(kazakhHoles[i])}
		case "ky":
			hs[i] = HoleName{Name: kyrgyzHoles[i]}
		case "ru":
			hs[i] = HoleName{Name: kazakhHoles[i], Gloss: russianGloss[i]}
		default:
			hs[i] = HoleName{Name: Latin(kazakhHoles[i]), Gloss: englishGloss[i]}
		}
	}
	return hs
}

// HoleNames returns the names of Holes(lang) alone.
func HoleNames(lang string) [9]string {
	var ns [9]string
	for i, h := range Holes(lang) {
		ns[i] = h.Name
	}
	return ns
}

// HoleGlosses returns the glosses of Holes(lang): all "" for kk, kk-Latn
// and ky.
func HoleGlosses(lang string) [9]string {
	var gs [9]string
	for i, h := range Holes(lang) {
		gs[i] = h.Gloss
	}
	return gs
}
