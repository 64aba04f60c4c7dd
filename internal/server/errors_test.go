package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"html"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
)

// requestIn sends a request with Accept-Language lang and returns the
// status and the body.
func requestIn(t *testing.T, c *http.Client, method, u, lang, contentType string, body []byte) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, u, bytes.NewReader(body))
	req.Header.Set("Accept-Language", lang)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var cyrillic = regexp.MustCompile(`\p{Cyrillic}`)

// TestAPIErrorLanguages: the same bad request in Russian, Kazakh and
// English gets the same status and code, and a message in that language
// that names what was wrong.
func TestAPIErrorLanguages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	g := s.guest()
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code                     apierr.Code
		key                      string
		args                     []any
		has                      string // a value the message names, in every language
	}{
		{"engine level", "POST", "/api/engine-games", `{"level":99,"color":"white"}`, 400, apierr.CodeBadLevel, "apierr.bad_level", []any{99, engine.MaxLevel}, "99"},
		{"time control", "POST", "/api/seeks", `{"tc":"5+zz"}`, 400, apierr.CodeBadTC, "apierr.bad_tc", []any{"5+zz"}, "5+zz"},
		{"colour", "POST", "/api/engine-games", `{"level":1,"color":"green"}`, 400, apierr.CodeBadRequest, "apierr.bad_color", []any{"green"}, "green"},
		{"JSON", "POST", "/api/seeks", `{"tc":`, 400, apierr.CodeBadRequest, "apierr.json_bad", nil, ""},
		{"no game", "GET", "/api/games/nosuchgame", "", 404, apierr.CodeNotFound, "apierr.no_game", []any{"nosuchgame"}, "nosuchgame"},
		{"no seek", "POST", "/api/seeks/nosuchseek/accept", "", 404, apierr.CodeNotFound, "apierr.no_seek", []any{"nosuchseek"}, "nosuchseek"},
		{"no seek to cancel", "DELETE", "/api/seeks/nosuchseek", "", 404, apierr.CodeNotFound, "apierr.no_seek", []any{"nosuchseek"}, "nosuchseek"},
		{"no player", "GET", "/api/users/nobody", "", 404, apierr.CodeNotFound, "apierr.no_player", []any{"nobody"}, "nobody"},
		{"name rule", "POST", "/api/signup", `{"name":"1abc","password":"long enough pass"}`, 400, apierr.CodeBadName, "account.name.start", nil, ""},
		{"name length", "POST", "/api/signup", `{"name":"abcdefghijklmnopqrstuvwxyz","password":"long enough pass"}`, 400, apierr.CodeBadName, "account.name.length", []any{2, 20, 26}, "26"},
		{"no session", "GET", "/api/me", "", 401, apierr.CodeUnauthenticated, "apierr.unauthenticated", nil, ""},
		{"no endpoint", "GET", "/api/nothing", "", 404, apierr.CodeNotFound, "apierr.no_endpoint", []any{"/api/nothing"}, "/api/nothing"},
		{"position", "POST", "/api/positions/check", `{"board":[[9,9,9,9,9,9,9,9,9],[9,9,9,9,9,9,9,9,9]],"kazan":[1,0]}`, 400, apierr.CodeBadPosition,
			"rules.position", []any{""}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var msgs []string
			for _, lang := range []string{"ru", "kk", "en"} {
				req, _ := http.NewRequest(tc.method, s.URL+tc.path, strings.NewReader(tc.body))
				req.Header.Set("Accept-Language", lang)
				req.Header.Set("Content-Type", "application/json")
				if tc.code != apierr.CodeUnauthenticated {
					req.Header.Set("Authorization", "Bearer "+g)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				var out struct {
					Error struct{ Code, Message, Detail string }
				}
				json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				e := out.Error
				want := apierr.Message(cat, lang, &apierr.Error{Key: tc.key, Args: tc.args, Detail: e.Detail})
				switch {
				case resp.StatusCode != tc.status || e.Code != string(tc.code):
					t.Errorf("%s: %d %s, want %d %s", lang, resp.StatusCode, e.Code, tc.status, tc.code)
				case e.Message != want:
					t.Errorf("%s: message %q, want %q", lang, e.Message, want)
				case lang != "en" && !cyrillic.MatchString(e.Message):
					t.Errorf("%s: message %q is not in %s", lang, e.Message, lang)
				case !strings.Contains(e.Message, tc.has):
					t.Errorf("%s: message %q does not name %q", lang, e.Message, tc.has)
				}
				msgs = append(msgs, e.Message)
			}
			if msgs[0] == msgs[1] || msgs[1] == msgs[2] || msgs[0] == msgs[2] {
				t.Errorf("the same message in two languages: %q", msgs)
			}
		})
	}
}

