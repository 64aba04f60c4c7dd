package live

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/posjson"
)

// ClientMsg is a message from a client on the game websocket (docs/api.md).
type ClientMsg struct {
	Type string `json:"type"`
	Ply  *int   `json:"ply,omitempty"`
	Hole int    `json:"hole,omitempty"`
	Text string `json:"text,omitempty"` // a chat message's
}

// Error is a refusal with a stable code (docs/api.md, "Error codes") and a
// message for people.
type Error struct {
	Code    apierr.Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func errorf(code apierr.Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// errStore is the refusal of a change (what: "move", "ending",
// "takeback") the store did not take (the caller logs why; the database's
// error is not shown, since it may name hosts): the game is as it was and
// the same request succeeds once the database is back (a restart), so it
// is retryable, never internal.
func errStore(what string) *Error {
	return errorf(apierr.CodeStoreUnavailable, "the %s could not be stored; try again in a moment", what)
}

// SeatJSON is a seat as the API shows it.
type SeatJSON struct {
	Name        string `json:"name"`
	Guest       bool   `json:"guest"`
	EngineLevel int    `json:"engine_level"`
	Rating      int    `json:"rating"` // before the game
	// RatingDiff is the change the game made to Rating, once a rated game
	// has ended.
	RatingDiff *int `json:"rating_diff,omitempty"`
}

func seatJSON(s game.Seat) SeatJSON {
	return SeatJSON{Name: s.Name, Guest: s.Guest, EngineLevel: s.Engine, Rating: s.Rating}
}

// ClockJSON is the clocks as the API shows them.
type ClockJSON struct {
	WhiteMS    int64  `json:"white_ms"`
	BlackMS    int64  `json:"black_ms"`
	Running    string `json:"running"`
	DeadlineMS int64  `json:"deadline_ms"`
}

// MoveJSON is one ply of the move list.
type MoveJSON struct {
	Hole     int    `json:"hole"`
	Notation string `json:"notation"`
	By       string `json:"by"`
	Captured int    `json:"captured"`
	// Landing is where the last stone fell (the rules library's answer).
	Landing LandingJSON `json:"landing"`
}

// State is the whole game: the `state` message and GET /api/games/{id}.
type State struct {
	Type      string     `json:"type"`
	ID        string     `json:"id"`
	Ruleset   string     `json:"ruleset"`
	StartFEN  string     `json:"start_fen"`
	FEN       string     `json:"fen"`
	Ply       int        `json:"ply"`
	Moves     []MoveJSON `json:"moves"`
	Positions []string   `json:"positions"` // the FEN before the first ply and after each
	// Boards are the same positions as the board draws them, so that the
	// page reads no FEN.
	Boards      []posjson.Position `json:"boards"`
	Legal       []int              `json:"legal"` // the holes the side to move may play; empty once over
	Turn        string             `json:"turn"`
	Status      string             `json:"status"`
	White       SeatJSON           `json:"white"`
	Black       SeatJSON           `json:"black"`
	TC          string             `json:"tc"`
	Rated       bool               `json:"rated"`
	Category    string             `json:"category"`
	Clock       ClockJSON          `json:"clock"`
	DrawOffer   string             `json:"draw_offer"`
	Result      string             `json:"result"`
	Termination string             `json:"termination"`
	Reason      string             `json:"reason,omitempty"` // as in the end message, while the game is held
	Score       [2]int             `json:"score"`
	You         string             `json:"you,omitempty"`
	Control     bool               `json:"control,omitempty"`
	GraceMS     int64              `json:"grace_ms"`
	CanAbort    bool               `json:"can_abort,omitempty"`
	// AbortInMS is the time left before the first-move timeout aborts a
	// real-time game between people (0: none runs).
	AbortInMS int64 `json:"abort_in_ms,omitempty"`
	// Collected and FinalFEN: after an atsyrau, the stones the player not
	// to move collected and the board once they are in his kazan.
	Collected  *CollectedJSON    `json:"collected,omitempty"`
	FinalFEN   string            `json:"final_fen,omitempty"`
	FinalBoard *posjson.Position `json:"final_board,omitempty"` // FinalFEN's board
	// The offers standing (the offering colour), and the rematch's game
	// once made (social.go).
	RematchOffer  string    `json:"rematch_offer,omitempty"`
	Rematch       string    `json:"rematch,omitempty"`
	TakebackOffer string    `json:"takeback_offer,omitempty"`
	Created       time.Time `json:"created"`
}

type moveMsg struct {
	Type     string `json:"type"`
	Ply      int    `json:"ply"`
	Hole     int    `json:"hole"`
	By       string `json:"by"`
	Notation string `json:"notation"`
	FEN      string `json:"fen"`
	// Board is FEN's position as the board draws it.
	Board    posjson.Position `json:"board"`
	Clock    ClockJSON        `json:"clock"`
	Captured int              `json:"captured"`
	// Landing and Legal spare the board any rule: where the move's last
	// stone fell, and the holes the side to move may play next.
	Landing LandingJSON `json:"landing"`
	Legal   []int       `json:"legal"`
	// Trail is every hole a stone fell in, in order, for the animation:
	// White's hole h is h, Black's -h.
	Trail     []int `json:"trail"`
	AbortInMS int64 `json:"abort_in_ms,omitempty"` // as in State
}

type endMsg struct {
	Type        string `json:"type"`
	Status      string `json:"status"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	Reason      string `json:"reason,omitempty"` // an adjudication's: "repetition", "arbiter"
	Score       [2]int `json:"score"`
	// Clock is the clocks as they stopped: the board shows them frozen.
	Clock      ClockJSON         `json:"clock"`
	Collected  *CollectedJSON    `json:"collected,omitempty"` // as in State
	FinalFEN   string            `json:"final_fen,omitempty"`
	FinalBoard *posjson.Position `json:"final_board,omitempty"`
	// RatingDiff is each side's rating change, White's first: only at the
	// end of a rated game that changed the ratings.
	RatingDiff *[2]int `json:"rating_diff,omitempty"`
}

type byMsg struct {
	Type string `json:"type"`
	By   string `json:"by"`
}

type presenceMsg struct {
	Type   string   `json:"type"`
	White  bool     `json:"white"`
	Black  bool     `json:"black"`
	LeftMS [2]int64 `json:"left_ms"`
}

type controlMsg struct {
	Type      string `json:"type"`
	InControl bool   `json:"in_control"`
}

// ErrorMsg is the `error` message.
type ErrorMsg struct {
	Type    string      `json:"type"`
	Code    apierr.Code `json:"code"`
	Message string      `json:"message"`
	Ply     *int        `json:"ply,omitempty"`
}

// EncodeError returns the `error` message for e.
func EncodeError(e *Error, ply *int) []byte {
	return mustJSON(ErrorMsg{Type: "error", Code: e.Code, Message: e.Message, Ply: ply})
}

// mustJSON marshals v, which is one of this file's message types: they
// always marshal.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("live: marshal %T: %v", v, err))
	}
	return b
}

func colorName(pl toguz.Player) string { return pl.String() }

func colorOf(c int8) string {
	if c < 0 {
		return ""
	}
	return colorName(toguz.Player(c))
}
