package team

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/web"
)

// The tests run the teams as the server does, on a real store (SQLite in
// a temp dir) and the real templates, behind testKit: a request's bearer
// token is "id:name" of an account; its language is English. The
// notices go to a recorder (notify.Sender is a port; the real one is the
// notifications' service).

type testKit struct {
	cat   *i18n.Catalog
	pages *web.Pages
}

var _ site.Kit = testKit{}

func (k testKit) Identity(r *http.Request) site.Identity {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	idText, name, ok := strings.Cut(tok, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !ok || err != nil {
		return site.Identity{}
	}
	return site.Identity{Account: site.Account{ID: id, Name: name}, Token: tok}
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

func (k testKit) Lang(*http.Request) string { return "en" }
func (k testKit) Catalog() *i18n.Catalog    { return k.cat }
func (k testKit) Logger() *slog.Logger      { return slog.New(slog.DiscardHandler) }
func (k testKit) Message(_ *http.Request, e *apierr.Error) string {
	return apierr.Message(k.cat, "en", e)
}
func (k testKit) CheckGuest(*http.Request) error { return nil }

func (k testKit) Page(r *http.Request, titleKey string, data any, args ...any) *web.Page {
	p := k.pages.NewPage("en", k.cat.T("en", titleKey, args...), data)
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
	if le, ok := errors.AsType[*live.Error](err); ok {
		return &apierr.Error{Status: apierr.Status(le.Code), Code: le.Code, Key: "err." + string(le.Code), Detail: le.Message}
	}
	return &apierr.Error{Status: http.StatusInternalServerError, Code: apierr.CodeInternal, Key: "apierr.internal", Detail: err.Error()}
}

func (k testKit) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := k.AsError(r, err)
	site.WriteJSON(w, e.Status, map[string]any{"error": map[string]string{"code": string(e.Code), "message": k.Message(r, e), "detail": e.Detail}})
}

func (k testKit) Choices(string, string, bool) site.FormChoices { return site.FormChoices{} }

func (k testKit) SeatWithRating(_ context.Context, id site.Identity, _ clock.TimeControl) (game.Seat, error) {
	return id.Seat(), nil
}

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

// recorder is the tests' notify.Sender: it keeps every notice.
type recorder struct {
	mu  sync.Mutex
	got []notify.Notice
}

func (r *recorder) Send(_ context.Context, n notify.Notice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, n)
	return nil
}

func (r *recorder) take() []notify.Notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.got
	r.got = nil
	return got
}

type testSite struct {
	t      testing.TB
	URL    string
	st     *store.Store
	svc    *Service
	notice *recorder
}

func newTestSite(t testing.TB) *testSite {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat := i18n.New()
	pages, err := web.NewPages(cat)
	if err != nil {
		t.Fatal(err)
	}
	kit := testKit{cat: cat, pages: pages}
	rec := &recorder{}
	svc := NewService(Config{Store: st, Notify: rec})
	mux := http.NewServeMux()
	NewSite(kit, svc, nil).Routes(testRouter{kit, mux})
	ts := httptest.NewServer(mux)
	t.Cleanup(func() {
		ts.Close()
		st.Close()
	})
	return &testSite{t: t, URL: ts.URL, st: st, svc: svc, notice: rec}
}

// user makes an account and returns its token.
func (s *testSite) user(name string) string {
	s.t.Helper()
	u, err := s.st.CreateUser(context.Background(), name, "x")
	if err != nil {
		s.t.Fatal(err)
	}
	return strconv.FormatInt(u.ID, 10) + ":" + name
}

func (s *testSite) do(method, path, token string, body any) (int, map[string]any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.URL+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// form posts a page's form and returns the status and the redirect.
func (s *testSite) form(path, token string, v url.Values) (int, string, string) {
	s.t.Helper()
	req, _ := http.NewRequest("POST", s.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := noRedirect.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

func (s *testSite) get(path, token string) (int, string) {
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
