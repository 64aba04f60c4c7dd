// Package site is what a feature package (simuls, broadcasts, the bot API,
// studies, …) needs of the web site around it, and nothing of how the site
// provides it: who makes a request (Identity), its language, the pages'
// frame and templates (internal/web), the errors' answers (internal/apierr)
// and a Router to register the feature's routes on.
//
// internal/server implements Kit and Router and composes the features;
// a feature package imports site, never server, so that the arrows run
// from the server to the features and from both to site. A feature owns
// its domain, its store port (an interface the store satisfies), its
// handlers and its route registration.
package site

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/web"
)

// Account is a signed-up user.
type Account struct {
	ID   int64
	Name string
	Lang string // the interface language the account chose; "" when none
}

// Identity is who makes a request: an account, a guest, or nobody.
type Identity struct {
	Account Account // ID 0 for a guest or nobody
	Guest   string  // the guest's name, "" when not a guest
	Token   string
}

// Known reports whether the request has a user or a guest.
func (id Identity) Known() bool { return id.Account.ID != 0 || id.Guest != "" }

// Name is the display name.
func (id Identity) Name() string {
	if id.Guest != "" {
		return id.Guest
	}
	return id.Account.Name
}

// Seat returns the game seat of the identity.
func (id Identity) Seat() game.Seat {
	if id.Guest != "" {
		return game.GuestSeat(id.Guest)
	}
	return game.UserSeat(id.Account.ID, id.Account.Name)
}

// Handler is a route's handler: an error it returns is answered by the
// Router as the route's kind says (the API's JSON error object, or the
// error page), in the language of the request.
type Handler func(http.ResponseWriter, *http.Request) error

// Router registers a feature's routes (Go 1.22 ServeMux patterns).
type Router interface {
	// API registers a JSON route: its errors are the API's error object.
	API(pattern string, h Handler)
	// Page registers an HTML route: its errors are the error page.
	Page(pattern string, h Handler)
	// Handle registers a handler that answers its own errors (a
	// websocket, an event stream, a file).
	Handle(pattern string, h http.Handler)
}

// Kit is what the site gives a feature's handlers.
type Kit interface {
	// Identity returns who makes r; a bad or expired token is nobody.
	Identity(r *http.Request) Identity
	// MustIdentity returns who makes r, or a 401 (and a 400 for a guest
	// token the site did not sign).
	MustIdentity(r *http.Request) (Identity, error)
	// EnsureIdentity returns who makes r, making him a guest (with a
	// cookie) when he is nobody yet.
	EnsureIdentity(w http.ResponseWriter, r *http.Request) Identity
	// Lang returns the language of r's answer.
	Lang(r *http.Request) string
	// Catalog is the texts of every language.
	Catalog() *i18n.Catalog
	// Page returns the frame of a page for r with its title's key.
	Page(r *http.Request, titleKey string, data any, args ...any) *web.Page
	// Render writes template name with p, as status.
	Render(w http.ResponseWriter, status int, name string, p *web.Page) error
	// AsError classifies any error for the client; unknown errors are
	// logged and become "internal".
	AsError(r *http.Request, err error) *apierr.Error
	// Message returns e's message in the language of r.
	Message(r *http.Request, e *apierr.Error) string
	// WriteError answers err as the API's JSON error object.
	WriteError(w http.ResponseWriter, r *http.Request, err error)
	// Choices returns the play forms' choices (rulesets, levels, rated)
	// in lang with ruleset selected chosen.
	Choices(lang, selected string, account bool) FormChoices
	// SeatWithRating returns id's seat with his current rating in tc's
	// category.
	SeatWithRating(ctx context.Context, id Identity, tc clock.TimeControl) (game.Seat, error)
	// Logger is the site's log.
	Logger() *slog.Logger
	// CheckGuest returns a 400 error when r carries a guest token the
	// site did not sign, and nil otherwise: a websocket that lets anyone
	// follow checks it before its upgrade (Identity takes such a token
	// as nobody).
	CheckGuest(r *http.Request) error
}

// StoreTimeout bounds the database work of one request.
const StoreTimeout = 10 * time.Second

// WriteJSON answers v as JSON with status, not to be cached.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}

// MaxBody is the largest JSON body the API reads (an imported record is
// read by its page handler with its own limit).
const MaxBody = 64 << 10

// ReadJSON decodes the request body into v, refusing unknown fields,
// bodies over MaxBody and trailing data.
func ReadJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apierr.New(http.StatusRequestEntityTooLarge, apierr.CodeTooLarge, "apierr.too_large", MaxBody>>10)
		}
		if errors.Is(err, io.EOF) {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.json_empty")
		}
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.json_bad").WithDetail(err)
	}
	if dec.More() {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.json_trailing")
	}
	return nil
}
