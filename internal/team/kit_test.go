package team

import (
	"context"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
)

// The tests run the teams as the server does, on a real store (SQLite in
// a temp dir) and the real templates, behind sitetest's Kit: a request's
// bearer token is "id:name" of an account; its language is English. The
// notices go to a recorder (notify.Sender is a port; the real one is the
// notifications' service).

type testSite struct {
	t      testing.TB
	URL    string
	st     *store.Store
	svc    *Service
	kit    *sitetest.Kit
	notice *sitetest.Notices
}

func newTestSite(t testing.TB) *testSite {
	t.Helper()
	st := sitetest.OpenStore(t, "", store.Options{})
	kit := sitetest.NewKit(t)
	rec := &sitetest.Notices{}
	svc := NewService(Config{Store: st, Notify: rec})
	rt := sitetest.NewRouter(kit)
	NewSite(kit, svc, nil).Routes(rt)
	ts := httptest.NewServer(rt.Mux)
	t.Cleanup(ts.Close)
	return &testSite{t: t, URL: ts.URL, st: st, svc: svc, kit: kit, notice: rec}
}

func (s *testSite) client() sitetest.Client { return sitetest.Client{T: s.t, URL: s.URL} }

// user makes an account and returns its token.
func (s *testSite) user(name string) string {
	s.t.Helper()
	u, err := s.st.CreateUser(context.Background(), name, "x")
	if err != nil {
		s.t.Fatal(err)
	}
	return sitetest.Token(u)
}

// do sends a JSON request (following redirects) and decodes the answer.
func (s *testSite) do(method, path, token string, body any) (int, map[string]any) {
	s.t.Helper()
	c := s.client()
	c.Follow = true
	r := c.Do(method, path, token, body)
	return r.Status, r.JSON()
}

// form posts a page's form and returns the status and the redirect.
func (s *testSite) form(path, token string, v url.Values) (int, string, string) {
	s.t.Helper()
	r := s.client().Do("POST", path, token, v)
	return r.Status, r.Location, string(r.Body)
}

// get GETs a page as token, following redirects.
func (s *testSite) get(path, token string) (int, string) {
	s.t.Helper()
	c := s.client()
	c.Follow = true
	r := c.Do("GET", path, token, nil)
	return r.Status, string(r.Body)
}
