package server

import (
	"context"
	"errors"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/profile"
	"github.com/toguz/toguz/internal/store"
)

// profileFederations is the profiles' profile.Federations: the register
// entry linked to an account, found by the account's name.
type profileFederations struct {
	st  *store.Store
	reg *federation.Service
}

func (pf profileFederations) LinkedEntry(ctx context.Context, name string) (profile.FederationEntry, bool, error) {
	u, err := pf.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return profile.FederationEntry{}, false, nil
	}
	if err != nil {
		return profile.FederationEntry{}, false, err
	}
	e, err := pf.reg.LinkedEntry(ctx, u.ID)
	if errors.Is(err, federation.ErrNoPlayer) {
		return profile.FederationEntry{}, false, nil
	}
	if err != nil {
		return profile.FederationEntry{}, false, err
	}
	fe := profile.FederationEntry{ID: e.ID, Federation: e.Federation, Ratings: map[string]int{}}
	for d, r := range e.Ratings {
		fe.Ratings[string(d)] = r
	}
	return fe, true, nil
}
