package site

import "time"

// GameSummary is a line of a game list: a player's games on his profile
// (internal/profile), a page of the archive, a class's recent games.
type GameSummary struct {
	ID    string `json:"id"`
	White string `json:"white"`
	Black string `json:"black"`
	// WhiteEngine and BlackEngine are the engine's level on its side, 0
	// for a person (the pages name the engine in their language).
	WhiteEngine int       `json:"white_engine,omitempty"`
	BlackEngine int       `json:"black_engine,omitempty"`
	Status      string    `json:"status"`
	Result      string    `json:"result"`
	Termination string    `json:"termination"`
	TC          string    `json:"tc"`
	Rated       bool      `json:"rated"`
	Plies       int       `json:"plies"`
	Created     time.Time `json:"created"`
	// Source is "play" for a game played here, "import" for an imported one.
	Source string `json:"source"`
	// Date is when it was played (an imported record's Date); absent when unknown.
	Date *time.Time `json:"date,omitempty"`
}
