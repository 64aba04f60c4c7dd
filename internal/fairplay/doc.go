// Package fairplay is the engine's evidence about who played a game's
// moves: per move, the stones each legal move loses against the best at a
// fixed budget (Depth, every move searched); a statistical model of the
// moves a player of a given rating chooses (Model, fit on rated human games
// by `toguz fairplay fit`, its parameters embedded); per game and side the
// z-score of the observed agreement and loss against the expected for the
// rating, the strength test (did the side play like a stronger player?),
// both relative to honest sides of about as many judged moves, and the
// intrinsic performance rating (Judge); and per account the
// combined evidence of its games (Account). docs/fairplay.md has the model,
// its data, its calibration and its error rates.
//
// Invariants: forced moves (one legal move, or one that does not lose by
// force) and book moves (the first BookPlies plies, and the book's moves of
// the position) are never judged; a side with fewer than MinMoves judged
// moves is never flagged. Nothing here is shown to the player it is about,
// and the threshold lives only on the server and in this package.
package fairplay
