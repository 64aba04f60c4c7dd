package simul

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/web"
)

// The tests run the Hall as the server does, on a real store (SQLite in a
// temp dir), a real hub and the real templates, behind testKit: the
// site as far as a feature sees it. A request's bearer token is a guest's
// name; its language is English.

// testKit is the site.Kit of the tests.
type testKit struct {
	cat   *i18n.Catalog
	pages *web.Pages
	log   *slog.Logger
}

var _ site.Kit = testKit{}

func newTestKit(t testing.TB) testKit {
	cat := i18n.New()
	pages, err := web.NewPages(cat)
	if err != nil {
		t.Fatal(err)
	}
	return testKit{cat: cat, pages: pages, log: slog.New(slog.DiscardHandler)}
}

func (k testKit) Identity(r *http.Request) site.Identity {
	name, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return site.Identity{Guest: name, Token: name}
}

func (k testKit) MustIdentity(r *http.Request) (site.Identity, error) {
	id := k.Identity(r)
	if !id.Known() {
		return id, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	return id, nil
}

func (k testKit) EnsureIdentity(_ http.ResponseWriter, r *http.Request) site.Identity {
	if id := k.Identity(r); id.Known() {
		return id
	}
	return site.Identity{Guest: "anonymous"}
}

func (k testKit) Lang(*http.Request) string { return "en" }
func (k testKit) Catalog() *i18n.Catalog    { return k.cat }
func (k testKit) Logger() *slog.Logger      { return k.log }
func (k testKit) Message(_ *http.Request, e *apierr.Error) string {
	return apierr.Message(k.cat, "en", e)
}

func (k testKit) Page(r *http.Request, titleKey string, data any, args ...any) *web.Page {
	p := k.pages.NewPage("en", k.cat.T("en", titleKey, args...), data)
	p.Path = r.URL.RequestURI()
	if id := k.Identity(r); id.Known() {
		p.User, p.Guest = id.Name(), true
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

func (k testKit) Choices(lang, selected string, account bool) site.FormChoices {
	c := site.FormChoices{CanRate: account, RulesetTitles: map[string]string{}}
	for _, n := range toguz.RulesetNames() {
		rc := site.RulesetChoice{Name: n, Title: k.cat.T(lang, "ruleset."+n), Selected: n == selected}
		c.Rulesets, c.RulesetTitles[n] = append(c.Rulesets, rc), rc.Title
	}
	c.Chosen = c.Rulesets[0]
	return c
}

func (k testKit) SeatWithRating(_ context.Context, id site.Identity, _ clock.TimeControl) (game.Seat, error) {
	return id.Seat(), nil
}

// testRouter is the site.Router of the tests: an API route's error is
// the JSON error object, a page's its status and message as text.
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

// testSite is a Hall served on loopback with its store and hub.
type testSite struct {
	t    testing.TB
	URL  string
	st   *store.Store
	hub  *live.Hub
	hall *Hall
	n    atomic.Int64 // guests made
}

type siteOpts struct {
	db string // the store's file ("": a new one)
	// wrap, where set, wraps the store as the Hall's Store.
	wrap func(Store) Store
	now  func() time.Time // the Hall's clock (nil: time.Now)
}

// newTestSite serves a Hall on a store and a hub, stopped at the test's
// end (the hub stopped cleanly, as a server's, so that a site opened on
// the same file after it resumes its games).
func newTestSite(t testing.TB, o siteOpts) *testSite {
	t.Helper()
	if o.db == "" {
		o.db = filepath.Join(t.TempDir(), "toguz.db")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, o.db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hub := live.NewHub(ctx, live.Config{Store: store.LiveStore{S: st}, FirstMoveTimeout: -1})
	if _, err := hub.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	var ss Store = st
	if o.wrap != nil {
		ss = o.wrap(st)
	}
	kit := newTestKit(t)
	hall, err := New(ctx, Config{Games: hub, Store: ss, Kit: kit, Now: o.now})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	hall.Routes(testRouter{kit, mux})
	ts := httptest.NewServer(mux)
	s := &testSite{t: t, URL: ts.URL, st: st, hub: hub, hall: hall}
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		if err := hub.Stop(ctx); err != nil {
			t.Error(err)
		}
		st.Close()
	})
	return s
}

// guest returns the token of a new guest: his name.
func (s *testSite) guest() string { return "guest" + strconv.FormatInt(s.n.Add(1), 10) }

// do sends a JSON request as token and decodes the JSON answer.
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

// get GETs a page as token.
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

// resign resigns game id as the guest of token.
func (s *testSite) resign(id, token string) {
	s.t.Helper()
	seat := game.GuestSeat(token)
	if err := s.hub.Act(context.Background(), id, live.Chatter{ID: seat.ID, Name: seat.Name}, live.ClientMsg{Type: "resign"}); err != nil {
		s.t.Fatalf("resign %s as %s: %v", id, token, err)
	}
}

// CheckGuest accepts every guest: the tests' tokens are names, not signed.
func (k testKit) CheckGuest(*http.Request) error { return nil }
