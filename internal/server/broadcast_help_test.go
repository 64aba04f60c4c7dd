package server

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/i18n"
)

// TestBroadcastEntryHelp: the plies the entry form's help gives as an
// example are accepted as typed, in every language, and a refused ply's
// error says why once.
func TestBroadcastEntryHelp(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok, id := s.newBroadcast("arbiter", 5)
	c := s.browser()
	if code, _, _ := postForm(t, c, s.URL+"/login", url.Values{"name": {"arbiter"}, "password": {"correct horse"}}); code != 303 {
		t.Fatalf("login: %d", code)
	}
	cat := i18n.New()
	example := regexp.MustCompile(`\d\d(?: \d\d)*x`)
	for board, lang := range []string{"en", "kk", "ky", "ru"} {
		help := cat.T(lang, "broadcast.plies_help")
		plies := example.FindString(help)
		if plies == "" {
			t.Fatalf("%s: no example in the help %q", lang, help)
		}
		if code, m := s.do("POST", fmt.Sprintf("/api/broadcasts/%d/games", id), tok, map[string]any{"round": 1, "board": board + 1, "white": "A", "black": "B"}); code != 201 {
			t.Fatalf("add game: %d %v", code, m)
		}
		gid := int64(s.bcGames(id, 1)[board].(map[string]any)["id"].(float64))
		c.Jar.SetCookies(mustURL(t, s.URL), []*http.Cookie{{Name: "lang", Value: lang}})
		code, _, body := postForm(t, c, s.URL+fmt.Sprintf("/broadcast/%d/game/%d/plies", id, gid), url.Values{"round": {"1"}, "plies": {plies}})
		if code != 303 {
			t.Errorf("%s: the help's example %q: %d %s", lang, plies, code, regexp.MustCompile(`id="bc-error"[^>]*>[^<]*`).FindString(body))
		}
	}
	c.Jar.SetCookies(mustURL(t, s.URL), []*http.Cookie{{Name: "lang", Value: "en"}})
	gid := int64(s.bcGames(id, 1)[0].(map[string]any)["id"].(float64))
	code, _, body := postForm(t, c, s.URL+fmt.Sprintf("/broadcast/%d/game/%d/plies", id, gid), url.Values{"round": {"1"}, "plies": {"11"}})
	msg := regexp.MustCompile(`id="bc-error"[^>]*>([^<]*)`).FindStringSubmatch(body)
	if code != 400 || msg == nil || strings.Count(msg[1], "lands on") != 1 {
		t.Errorf("a wrong ply: %d, error %q; want the reason once", code, msg)
	}
}
