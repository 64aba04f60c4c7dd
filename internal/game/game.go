package game

import (
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
)

// Seat is one side of a game: a user, a guest or the engine.
type Seat struct {
	// ID identifies the person across connections: "u:<user id>" for a user,
	// "g:<guest id>" for a guest, "engine" for the engine.
	ID     string
	UserID int64 // 0 for a guest or the engine
	Name   string
	Guest  bool
	Engine int // the engine's level, 0 for a person
	Rating int // the rating when the game started, 0 if none
}

// IsEngine reports whether the seat is the engine's.
func (s Seat) IsEngine() bool { return s.Engine > 0 }

// IsEmpty reports whether nobody has taken the seat: no user, no name, no
// engine (the zero Seat).
func (s Seat) IsEmpty() bool { return s.UserID == 0 && s.Name == "" && s.Engine == 0 }

// UserSeat returns the seat of a user.
func UserSeat(userID int64, name string) Seat {
	return Seat{ID: "u:" + strconv.FormatInt(userID, 10), UserID: userID, Name: name}
}

// GuestSeat returns the seat of a guest (his name is his id).
func GuestSeat(name string) Seat { return Seat{ID: "g:" + name, Name: name, Guest: true} }

// GuestNumber is the number a page shows a guest by ("Guest 47372" in
// the page's language): the first four hex digits of the name the server
// gave him ("Guest-b90cc6ac40e39a0c"), which stays his identity, long
// enough that no one can take another's. ok is false for any other name.
// Two guests may show the same number; they are never the same seat.
func GuestNumber(name string) (n int, ok bool) {
	hex, found := strings.CutPrefix(name, "Guest-")
	if !found || len(hex) != 16 {
		return 0, false
	}
	v, err := strconv.ParseUint(hex[:4], 16, 32)
	if err != nil || strings.Trim(hex, "0123456789abcdef") != "" {
		return 0, false
	}
	return int(v), true
}

// EngineSeat returns the seat of the engine playing at a level.
func EngineSeat(level int, name string) Seat { return Seat{ID: "engine", Name: name, Engine: level} }

// Start is where a game starts: a set-up position and its full-move number.
// The zero Start is the rules' start position.
type Start struct {
	Position toguz.Position // the zero Position: the rules' start
	Move     int            // Position's full-move number (0 is read as 1)
}

// IsZero reports whether s is the rules' start.
func (s Start) IsZero() bool { return s.Position == toguz.Position{} }

// Spec is what a game is created with.
type Spec struct {
	ID      string
	Rules   toguz.Rules
	From    Start // the starting position; zero for the rules' start
	White   Seat
	Black   Seat
	TC      clock.TimeControl
	Rated   bool
	Created time.Time
	// Repetition is an event's rule: the position (board, kazans, tuzdiks,
	// side to move) seen for the Repetition-th time ends the game as a draw
	// by adjudication, as the match runner and replay report it (0: off).
	Repetition int
}

// Seat returns pl's seat.
func (s *Spec) Seat(pl toguz.Player) Seat {
	if pl == toguz.White {
		return s.White
	}
	return s.Black
}

// Start returns the starting position of the game and its full-move number
// (1 for the rules' start); the error is the rules' when they have no
// start position.
func (s *Spec) Start() (toguz.Position, int, error) {
	if s.From.IsZero() {
		p, err := toguz.NewPosition(s.Rules)
		return p, 1, err
	}
	return s.From.Position, max(s.From.Move, 1), nil
}

// PlayedMove is one ply as stored: the hole, both clocks after it, and when
// it was made.
type PlayedMove struct {
	By    toguz.Player // the mover (filled in by the live game)
	Hole  toguz.Move
	Clock [2]time.Duration // White's and Black's time left after the move
	At    time.Time
}

// Status is where a game stands in its life.
type Status uint8

const (
	Created Status = iota // a challenge or seek waiting for its players, or not started
	Playing               // being played: moves are accepted
	Ended                 // over, with a result
	Aborted               // cancelled before it counted; no result
)

var statusNames = [...]string{"created", "playing", "ended", "aborted"}

// String returns the status as the clients read it ("playing", …).
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Reasons of an adjudication (Ending.Reason, the end message's reason).
const (
	ReasonRepetition = "repetition" // the event's repetition rule (Spec.Repetition)
	ReasonArbiter    = "arbiter"    // an event's arbiter entered the result
)

// Ending is how a game ended.
type Ending struct {
	Status      Status // Ended or Aborted
	Result      toguz.Result
	Termination toguz.Termination
	// Reason says why an adjudication ended the game: ReasonRepetition or
	// ReasonArbiter ("" otherwise; not stored: the store keeps the
	// termination).
	Reason string
	Score  [2]int
	Clock  [2]time.Duration
	At     time.Time
	// RatingDiff is each side's rating change, White's first, when the game
	// was rated and changed the ratings (set by the store as it ends it).
	RatingDiff *[2]int
}

// Saved is a game as the store holds it: the moves are the source of truth.
type Saved struct {
	Spec
	Moves []PlayedMove
	End   *Ending // nil while the game is played
	// Clock is the stored clock state of a timed game (nil: none stored):
	// after a restart it says since when the running clock runs.
	Clock *clock.State
}

// Lease is a game's lease in the store: the node of a cluster that runs it.
type Lease struct {
	Node    string    // its holder; "" when there was none
	Renewed time.Time // when its holder last took or renewed it
	Expires time.Time // another node may take it from then on
}

// EngineRequest is what the engine gets to choose a move.
type EngineRequest struct {
	Position toguz.Position
	Level    int
	Time     [2]time.Duration // the clocks, White first; zero: no clock
	Inc      time.Duration
	// User is whose search it is (the human opponent's Seat.ID): the
	// engine serves the users' searches in turns.
	User string
	// Started, if not nil, is called by the engine on its own goroutine, at
	// most once, when the search starts (it may first wait for a free
	// engine): the engine's clock is charged from then.
	Started func(at time.Time)
}
