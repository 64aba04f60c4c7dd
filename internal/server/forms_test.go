package server

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/levels"
	"github.com/toguz/toguz/internal/site"
)

// withLang sets the language cookie of c's jar for the test server.
func withLang(t *testing.T, s *testServer, c *http.Client, lang string) {
	t.Helper()
	u, _ := url.Parse(s.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: langCookie, Value: lang, Path: "/"}})
}

// count returns how often the regular expression re matches body.
func count(body, re string) int { return len(regexp.MustCompile(re).FindAllStringIndex(body, -1)) }

// TestFormsShowLevelRatings: beside each engine level the lobby's engine
// form and the editor say what it plays like on the rating scale, from the
// table `toguz levels` made, in the page's language.
func TestFormsShowLevelRatings(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	table, err := levels.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Levels) != engine.MaxLevel {
		t.Fatalf("the table places %d levels, want %d", len(table.Levels), engine.MaxLevel)
	}
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		t.Run(lang, func(t *testing.T) {
			guest := s.browser()
			withLang(t, s, guest, lang)
			_, lobby := get(t, guest, s.URL+"/")
			_, editor := get(t, guest, s.URL+"/editor")
			labels := map[string]int{}
			for _, l := range table.Levels {
				like := cat.T(lang, "levels."+string(l.Bound), l.Rating)
				like += ", " + cat.T(lang, "levels.loss", site.LossText(lang, l.Loss))
				label := cat.T(lang, "levels.option", l.Level, like)
				// Every level can be told from the others without its number.
				rest := strings.TrimPrefix(label, fmt.Sprint(l.Level))
				if other, ok := labels[rest]; ok {
					t.Errorf("levels %d and %d read the same: %q", other, l.Level, label)
				}
				labels[rest] = l.Level
				opt := fmt.Sprintf(`<option value="%d"( selected)?>%s</option>`, l.Level, regexp.QuoteMeta(html.EscapeString(label)))
				for what, body := range map[string]string{"lobby": lobby, "editor": editor} {
					if n := count(body, opt); n != 1 {
						t.Errorf("the %s shows level %d as %s %d times, want once", what, l.Level, opt, n)
					}
				}
			}
			if want := html.EscapeString(cat.T(lang, "levels.help")); !strings.Contains(lobby, want) {
				t.Errorf("the lobby does not say where the ratings come from (%q)", want)
			}
		})
	}
}

// TestFormsOfferRulesets: the seek form (public or by link), the engine
// form and the editor offer every ruleset of the rules library, named and
// described in the page's language; the engine's level range is the
// engine's; only accounts are offered rated games.
func TestFormsOfferRulesets(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		t.Run(lang, func(t *testing.T) {
			guest := s.browser()
			withLang(t, s, guest, lang)
			_, lobby := get(t, guest, s.URL+"/")
			_, editor := get(t, guest, s.URL+"/editor")
			for _, name := range toguz.RulesetNames() {
				opt := fmt.Sprintf(`<option value="%s" data-help="%s"[^>]*>%s</option>`, name,
					regexp.QuoteMeta(html.EscapeString(cat.T(lang, "ruleset."+name+".help"))), regexp.QuoteMeta(html.EscapeString(cat.T(lang, "ruleset."+name))))
				if n := count(lobby, opt); n != 2 {
					t.Errorf("the lobby offers the ruleset %s %d times, want 2 (seeks, engine): %s", name, n, opt)
				}
				if n := count(editor, opt); n != 1 {
					t.Errorf("the editor offers the ruleset %s %d times, want once", name, n)
				}
			}
			for what, body := range map[string]string{"lobby": lobby, "editor": editor} {
				if n := count(body, `<option value="\d+"[^>]*>\d+: `); n != engine.MaxLevel {
					t.Errorf("the %s offers %d engine levels, want %d", what, n, engine.MaxLevel)
				}
				if want := html.EscapeString(cat.T(lang, "form.level.range", engine.MaxLevel)); !strings.Contains(body, want) {
					t.Errorf("the %s's engine level is not labelled %q", what, want)
				}
			}
			if strings.Contains(lobby, `name="rated"`) || !strings.Contains(lobby, `id="rated-guest"`) {
				t.Error("a visitor without an account is offered rated games")
			}
		})
	}
	acct := s.browser()
	if code, _, _ := postForm(t, acct, s.URL+"/signup", url.Values{"name": {"gulnar"}, "password": {"gulnar password"}}); code != 303 {
		t.Fatalf("signup: %d", code)
	}
	if _, body := get(t, acct, s.URL+"/"); !strings.Contains(body, `name="rated"`) {
		t.Error("an account is not offered rated games")
	}
	// A guest who posts rated anyway is told why.
	g := s.browser()
	if code, _, body := postForm(t, g, s.URL+"/lobby/seek", url.Values{"tc": {"5+3"}, "color": {"random"}, "rated": {"1"}}); code != 403 || !strings.Contains(body, "Guests play casual games only") {
		t.Errorf("a guest's rated seek: %d", code)
	}
}

