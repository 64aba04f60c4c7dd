package site

import (
	"net/http"
	"strconv"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
)

// Excerpt shortens what a client sent for an error message.
func Excerpt(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// ParseTC reads a form's or a request's time control: clock's notation,
// or "none" (and "") for none; a bad one is a 400 bad_tc.
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

// ParseRuleset reads a form's or a request's ruleset: a name or a ruleset
// with parameters (toguz.ParseRules), "" for the standard game; a bad one
// is a 400.
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

// Redirect answers a form's POST with 303 See Other to url.
func Redirect(w http.ResponseWriter, r *http.Request, url string) error {
	http.Redirect(w, r, url, http.StatusSeeOther)
	return nil
}

// PageOf returns page (1, 2, …; anything else is 1) of list, size a
// page, and the numbers of the newer and older pages (0 where there is
// none): the lists it pages are newest first. A page past the last is
// empty, its newer page the last.
func PageOf[T any](list []T, page, size int) (shown []T, newer, older int) {
	pages := (len(list) + size - 1) / size
	if page < 1 {
		page = 1
	}
	if page > 1 {
		newer = min(page-1, max(pages, 1))
	}
	if page > pages {
		return nil, newer, 0
	}
	from := (page - 1) * size
	to := min(from+size, len(list))
	if to < len(list) {
		older = page + 1
	}
	return list[from:to], newer, older
}

// PageParam reads ?page=: 1 when it is absent or not a number.
func PageParam(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}
