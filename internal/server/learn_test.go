package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/lessons"
)

// answer posts an answer to the judge in lang and returns the status and
// the verdict.
func (s *testServer) answer(lang, token, lesson, exercise, a string) (int, lessons.Reply, string) {
	s.t.Helper()
	b, _ := json.Marshal(lessons.Answer{Answer: a})
	req, _ := http.NewRequest("POST", s.URL+"/api/learn/"+lesson+"/"+exercise, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", lang)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var v lessons.Reply
	json.Unmarshal(body, &v)
	return resp.StatusCode, v, string(body)
}

// TestLearnJudge plays every exercise's right answer and two wrong ones
// through POST /api/learn/{lesson}/{exercise}, in English and Kazakh: the
// verdict comes from the rules library, written in the learner's language.
func TestLearnJudge(t *testing.T) {
	// The writes' rate limit (which bounds the answers too) lifted: the
	// test answers far faster than a learner.
	s := newTestServer(t, serverOpts{writes: 10000})
	for _, l := range lessons.All() {
		for _, x := range l.Exercises {
			for _, lang := range []string{"en", "kk"} {
				code, v, body := s.answer(lang, "", l.ID, x.ID, x.Answer)
				if code != 200 || !v.Right || len(v.Feedback) == 0 || v.Saved || v.Exercise != l.ID+"/"+x.ID {
					t.Errorf("%s/%s %s right answer %q: %d %s", l.ID, x.ID, lang, x.Answer, code, body)
				}
				if want := s.srv().cat.T(lang, "learn.right"); v.Headline != want {
					t.Errorf("%s/%s %s: headline %q, want %q", l.ID, x.ID, lang, v.Headline, want)
				}
				for _, w := range x.Wrong {
					code, v, body := s.answer(lang, "", l.ID, x.ID, w)
					if code != 200 || v.Right || len(v.Feedback) == 0 {
						t.Errorf("%s/%s %s wrong answer %q: %d %s", l.ID, x.ID, lang, w, code, body)
					}
					if lang == "kk" && !hasCyrillic(v.Headline+strings.Join(v.Feedback, "")) {
						t.Errorf("%s/%s: Kazakh feedback %q %q", l.ID, x.ID, v.Headline, v.Feedback)
					}
				}
			}
		}
	}
	for _, tc := range []struct {
		path string
		code int
	}{{"/api/learn/nope/x", 404}, {"/api/learn/board/nope", 404}} {
		if code, m := s.do("POST", tc.path, "", map[string]string{"answer": "1"}); code != tc.code {
			t.Errorf("%s: %d %v", tc.path, code, m)
		}
	}
	if code, m := s.do("POST", "/api/learn/board/hole9", "", map[string]any{"answer": "9", "cheat": true}); code != 400 {
		t.Errorf("an unknown field: %d %v", code, m)
	}
}

func hasCyrillic(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 'А' && r <= 'ӿ' })
}

// srv returns a Server of the same configuration's catalog, for the texts.
func (s *testServer) srv() *Server {
	srv, err := New(Config{})
	if err != nil {
		s.t.Fatal(err)
	}
	return srv
}

// TestLearnProgress: an account's right answers are kept in the store
// (once each), listed by GET /api/learn/progress and counted on /learn;
// a wrong answer and a guest's answers are not stored.
func TestLearnProgress(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok := s.signup("Aigul")
	for _, a := range []struct{ lesson, ex, answer string }{
		{"board", "hole9", "9"}, {"board", "hole9", "9"}, {"board", "hole7", "6"}, {"capture", "seed1", "7"},
	} {
		if code, v, body := s.answer("en", tok, a.lesson, a.ex, a.answer); code != 200 || v.Saved != v.Right {
			t.Errorf("%v: %d %s", a, code, body)
		}
	}
	guest := s.guest()
	s.answer("en", guest, "end", "draw", "draw")
	code, m := s.do("GET", "/api/learn/progress", tok, nil)
	done, _ := json.Marshal(m["done"])
	if code != 200 || string(done) != `["board/hole9","capture/seed1"]` {
		t.Errorf("progress: %d %v", code, m)
	}
	if code, m := s.do("GET", "/api/learn/progress", guest, nil); code != 200 || len(m["done"].([]any)) != 0 {
		t.Errorf("a guest's progress: %d %v", code, m)
	}
	req, _ := http.NewRequest("GET", s.URL+"/learn", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := s.srv().cat.T("en", "learn.progress", 2, lessons.Count())
	if !bytes.Contains(page, []byte(want)) || !bytes.Contains(page, []byte(`data-done="[&#34;board/hole9&#34;,&#34;capture/seed1&#34;]"`)) {
		t.Errorf("/learn of the account lacks %q and its progress", want)
	}
}

// TestLearnPages: /learn and every lesson answer in every language, with
// the lesson's boards (a button for each legal move of a board exercise)
// and the links to /rules, /history and /key; an unknown lesson is 404.
func TestLearnPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	get := func(path, lang string) (int, string) {
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		req.Header.Set("Accept-Language", lang)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, lang := range []string{"en", "kk", "kk-Latn", "ky", "ru"} {
		code, page := get("/learn", lang)
		if code != 200 {
			t.Fatalf("/learn %s: %d", lang, code)
		}
		for _, href := range []string{`href="/rules"`, `href="/history"`, `href="/key"`, `href="/learn/notation"`} {
			if !strings.Contains(page, href) {
				t.Errorf("/learn %s has no %s", lang, href)
			}
		}
		for _, l := range lessons.All() {
			code, page := get("/learn/"+l.ID, lang)
			if code != 200 {
				t.Fatalf("/learn/%s %s: %d", l.ID, lang, code)
			}
			if n := strings.Count(page, `class="exercise panel`); n != len(l.Exercises) {
				t.Errorf("/learn/%s: %d exercises shown, want %d", l.ID, n, len(l.Exercises))
			}
		}
	}
	// The first exercise of the tuzdik lesson: Black to move in seed
	// example 2, every non-empty hole of his a button, and only those.
	_, page := get("/learn/tuzdik", "en")
	ex := page[strings.Index(page, `id="ex-seed2"`):]
	ex = ex[:strings.Index(ex, `</section>`)]
	var holes []string
	for _, part := range strings.Split(ex, `class="hole playable" data-hole="`)[1:] {
		holes = append(holes, part[:strings.IndexByte(part, '"')])
	}
	if !slices.Equal(holes, []string{"8", "7", "6", "5", "4", "3", "2", "1"}) {
		t.Errorf("the buttons of tuzdik/seed2: %v", holes)
	}
	if code, _ := get("/learn/nope", "en"); code != 404 {
		t.Errorf("/learn/nope: %d", code)
	}
}
