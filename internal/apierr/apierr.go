// Package apierr is the site's errors as its clients see them: a stable
// code for programs (Code), an HTTP status, and a message for people kept
// in the catalog (internal/i18n, locales/*/errors.json) and written in the
// language of the request that gets it.
//
// Every package that answers a client (the server, the feature packages,
// live's games) speaks these codes; none of them owns them. The English
// text of the error behind a message (the rules library's, the clock's,
// live's) travels as Error.Detail: the API's "detail" field and the end
// of the English message, so that nothing it says is lost.
package apierr

import (
	"net/http"
	"strings"

	"github.com/toguz/toguz/internal/i18n"
)

// Error is an error with an HTTP status, a code and a catalog key with
// its arguments.
type Error struct {
	Status int
	Code   Code
	Key    string // the message's catalog key
	Args   []any  // its arguments; a MsgArg is put in the request's language
	// Detail is the English text of the error behind the message.
	Detail string
}

func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Key
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// New returns the error of status and code with the message key.
func New(status int, code Code, key string, args ...any) *Error {
	return &Error{Status: status, Code: code, Key: key, Args: args}
}

// BadRequest returns a 400 error of code with the message key.
func BadRequest(code Code, key string, args ...any) *Error {
	return New(http.StatusBadRequest, code, key, args...)
}

// NotFound returns a 404 not_found error with the message key.
func NotFound(key string, args ...any) *Error {
	return New(http.StatusNotFound, CodeNotFound, key, args...)
}

// Forbidden returns a 403 forbidden error with the message key.
func Forbidden(key string, args ...any) *Error {
	return New(http.StatusForbidden, CodeForbidden, key, args...)
}

// WithDetail returns e with the English text of err as its detail.
func (e *Error) WithDetail(err error) *Error {
	if err != nil {
		e.Detail = err.Error()
	}
	return e
}

// MsgArg is an argument of a message that is itself text in the
// message's language (where in a record an error is).
type MsgArg interface {
	Text(c *i18n.Catalog, lang string) string
}

// Message returns e's message in lang: the catalog's text of its key with
// its arguments, and in English its detail where the text lacks it.
func Message(c *i18n.Catalog, lang string, e *Error) string {
	args := make([]any, len(e.Args))
	for i, a := range e.Args {
		if m, ok := a.(MsgArg); ok {
			a = m.Text(c, lang)
		}
		args[i] = a
	}
	s := c.T(lang, e.Key, args...)
	if e.Detail != "" && lang == "en" && !strings.Contains(strings.ToLower(s), strings.ToLower(e.Detail)) {
		s = strings.TrimSuffix(s, ".") + ": " + e.Detail
		if !strings.HasSuffix(s, ".") {
			s += "."
		}
	}
	return s
}
