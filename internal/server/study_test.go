package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/study"
)

// form posts a form with the token and returns the status, the redirect
// and the body; redirects are not followed.
func (s *testServer) form(path, token string, v url.Values) (int, string, string) {
	s.t.Helper()
	req, _ := http.NewRequest("POST", s.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// get fetches a page with the token.
func (s *testServer) get(path, token string) (int, string) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

type studyConn struct {
	t *testing.T
	c *websocket.Conn
}

func (s *testServer) dialStudy(t *testing.T, id, token string) *studyConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	c, resp, err := websocket.Dial(ctx, strings.Replace(s.URL, "http", "ws", 1)+"/api/studies/"+id+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		t.Fatalf("dial study %s: %d %v", id, code, err)
	}
	c.SetReadLimit(4 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return &studyConn{t: t, c: c}
}

type studyMsg struct {
	Type     string              `json:"type"`
	Code     string              `json:"code"`
	Message  string              `json:"message"`
	Chapter  study.ChapterJSON   `json:"chapter"`
	Chapters []study.ChapterJSON `json:"chapters"`
	Index    int                 `json:"index"`
	At       study.At            `json:"at"`
}

func (c *studyConn) send(v any) {
	c.t.Helper()
	b, _ := json.Marshal(v)
	if err := c.c.Write(context.Background(), websocket.MessageText, b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *studyConn) read() studyMsg {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := c.c.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m studyMsg
	if err := json.Unmarshal(b, &m); err != nil {
		c.t.Fatal(err)
	}
	return m
}

// TestStudyLive: a private study is the members' only; an editor's op is
// applied to the stored tree and sent to a viewer, whose own ops are
// refused; a move the rules refuse and too many edits are answered with
// errors.
func TestStudyLive(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	coach, pupil, stranger := s.signup("Coach"), s.signup("Pupil"), s.signup("Stranger")
	code, loc, body := s.form("/study", coach, url.Values{"name": {"Openings"}, "visibility": {"private"}, "ruleset": {"standard"}})
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/study/") {
		t.Fatalf("create: %d %q %s", code, loc, body)
	}
	id := strings.TrimPrefix(loc, "/study/")
	checkStudyMembers(t, s, id, coach, pupil, stranger)

	c, p := s.dialStudy(t, id, coach), s.dialStudy(t, id, pupil)
	checkStudyEdits(t, s, id, c, p)
	// Everyone leaves; the study reopens from the store.
	c.c.CloseNow()
	p.c.CloseNow()
	time.Sleep(100 * time.Millisecond)
	again := s.dialStudy(t, id, pupil)
	if m := again.read(); m.Type != "study" || len(m.Chapters[0].Root.Children) != 1 || len(m.Chapters[0].Root.Children[0].Holes) != 1 {
		t.Errorf("reopened: %+v", m)
	}
	c = s.dialStudy(t, id, coach)
	c.read()
	checkStudyRate(t, c)
}

// checkStudyMembers: private study id opens to its owner only, until he
// invites the pupil as a viewer; only he invites.
func checkStudyMembers(t *testing.T, s *testServer, id, coach, pupil, stranger string) {
	t.Helper()
	for _, c := range []struct {
		who, token string
		want       int
	}{{"nobody", "", 403}, {"a stranger", stranger, 403}, {"the pupil before his invitation", pupil, 403}, {"the coach", coach, 200}} {
		if got, _ := s.get("/study/"+id, c.token); got != c.want {
			t.Errorf("%s opens the private study: %d, want %d", c.who, got, c.want)
		}
	}
	if got, _ := s.get("/study/nosuch", coach); got != 404 {
		t.Errorf("no study: %d", got)
	}
	if code, _, _ := s.form("/study/"+id+"/members", pupil, url.Values{"name": {"Stranger"}, "role": {"editor"}}); code != 403 {
		t.Errorf("a non-member invites: %d", code)
	}
	if code, _, b := s.form("/study/"+id+"/members", coach, url.Values{"name": {"Pupil"}, "role": {"viewer"}}); code != 303 {
		t.Fatalf("invite the pupil: %d %s", code, b)
	}
	if code, _, _ := s.form("/study/"+id+"/members", coach, url.Values{"name": {"Nobody"}, "role": {"viewer"}}); code != 404 {
		t.Errorf("invite an unknown account: %d", code)
	}
	if got, page := s.get("/study/"+id, pupil); got != 200 || !strings.Contains(page, `data-edit="false"`) {
		t.Errorf("the pupil opens the study: %d", got)
	}
}

// checkStudyEdits: the coach's ops reach the pupil (c and p, their
// connections to study id) and the store; the pupil's, and an illegal
// move, are refused.
func checkStudyEdits(t *testing.T, s *testServer, id string, c, p *studyConn) {
	t.Helper()
	if m := c.read(); m.Type != "study" || len(m.Chapters) != 1 || m.Chapters[0].Name != "Openings" {
		t.Fatalf("coach's snapshot %+v", m)
	}
	p.read()
	p.send(map[string]any{"type": "op", "op": "move", "chapter": 0, "hole": 7})
	if m := p.read(); m.Type != "error" || m.Code != "forbidden" {
		t.Errorf("a viewer's op: %+v", m)
	}
	c.send(map[string]any{"type": "op", "op": "move", "chapter": 0, "hole": 7})
	for _, x := range []*studyConn{c, p} {
		m := x.read()
		if m.Type != "chapter" || len(m.Chapter.Root.Children) != 1 || m.Chapter.Root.Children[0].Notation != "76" || len(m.At.Path) != 1 {
			t.Errorf("after the coach's move: %+v", m)
		}
	}
	c.send(map[string]any{"type": "op", "op": "shapes", "chapter": 0, "path": []int{7}, "holes": []string{"b6"}, "arrows": []string{"w7b6"}})
	if m := p.read(); len(m.Chapter.Root.Children[0].Arrows) != 1 {
		t.Errorf("arrows not sent: %+v", m.Chapter.Root.Children[0])
	}
	c.read()
	c.send(map[string]any{"type": "op", "op": "move", "chapter": 0, "path": []int{7}, "hole": 10})
	if m := c.read(); m.Type != "error" || m.Code != "illegal_move" {
		t.Errorf("an illegal move: %+v", m)
	}
	c.send(map[string]any{"type": "goto", "at": map[string]any{"chapter": 0, "path": []int{}}})
	if m := p.read(); m.Type != "position" || len(m.At.Path) != 0 {
		t.Errorf("goto: %+v", m)
	}
	// The stored chapter has the move, the marked hole and the arrow.
	names, recs, err := s.st.Chapters(context.Background(), id)
	if err != nil || len(names) != 1 || !strings.Contains(recs[0], "76 {[%csl b6][%cal w7b6]}") {
		t.Errorf("stored %q, %v", recs, err)
	}
}

// checkStudyRate: edits beyond the rate are refused, and the connection
// stays.
func checkStudyRate(t *testing.T, c *studyConn) {
	t.Helper()
	limited := false
	for range study.MaxOpsBurst + 5 {
		c.send(map[string]any{"type": "goto", "at": map[string]any{"chapter": 0, "path": []int{7}}})
	}
	for range study.MaxOpsBurst + 5 {
		if m := c.read(); m.Type == "error" && m.Code == "rate_limited" {
			limited = true
			break
		}
	}
	if !limited {
		t.Errorf("%d edits at once were all taken", study.MaxOpsBurst+5)
	}
}

// TestStudyPages: /study lists the studies and the form; an unlisted
// study opens for anyone with its link; a guest cannot create one.
func TestStudyPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	coach := s.signup("Coach")
	_, loc, _ := s.form("/study", coach, url.Values{"name": {"Endings"}, "visibility": {"unlisted"}, "ruleset": {"bestemshe"}})
	if code, page := s.get(loc, ""); code != 200 || !strings.Contains(page, "<title>Study: Endings ·") {
		t.Errorf("an unlisted study by its link: %d", code)
	}
	if code, page := s.get("/study", coach); code != 200 || !strings.Contains(page, "Endings") || !strings.Contains(page, `id="study-new"`) || !strings.Contains(page, "<title>Studies ·") {
		t.Errorf("/study: %d", code)
	}
	if code, page := s.get("/study", ""); code != 200 || strings.Contains(page, "Endings") {
		t.Errorf("/study lists an unlisted study to a visitor: %d", code)
	}
	if code, _, _ := s.form("/study", "", url.Values{"name": {"x"}, "visibility": {"public"}}); code != 401 {
		t.Errorf("a visitor creates a study: %d", code)
	}
	if code, _, _ := s.form("/study", coach, url.Values{"name": {strings.Repeat("x", study.MaxName+1)}, "visibility": {"public"}}); code != 400 {
		t.Errorf("a long name: %d", code)
	}
	if code, _, _ := s.form("/study", coach, url.Values{"name": {"x"}, "visibility": {"public"}, "fen": {"nonsense"}}); code != 400 {
		t.Errorf("a bad FEN: %d", code)
	}
}

// TestClassPages: a coach invites an account, the student accepts, and
// the class page shows his lessons' progress; only the coach opens it.
func TestClassPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	coach, aru, other := s.signup("Coach"), s.signup("Aru"), s.signup("Other")
	code, loc, _ := s.form("/classes", coach, url.Values{"name": {"Tuesday"}})
	if code != 303 || !strings.HasPrefix(loc, "/class/") {
		t.Fatalf("create a class: %d %q", code, loc)
	}
	if code, _, b := s.form(loc+"/invite", coach, url.Values{"name": {"Aru"}}); code != 303 {
		t.Fatalf("invite: %d %s", code, b)
	}
	if _, page := s.get(loc, coach); !strings.Contains(page, "class.invited") && !strings.Contains(page, "invited, has not answered") {
		t.Errorf("the invited student is not shown as invited")
	}
	if _, page := s.get("/classes", aru); !strings.Contains(page, "Tuesday") || !strings.Contains(page, "class-accept") {
		t.Errorf("the student's invitation is not on /classes")
	}
	if code, _, _ := s.form(loc+"/answer", aru, url.Values{"answer": {"yes"}}); code != 303 {
		t.Fatalf("accept: %d", code)
	}
	u, err := s.st.UserByName(context.Background(), "Aru")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.st.MarkExercise(context.Background(), u.ID, "board/hole9"); err != nil {
		t.Fatal(err)
	}
	code, page := s.get(loc, coach)
	if code != 200 || !strings.Contains(page, ">1 of ") || !strings.Contains(page, "No puzzles yet") {
		t.Errorf("the class page: %d, no progress 1 of N and no puzzles in\n%s", code, page)
	}
	// The student's puzzles: one solved, one missed.
	for i, solved := range []bool{true, false} {
		if _, err := s.st.RecordPuzzle(context.Background(), u.ID, fmt.Sprint("p", i), solved, rating.Default()); err != nil {
			t.Fatal(err)
		}
	}
	if _, page := s.get(loc, coach); !regexp.MustCompile(`class="class-puzzles">1 solved of 2 tried, rating \d+<`).MatchString(page) {
		t.Errorf("the class page does not show the student's puzzles:\n%s", page)
	}
	if code, _ := s.get(loc, other); code != 403 {
		t.Errorf("another account opens the class: %d", code)
	}
	if code, _, _ := s.form(loc+"/invite", aru, url.Values{"name": {"Other"}}); code != 403 {
		t.Errorf("a student invites: %d", code)
	}
}
