package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// twoGames is a record of two games by different players.
const twoGames = `[Event "Кубок РК"]
[Date "2018.05.01"]
[White "Майра"]
[Black "Бауыржан"]
[Result "1-0"]

1. 76 98 1-0

[Event "Кубок РК"]
[Date "2018.05.02"]
[White "Abai"]
[Black "Майра"]
[Result "0-1"]

1. 76 98 2. 66 87 0-1
`

var gameLink = regexp.MustCompile(`href="/game/([A-Za-z0-9]{8})"`)

// importLinks imports record and returns the archive links of its games.
func importLinks(t *testing.T, s *testServer, c *http.Client, record string) ([]string, string) {
	t.Helper()
	ct, body := importForm("two.pgn", record)
	a := postImport(t, c, s.URL, ct, body)
	if a.status != 200 {
		t.Fatalf("import: %d %s", a.status, a.page)
	}
	var ids []string
	for _, m := range gameLink.FindAllStringSubmatch(a.page, -1) {
		ids = append(ids, m[1])
	}
	return ids, a.page
}

// TestImportStored: each game of a file is stored, listed with its link,
// replayable and exportable; importing it again links to the first.
func TestImportStored(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	ids, _ := importLinks(t, s, c, twoGames)
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("links %v, want two games", ids)
	}
	code, page := get(t, c, s.URL+"/game/"+ids[1])
	if code != 200 || !strings.Contains(page, `data-mode="replay"`) || !strings.Contains(page, "Abai") {
		t.Errorf("the second game's page: %d\n%.2000s", code, page)
	}
	resp, err := c.Get(s.URL + "/api/games/" + ids[1] + "/export?format=playok")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "66") || !strings.Contains(string(b), `[Event "Кубок РК"]`) || !strings.Contains(string(b), `[Date "2018.05.02"]`) {
		t.Errorf("export: %d %s", resp.StatusCode, b)
	}
	again, page := importLinks(t, s, c, twoGames)
	if len(again) != 2 || again[0] != ids[0] || again[1] != ids[1] || strings.Count(page, `class="duplicate"`) != 2 {
		t.Errorf("importing again: links %v, want the first import's %v, marked as duplicates", again, ids)
	}
	g, err := s.st.Game(t.Context(), ids[0])
	if err != nil || g.Source != store.SourceImport || g.Date.Format(time.DateOnly) != "2018-05-01" || g.Players[0].Name != "Майра" {
		t.Errorf("stored: %+v, %v", g, err)
	}
}

// TestImportDailyBound: an address stores at most Config.ImportsPerDay new
// games a day; beyond, the import stores nothing and says why.
func TestImportDailyBound(t *testing.T) {
	s := newTestServer(t, serverOpts{importsPerDay: 3})
	c := s.browser()
	if ids, _ := importLinks(t, s, c, twoGames); len(ids) != 2 {
		t.Fatalf("links %v", ids)
	}
	more := strings.ReplaceAll(twoGames, "2018.05", "2019.06") // two other games
	ct, body := importForm("more.pgn", more)
	a := postImport(t, c, s.URL, ct, body)
	if a.status != http.StatusTooManyRequests || !strings.Contains(a.page, `id="import-quota"`) || !strings.Contains(a.page, "at most 3 may be stored a day") {
		t.Errorf("over the bound: %d %.3000s", a.status, a.page)
	}
	if gs, _, _ := s.st.SearchGames(t.Context(), store.Search{Limit: 10}); len(gs) != 2 {
		t.Errorf("%d games stored, want 2: the refused import stored something", len(gs))
	}
}

type archiveAnswer struct {
	Games []site.GameSummary `json:"games"`
	More  bool               `json:"more"`
}

func getArchive(t *testing.T, s *testServer, query string) (int, archiveAnswer) {
	t.Helper()
	resp, err := http.Get(s.URL + "/api/archive?" + query)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a archiveAnswer
	json.NewDecoder(resp.Body).Decode(&a)
	return resp.StatusCode, a
}

// TestArchiveAPI: the search's filters and its bounds, over played and
// imported games.
func TestArchiveAPI(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ctx := t.Context()
	// A played game, finished, between an account and a guest.
	u, err := s.st.CreateUser(ctx, "Shokan", "x")
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{UserID: u.ID}, {Name: "Guest-1"}}, Rules: toguz.Standard(), Status: game.Playing}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.st.AppendMove(ctx, g.ID, store.Move{Ply: 1, Hole: 7}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.Draw, Termination: toguz.ByAgreement}); err != nil {
		t.Fatal(err)
	}
	var ims []store.Import
	for i := range 120 {
		ims = append(ims, store.Import{Players: [2]string{fmt.Sprintf("P%d", i%4), "Майра"}, Rules: toguz.Standard(),
			Moves: []toguz.Move{toguz.Move(i%9 + 1)}, Result: toguz.WhiteWins, Date: time.Date(2018, 1, 1+i%28, 0, 0, 0, 0, time.UTC)})
	}
	if _, err := s.st.ImportGames(ctx, "a:test", 0, ims); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		code  int
		n     int
		more  bool
	}{
		{"", 200, 50, true},
		{"limit=100&offset=100", 200, 21, false},
		{"player=shokan", 200, 1, false},
		{"player=guest-1", 200, 1, false},
		{"player=%D0%BC%D0%B0%D0%B9%D1%80%D0%B0&limit=100", 200, 100, true}, // майра
		{"player=P1&limit=100", 200, 30, false},
		{"source=play", 200, 1, false},
		{"source=import&limit=100&offset=100", 200, 20, false},
		{"result=1%2F2-1%2F2", 200, 1, false},
		{"result=1-0&limit=100", 200, 100, true},
		{"ruleset=bestemshe", 200, 0, false},
		{"from=2018-01-01&to=2018-01-02&limit=100", 200, 10, false},
		{"opening=7&limit=100", 200, 14, false},
		{"opening=1.+76+98&limit=100", 200, 0, false}, // 7 then 9: none has two moves
		{"opening=76", 200, 14, false},
		{"limit=101", 400, 0, false},
		{"limit=0", 400, 0, false},
		{"offset=99999", 400, 0, false},
		{"from=yesterday", 400, 0, false},
		{"result=win", 400, 0, false},
		{"source=elsewhere", 400, 0, false},
		{"opening=0", 400, 0, false},
		{"player=" + strings.Repeat("a", 101), 400, 0, false},
	} {
		code, a := getArchive(t, s, tc.query)
		if code != tc.code || len(a.Games) != tc.n || a.More != tc.more {
			t.Errorf("?%s: %d, %d games, more %v; want %d, %d, %v", tc.query, code, len(a.Games), a.More, tc.code, tc.n, tc.more)
		}
	}
	_, a := getArchive(t, s, "source=play")
	if len(a.Games) == 1 && (a.Games[0].Source != "play" || a.Games[0].White != "Shokan" || a.Games[0].Date == nil) {
		t.Errorf("played game: %+v", a.Games[0])
	}
}

