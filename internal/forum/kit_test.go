package forum

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
)

// The tests run the forum as the server does, on a real store (SQLite in
// a temporary directory) and the real templates, behind sitetest's Kit: a
// request's bearer token is an account's name; its language is English
// unless Accept-Language names another.

// testSite is the forum served on loopback.
type testSite struct {
	t       *testing.T
	URL     string
	st      *store.Store
	clock   *sitetest.Clock
	notices *sitetest.Notices
	mods    map[int64]bool
	kids    map[int64]bool
	muted   map[int64]bool
	teams   map[string][]int64 // a team's members
}

func newTestSite(t *testing.T) *testSite {
	t.Helper()
	clk := sitetest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	st := sitetest.OpenStore(t, "", store.Options{Now: clk.Now})
	s := &testSite{t: t, st: st, clock: clk, notices: &sitetest.Notices{}, mods: map[int64]bool{}, kids: map[int64]bool{}, muted: map[int64]bool{}, teams: map[string][]int64{}}
	kit := sitetest.NewKit(t)
	kit.Who = sitetest.NameToken(st)
	f := New(kit, Config{Store: st, Notify: s.notices, Now: clk.Now,
		Moderator: func(id int64) bool { return s.mods[id] },
		Kid:       func(_ context.Context, id int64) bool { return s.kids[id] },
		Muted:     func(id int64) bool { return s.muted[id] },
		Member: func(_ context.Context, team string, user int64) (bool, error) {
			for _, m := range s.teams[team] {
				if m == user {
					return true, nil
				}
			}
			return false, nil
		}})
	rt := sitetest.NewRouter(kit)
	f.Routes(rt)
	ts := httptest.NewServer(rt.Mux)
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// user makes an account of the given age.
func (s *testSite) user(name string, age time.Duration) int64 {
	s.t.Helper()
	s.clock.Add(-age)
	u, err := s.st.CreateUser(s.t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	s.clock.Add(age)
	if err != nil {
		s.t.Fatal(err)
	}
	return u.ID
}

// do sends a request as who ("": nobody): a url.Values body as a form,
// anything else as JSON; it returns the status, the Location and the body.
func (s *testSite) do(method, path, who string, body any, lang ...string) (int, string, string) {
	s.t.Helper()
	var h []string
	if len(lang) > 0 {
		h = []string{"Accept-Language", lang[0]}
	}
	r := sitetest.Client{T: s.t, URL: s.URL}.Do(method, path, who, body, h...)
	return r.Status, r.Location, string(r.Body)
}

// json sends a JSON request and decodes the answer.
func (s *testSite) json(method, path, who string, body any) (int, map[string]any) {
	s.t.Helper()
	code, _, b := s.do(method, path, who, body)
	var m map[string]any
	if err := json.Unmarshal([]byte(b), &m); err != nil {
		s.t.Fatalf("%s %s: %d %q: %v", method, path, code, b, err)
	}
	return code, m
}