// TestSeekRuleset: a seek made with a ruleset is of that ruleset, and the
// lobby's list (the page and the socket's JSON) and the challenge page
// name it in the page's language; an engine game from the lobby's form is
// played under its ruleset.
func TestSeekRuleset(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	a, b := s.browser(), s.browser()
	withLang(t, s, b, "kk")
	code, loc, _ := postForm(t, a, s.URL+"/lobby/seek", url.Values{"tc": {"5+3"}, "color": {"random"}, "ruleset": {"seven"}})
	if code != 303 {
		t.Fatalf("seek form: %d", code)
	}
	id := strings.TrimPrefix(loc, "/challenge/")
	_, m := s.do("GET", "/api/seeks/"+id, "", nil)
	if sk, _ := m["seek"].(map[string]any); sk["ruleset"] != "seven" {
		t.Errorf("the seek is %v", m)
	}
	_, lobby := get(t, b, s.URL+"/")
	row := regexp.MustCompile(`(?s)<tr data-seek="` + id + `">.*?</tr>`).FindString(lobby)
	if want := cat.T("kk", "ruleset.seven"); !strings.Contains(row, "<td>"+want+"</td>") {
		t.Errorf("the lobby's row %q does not name the ruleset %q", row, want)
	}
	if want := cat.T("kk", "form.color.random"); !strings.Contains(row, want) {
		t.Errorf("the lobby's row %q does not name the colour %q", row, want)
	}
	if _, body := get(t, b, s.URL+loc); !strings.Contains(body, `<span id="challenge-ruleset">`+cat.T("kk", "ruleset.seven")+"</span>") {
		t.Error("the challenge page does not name the ruleset")
	}

	code, loc, _ = postForm(t, b, s.URL+"/lobby/engine", url.Values{"level": {"1"}, "color": {"white"}, "ruleset": {"bestemshe"}})
	if code != 303 || !strings.HasPrefix(loc, "/game/") {
		t.Fatalf("engine form: %d %s", code, loc)
	}
	if _, g := s.do("GET", "/api/games/"+strings.TrimPrefix(loc, "/game/"), "", nil); g["ruleset"] != "bestemshe" {
		t.Errorf("the engine game is played under %v", g["ruleset"])
	}
}

