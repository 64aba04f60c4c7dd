package federation

import "context"

// Championship is an event with sections of the site (internal/sections)
// as the register's pages list it: the federation's calendar and a
// player's card link it.
type Championship struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Start  string `json:"start"` // YYYY-MM-DD
	End    string `json:"end,omitempty"`
	Status string `json:"status"` // upcoming, running or finished
}

// ChampionshipPlayed is a player's section of a championship: his place
// in its standings (ties share the first place of their group), of how
// many, and his points.
type ChampionshipPlayed struct {
	Championship
	Section    string     `json:"section"`
	Discipline Discipline `json:"discipline"`
	Place      int        `json:"place,omitempty"` // 0 before the first round
	Players    int        `json:"players"`
	Points     float64    `json:"points"`
}

// Championships is what the register's pages ask of the site's
// championships; *sections.Desk satisfies it.
type Championships interface {
	// OfFederation returns the championships reported to federation
	// code, the latest first.
	OfFederation(ctx context.Context, code string) ([]Championship, error)
	// OfPlayer returns the sections the entry id played in, the latest
	// first.
	OfPlayer(ctx context.Context, id string) ([]ChampionshipPlayed, error)
}

// ShowChampionships makes the pages list the site's championships c.
func (h *Handlers) ShowChampionships(c Championships) { h.champs = c }
