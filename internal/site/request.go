package site

import (
	"errors"
	"net/http"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/live"
)

// ParseRuleset reads a ruleset a client named ("" is the standard one),
// a 400 bad_request when the rules library knows none of that name.
func ParseRuleset(s string) (toguz.Rules, error) {
	if s == "" {
		return toguz.Standard(), nil
	}
	r, err := toguz.ParseRules(s)
	if err != nil {
		return r, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_ruleset", Excerpt(s)).WithDetail(err)
	}
	return r, nil
}

// ParseTC reads a time control a client sent ("" or "none": untimed), a
// 400 bad_tc when the clock cannot play it.
func ParseTC(s string) (clock.TimeControl, error) {
	if s == "none" {
		s = ""
	}
	tc, err := clock.ParseTimeControl(s)
	if err != nil {
		return tc, apierr.BadRequest(apierr.CodeBadTC, "apierr.bad_tc", Excerpt(s)).WithDetail(err)
	}
	return tc, nil
}

// NotFoundAs names what was not found: live's not_found error becomes a
// 404 with the message key about id; other errors are returned as they
// are.
func NotFoundAs(err error, key, id string) error {
	var le *live.Error
	if errors.As(err, &le) && le.Code == apierr.CodeNotFound {
		return &apierr.Error{Status: http.StatusNotFound, Code: apierr.CodeNotFound, Key: key, Args: []any{Excerpt(id)}, Detail: le.Message}
	}
	return err
}

// ClearDeadlines lifts the http.Server's read and write deadlines from the
// connection of a stream or a websocket, which lives as long as its client
// reads it (its pings find dead peers), not ReadTimeout or WriteTimeout.
func ClearDeadlines(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	// ErrNotSupported (a test recorder) leaves nothing to clear.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
}