// TestEditorFEN: the editor's ruleset control shows the ruleset's board;
// a FEN shows its position (read by the rules library) with the FEN the
// server writes for it; a FEN it cannot read is refused with the reason
// and shown back.
func TestEditorFEN(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	p := toguz.StartPosition()
	for _, m := range []toguz.Move{7, 6, 9, 1, 3} {
		p = p.After(m)
	}
	fen := toguz.FormatFEN(p, 3)
	code, body := get(t, c, s.URL+"/editor?ruleset=standard&fen="+url.QueryEscape(fen))
	if code != 200 {
		t.Fatalf("GET /editor with a FEN: %d", code)
	}
	if !strings.Contains(body, `<output id="editor-fen" class="fen" translate="no">`+html.EscapeString(fen)+`</output>`) {
		t.Errorf("the editor does not show the FEN %q", fen)
	}
	st := p.Setup()
	for h := 1; h <= 9; h++ {
		for pl, prefix := range []string{"w", "b"} {
			if want := fmt.Sprintf(`name="%s%d" value="%d"`, prefix, h, st.Board[pl][h-1]); !strings.Contains(body, want) {
				t.Errorf("the board lacks %s", want)
			}
		}
	}
	if want := fmt.Sprintf(`name="kw" value="%d"`, st.Kazan[0]); !strings.Contains(body, want) {
		t.Errorf("the board lacks %s", want)
	}
	if want := `<option value="black" selected>`; (p.Turn() == toguz.Black) != strings.Contains(body, want) {
		t.Errorf("the side to move is not %s", p.Turn())
	}
	if !strings.Contains(body, `<option value="standard" data-help=`) || count(body, `<option value="standard"[^>]*selected>`) != 1 {
		t.Error("the editor's ruleset control does not show the standard game chosen")
	}

	// A tuzdik is shown in its select.
	q, _, err := toguz.ParseFEN("1S,11S,1S,1S,11S,11S,11S,11S,11S/11S,11S,11S,11S,11S,11S,t,11S,1S 12 3 S 12", toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	_, body = get(t, c, s.URL+"/editor?fen="+url.QueryEscape(toguz.FormatFEN(q, 12)))
	if owner, hole := tuzdikOf(q); !strings.Contains(body, fmt.Sprintf(`<select name="t%s">`, owner)) ||
		!regexp.MustCompile(fmt.Sprintf(`<select name="t%s">.*<option value="%d" selected>`, owner, hole)).MatchString(body) {
		t.Errorf("the tuzdik %s %d is not selected", owner, hole)
	}

	// The ruleset control: each ruleset's board.
	_, body = get(t, c, s.URL+"/editor?ruleset=bestemshe")
	if count(body, `<option value="bestemshe"[^>]*selected>`) != 1 || strings.Contains(body, `name="w6"`) {
		t.Error("the bestemshe editor is not the 2×5 board")
	}

	bad := "9S,9S/garbage"
	code, body = get(t, c, s.URL+"/editor?fen="+url.QueryEscape(bad))
	if code != 400 || !strings.Contains(body, `id="editor-error" role="alert">`) || !strings.Contains(body, `value="`+html.EscapeString(bad)+`"`) {
		t.Errorf("a bad FEN: %d, want 400 with the reason and the FEN shown back", code)
	}
	// The page says it in the user's language, with the library's reason
	// (English) after it.
	if _, _, err := toguz.ParseFEN(bad, toguz.Standard()); err == nil || !strings.Contains(body, "has 1 fields, want 5") {
		t.Errorf("a bad FEN's page does not give the library's reason %v", err)
	}
	if code, body := get(t, c, s.URL+"/editor?fen="+strings.Repeat("9S,", 200)); code != 400 || !strings.Contains(body, "longer than 256 bytes") {
		t.Errorf("a FEN of 600 bytes: %d, want 400 and its length refused", code)
	}
}

// tuzdikOf returns the tuzdik of p as the editor's select names it: "w"
// or "b" and the hole.
func tuzdikOf(p toguz.Position) (string, int) {
	st := p.Setup()
	if st.Tuzdik[0] != 0 {
		return "w", st.Tuzdik[0]
	}
	return "b", st.Tuzdik[1]
}

// TestSeekPages: the seek's life as its creator and another player see it
// in the pages (the API's and the socket's are TestSeekEnds'): the creator,
// in any tab, is offered his seek to cancel, never to play; accepting it
// anyway (an old page) is refused with a sentence in his language and the
// cancel button; only he may cancel it, and then it is gone.
func TestSeekPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	alice, bob := s.browser(), s.browser()
	withLang(t, s, alice, "ru")
	code, loc, _ := postForm(t, alice, s.URL+"/lobby/seek", url.Values{"tc": {"5+3"}, "color": {"white"}})
	if code != 303 || !strings.HasPrefix(loc, "/challenge/") {
		t.Fatalf("seek form: %d %s", code, loc)
	}
	id := strings.TrimPrefix(loc, "/challenge/")
	cancelForm := `action="/challenge/` + id + `/cancel"`
	acceptForm := `action="/challenge/` + id + `"`

	// Alice's second tab: the same cookies.
	tab2 := &http.Client{Jar: alice.Jar, CheckRedirect: alice.CheckRedirect}
	for _, c := range []*http.Client{alice, tab2} {
		_, lobby := get(t, c, s.URL+"/")
		if !strings.Contains(lobby, cancelForm) || strings.Contains(lobby, acceptForm) {
			t.Error("the creator's lobby does not offer his seek for cancelling only")
		}
		_, page := get(t, c, s.URL+loc)
		if !strings.Contains(page, `id="challenge-cancel"`) || strings.Contains(page, `id="challenge-accept"`) {
			t.Error("the creator's challenge page does not offer his seek for cancelling only")
		}
	}
	_, lobby := get(t, bob, s.URL+"/")
	if strings.Contains(lobby, cancelForm) || !strings.Contains(lobby, acceptForm) {
		t.Error("another player's lobby does not offer the seek to play")
	}

	code, _, body := postForm(t, tab2, s.URL+loc, nil)
	if want := cat.T("ru", "challenge.own"); code != 409 || !strings.Contains(body, want) || !strings.Contains(body, `id="challenge-cancel"`) {
		t.Errorf("accepting one's own seek: %d, want 409 with %q and the cancel button", code, want)
	}
	if code, _, _ := postForm(t, bob, s.URL+loc+"/cancel", nil); code != 403 {
		t.Errorf("another player cancels: %d, want 403", code)
	}
	if code, to, _ := postForm(t, tab2, s.URL+loc+"/cancel", nil); code != 303 || to != "/" {
		t.Errorf("the creator cancels from his second tab: %d %s", code, to)
	}
	if code, _ := s.do("GET", "/api/seeks/"+id, "", nil); code != 404 {
		t.Errorf("the cancelled seek: %d, want 404", code)
	}
	if _, lobby := get(t, bob, s.URL+"/"); strings.Contains(lobby, id) {
		t.Error("the lobby still lists the cancelled seek")
	}
	if code, _ := get(t, bob, s.URL+loc); code != 404 {
		t.Errorf("the cancelled challenge's page: %d, want 404", code)
	}
}