// TestAccountErrorPages: the sign-up form shows a taken name, a broken
// name rule and wrong credentials as sentences in the page's language,
// never auth's codes.
func TestAccountErrorPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	c := s.browser()
	form := func(_, name, pass string) []byte {
		return []byte(url.Values{"name": {name}, "password": {pass}}.Encode())
	}
	if code, _ := requestIn(t, c, "POST", s.URL+"/signup", "en", "application/x-www-form-urlencoded", form("/signup", "aigerim", "secret password")); code != 303 {
		t.Fatalf("sign-up: %d", code)
	}
	for _, lang := range []string{"ru", "kk", "ky", "en"} {
		for _, tc := range []struct {
			path, name, pass string
			status           int
			key              string
		}{
			{"/signup", "aigerim", "secret password", 409, "account.name_taken"},
			{"/signup", "-x", "secret password", 400, "account.name.start"},
			{"/signup", "bolat", "short", 400, "account.password.short"},
			{"/login", "aigerim", "wrong password", 401, "account.bad_credentials"},
		} {
			code, body := requestIn(t, s.browser(), "POST", s.URL+tc.path, lang, "application/x-www-form-urlencoded", form(tc.path, tc.name, tc.pass))
			want := escaped(cat.T(lang, tc.key, ruleArgs(tc.key)...))
			if code != tc.status || !strings.Contains(body, `id="form-error">`+want+`<`) {
				t.Errorf("%s %s %q: %d, want %d and %q", lang, tc.path, tc.name, code, tc.status, want)
			}
			if strings.Contains(body, "auth:") || strings.Contains(body, "name_taken") {
				t.Errorf("%s %s: a raw code on the page", lang, tc.path)
			}
		}
	}
}

func ruleArgs(key string) []any {
	if key == "account.password.short" {
		return []any{auth.MinPasswordLen}
	}
	return nil
}

// escaped is s as html/template writes text.
func escaped(s string) string { return template.HTMLEscapeString(s) }

// TestRulesErrors: the rules library's errors get the sentence of their
// sentinel and the place they point at, in each language; the library's
// text stays the detail.
func TestRulesErrors(t *testing.T) {
	cat := i18n.New()
	_, _, fenErr := toguz.ParseFEN("garbage", toguz.Standard())
	_, setupErr := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{{9, 9, 9, 9, 9, 9, 9, 9, 9}, {9, 9, 9, 9, 9, 9, 9, 9, 9}}, Kazan: [2]int{1, 0}}.Position()
	start, _ := toguz.NewPosition(toguz.Standard())
	_, moveErr := start.Play(12)
	games, readErr := readAll("[Result \"*\"]\n\n1. 76 98 *\n\n[Result \"*\"]\n\n1. 75 *\n")
	if readErr == nil {
		_, readErr = games[1].Outcome()
	}
	for _, tc := range []struct {
		name string
		err  error
		key  string
		en   string // the English message
		ru   string // the Russian message
	}{
		{"FEN", fenErr, "rules.syntax", "The text cannot be read as a record or a position (column 1)", "Текст не читается как запись или позиция (столбец 1)."},
		{"set-up", setupErr, "rules.position", "This position is impossible: 163 stones in all, want 162.", "Такая позиция невозможна."},
		{"move", moveErr, "rules.illegal_hole", "Hole 12 cannot be played: there is no such hole.", "Из лунки 12 ходить нельзя."},
		{"record", readErr, "rules.notation", "The record disagrees with the rules (game 2, line 7, column 4, ply 1): 75 lands on", "Запись расходится с правилами (партия 2, строка 7, столбец 4, полуход 1)."},
	} {
		if tc.err == nil {
			t.Fatalf("%s: no error", tc.name)
		}
		e := rulesError(400, apierr.CodeBadPosition, tc.err)
		if e.Key != tc.key {
			t.Errorf("%s: key %s, want %s (%v)", tc.name, e.Key, tc.key, tc.err)
		}
		if en := apierr.Message(cat, "en", e); !strings.HasPrefix(en, tc.en) {
			t.Errorf("%s: en %q, want %q…", tc.name, en, tc.en)
		}
		if ru := apierr.Message(cat, "ru", e); ru != tc.ru {
			t.Errorf("%s: ru %q, want %q", tc.name, ru, tc.ru)
		}
		if e.Detail == "" {
			t.Errorf("%s: no detail", tc.name)
		}
	}
}

