// Package game holds the plain model of a game that the packages around it
// share: the live games (internal/live), the store (internal/store), the
// events, simuls, broadcasts, bot API, reviews and the server. It has no
// behaviour beyond small accessors, and imports only the rules library,
// internal/clock and the standard library, so that every one of them can
// speak of a game without depending on another.
//
// # Invariants
//
//   - A Seat is one side of a game and exactly one of: a user (UserID set,
//     ID "u:<user id>"), a guest (Guest set, ID "g:<name>", his name is his
//     id) or the engine at a level (Engine ≥ 1, ID "engine"); UserSeat,
//     GuestSeat and EngineSeat make them. The zero Seat is a seat nobody
//     has taken yet. Rating is the rating when the game started (0: none).
//   - A Spec is fixed when the game is created. Its Start is a position
//     (with its full-move number), never its text: the zero Start is the
//     rules' start position; a set-up start is played under Spec.Rules.
//   - Status is where a game stands in its life: Created (a challenge
//     waiting for its players), Playing, then Ended (with a result) or
//     Aborted (no result). Its String is the word the clients read; the
//     store writes its own words in its column, at its boundary only.
//   - Saved is a game as stored: its moves are the source of truth, and
//     replaying them from the Spec's start gives every position. End is
//     nil exactly while the game is played.
//   - The event types (EventEntry, EventRound, EventPairing) are the model
//     of an event's players and games, which package events gives meaning
//     to and the store keeps.
package game
