// Package engineweb is the rules and the engine as the browser gets them:
// the legal moves of a position with each move's landing, capture, trail
// and notation, a move played, and an analysis with several lines, all as
// JSON. The WebAssembly build (engineweb/wasm, `go generate`) exports these
// functions to the Web Worker static/engine-worker.js, and the server
// answers the same JSON at POST /api/positions/legal, /api/positions/play
// and /api/analysis, the fallback where WebAssembly is missing: a page gets
// one answer whichever of the two it asks.
//
// Everything here is plain Go, tested with the normal GOOS; the js/wasm
// glue only converts strings.
package engineweb

import (
	"errors"
	"fmt"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/posjson"
)

// Position is a position as a request names it: a FEN of a ruleset
// ("" is the standard rules).
type Position struct {
	FEN     string `json:"fen"`
	Ruleset string `json:"ruleset,omitempty"`
}

// ErrBadRequest is matched (errors.Is) by every error about a request's
// content (its ruleset, FEN, move or limits), as opposed to a failure of
// the search. Such an error reads as the error behind it, which it wraps
// (the rules library's, whose text a caller may show).
var ErrBadRequest = errors.New("engineweb: bad request")

type requestError struct{ err error }

func (e *requestError) Error() string        { return e.err.Error() }
func (e *requestError) Unwrap() error        { return e.err }
func (e *requestError) Is(target error) bool { return target == ErrBadRequest }

func bad(err error) error { return &requestError{err} }

func badf(format string, args ...any) error { return bad(fmt.Errorf(format, args...)) }

// Parse returns the position of q and its full-move number.
func (q Position) Parse() (toguz.Position, int, error) {
	rules := toguz.Standard()
	if q.Ruleset != "" {
		r, err := toguz.ParseRules(q.Ruleset)
		if err != nil {
			return toguz.Position{}, 0, bad(err)
		}
		rules = r
	}
	if q.FEN == "" {
		p, err := toguz.NewPosition(rules)
		return p, 1, err
	}
	p, full, err := toguz.ParseFEN(q.FEN, rules)
	if err != nil {
		return p, 0, bad(err)
	}
	return p, full, nil
}

// MoveJSON is one legal move: the hole played, where its last stone falls,
// the stones it puts into the mover's kazan, the hole of every stone in
// order (White's hole h is h, Black's -h, as the game's websocket sends
// it) and its score-sheet notation.
type MoveJSON struct {
	Hole     int         `json:"hole"`
	Landing  LandingJSON `json:"landing"`
	Captured int         `json:"captured"`
	Trail    []int       `json:"trail"`
	Notation string      `json:"notation"`
	FEN      string      `json:"fen"` // the position after it
}

// LegalJSON answers "legal": the position's moves, lowest hole first (none
// once the game is over) and, when it is over, its result.
type LegalJSON struct {
	FEN   string     `json:"fen"`
	Moves []MoveJSON `json:"moves"`
	posjson.Position
	EndJSON
}

// JSON returns the position (posjson.Position) of q's FEN in q's ruleset.
func (q Position) JSON() (posjson.Position, error) {
	p, full, err := q.Parse()
	if err != nil {
		return posjson.Position{}, err
	}
	return posjson.Of(p, full), nil
}

// EndJSON says whether a game is over and how: result "1-0", "0-1",
// "1/2-1/2" ("" while it goes on), termination "kazan", "draw" or
// "atsyrau", and each player's final count, White first.
type EndJSON struct {
	Over        bool   `json:"over"`
	Result      string `json:"result,omitempty"`
	Termination string `json:"termination,omitempty"`
	Score       [2]int `json:"score"`
}

// PlayJSON answers "play": the move played, the position after it, its
// legal moves and whether the game is over.
type PlayJSON struct {
	Hole     int         `json:"hole"`
	Notation string      `json:"notation"`
	Landing  LandingJSON `json:"landing"`
	Captured int         `json:"captured"`
	Trail    []int       `json:"trail"`
	FEN      string      `json:"fen"`
	Legal    []MoveJSON  `json:"legal"`
	posjson.Position
	EndJSON
}

// LandingJSON is the hole where a move's last stone falls, as the game's
// websocket sends it (live.LandingJSON; this package leaves package live
// out of the browser's build).
type LandingJSON struct {
	Side string `json:"side"`
	Hole int    `json:"hole"`
}

func landing(p toguz.Position, m toguz.Move) LandingJSON {
	side, hole := p.Landing(m)
	return LandingJSON{Side: colour(side), Hole: hole}
}

// trail is live.Trail: White's hole h is h, Black's -h.
func trail(p toguz.Position, m toguz.Move) []int {
	t := make([]int, 0, p.Stones(p.Turn(), int(m)))
	for side, hole := range p.Trail(m) {
		if side == toguz.Black {
			hole = -hole
		}
		t = append(t, hole)
	}
	return t
}

func colour(pl toguz.Player) string {
	if pl == toguz.Black {
		return "black"
	}
	return "white"
}

func end(p toguz.Position) EndJSON {
	o := p.Outcome()
	e := EndJSON{Over: p.IsOver(), Score: o.Score}
	if e.Over {
		e.Result, e.Termination = o.Result.String(), o.Termination.String()
	}
	return e
}

// moves returns the legal moves of p, whose full-move number is full.
func moves(p toguz.Position, full int) []MoveJSON {
	out := []MoveJSON{}
	next := full
	if p.Turn() == toguz.Black {
		next++
	}
	for m := range p.LegalMoves().All() {
		y, after := p.Ply(m)
		out = append(out, MoveJSON{
			Hole: int(m), Landing: landing(p, m), Captured: after.Kazan(p.Turn()) - p.Kazan(p.Turn()),
			Trail: trail(p, m), Notation: y.String(), FEN: toguz.FormatFEN(after, next),
		})
	}
	return out
}

// Legal returns the legal moves of q.
func Legal(q Position) (LegalJSON, error) {
	p, full, err := q.Parse()
	if err != nil {
		return LegalJSON{}, err
	}
	return LegalJSON{FEN: toguz.FormatFEN(p, full), Moves: moves(p, full), Position: posjson.Of(p, full), EndJSON: end(p)}, nil
}

// Play plays the move in hole of q.
func Play(q Position, hole int) (PlayJSON, error) {
	p, full, err := q.Parse()
	if err != nil {
		return PlayJSON{}, err
	}
	if hole < 0 || hole > toguz.MaxHoles {
		hole = 0 // no such hole, and no overflow of Move
	}
	m := toguz.Move(hole)
	if err := p.CheckMove(m); err != nil {
		return PlayJSON{}, bad(err)
	}
	y, after := p.Ply(m)
	if p.Turn() == toguz.Black {
		full++
	}
	return PlayJSON{
		Hole: hole, Notation: y.String(), Landing: landing(p, m), Trail: trail(p, m),
		Captured: after.Kazan(p.Turn()) - p.Kazan(p.Turn()),
		FEN:      toguz.FormatFEN(after, full), Legal: moves(after, full), Position: posjson.Of(after, full), EndJSON: end(after),
	}, nil
}
