package server

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestImportCountPlural: the import page says how many games it read in
// the plural form the count takes in the page's language: Russian has three
// forms (1 партия, 2 партии, 5 партий; 21 is "one" again), English two.
func TestImportCountPlural(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	game := "[Ruleset \"standard\"]\n[Result \"*\"]\n\n1. 76 98 *\n\n"
	okLine := regexp.MustCompile(`id="import-ok">([^<]*)<`)
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"ru", 1, "Прочитана 1 партия."},
		{"ru", 2, "Прочитаны 2 партии."},
		{"ru", 5, "Прочитано 5 партий."},
		{"ru", 21, "Прочитана 21 партия."},
		{"en", 1, "1 game read."},
		{"en", 2, "2 games read."},
		{"ky", 2, "2 оюн окулду."},
	} {
		req, _ := http.NewRequest("POST", s.URL+"/import",
			strings.NewReader(url.Values{"text": {strings.Repeat(game, tc.n)}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: langCookie, Value: tc.lang})
		c := s.browser()
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := okLine.FindStringSubmatch(string(b))
		if resp.StatusCode != 200 || m == nil {
			t.Errorf("%s, %d games: %d, no import-ok line", tc.lang, tc.n, resp.StatusCode)
			continue
		}
		if !strings.HasPrefix(m[1], tc.want+" ") {
			t.Errorf("%s, %d games: %q, want %q", tc.lang, tc.n, m[1], tc.want)
		}
	}
}
