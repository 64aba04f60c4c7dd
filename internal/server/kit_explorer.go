package server

import (
	"context"
	"errors"

	"github.com/toguz/toguz/internal/explorer"
	"github.com/toguz/toguz/internal/store"
)

// explorerStore puts internal/store behind explorer.Store (the store
// imports explorer for the tree's types, so explorer cannot import it).
type explorerStore struct{ s *store.Store }

var _ explorer.Store = explorerStore{}

// Explorer returns the moves played from q.Pos in the site's tree or a
// player's.
func (x explorerStore) Explorer(ctx context.Context, q explorer.Query) (explorer.Answer, error) {
	sq := store.ExplorerQuery{Pos: q.Pos, Tree: store.SiteTree, Filter: q.Filter}
	if q.Player != 0 {
		sq.Tree = store.PlayerTree(q.Player, q.Color)
	}
	return x.s.Explorer(ctx, sq)
}

// Games returns the stored games of ids.
func (x explorerStore) Games(ctx context.Context, ids []string) ([]explorer.SiteGame, error) {
	gs, err := x.s.GamesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]explorer.SiteGame, len(gs))
	for i, g := range gs {
		out[i] = explorer.SiteGame{ID: g.ID, White: g.Players[0].Name, Black: g.Players[1].Name, Result: g.Result.String(), Date: g.Date}
	}
	return out, nil
}

// UserID returns the account of name.
func (x explorerStore) UserID(ctx context.Context, name string) (int64, bool, error) {
	u, err := x.s.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil
	}
	return u.ID, err == nil, err
}
