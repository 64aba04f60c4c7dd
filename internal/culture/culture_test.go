package server

import (
	"html"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/shareddata"
)

func allLearnSections() map[string][]section {
	return map[string][]section{"/history": historySections, "/rules": rulesSections, "/key": keySections}
}

// sourceText returns the lines of a seed ("9", "186-198") or the section
// of docs/rules.md ("§4") that a fact cites.
func sourceText(t *testing.T, s source) string {
	t.Helper()
	if !s.Seed() {
		rules := string(shareddata.Read(t, "../RULES.md"))
		n := strings.TrimPrefix(s.Where, "§")
		start := strings.Index(rules, "\n## "+n+".")
		if start < 0 {
			t.Fatalf("RULES.md has no section %s", s.Where)
		}
		rest := rules[start+1:]
		if end := strings.Index(rest, "\n## "); end >= 0 {
			rest = rest[:end]
		}
		return rest
	}
	dir, _ := shareddata.Dir()
	files, _ := filepath.Glob(filepath.Join(dir, "..", "seeds", s.Doc+"_*.txt"))
	if len(files) != 1 {
		shareddata.Path(t, "../seeds/"+s.Doc) // skips, or fails under CI
		t.Fatalf("seed %s: %d files", s.Doc, len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lo, hi, ok := strings.Cut(s.Where, "-")
	if !ok {
		hi = lo
	}
	a, err1 := strconv.Atoi(lo)
	z, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || a < 1 || z < a || z > len(lines) {
		t.Fatalf("seed %s has no lines %s", s.Doc, s.Where)
	}
	return strings.Join(lines[a-1:z], "\n")
}

// TestLearnFactsQuoteTheirSources: every fact of /history, /rules and
// /key cites a seed's lines or a section of docs/rules.md whose text holds the
// words it quotes, so no fact is without a source and none cites a place
// that does not say it; the Manas verse is the seed's, line by line.
func TestLearnFactsQuoteTheirSources(t *testing.T) {
	for page, secs := range allLearnSections() {
		for _, sec := range secs {
			if len(sec.Facts) == 0 {
				t.Errorf("%s: section %s has no facts", page, sec.ID)
			}
			for _, f := range sec.Facts {
				if f.Src.Doc == "" || f.Src.Where == "" || f.Src.Quote == "" {
					t.Errorf("%s: %s has no source", page, f.Msg)
					continue
				}
				if text := sourceText(t, f.Src); !strings.Contains(text, f.Src.Quote) {
					t.Errorf("%s: %s cites %s %s, which does not say %q", page, f.Msg, f.Src.Doc, f.Src.Where, f.Src.Quote)
				}
				for _, line := range f.Verse {
					if !strings.Contains(sourceText(t, f.Src), line) {
						t.Errorf("%s: the verse line %q is not in %s %s", f.Msg, line, f.Src.Doc, f.Src.Where)
					}
				}
			}
		}
	}
}

func getIn(t *testing.T, u, lang string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Accept-Language", lang)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var factBlock = regexp.MustCompile(`(?s)<div class="fact" data-key="([^"]+)">(.*?)</div>`)

// TestLearnPagesCiteEveryFact: on each page, in each language, every fact
// block carries its source reference and quote, and there are as many
// blocks as facts.
func TestLearnPagesCiteEveryFact(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "kk-Latn", "ky", "ru"} {
		for page, secs := range allLearnSections() {
			code, body := getIn(t, s.URL+page, lang)
			if code != 200 {
				t.Fatalf("%s %s: %d", lang, page, code)
			}
			want := 0
			for _, sec := range secs {
				want += len(sec.Facts)
			}
			blocks := factBlock.FindAllStringSubmatch(body, -1)
			if len(blocks) != want {
				t.Errorf("%s %s: %d fact blocks, want %d", lang, page, len(blocks), want)
			}
			cite := cat.T(lang, "learn.source.seed", "000", "9")
			cite = cite[:strings.Index(cite, "000")] // "Source: seed "
			for _, b := range blocks {
				if !strings.Contains(b[2], `<p class="source"><cite>`) || !strings.Contains(b[2], `translate="no">`) {
					t.Errorf("%s %s: the fact %s has no source", lang, page, b[1])
				}
				if !strings.Contains(b[2], cite) && !strings.Contains(b[2], "RULES.md") {
					t.Errorf("%s %s: the fact %s cites neither a seed nor RULES.md", lang, page, b[1])
				}
			}
			if !strings.Contains(body, `href="/rules"`) || !strings.Contains(body, `href="/history"`) || !strings.Contains(body, `href="/key"`) {
				t.Errorf("%s %s: no links between the learning pages", lang, page)
			}
		}
	}
}

// TestLearnDiagramsAreTheSeeds: the drawings of /rules are the positions
// the seeds print, reached by playing the moves they describe.
func TestLearnDiagramsAreTheSeeds(t *testing.T) {
	tests := []struct {
		name  string
		src   source // the seed's diagram rows after the move(s)
		after toguz.Player
	}{
		{"ex1", src("000", "96-97", ""), toguz.Black},         // seed 000 lines 95–98 (docs/rules.md §5.1)
		{"ex2-after", src("000", "124-125", ""), toguz.White}, // lines 123–126 (§5.2)
		{"ex3-after", src("000", "152-153", ""), toguz.White}, // lines 151–154 (§5.3)
		{"ex2-before", src("000", "117-118", ""), toguz.Black},
		{"ex3-before", src("000", "143-144", ""), toguz.White},
	}
	for _, tt := range tests {
		text := sourceText(t, tt.src)
		if tt.after == toguz.Black {
			text += "\nBlack to move\n"
		}
		want, err := toguz.ParseDiagram(text, toguz.Standard())
		if err != nil {
			t.Fatalf("%s: the seed's diagram: %v", tt.name, err)
		}
		got, _, err := learnDiagrams[tt.name]()
		if err != nil {
			t.Fatal(err)
		}
		if tt.name == "ex3-after" {
			// The seed's last diagram (line 153) leaves out the X of
			// Black's tuzdik on White's hole 7 that its first (line 144)
			// shows: a tuzdik is never given up (line 110 of 004).
			want, err = toguz.ParseDiagram(strings.Replace(text, "–\t–\t–\t(76)", "Х\t–\t–\t(76)", 1), toguz.Standard())
			if err != nil {
				t.Fatal(err)
			}
		}
		if got.FEN() != want.FEN() {
			t.Errorf("%s:\n%s\nthe seed:\n%s", tt.name, got.Diagram(), want.Diagram())
		}
	}
	if p, _, _ := learnDiagrams["ex3-after"](); !p.IsOver() {
		t.Errorf("ex3-after: the game is not over (atsyrau)")
	}
}

func TestLearnDiagramEndpoint(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	for name := range learnDiagrams {
		resp, err := http.Get(s.URL + "/learn/diagram/" + name + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(b), "<svg") {
			t.Errorf("%s: %d %s %.40q", name, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	for _, bad := range []string{"nope.svg", "ex1", "ex1.png"} {
		if code, _ := get(t, http.DefaultClient, s.URL+"/learn/diagram/"+bad); code != 404 {
			t.Errorf("%s: %d, want 404", bad, code)
		}
	}
}

// TestKeyPage: /key draws every step of a calculation and answers a bad
// form with the catalog's message in the reader's language.
func TestKeyPage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	tests := []struct {
		query, lang string
		code        int
		want        []string
	}{
		{"", "en", 200, []string{"347 + 56 = 425", `id="key-step-5"`, "Step 5 of 5.", "first row, hole 1 → first row, hole 2: 1"}},
		{"?base=8&a=347&op=add&b=56", "kk", 200, []string{"347 + 56 = 425", "1-цифр: отау толды", "5-қадам, барлығы 5."}},
		{"?base=10&a=347&op=div&b=5", "ru", 200, []string{"347 / 5 = 69 2/5", ">X<"}},
		{"?base=10&a=9999999999&op=add&b=1", "en", 200, []string{`aria-label="Board 2"`, "9999999999 + 1 = 10000000000"}},
		{"?base=11&a=1&op=add&b=1", "en", 400, []string{cat.T("en", "apierr.key.base")}},
		{"?base=8&a=8&op=add&b=1", "en", 400, []string{cat.T("en", "apierr.key.digit", "8", 8, 7)}},
		{"?base=8&a=&op=add&b=1", "ky", 400, []string{cat.T("ky", "apierr.key.digit", "", 8, 7)}},
		{"?base=10&a=3&op=sub&b=4", "kk", 400, []string{cat.T("kk", "apierr.key.negative")}},
		{"?base=10&a=3&op=div&b=0", "ru", 400, []string{cat.T("ru", "apierr.key.zero")}},
		{"?base=10&a=3&op=pow&b=0", "en", 400, []string{cat.T("en", "apierr.key.op")}},
		{"?base=10&a=" + strings.Repeat("9", maxKeyDigits+1) + "&op=add&b=1", "en", 400, []string{cat.T("en", "apierr.key.too_long", maxKeyDigits, 6)}},
		{"?base=10&a=" + strings.Repeat("7", 5000) + "&op=add&b=1", "en", 400, []string{`value="` + strings.Repeat("7", 4*maxKeyDigits) + `"`}},
	}
	for _, tt := range tests {
		code, body := getIn(t, s.URL+"/key"+tt.query, tt.lang)
		body = html.UnescapeString(body)
		if code != tt.code {
			t.Errorf("%s (%s): %d, want %d", tt.query, tt.lang, code, tt.code)
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s (%s): no %q", tt.query, tt.lang, w)
			}
		}
	}
}

// TestKeyPageBounded: the longest calculations the form takes (the worst
// found by a search over random 12-digit operands in every base, a
// division by two digits) make a page of bounded size.
func TestKeyPageBounded(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	for _, q := range []string{"base=10&a=465545940327&op=div&b=79", "base=10&a=999999999999&op=mul&b=999999999999", "base=2&a=100000000000&op=div&b=1"} {
		code, body := getIn(t, s.URL+"/key?"+q, "en")
		steps := strings.Count(body, `class="key-step"`)
		if code != 200 || steps > 250 || len(body) > 600<<10 {
			t.Errorf("%s: %d, %d steps, %d KiB", q, code, steps, len(body)>>10)
		}
	}
}

// TestLearnSourcesExist: the documents the pages list are the seeds and
// docs/rules.md, and every fact cites one of them.
func TestLearnSourcesExist(t *testing.T) {
	docs := map[string]bool{}
	for _, d := range learnSources {
		docs[d.Doc] = true
		name := "../seeds/" + d.File
		if d.Doc == "RULES.md" {
			name = "../RULES.md"
		}
		shareddata.Path(t, name)
	}
	for page, secs := range allLearnSections() {
		for _, sec := range secs {
			for _, f := range sec.Facts {
				if !docs[f.Src.Doc] {
					t.Errorf("%s: %s cites %q, not a listed source", page, f.Msg, f.Src.Doc)
				}
			}
		}
	}
}
