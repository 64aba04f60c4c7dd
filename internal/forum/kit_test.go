package forum

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/web"
)

// The tests run the forum as the server does, on a real store (SQLite in
// a temporary directory) and the real templates, behind testKit: the site
// as far as a feature sees it. A request's bearer token is an account's
// name; its language is English unless Accept-Language names another.

type testKit struct {
	cat   *i18n.Catalog
	pages *web.Pages
	st    *store.Store
}

var _ site.Kit = testKit{}

func (k testKit) Identity(r *http.Request) site.Identity {
	name, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if name == "" {
		return site.Identity{}
	}
	u, err := k.st.UserByName(r.Context(), name)
	if err != nil {
		return site.Identity{}
	}
	return site.Identity{Account: site.Account{ID: u.ID, Name: u.Name}, Token: name}
}

func (k testKit) MustIdentity(r *http.Request) (site.Identity, error) {
	id := k.Identity(r)
	if !id.Known() {
		return id, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	return id, nil
}

func (k testKit) EnsureIdentity(_ http.ResponseWriter, r *http.Request) site.Identity {
	return k.Identity(r)
}

func (k testKit) Lang(r *http.Request) string {
	if l := r.Header.Get("Accept-Language"); l != "" {
		return l
	}
	return "en"
}
func (k testKit) Catalog() *i18n.Catalog { return k.cat }
func (k testKit) Logger() *slog.Logger   { return slog.New(slog.DiscardHandler) }
func (k testKit) Message(r *http.Request, e *apierr.Error) string {
	return apierr.Message(k.cat, k.Lang(r), e)
}

func (k testKit) Page(r *http.Request, titleKey string, data any, args ...any) *web.Page {
	p := k.pages.NewPage(k.Lang(r), k.cat.T(k.Lang(r), titleKey, args...), data)
	p.Path = r.URL.RequestURI()
	if id := k.Identity(r); id.Known() {
		p.User = id.Name()
	}
	return p
}

func (k testKit) Render(w http.ResponseWriter, status int, name string, p *web.Page) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	return k.pages.Render(w, name, p)
}

func (k testKit) AsError(_ *http.Request, err error) *apierr.Error {
	if ae, ok := errors.AsType[*apierr.Error](err); ok {
		return ae
	}
	return &apierr.Error{Status: http.StatusInternalServerError, Code: apierr.CodeInternal, Key: "apierr.internal", Detail: err.Error()}
}

func (k testKit) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := k.AsError(r, err)
	_ = site.WriteJSON(w, e.Status, map[string]any{"error": map[string]string{"code": string(e.Code), "message": k.Message(r, e), "detail": e.Detail}})
}

func (k testKit) Choices(string, string, bool) site.FormChoices { return site.FormChoices{} }
func (k testKit) SeatWithRating(_ context.Context, id site.Identity, _ clock.TimeControl) (game.Seat, error) {
	return id.Seat(), nil
}
func (k testKit) CheckGuest(*http.Request) error { return nil }

type testRouter struct {
	kit testKit
	mux *http.ServeMux
}

func (rt testRouter) API(pattern string, h site.Handler) {
	rt.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			rt.kit.WriteError(w, r, err)
		}
	})
}

func (rt testRouter) Page(pattern string, h site.Handler) {
	rt.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			e := rt.kit.AsError(r, err)
			http.Error(w, rt.kit.Message(r, e)+" ("+e.Detail+")", e.Status)
		}
	})
}

func (rt testRouter) Handle(pattern string, h http.Handler) { rt.mux.Handle(pattern, h) }

// recorder is the notices' Sender of the tests: it keeps them.
type recorder struct {
	mu      sync.Mutex
	notices []notify.Notice
}

func (r *recorder) Send(_ context.Context, n notify.Notice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notices = append(r.notices, n)
	return nil
}

func (r *recorder) take() []notify.Notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.notices
	r.notices = nil
	return out
}

// testClock is a settable clock.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// testSite is the forum served on loopback.
type testSite struct {
	t       *testing.T
	URL     string
	st      *store.Store
	clock   *testClock
	notices *recorder
	mods    map[int64]bool
	kids    map[int64]bool
	muted   map[int64]bool
	teams   map[string][]int64 // a team's members
}

func newTestSite(t *testing.T) *testSite {
	t.Helper()
	clk := &testClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "toguz.db"), store.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat := i18n.New()
	pages, err := web.NewPages(cat)
	if err != nil {
		t.Fatal(err)
	}
	s := &testSite{t: t, st: st, clock: clk, notices: &recorder{}, mods: map[int64]bool{}, kids: map[int64]bool{}, muted: map[int64]bool{}, teams: map[string][]int64{}}
	kit := testKit{cat: cat, pages: pages, st: st}
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
	mux := http.NewServeMux()
	f.Routes(testRouter{kit, mux})
	ts := httptest.NewServer(mux)
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
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		rd, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		j, _ := json.Marshal(b)
		rd, ctype = strings.NewReader(string(j)), "application/json"
	}
	req, _ := http.NewRequest(method, s.URL+path, rd)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+who)
	}
	if len(lang) > 0 {
		req.Header.Set("Accept-Language", lang[0])
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
