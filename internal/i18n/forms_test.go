package i18n

import "testing"

// TestPlural: a page's script gets every plural form of a key (Russian's
// one, few and many), and a plain text as its "other" form.
func TestPlural(t *testing.T) {
	c := New()
	ru := c.Plural("ru", "game.holelabel")
	for _, f := range []string{"one", "few", "many"} {
		if ru[f] == "" {
			t.Errorf("ru game.holelabel has no %q form: %v", f, ru)
		}
	}
	if got := c.Plural("en", "game.drawyou"); got["other"] != "You offered a draw" {
		t.Errorf("en game.drawyou: %v", got)
	}
}
