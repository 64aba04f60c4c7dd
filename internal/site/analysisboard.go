package site

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
)

// FormInt reads the whole number of form field name (0 when empty), a 400
// bad_position naming the field when it is not one: the position editor's
// fields and the engine game's level.
func FormInt(r *http.Request, name string) (int, error) {
	v := strings.TrimSpace(r.FormValue(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, apierr.BadRequest(apierr.CodeBadPosition, "apierr.not_whole", name, Excerpt(v))
	}
	return n, nil
}
