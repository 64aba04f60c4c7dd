package i18n

import (
	"regexp"
	"slices"
	"testing"
)

func TestMatch(t *testing.T) {
	c := New()
	for _, tc := range []struct{ header, want string }{
		{"", "en"},
		{"kk-KZ,kk;q=0.9,ru;q=0.8", "kk"},
		{"kk-Latn-KZ", "kk-Latn"},
		{"ru-RU,ru;q=0.9", "ru"},
		{"ky", "ky"},
		{"ky-KG,ru;q=0.5", "ky"},
		{"de-DE,de;q=0.9,ru;q=0.5", "ru"},
		{"fr", "en"},
		{"*", "en"},
		{"not a header;;;", "en"},
	} {
		if got := c.Match(tc.header); got != tc.want {
			t.Errorf("Match(%q) = %q, want %q", tc.header, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{{"kk", "kk", true}, {"KK-latn", "kk-Latn", true}, {"ru", "ru", true}, {"de", "", false}, {"", "", false}} {
		if got, ok := Parse(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("Parse(%q) = %q, %v", tc.in, got, ok)
		}
	}
}

func TestT(t *testing.T) {
	c := New()
	for _, tc := range []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"en", "site.name", nil, "Toguz Kumalak"},
		{"kk", "site.name", nil, "Тоғызқұмалақ"},
		{"kk-Latn", "site.name", nil, "Toğyzqūmalaq"},
		{"ky", "site.name", nil, "Тогуз коргоол"},
		{"en", "game.hole", []any{7}, "Hole 7"},
		{"xx", "game.tomove", []any{"White"}, "White to move"},
		{"en", "no.such.key", nil, "no.such.key"},
	} {
		if got := c.T(tc.lang, tc.key, tc.args...); got != tc.want {
			t.Errorf("T(%s, %s) = %q, want %q", tc.lang, tc.key, got, tc.want)
		}
	}
}

// TestN checks the plural forms on a table of test entries: Russian has
// four forms, English, Kazakh and Kyrgyz two.
func TestN(t *testing.T) {
	c := New()
	c.tables["ru"]["test.stones"] = text{forms: map[string]string{"one": "%d камень", "few": "%d камня", "many": "%d камней"}}
	c.tables["en"]["test.stones"] = text{forms: map[string]string{"one": "%d stone", "other": "%d stones"}}
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"ru", 1, "1 камень"}, {"ru", 2, "2 камня"}, {"ru", 5, "5 камней"}, {"ru", 11, "11 камней"},
		{"ru", 21, "21 камень"}, {"ru", 22, "22 камня"}, {"ru", 0, "0 камней"},
		{"en", 1, "1 stone"}, {"en", 0, "0 stones"}, {"en", 81, "81 stones"},
		{"kk", 3, "3 stones"}, // not in kk's table: English
	} {
		if got := c.N(tc.lang, "test.stones", tc.n, tc.n); got != tc.want {
			t.Errorf("N(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
	if f := c.Forms("ru"); !slices.Equal(f, []string{"one", "few", "many"}) {
		t.Errorf("Forms(ru) = %v", f)
	}
	for _, l := range []string{"en", "kk", "kk-Latn", "ky"} {
		if f := c.Forms(l); !slices.Equal(f, []string{"one", "other"}) {
			t.Errorf("Forms(%s) = %v", l, f)
		}
	}
}

// TestLatin transliterates Wikipedia's sample of the 2021 alphabet.
func TestLatin(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Бұрыңғы өткен заманда, бір данышпан кісі, Бағдат шаһарының бір үлкен қазысының үйіне келіп қоныпты.",
			"Būryñğy ötken zamanda, bır danyşpan kısı, Bağdat şaharynyñ bır ülken qazysynyñ üiıne kelıp qonypty."},
		{"Сонда қазы қорқып, — „Бұл маған келген бала", "Sonda qazy qorqyp, — „Būl mağan kelgen bala"},
		{"Тұздық %d", "Tūzdyq %d"},
		{"Ойыншы %s", "Oiynşy %s"},
		// и before я, ю is not written twice, as 2021 texts spell it.
		{"Құпиясөз", "Qūpiasöz"},
		{"Түркия, сияқты, партиясына, кию", "Türkia, siaqty, partiasyna, kiu"},
		{"Ия, ИЯ", "Ia, IA"},
		// ц is s, as Kazakh says it.
		{"позицияға, секциясының", "pozisiağa, seksiasynyñ"},
		// A letter of two in a word in capitals is capitals.
		{"ЮНЕСКО, Юлия, ЩИ", "IUNESKO, Iulia, ŞŞİ"},
	} {
		if got := Latin(tc.in); got != tc.want {
			t.Errorf("Latin(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

var verbs = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[a-zA-Z%]`)

// TestCatalogComplete fails on any key missing in any of the five
// languages, on a plural form a language needs and lacks, and on a
// translation whose fmt verbs differ from the English text's.
func TestCatalogComplete(t *testing.T) {
	c := New()
	for _, l := range Languages() {
		for _, k := range c.Keys() {
			en := c.tables["en"][k]
			tr, ok := c.tables[l.Tag][k]
			if !ok {
				t.Errorf("%s: no text for %q (English: %q)", l.Tag, k, c.T("en", k))
				continue
			}
			if (en.forms == nil) != (tr.forms == nil) {
				t.Errorf("%s: %q: plural forms in one language and not the other", l.Tag, k)
				continue
			}
			want := verbs.FindAllString(en.plain+en.forms["other"], -1)
			if tr.forms == nil {
				if got := verbs.FindAllString(tr.plain, -1); !slices.Equal(got, want) {
					t.Errorf("%s: %q: verbs %v, English has %v", l.Tag, k, got, want)
				}
				continue
			}
			for _, f := range c.Forms(l.Tag) {
				s, ok := tr.forms[f]
				if !ok {
					t.Errorf("%s: %q lacks the plural form %q", l.Tag, k, f)
					continue
				}
				if got := verbs.FindAllString(s, -1); !slices.Equal(got, want) {
					t.Errorf("%s: %q[%s]: verbs %v, English has %v", l.Tag, k, f, got, want)
				}
			}
		}
		for k := range c.tables[l.Tag] {
			if !c.Has(k) {
				t.Errorf("%s has key %q, which English does not", l.Tag, k)
			}
		}
	}
}

// TestLocaleFiles: every locale file is a JSON object of texts, and no key
// is in two files of a language (New panics otherwise; this names them).
func TestLocaleFiles(t *testing.T) {
	for _, l := range Languages() {
		if _, err := readTable(l.Tag); err != nil {
			t.Error(err)
		}
	}
}

// TestHoleNames: each language's nine names, the glosses where the
// reader needs them, and the Latin spellings of the glossary.
func TestHoleNames(t *testing.T) {
	for _, tc := range []struct {
		lang                  string
		first, seventh, ninth HoleName
		str                   string // String of hole 1
	}{
		{"kk", HoleName{"арт", ""}, HoleName{"қандықақпан", ""}, HoleName{"маңдай", ""}, "арт"},
		{"kk-Latn", HoleName{"art", ""}, HoleName{"qandyqaqpan", ""}, HoleName{"mañdai", ""}, "art"},
		{"ky", HoleName{"куйрук", ""}, HoleName{"эки тишти", ""}, HoleName{"ооз", ""}, "куйрук"},
		{"ru", HoleName{"арт", "зад"}, HoleName{"қандықақпан", "кровавый капкан"}, HoleName{"маңдай", "лоб"}, "арт — зад"},
		{"en", HoleName{"art", "back"}, HoleName{"qandyqaqpan", "bloody trap"}, HoleName{"mañdai", "forehead"}, "art — back"},
		{"xx", HoleName{"art", "back"}, HoleName{"qandyqaqpan", "bloody trap"}, HoleName{"mañdai", "forehead"}, "art — back"},
	} {
		hs := Holes(tc.lang)
		if hs[0] != tc.first || hs[6] != tc.seventh || hs[8] != tc.ninth || hs[0].String() != tc.str {
			t.Errorf("Holes(%s) = %v", tc.lang, hs)
		}
		names, glosses := HoleNames(tc.lang), HoleGlosses(tc.lang)
		for i, h := range hs {
			if h.Name == "" || names[i] != h.Name || glosses[i] != h.Gloss {
				t.Errorf("%s: hole %d: %q %q, Holes has %v", tc.lang, i+1, names[i], glosses[i], h)
			}
			if (h.Gloss == "") != (tc.first.Gloss == "") {
				t.Errorf("%s: hole %d: gloss %q", tc.lang, i+1, h.Gloss)
			}
		}
	}
	want := [9]string{"art", "tektūrmas", "atötpes", "atsyratar", "bel", "belbasar", "qandyqaqpan", "kökmoiyn", "mañdai"}
	if got := HoleNames("kk-Latn"); got != want {
		t.Errorf("kk-Latn: %v, want %v", got, want)
	}
}
