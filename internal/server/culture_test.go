package server

import (
	"html"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/culture"
	"github.com/toguz/toguz/internal/i18n"
)

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
// block carries its source, a work named, and its quote, but for the rules
// only the project's settled rules state, which cite nothing; and there are
// as many blocks as facts.
func TestLearnPagesCiteEveryFact(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "kk-Latn", "ky", "ru"} {
		for _, page := range []string{"/history", "/rules", "/key"} {
			code, body := getIn(t, s.URL+page, lang)
			if code != 200 {
				t.Fatalf("%s %s: %d", lang, page, code)
			}
			want := culture.Facts(page)
			if want == 0 {
				t.Fatalf("%s states no facts", page)
			}
			blocks := factBlock.FindAllStringSubmatch(body, -1)
			if len(blocks) != want {
				t.Errorf("%s %s: %d fact blocks, want %d", lang, page, len(blocks), want)
			}
			var names []string
			for _, doc := range []string{"000", "002", "003", "004"} {
				names = append(names, html.EscapeString(cat.T(lang, "learn.source.label")+" "+cat.T(lang, "learn.cite."+doc)))
			}
			cited := culture.Cited(page)
			for _, b := range blocks {
				shown := strings.Contains(b[2], `<p class="source"><cite>`)
				switch {
				case !cited[b[1]] && shown:
					t.Errorf("%s %s: the fact %s, which only the project's rules state, cites a source", lang, page, b[1])
				case !cited[b[1]]:
				case !shown || !strings.Contains(b[2], `translate="no">`):
					t.Errorf("%s %s: the fact %s has no source", lang, page, b[1])
				case !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(b[2], n) }):
					t.Errorf("%s %s: the fact %s cites none of the named works", lang, page, b[1])
				}
			}
			if !strings.Contains(body, `href="/rules"`) || !strings.Contains(body, `href="/history"`) || !strings.Contains(body, `href="/key"`) {
				t.Errorf("%s %s: no links between the learning pages", lang, page)
			}
		}
	}
}

func TestLearnDiagramEndpoint(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	for _, name := range culture.Diagrams() {
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
		{"?base=10&a=" + strings.Repeat("9", culture.MaxKeyDigits+1) + "&op=add&b=1", "en", 400, []string{cat.T("en", "apierr.key.too_long", culture.MaxKeyDigits, 6)}},
		{"?base=10&a=" + strings.Repeat("7", 5000) + "&op=add&b=1", "en", 400, []string{`value="` + strings.Repeat("7", 4*culture.MaxKeyDigits) + `"`}},
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
