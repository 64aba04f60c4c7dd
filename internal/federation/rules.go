package federation

import (
	"encoding/json"
	"fmt"
)

// Rules are a federation's rating regulations: configuration kept in the
// store and edited by its officers. FIDERules are the default.
type Rules struct {
	KNew             int `json:"k_new"`             // K of a player new to the list ...
	NewGames         int `json:"new_games"`         // ... until he has completed this many games
	KYouth           int `json:"k_youth"`           // K of the young ...
	YouthAge         int `json:"youth_age"`         // ... until the end of the year they reach this age ...
	YouthBelow       int `json:"youth_below"`       // ... while their rating stays under this
	K                int `json:"k"`                 // K of everyone else ...
	KTop             int `json:"k_top"`             // ... and once the published rating has reached TopFrom
	TopFrom          int `json:"top_from"`          //
	MaxKGames        int `json:"max_k_games"`       // K × games of a period at most this (0: no bound)
	MaxDifference    int `json:"max_difference"`    // a greater rating difference counts as this (at most 400)
	Floor            int `json:"floor"`             // the least rating a list shows; below it a player is unrated again
	InitialGames     int `json:"initial_games"`     // games against rated opponents an initial rating needs
	InitialMonths    int `json:"initial_months"`    // within this many months
	FictitiousGames  int `json:"fictitious_games"`  // draws against hypothetical opponents added to them
	FictitiousRating int `json:"fictitious_rating"` // the hypothetical opponents' rating
}

// FIDERules are FIDE's Rating Regulations effective from 1 March 2024
// (FIDE Handbook B.02): K 40 for a player new to the list until 30 games
// and for the young (until the end of the year of their 18th birthday)
// under 2300, 10 from a published 2400, else 20; K × n at most 700 in a
// period; the 400-point rule; the floor 1400; an initial rating from at
// least 5 games against rated opponents within 26 months, with two
// hypothetical draws against opponents rated 1800.
var FIDERules = Rules{
	KNew: 40, NewGames: 30, KYouth: 40, YouthAge: 18, YouthBelow: 2300, K: 20, KTop: 10, TopFrom: 2400,
	MaxKGames: 700, MaxDifference: 400, Floor: 1400, InitialGames: 5, InitialMonths: 26,
	FictitiousGames: 2, FictitiousRating: 1800,
}

// Validate says which field is out of its range.
func (r Rules) Validate() error {
	check := []struct {
		name     string
		v, lo, h int
	}{
		{"k_new", r.KNew, 1, 100}, {"new_games", r.NewGames, 0, 1000}, {"k_youth", r.KYouth, 1, 100},
		{"youth_age", r.YouthAge, 0, 30}, {"youth_below", r.YouthBelow, 0, 4000}, {"k", r.K, 1, 100},
		{"k_top", r.KTop, 1, 100}, {"top_from", r.TopFrom, 0, 4000}, {"max_k_games", r.MaxKGames, 0, 100000},
		{"max_difference", r.MaxDifference, 1, 400}, {"floor", r.Floor, 0, 3000},
		{"initial_games", r.InitialGames, 1, 100}, {"initial_months", r.InitialMonths, 1, 120},
		{"fictitious_games", r.FictitiousGames, 0, 10}, {"fictitious_rating", r.FictitiousRating, 0, 3000},
	}
	for _, c := range check {
		if c.v < c.lo || c.v > c.h {
			return fmt.Errorf("federation: rating rules: %s is %d, not in %d..%d", c.name, c.v, c.lo, c.h)
		}
	}
	return nil
}

// KFactor returns the development coefficient of a player rated rating
// with games rated games before the period, young (within the youth
// rule's years) or not, whose published rating has reached TopFrom or
// not. Under FIDERules it is tournament.KFactor.
func (r Rules) KFactor(rating, games int, young, reached bool) int {
	switch {
	case games < r.NewGames:
		return r.KNew
	case young && rating < r.YouthBelow:
		return r.KYouth
	case reached:
		return r.KTop
	}
	return r.K
}

// ParseRules reads rules as the store keeps them ("" the defaults);
// fields absent keep FIDE's values.
func ParseRules(s string) (Rules, error) {
	r := FIDERules
	if s == "" {
		return r, nil
	}
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return Rules{}, fmt.Errorf("federation: rating rules: %w", err)
	}
	return r, r.Validate()
}
