package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/i18n"
)

// TestAPIDocPage: /api is the API's reference, a page of the site in the
// visitor's language around the English reference, each section in its
// table of contents, and no project file named as a source; /api/… stays
// the JSON API, whose unknown paths answer JSON.
func TestAPIDocPage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	for _, lang := range []string{"en", "kk"} {
		c.Jar.SetCookies(mustURL(t, s.URL), []*http.Cookie{{Name: "lang", Value: lang}})
		code, body := get(t, c, s.URL+"/api")
		if code != 200 || !strings.Contains(body, `<html lang="`+lang) {
			t.Fatalf("%s: GET /api: %d, %.200q", lang, code, body)
		}
		for _, want := range []string{i18n.New().T(lang, "apidoc.title"), `href="#bot-and-board-api"`, `id="bot-and-board-api"`, "<table>", "POST /api/seeks"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: /api lacks %q", lang, want)
			}
		}
		for _, never := range []string{"docs/", ".md", "seed 0", "RULES"} {
			if strings.Contains(body, never) {
				t.Errorf("%s: /api names %q", lang, never)
			}
		}
	}
	code, body := get(t, c, s.URL+"/api/nowhere")
	if code != 404 || !strings.Contains(body, `"not_found"`) {
		t.Errorf("GET /api/nowhere: %d %.100q, want the JSON 404", code, body)
	}
}