// TestArchivePage: the page lists the games found with links, in the
// page's language, and pages through them.
func TestArchivePage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	importLinks(t, s, c, twoGames)
	req, _ := http.NewRequest("GET", s.URL+"/archive?player=abai", nil)
	req.AddCookie(&http.Cookie{Name: langCookie, Value: "kk"})
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(b)
	if resp.StatusCode != 200 || len(gameLink.FindAllString(page, -1)) != 1 || !strings.Contains(page, "Ойындар мұрағаты") || !strings.Contains(page, "2018-05-02") {
		t.Errorf("archive page: %d\n%s", resp.StatusCode, page)
	}
	code, page := get(t, c, s.URL+"/archive?from=nonsense")
	if code != 400 || !strings.Contains(page, `id="archive-error"`) || !strings.Contains(page, "“From” is not a date") {
		t.Errorf("a bad date: %d\n%s", code, page)
	}
	code, page = get(t, c, s.URL+"/archive?limit=1")
	if code != 200 || !strings.Contains(page, `id="archive-next"`) || !strings.Contains(page, "offset=1") {
		t.Errorf("first of two pages: %d, no link to the next", code)
	}
}

// TestAccountLanguage: the switcher stores a logged-in user's language,
// which then decides his pages where the browser has no cookie, and which
// a login applies (sets the cookie).
func TestAccountLanguage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	code, m := s.do("POST", "/api/signup", "", map[string]any{"name": "aigul", "password": "correct horse"})
	if code != http.StatusCreated {
		t.Fatalf("signup: %d %v", code, m)
	}
	tok := m["token"].(string)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	lang := func(cookie, accept string) string {
		req, _ := http.NewRequest("GET", s.URL+"/leaderboard", nil)
		req.AddCookie(&http.Cookie{Name: cookieName, Value: tok})
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: langCookie, Value: cookie})
		}
		req.Header.Set("Accept-Language", accept)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body := string(b)
		i := strings.Index(body, `<html lang="`)
		return body[i+12 : i+12+strings.Index(body[i+12:], `"`)]
	}
	if got := lang("", "ru"); got != "ru" {
		t.Errorf("no choice yet: %s, want Accept-Language's ru", got)
	}
	req, _ := http.NewRequest("POST", s.URL+"/lang", strings.NewReader(url.Values{"lang": {"ky"}, "back": {"/settings"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: cookieName, Value: tok})
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /lang: %d", resp.StatusCode)
	}
	if got := lang("", "ru"); got != "ky" {
		t.Errorf("account chose ky, no cookie, Accept-Language ru: %s", got)
	}
	if got := lang("en", "ru"); got != "en" {
		t.Errorf("cookie en over the account's ky: %s", got)
	}
	// The login applies it.
	resp, err = client.PostForm(s.URL+"/login", url.Values{"name": {"aigul"}, "password": {"correct horse"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var got string
	for _, c := range resp.Cookies() {
		if c.Name == langCookie {
			got = c.Value
		}
	}
	if got != "ky" {
		t.Errorf("login set the language cookie to %q, want ky", got)
	}
	// The settings page shows the choice.
	req, _ = http.NewRequest("GET", s.URL+"/settings", nil)
	req.AddCookie(&http.Cookie{Name: cookieName, Value: tok})
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `value="ky" lang="ky" selected`) {
		t.Errorf("settings: %d %s", resp.StatusCode, b)
	}
	if resp, _ := client.Get(s.URL + "/settings"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("settings without an account: %d, want a redirect to the login", resp.StatusCode)
	}
	// A sign-up keeps the language the browser chose.
	req, _ = http.NewRequest("POST", s.URL+"/signup", strings.NewReader(url.Values{"name": {"bolat"}, "password": {"correct horse"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: langCookie, Value: "ru"})
	if resp, err = client.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if u, err := s.st.UserByName(t.Context(), "bolat"); err != nil || u.Lang != "ru" {
		t.Errorf("signed up with the cookie ru: account's language %q, %v", u.Lang, err)
	}
}
