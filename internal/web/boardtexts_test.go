package web

import (
	"regexp"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/i18n"
)

// TestBoardTexts: every text board.js asks for is in the catalog, board.js
// asks for no other, and a count comes with its plural forms (Russian's
// three).
func TestBoardTexts(t *testing.T) {
	cat := i18n.New()
	js, err := files.ReadFile("static/board.js")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, k := range boardTexts {
		listed[k] = true
		if !cat.Has(k) {
			t.Errorf("board.js's text %q is not in the catalog", k)
		}
		// esbuild writes the bundle's strings in double quotes.
		if !strings.Contains(string(js), "'"+k+"'") && !strings.Contains(string(js), `"`+k+`"`) &&
			k != "game.white" && k != "game.black" {
			t.Errorf("board.js does not use %q: drop it from boardTexts", k)
		}
	}
	for _, m := range regexpKey.FindAllStringSubmatch(string(js), -1) {
		if !listed[m[1]] {
			t.Errorf("board.js uses %q, which the page does not give it (boardTexts)", m[1])
		}
	}
	p := &Page{Lang: "ru", cat: cat}
	forms, ok := p.BoardTexts()["game.holelabel"].(map[string]string)
	if !ok || forms["few"] == "" || forms["many"] == "" {
		t.Errorf("ru game.holelabel: %v, want its plural forms", p.BoardTexts()["game.holelabel"])
	}
}

// regexpKey finds the catalog keys board.js names in full: its strings
// "game.…" (the bundle is minified: T and N go by other names).
var regexpKey = regexp.MustCompile(`['"](game\.[a-z]+)['"]`)