func readAll(record string) ([]*toguz.Game, error) {
	var out []*toguz.Game
	for g, err := range toguz.NewGameReader(strings.NewReader(record), "x.pgn", 0).All() {
		if err != nil {
			return out, err
		}
		out = append(out, g)
	}
	return out, nil
}

// TestErrorKeys: every message key the server's errors use, those written
// in the code (apierr's constructors, Key: fields) and those it builds
// (err.<code>, the rules' and accounts' tables, the outcomes), is in the
// catalog in every language; keys of errors.json in its own right, not by
// the English fallback.
func TestErrorKeys(t *testing.T) {
	cat := i18n.New()
	keys := append(errorKeys(), i18n.OutcomeKeys()...)
	for _, st := range errorStatuses {
		keys = append(keys, fmt.Sprintf("errpage.%d", st), fmt.Sprintf("errpage.hint.%d", st))
	}
	keys = append(keys, "errpage.login", "errpage.return")
	written := keysInCode(t)
	if len(written) < 30 {
		t.Fatalf("found only %d keys in the code", len(written))
	}
	for _, k := range written {
		if !slices.Contains(keys, k) {
			t.Errorf("key %q is used in the code but not listed by errorKeys", k)
		}
	}
	own := map[string]map[string]bool{}
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		b, err := os.ReadFile(filepath.Join("..", "i18n", "locales", lang, "errors.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		own[lang] = map[string]bool{}
		for k := range m {
			own[lang][k] = true
		}
	}
	for _, k := range keys {
		if !cat.Has(k) {
			t.Errorf("no text for %q", k)
			continue
		}
		for _, lang := range []string{"kk", "ky", "ru"} {
			// site.json's keys (err.* of the game codes) are the
			// translators'; TestCatalogComplete waits for them.
			if own["en"][k] && !own[lang][k] {
				t.Errorf("%s: errors.json has no %q", lang, k)
			}
		}
	}
}

// keysInCode returns the string keys passed to apierr's constructors (New,
// BadRequest, NotFound, Forbidden) or wsBad, or set as an apierr.Error's
// Key, in the non-test files of the server and of every package beside it
// that answers the site's clients (the feature packages).
func keysInCode(t *testing.T) []string {
	fset := gotoken.NewFileSet()
	files, _ := filepath.Glob("../*/*.go")
	var keys []string
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
			if k, err := strconv.Unquote(lit.Value); err == nil {
				keys = append(keys, k)
			}
		}
	}
	keyArg := map[string]int{"New": 2, "BadRequest": 1, "NotFound": 0, "Forbidden": 0}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "apierr" {
						if i, ok := keyArg[sel.Sel.Name]; ok && len(n.Args) > i {
							add(n.Args[i])
						}
					}
				}
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "wsBad" && len(n.Args) >= 1 {
					add(n.Args[0])
				}
			case *ast.CompositeLit:
				if sel, ok := n.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Error" {
					break
				} else if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "apierr" {
					break
				}
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Key" {
							add(kv.Value)
						}
					}
				}
			}
			return true
		})
	}
	return keys
}

