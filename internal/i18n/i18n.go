// Package i18n is the message catalog of every text the server shows to
// people. English is complete; Kazakh, Kyrgyz and Russian have their tables
// ready and fall back to English key by key until they are translated.
//
// # Index
//
//   - Catalog: the tables, one per language; T looks a key up in one
//     language with fmt-style arguments, falling back to English and, for an
//     unknown key, to the key itself (so a missing text shows, never panics).
//   - Languages: the languages the server offers (en, kk, ky, ru).
//   - Match: the best language for an Accept-Language header.
//   - HoleNames: the traditional names of the holes 1..9 in Kazakh and Kyrgyz.
package i18n

import (
	"fmt"
	"strings"
)

// Languages lists the languages of the catalog, English first.
var Languages = []string{"en", "kk", "ky", "ru"}

// Catalog holds the message tables.
type Catalog struct {
	tables map[string]map[string]string
}

// New returns the built-in catalog.
func New() *Catalog {
	return &Catalog{tables: map[string]map[string]string{"en": english, "kk": kazakh, "ky": kyrgyz, "ru": russian}}
}

// T returns the text of key in lang, formatted with args.
func (c *Catalog) T(lang, key string, args ...any) string {
	s, ok := c.tables[lang][key]
	if !ok {
		if s, ok = english[key]; !ok {
			s = key
		}
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// Has reports whether the English table has key (tests check that every key
// the templates use exists).
func (c *Catalog) Has(key string) bool { _, ok := english[key]; return ok }

// Keys returns the English keys.
func (c *Catalog) Keys() []string {
	keys := make([]string, 0, len(english))
	for k := range english {
		keys = append(keys, k)
	}
	return keys
}

// Match returns the first language of an Accept-Language header that the
// catalog has, or "en".
func Match(acceptLanguage string) string {
	for part := range strings.SplitSeq(acceptLanguage, ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		for _, l := range Languages {
			if l == base {
				return l
			}
		}
	}
	return "en"
}

// HoleNames returns the traditional names of holes 1..9 (seed 004's table):
// Kazakh for "kk", Kyrgyz for "ky"; other languages get the Kazakh names,
// the federation's.
func HoleNames(lang string) [9]string {
	if lang == "ky" {
		return [9]string{"куйрук", "ат өтпөс", "жаман үй", "далы", "бел", "ак колтук", "эки тишти", "көк моюн", "ооз"}
	}
	return [9]string{"арт", "тектұрмас", "атөтпес", "атсыратар", "бел", "белбасар", "қандықақпан", "көкмойын", "маңдай"}
}

// Translations: keys are added in English first; the other tables are
// filled in by translators.
var (
	kazakh  = map[string]string{"site.name": "Тоғызқұмалақ"}
	kyrgyz  = map[string]string{"site.name": "Тогуз коргоол"}
	russian = map[string]string{"site.name": "Тогыз кумалак"}
)
