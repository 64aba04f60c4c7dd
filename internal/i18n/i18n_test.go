package i18n

import "testing"

func TestMatch(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"", "en"},
		{"kk-KZ,kk;q=0.9,ru;q=0.8", "kk"},
		{"ru-RU,ru;q=0.9", "ru"},
		{"ky", "ky"},
		{"de-DE,de;q=0.9,ru;q=0.5", "ru"},
		{"fr", "en"},
		{"*", "en"},
	} {
		if got := Match(tc.header); got != tc.want {
			t.Errorf("Match(%q) = %q, want %q", tc.header, got, tc.want)
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
		{"ky", "site.name", nil, "Тогуз коргоол"},
		{"ru", "nav.login", nil, "Log in"}, // not translated yet: English
		{"en", "game.hole", []any{7}, "Hole 7"},
		{"xx", "game.tomove", []any{"White"}, "White to move"},
		{"en", "no.such.key", nil, "no.such.key"},
	} {
		if got := c.T(tc.lang, tc.key, tc.args...); got != tc.want {
			t.Errorf("T(%s, %s) = %q, want %q", tc.lang, tc.key, got, tc.want)
		}
	}
}

// TestTranslationsHaveEnglishKeys: a translated key that English lacks is a
// typo.
func TestTranslationsHaveEnglishKeys(t *testing.T) {
	for lang, table := range map[string]map[string]string{"kk": kazakh, "ky": kyrgyz, "ru": russian} {
		for k := range table {
			if _, ok := english[k]; !ok {
				t.Errorf("%s has key %q, which English does not", lang, k)
			}
		}
	}
}

func TestHoleNames(t *testing.T) {
	if n := HoleNames("kk"); n[0] != "арт" || n[8] != "маңдай" {
		t.Errorf("kk: %v", n)
	}
	if n := HoleNames("ky"); n[0] != "куйрук" || n[8] != "ооз" {
		t.Errorf("ky: %v", n)
	}
}
