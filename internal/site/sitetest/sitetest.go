// Package sitetest is the site as a feature's tests see it: a site.Kit and
// a site.Router over the real catalogs and templates, a store in a
// temporary directory, a recorder of notices, a settable clock and a
// client for a feature served on loopback. Only tests import it; it
// stands in for internal/server, which a feature may not import.
//
// A request's bearer token says who asks: by default "<account id>:<name>"
// (AccountToken); a test may read tokens otherwise (GuestToken, NameToken).
// Its language is the "lang" query parameter's, else Accept-Language's,
// else English.
package sitetest

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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

// Kit is the site.Kit of the tests.
type Kit struct {
	Cat   *i18n.Catalog
	Pages *web.Pages
	// Who reads a request's bearer token ("" when it has none); nil is
	// AccountToken.
	Who func(r *http.Request, token string) site.Identity
	// Anonymous is who EnsureIdentity makes of nobody (the zero Identity:
	// nobody stays nobody).
	Anonymous site.Identity
	// Decorate, where set, completes the frame of a page that a known
	// identity asks for (the moderator's links, a warning).
	Decorate func(p *web.Page, id site.Identity)
}

var _ site.Kit = (*Kit)(nil)

// NewKit returns a Kit over the real catalogs and templates.
func NewKit(t testing.TB) *Kit {
	t.Helper()
	cat := i18n.New()
	pages, err := web.NewPages(cat)
	if err != nil {
		t.Fatal(err)
	}
	return &Kit{Cat: cat, Pages: pages}
}

// AccountToken reads a token "<account id>:<name>"; anything else is nobody.
func AccountToken(_ *http.Request, tok string) site.Identity {
	idText, name, ok := strings.Cut(tok, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !ok || err != nil {
		return site.Identity{}
	}
	return site.Identity{Account: site.Account{ID: id, Name: name}, Token: tok}
}

// Token is the token AccountToken reads as u.
func Token(u store.User) string { return strconv.FormatInt(u.ID, 10) + ":" + u.Name }

// GuestToken reads a token as a guest's name.
func GuestToken(_ *http.Request, tok string) site.Identity {
	return site.Identity{Guest: tok, Token: tok}
}

// NameToken reads a token as an account's name in st; an unknown name is
// nobody.
func NameToken(st *store.Store) func(*http.Request, string) site.Identity {
	return func(r *http.Request, name string) site.Identity {
		if name == "" {
			return site.Identity{}
		}
		u, err := st.UserByName(r.Context(), name)
		if err != nil {
			return site.Identity{}
		}
		return site.Identity{Account: site.Account{ID: u.ID, Name: u.Name}, Token: name}
	}
}

func (k *Kit) Identity(r *http.Request) site.Identity {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if k.Who == nil {
		return AccountToken(r, tok)
	}
	return k.Who(r, tok)
}

func (k *Kit) MustIdentity(r *http.Request) (site.Identity, error) {
	id := k.Identity(r)
	if !id.Known() {
		return id, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	return id, nil
}

func (k *Kit) EnsureIdentity(_ http.ResponseWriter, r *http.Request) site.Identity {
	if id := k.Identity(r); id.Known() {
		return id
	}
	return k.Anonymous
}

func (k *Kit) Lang(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l != "" {
		return l
	}
	if l := r.Header.Get("Accept-Language"); l != "" {
		return l
	}
	return "en"
}

func (k *Kit) Catalog() *i18n.Catalog { return k.Cat }
func (k *Kit) Logger() *slog.Logger   { return slog.New(slog.DiscardHandler) }

func (k *Kit) Message(r *http.Request, e *apierr.Error) string {
	return apierr.Message(k.Cat, k.Lang(r), e)
}

// CheckGuest accepts every guest: the tests' tokens are not signed.
func (k *Kit) CheckGuest(*http.Request) error { return nil }

func (k *Kit) Page(r *http.Request, titleKey string, data any, args ...any) *web.Page {
	lang := k.Lang(r)
	p := k.Pages.NewPage(lang, k.Cat.T(lang, titleKey, args...), data)
	p.Path = r.URL.RequestURI()
	if id := k.Identity(r); id.Known() {
		p.User, p.Guest = id.Name(), id.Guest != ""
		if k.Decorate != nil {
			k.Decorate(p, id)
		}
	}
	return p
}

func (k *Kit) Render(w http.ResponseWriter, status int, name string, p *web.Page) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	return k.Pages.Render(w, name, p)
}

// AsError classifies err as the server does: an API error as it is, a
// live game's error by its code, anything else internal.
func (k *Kit) AsError(_ *http.Request, err error) *apierr.Error {
	if ae, ok := errors.AsType[*apierr.Error](err); ok {
		return ae
	}
	if le, ok := errors.AsType[*live.Error](err); ok {
		return &apierr.Error{Status: apierr.Status(le.Code), Code: le.Code, Key: "err." + string(le.Code), Detail: le.Message}
	}
	return &apierr.Error{Status: http.StatusInternalServerError, Code: apierr.CodeInternal, Key: "apierr.internal", Detail: err.Error()}
}

func (k *Kit) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := k.AsError(r, err)
	_ = site.WriteJSON(w, e.Status, map[string]any{"error": map[string]string{"code": string(e.Code), "message": k.Message(r, e), "detail": e.Detail}})
}

// Choices offers every ruleset, the first chosen unless selected names one.
func (k *Kit) Choices(lang, selected string, account bool) site.FormChoices {
	c := site.FormChoices{CanRate: account, RulesetTitles: map[string]string{}}
	for _, n := range toguz.RulesetNames() {
		rc := site.RulesetChoice{Name: n, Title: k.Cat.T(lang, "ruleset."+n), Selected: n == selected}
		c.Rulesets, c.RulesetTitles[n] = append(c.Rulesets, rc), rc.Title
	}
	c.Chosen = c.Rulesets[0]
	return c
}

// SeatWithRating gives the seat without a rating.
func (k *Kit) SeatWithRating(_ context.Context, id site.Identity, _ clock.TimeControl) (game.Seat, error) {
	return id.Seat(), nil
}

// Router is the site.Router of the tests, on a ServeMux: an API route's
// error is the JSON error object, a page's its status and its message
// with the detail in brackets as text.
type Router struct {
	Kit *Kit
	Mux *http.ServeMux
}

// NewRouter returns a Router on a new ServeMux.
func NewRouter(k *Kit) Router { return Router{Kit: k, Mux: http.NewServeMux()} }

func (rt Router) API(pattern string, h site.Handler) {
	rt.Mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			rt.Kit.WriteError(w, r, err)
		}
	})
}

func (rt Router) Page(pattern string, h site.Handler) {
	rt.Mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			e := rt.Kit.AsError(r, err)
			http.Error(w, rt.Kit.Message(r, e)+" ("+e.Detail+")", e.Status)
		}
	})
}

func (rt Router) Handle(pattern string, h http.Handler) { rt.Mux.Handle(pattern, h) }

// OpenStore opens a store at path ("": in the test's temporary directory),
// closed when the test ends (after the cleanups registered later).
func OpenStore(t testing.TB, path string, o store.Options) *store.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "toguz.db")
	}
	st, err := store.Open(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
