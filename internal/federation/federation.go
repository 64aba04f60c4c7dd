// Package federation is the federations' register: federations and
// clubs, players with their federation ids, sports ranks and titles, and
// the rating lists computed from the events their arbiters submit.
//
// This file is the contract between the register and the events that use
// it (an event with sections registers players by federation id and
// submits its rated games back as a Report). A player's ID is unique in
// the whole register and never reused; a Report is kept as submitted and
// a list is always recomputed from the reports, so a corrected report
// changes the next list, never a published one.
package federation

import (
	"context"
	"errors"
	"time"
)

// Discipline is a rating list's kind of game.
type Discipline string

// The disciplines each federation keeps a list of.
const (
	Classic Discipline = "classic"
	Rapid   Discipline = "rapid"
	Blitz   Discipline = "blitz"
)

// Disciplines lists every discipline, in the pages' order.
var Disciplines = []Discipline{Classic, Rapid, Blitz}

// Sex is a register entry's sex, as events' sections and lists need it.
type Sex string

// The sexes of the register.
const (
	Male   Sex = "m"
	Female Sex = "f"
)

// Player is an entry of the register.
type Player struct {
	ID         string // the federation id, e.g. "KAZ-10234": unique in the register
	Federation string // the code of the player's federation, e.g. "KAZ"
	NameCyrl   string // the name in Cyrillic, as the federation writes it
	NameLatn   string // the name in Latin letters
	BirthYear  int    // 0: unknown
	Sex        Sex
	Club       string // the club's code, "" none
	Rank       string // the code of his highest sports rank in his federation's configuration, "" none
	Title      string // an international title's code, "" none
	// Ratings are his current published ratings; a discipline he has no
	// rating in is absent.
	Ratings map[Discipline]int
}

// Game is one game of a Report, by the players' federation ids.
type Game struct {
	Round   int
	White   string
	Black   string
	Score   float64 // White's: 1, 0.5 or 0
	Forfeit bool    // not played: counts for the event, not for ratings
}

// Report is what an event's arbiter submits to a federation: its rated
// games, from which the next list is computed.
type Report struct {
	Event      string // the event's id on the site
	Name       string // the event's name, as its papers print it
	Federation string // the federation the report is submitted to
	Discipline Discipline
	Start, End time.Time
	Arbiter    int64 // the account of the chief arbiter
	Games      []Game
}

// ErrNoPlayer is returned for a federation id the register does not have.
var ErrNoPlayer = errors.New("federation: no such player")

// Register is what events ask of the register.
type Register interface {
	// Player returns the entry with federation id id, or ErrNoPlayer.
	Player(ctx context.Context, id string) (Player, error)
	// Submit keeps an event's report for the next list.
	Submit(ctx context.Context, r Report) error
}