// TestErrorPages: each status has a sentence of its own in the page's
// language, a hint of what to do, a link to the lobby, a link back to the
// page of this site the user came from (none to another site's), and a
// 401 or 403 to someone not logged in links to the login.
func TestErrorPages(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	cat := i18n.New()
	for _, tc := range []struct {
		status int
		err    error
		key    string // the message's
	}{
		{404, apierr.New(404, apierr.CodeNotFound, "apierr.no_page", "/nowhere"), "apierr.no_page"},
		{403, &live.Error{Code: apierr.CodeForbidden, Message: "only its creator may cancel a seek"}, "err.forbidden"},
		{409, &live.Error{Code: apierr.CodeOwnSeek, Message: "you cannot accept your own seek"}, "err.own_seek"},
		{413, apierr.New(413, apierr.CodeTooLarge, "apierr.too_large", 64), "apierr.too_large"},
		{429, apierr.New(429, apierr.CodeRateLimited, "apierr.rate_limited"), "apierr.rate_limited"},
		{503, apierr.New(503, apierr.CodeBusy, "apierr.imports_busy"), "apierr.imports_busy"},
		{500, errors.New("the disk is on fire"), "apierr.internal"},
	} {
		for _, lang := range []string{"kk", "ru", "en"} {
			for _, ref := range []string{"http://example.com/game/abc", "http://evil.example/x", ""} {
				h := srv.pageHandler(func(http.ResponseWriter, *http.Request) error { return tc.err })
				req := httptest.NewRequest("GET", "http://example.com/somewhere", nil)
				req.Header.Set("Accept-Language", lang)
				if ref != "" {
					req.Header.Set("Referer", ref)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				body := w.Body.String()
				name := fmt.Sprintf("%d %s from %q", tc.status, lang, ref)
				if w.Code != tc.status {
					t.Errorf("%s: status %d", name, w.Code)
				}
				for _, want := range []string{
					escaped(cat.T(lang, fmt.Sprintf("errpage.%d", tc.status))),
					escaped(cat.T(lang, fmt.Sprintf("errpage.hint.%d", tc.status))),
					`<a href="/" id="error-back">` + escaped(cat.T(lang, "error.back")),
				} {
					if !strings.Contains(body, want) {
						t.Errorf("%s: the page lacks %q", name, want)
					}
				}
				e := srv.AsError(req, tc.err)
				if want := `id="error-message">` + escaped(apierr.Message(cat, lang, e)) + "<"; e.Key != tc.key || !strings.Contains(body, want) ||
					strings.Contains(body, "the disk is on fire") {
					t.Errorf("%s: the message of %s, want that of %s: %q", name, e.Key, tc.key, want)
				}
				back := strings.Contains(body, `<a href="/game/abc" id="error-return">`)
				if want := ref == "http://example.com/game/abc"; back != want {
					t.Errorf("%s: a link back: %v, want %v", name, back, want)
				}
				if strings.Contains(body, "evil.example") {
					t.Errorf("%s: a link to another site", name)
				}
				login := strings.Contains(body, `href="/login" id="error-login"`)
				if want := tc.status == 403; login != want {
					t.Errorf("%s: a link to log in: %v, want %v", name, login, want)
				}
			}
		}
	}
}

// TestErrorPagesOfRoutes: the error pages of real requests: an unknown
// page, a 403, a 413 and the writes limit's 429 are pages, not JSON.
func TestErrorPagesOfRoutes(t *testing.T) {
	srv, err := New(Config{Settings: Settings{WritesPerSecond: 0.001, WriteBurst: 2}})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	cat := i18n.New()
	do := func(method, path string, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Accept-Language", "kk")
		if body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/no/such/page", "", 404},
		{"POST", "/challenge/abc/cancel", "", 403},
		{"POST", "/login", "name=" + strings.Repeat("x", site.MaxBody+1), 413},
		{"POST", "/challenge/abc/cancel", "", 429},
	} {
		w := do(tc.method, tc.path, tc.body)
		body := w.Body.String()
		if w.Code != tc.status || !strings.Contains(body, escaped(cat.T("kk", fmt.Sprintf("errpage.%d", tc.status)))) || !strings.Contains(body, `id="error-back"`) {
			t.Errorf("%s %s: %d, want %d and the page in Kazakh: %.300s", tc.method, tc.path, w.Code, tc.status, body)
		}
	}
}

// TestResultSentences: the game page's result line, the import page's
// game list and the profile's games say how a game ended as a sentence in
// the page's language, never as codes ("(atsyrau)", "none").
func TestResultSentences(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	c := s.browser()
	var tokens []string
	for _, name := range []string{"asel", "dana"} {
		code, m := s.do("POST", "/api/signup", "", map[string]string{"name": name, "password": "long enough pass"})
		if code != 201 {
			t.Fatalf("sign-up: %d %v", code, m)
		}
		tokens = append(tokens, m["token"].(string))
	}
	white, black, id := s.game(tokens[0], tokens[1], "5+0", false)
	w := s.dial(id, white)
	s.dial(id, black)
	w.until("state")
	w.send(`{"type":"resign"}`)
	w.until("end")
	st, err := s.hub.State(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"ru", "kk", "ky", "en"} {
		_, body := requestIn(t, c, "GET", s.URL+"/game/"+id, lang, "", nil)
		want := cat.Outcome(lang, "0-1", "resignation", &st.Score)
		if !strings.Contains(body, `data-result="`+escaped(want)+`"`) {
			t.Errorf("%s: the game page lacks the result %q", lang, want)
		}
		// What the board says when it sees a game end.
		outcomes, _ := json.Marshal(cat.OutcomeTemplates(lang))
		if !strings.Contains(body, `data-outcomes="`+escaped(string(outcomes))+`"`) {
			t.Errorf("%s: the game page lacks the outcomes", lang)
		}
		_, body = requestIn(t, c, "GET", s.URL+"/@/asel", lang, "", nil)
		if want := cat.Outcome(lang, "0-1", "resignation", nil); !strings.Contains(body, `<td class="result">`+escaped(want)+`</td>`) {
			t.Errorf("%s: the profile lacks the result %q", lang, want)
		}
		// tinyGame's record has no result; the import says so.
		var buf bytes.Buffer
		buf.WriteString(url.Values{"text": {tinyGame + "[Result \"1-0\"]\n\n1. 76 98 1-0\n"}}.Encode())
		_, body = requestIn(t, c, "POST", s.URL+"/import", lang, "application/x-www-form-urlencoded", buf.Bytes())
		for _, want := range []string{cat.Outcome(lang, "*", "none", &[2]int{10, 0}), cat.Outcome(lang, "1-0", "none", &[2]int{10, 0})} {
			if !strings.Contains(body, `<td colspan="2">`+escaped(want)) {
				t.Errorf("%s: the import page lacks %q: %s", lang, want, body)
			}
		}
		if strings.Contains(body, "none") || strings.Contains(body, "<td>1-0") {
			t.Errorf("%s: a raw code on the import page", lang)
		}
	}
}

// TestBoardTexts: the game page gives the board a text in its language
// for every error code and every close reason the server sends.
func TestBoardTexts(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	_, _, id := s.game(s.guest(), s.guest(), "5+0", false)
	for _, lang := range []string{"kk", "ru"} {
		_, body := requestIn(t, s.browser(), "GET", s.URL+"/game/"+id, lang, "", nil)
		i := strings.Index(body, `data-errors="`)
		if i < 0 {
			t.Fatalf("%s: no data-errors", lang)
		}
		raw := body[i+len(`data-errors="`):]
		raw = html.UnescapeString(raw[:strings.Index(raw, `"`)])
		var texts map[string]string
		if err := json.Unmarshal([]byte(raw), &texts); err != nil {
			t.Fatalf("%s: %v: %s", lang, err, raw)
		}
		want := map[string]string{} // code or reason → key
		for _, c := range apierr.Codes() {
			want[string(c)] = "err." + string(c)
		}
		for r, k := range closeKeys {
			want[r] = k
		}
		for k, key := range want {
			// site.json's err.* of the game codes are English until the
			// translators are done; every other text is in the language.
			if texts[k] == "" || texts[k] != cat.T(lang, key) || cat.Translated(lang, key) && !cyrillic.MatchString(texts[k]) {
				t.Errorf("%s: the board's text for %q is %q, want %q", lang, k, texts[k], cat.T(lang, key))
			}
		}
		if len(texts) != len(want) {
			t.Errorf("%s: %d texts, want %d", lang, len(texts), len(want))
		}
	}
}

// TestErrorLanguageCookie: the switcher's choice wins over Accept-Language
// for the API's messages as for the pages.
func TestErrorLanguageCookie(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	req, _ := http.NewRequest("GET", s.URL+"/api/games/nosuchgame", nil)
	req.Header.Set("Accept-Language", "en")
	req.AddCookie(&http.Cookie{Name: langCookie, Value: "ky"})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Error struct{ Code, Message string }
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if want := cat.T("ky", "apierr.no_game", "nosuchgame"); out.Error.Code != "not_found" || out.Error.Message != want {
		t.Errorf("%+v, want not_found and %q", out.Error, want)
	}
}

// TestSameSiteReferer: the error page links back only to a page of this
// site, and not to the page that failed (unless a form posted to it).
func TestSameSiteReferer(t *testing.T) {
	for _, tc := range []struct{ method, url, referer, want string }{
		{"GET", "http://toguz.kz/game/x", "http://toguz.kz/", "/"},
		{"GET", "http://toguz.kz/game/x", "https://toguz.kz/@/asel?tab=games", "/@/asel?tab=games"},
		{"GET", "http://toguz.kz/game/x", "http://toguz.kz/game/x", ""},
		{"POST", "http://toguz.kz/challenge/x", "http://toguz.kz/challenge/x", "/challenge/x"},
		{"GET", "http://toguz.kz/game/x", "http://evil.example/", ""},
		{"GET", "http://toguz.kz/game/x", "http://toguz.kz.evil.example/", ""},
		{"GET", "http://toguz.kz/game/x", "javascript:alert(1)", ""},
		{"GET", "http://toguz.kz/game/x", "//evil.example/", ""},
		{"GET", "http://toguz.kz/game/x", "", ""},
	} {
		r := httptest.NewRequest(tc.method, tc.url, nil)
		r.Header.Set("Referer", tc.referer)
		if got := sameSiteReferer(r); got != tc.want {
			t.Errorf("%s %s from %q: %q, want %q", tc.method, tc.url, tc.referer, got, tc.want)
		}
	}
}
