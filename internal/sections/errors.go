package sections

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/toguz/toguz/internal/apierr"
)

// Error is a refusal with a catalog key (the site translates it) and a
// code saying which HTTP status it is; Why is the key of a reason, if any.
type Error struct {
	Code string // "bad_request", "forbidden", "not_found", "conflict"
	Key  string
	Args []any
	Why  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s %v", e.Code, e.Key, e.Args) }

func bad(key string, args ...any) *Error      { return &Error{Code: "bad_request", Key: key, Args: args} }
func conflict(key string, args ...any) *Error { return &Error{Code: "conflict", Key: key, Args: args} }
func forbidden() *Error                       { return &Error{Code: "forbidden", Key: "sections.err_forbidden"} }
func notFound(id string) *Error {
	return &Error{Code: "not_found", Key: "sections.err_not_found", Args: []any{id}}
}

// APIError turns a refusal into the API's error; other errors pass.
func APIError(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	status := map[string]int{"bad_request": http.StatusBadRequest, "forbidden": http.StatusForbidden,
		"not_found": http.StatusNotFound, "conflict": http.StatusConflict}[e.Code]
	code := map[string]apierr.Code{"forbidden": apierr.CodeForbidden, "not_found": apierr.CodeNotFound}[e.Code]
	if code == "" {
		code = apierr.CodeBadRequest
	}
	return apierr.New(status, code, e.Key, e.Args...)
}
