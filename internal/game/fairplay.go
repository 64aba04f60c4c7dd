package game

import "time"

// FairPlay is the engine's evidence about one side of one game, as the
// fair-play model (internal/fairplay) scores it: what the moderators' queue
// sorts by and what their pages show. It is never shown to the player it is
// about, and the site never shows the thresholds that turn it into a flag.
type FairPlay struct {
	GameID   string
	Side     string  // "white" or "black"
	UserID   int64   // the account that played the side; 0 for a guest or the engine
	Rating   int     // the player's rating before the game; 0 when none
	Moves    int     // the moves judged: forced and book moves excluded
	Agree1   float64 // share of the judged moves that were the engine's first choice
	Agree3   float64 // share that were among its three first
	MeanLoss float64 // mean stones lost against the engine's best move, per judged move
	Score    float64 // z-score of the observed agreement and loss against the expected for Rating
	Strength float64 // z-score of the strength test: played like a stronger player than Rating (internal/fairplay)
	IPR      int     // intrinsic performance rating: the rating whose expected play matches the observed
	Flag     bool    // the model's verdict at its default threshold
	Computed time.Time
	// Rated: the game was rated (the account's evidence compares its rated
	// games with its casual ones).
	Rated bool
	// Timed is how many judged moves had a time, and TimeCorr the rank
	// correlation of those times with the positions' difficulty (0 with
	// fewer than three): a person thinks longer where it is harder.
	Timed    int
	TimeCorr float64
	// Deep is how many judged moves had the review's deeper search's best
	// move (docs/fairplay.md), AgreeDeep the share of those that were it;
	// Score counts them already.
	Deep      int
	AgreeDeep float64
}
