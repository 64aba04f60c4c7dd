package inbox

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
)

// pagesSite serves the inbox on loopback over a real store and the real
// privacy service; a token is "<id>:<name>".
type pagesSite struct {
	c       sitetest.Client
	st      *store.Store
	mods    map[int64]bool
	notices *sitetest.Notices
}

func newPagesSite(t *testing.T) *pagesSite {
	st := sitetest.OpenStore(t, "", store.Options{})
	kit := sitetest.NewKit(t)
	s := &pagesSite{st: st, mods: map[int64]bool{}, notices: &sitetest.Notices{}}
	in := New(kit, Config{Store: st, Privacy: privacy.New(privacy.Config{Store: st, Kit: kit}), Notify: s.notices,
		IsModerator: func(id int64) bool { return s.mods[id] }})
	rt := sitetest.NewRouter(kit)
	in.Routes(rt)
	ts := httptest.NewServer(rt.Mux)
	t.Cleanup(ts.Close)
	s.c = sitetest.Client{T: t, URL: ts.URL}
	return s
}

func (s *pagesSite) user(t *testing.T, name string) (store.User, string) {
	u, err := s.st.CreateUser(t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	if err != nil {
		t.Fatal(err)
	}
	return u, sitetest.Token(u)
}

// TestPagesAndAPI: every page and API route of the inbox answers as it
// should to nobody, to the sides of a conversation, to a stranger and to
// a moderator, with its paging, its errors and the text kept after one.
func TestPagesAndAPI(t *testing.T) {
	s := newPagesSite(t)
	aigerim, a := s.user(t, "aigerim")
	_, b := s.user(t, "bolat")
	mod, m := s.user(t, "moder")
	s.mods[mod.ID] = true
	_ = aigerim

	// Nobody.
	for _, tt := range []struct{ method, path string }{
		{"GET", "/api/inbox"}, {"GET", "/api/inbox/bolat"}, {"POST", "/api/inbox/bolat"},
	} {
		if r := s.c.Do(tt.method, tt.path, "", map[string]string{"text": "hi"}); r.Status != http.StatusUnauthorized {
			t.Errorf("%s %s by nobody: %d %s", tt.method, tt.path, r.Status, r.Body)
		}
	}
	for _, p := range []string{"/inbox", "/inbox/bolat"} {
		if r := s.c.Do("GET", p, "", nil); r.Status != http.StatusSeeOther || r.Location != "/login" {
			t.Errorf("GET %s by nobody: %d %q", p, r.Status, r.Location)
		}
	}

	// Sending: the API, the page's form, and their errors.
	for i := range PerPage + 2 {
		if r := s.c.Do("POST", "/api/inbox/bolat", a, map[string]string{"text": fmt.Sprintf("message %d", i)}); r.Status != http.StatusOK || r.JSON()["id"] == nil {
			t.Fatalf("send %d: %d %s", i, r.Status, r.Body)
		}
		if i == PerMinute-2 {
			break
		}
	}
	if r := s.c.Do("POST", "/inbox/aigerim", b, url.Values{"body": {"Сәлем!"}}); r.Status != http.StatusSeeOther || r.Location != "/inbox/aigerim" {
		t.Fatalf("the form: %d %q %s", r.Status, r.Location, r.Body)
	}
	if ns := s.notices.Take(); len(ns) != PerMinute {
		t.Errorf("%d notices, want %d", len(ns), PerMinute)
	}
	for _, tt := range []struct {
		path, who, text string
		code            int
	}{
		{"/api/inbox/nobody", a, "hi", http.StatusNotFound},
		{"/api/inbox/aigerim", a, "hi", http.StatusBadRequest},
		{"/api/inbox/bolat", a, "  ", http.StatusBadRequest},
		{"/api/inbox/bolat", a, strings.Repeat("ы", MaxRunes+1), http.StatusBadRequest},
	} {
		if r := s.c.Do("POST", tt.path, tt.who, map[string]string{"text": tt.text}); r.Status != tt.code {
			t.Errorf("POST %s %q: %d %s, want %d", tt.path, tt.text[:min(len(tt.text), 8)], r.Status, r.Body, tt.code)
		}
	}
	// A refused form keeps its text and says why.
	if r := s.c.Do("POST", "/inbox/bolat", a, url.Values{"body": {strings.Repeat("ы", MaxRunes+1)}}); r.Status != http.StatusBadRequest ||
		!strings.Contains(string(r.Body), "ыыыы") || !strings.Contains(string(r.Body), "aigerim") {
		t.Errorf("refused form: %d", r.Status)
	}
	if r := s.c.Do("POST", "/inbox/nobody", a, url.Values{"body": {"hi"}}); r.Status != http.StatusNotFound {
		t.Errorf("form to nobody: %d", r.Status)
	}

	// Lists and threads.
	if r := s.c.Do("GET", "/api/inbox", b, nil); r.Status != http.StatusOK || len(r.JSON()["conversations"].([]any)) != 1 {
		t.Errorf("bolat's inbox: %d %s", r.Status, r.Body)
	}
	if r := s.c.Do("GET", "/inbox", b, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "/inbox/aigerim") {
		t.Errorf("bolat's inbox page: %d", r.Status)
	}
	if r := s.c.Do("GET", "/inbox?to=aigerim", b, nil); r.Status != http.StatusSeeOther || r.Location != "/inbox/aigerim" {
		t.Errorf("?to: %d %q", r.Status, r.Location)
	}
	r := s.c.Do("GET", "/api/inbox/aigerim", b, nil)
	if ms := r.JSON()["messages"].([]any); r.Status != http.StatusOK || len(ms) != PerMinute || ms[len(ms)-1].(map[string]any)["body"] != "Сәлем!" {
		t.Errorf("the thread: %d %s", r.Status, r.Body)
	}
	if r := s.c.Do("GET", "/api/inbox/aigerim?page=2", b, nil); r.Status != http.StatusOK || len(r.JSON()["messages"].([]any)) != 0 {
		t.Errorf("page 2: %d %s", r.Status, r.Body)
	}
	for _, p := range []string{"/api/inbox?page=0", "/api/inbox/aigerim?page=x", "/inbox?page=1001", "/inbox/aigerim?page=-1"} {
		if r := s.c.Do("GET", p, b, nil); r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d", p, r.Status)
		}
	}
	if r := s.c.Do("GET", "/api/inbox/bolat", b, nil); r.Status != http.StatusBadRequest {
		t.Errorf("own thread: %d", r.Status)
	}
	if r := s.c.Do("GET", "/inbox/aigerim", b, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "message 0") {
		t.Errorf("the thread's page: %d", r.Status)
	}

	// The moderators read a conversation once it is reported.
	if r := s.c.Do("GET", "/mod/inbox/aigerim/bolat", m, nil); r.Status != http.StatusForbidden {
		t.Errorf("unreported conversation: %d", r.Status)
	}
	if r := s.c.Do("GET", "/mod/inbox", b, nil); r.Status != http.StatusForbidden {
		t.Errorf("the queue by a player: %d", r.Status)
	}
	if r := s.c.Do("POST", "/inbox/moder/report", b, nil); r.Status != http.StatusNotFound {
		t.Errorf("report of no conversation: %d", r.Status)
	}
	if r := s.c.Do("POST", "/inbox/aigerim/report", b, nil); r.Status != http.StatusSeeOther || r.Location != "/inbox/aigerim" {
		t.Errorf("report: %d %q %s", r.Status, r.Location, r.Body)
	}
	if r := s.c.Do("GET", "/mod/inbox", m, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "/mod/inbox/") {
		t.Errorf("the queue: %d %s", r.Status, r.Body)
	}
	if r := s.c.Do("GET", "/mod/inbox/aigerim/bolat", m, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "Сәлем!") {
		t.Errorf("the reported conversation: %d", r.Status)
	}
	if r := s.c.Do("GET", "/mod/inbox/aigerim/nobody", m, nil); r.Status != http.StatusNotFound {
		t.Errorf("unknown side: %d", r.Status)
	}
}

// TestInboxPaged: a list longer than a page links to the next page, and
// that page back to the first.
func TestInboxPaged(t *testing.T) {
	s := newPagesSite(t)
	carla, c := s.user(t, "carla")
	for i := range PerPage + 1 {
		u, _ := s.user(t, fmt.Sprintf("p%02d", i))
		if _, err := s.st.AddMessage(t.Context(), store.Message{SenderID: u.ID, RecipientID: carla.ID, Body: "hi"}, store.MessageLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	if r := s.c.Do("GET", "/inbox", c, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `href="/inbox?page=2"`) || strings.Contains(string(r.Body), `rel="prev"`) {
		t.Errorf("page 1: %d", r.Status)
	}
	if r := s.c.Do("GET", "/inbox?page=2", c, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `href="/inbox?page=1"`) || strings.Contains(string(r.Body), `rel="next"`) {
		t.Errorf("page 2: %d", r.Status)
	}
	if r := s.c.Do("GET", "/api/inbox", c, nil); r.JSON()["next"] != float64(2) || len(r.JSON()["conversations"].([]any)) != PerPage {
		t.Errorf("the API's page 1: %s", r.Body)
	}
}
