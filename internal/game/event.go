package game

import "time"

// EventEntry is one player of an event, by start number.
type EventEntry struct {
	Start     int
	UserID    int64
	Name      string // read back from the account
	Rating    int
	BirthYear int
	Sex       string
	Withdrawn bool
	Paused    bool
	Joined    time.Time
}

// EventRound is a round of an event and its pairings (an arena's pairing
// wave).
type EventRound struct {
	Round    int
	Paired   time.Time
	Pairings []EventPairing
}

// EventPairing is one game of a round: start numbers, Black 0 for the bye.
type EventPairing struct {
	Board        int
	White, Black int
	GameID       string
	Result       string // as tournament.ParseResult reads it; "" while played
	Berserk      string
}
