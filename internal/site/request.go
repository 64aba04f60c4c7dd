package site

import (
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
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
