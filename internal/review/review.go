// Package review is the server's game review: a queue of jobs stored in
// the database (internal/store's reviews), taken by a few workers that
// analyse each game with internal/analysis at the lowest priority of the OS
// and store the review, and the judge of the "learn from your mistakes"
// exercises.
//
// Every ply of every game is searched with the same bound, Settings, which
// the review records. docs/review.md defines accuracy and the marks.
//
// Its site side (web.go, learn.go: Web and its Routes) shows a review
// to the game page (Section) and alone, answers GET and POST
// /api/games/{id}/review, and serves the exercises of /review/{id}/learn;
// an answer is judged on the server (Judge), never in the browser, so the
// engine's move is not sent before the answer. Reviews is its port:
// StoreReviews puts the store, the queue and the judge behind it.
package review

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/engine"
)

// DefaultDepth is the depth of the search of every ply: the same for
// every game and every player, so that accuracies compare.
const DefaultDepth = 10

// MaxPlies bounds the game a job reviews: longer records (no real game
// comes near) fail instead of holding a worker.
const MaxPlies = 1000

// Version is the format of Data; a review of another version is not shown.
const Version = 1

// Data is a stored review.
type Data struct {
	Version  int        `json:"v"`
	Depth    int        `json:"depth"`    // the search of every ply
	Plies    []Ply      `json:"plies"`    // one per ply of the game
	Accuracy [2]float64 `json:"accuracy"` // White's and Black's (analysis.Accuracy), -1: none
	Counts   [2][4]int  `json:"counts"`   // [player][analysis.Mark]: the marks of each player
}

// Ply is one ply's review. Evaluations are in hundredths of a stone, White's
// view, a proven result as ±engine.MateScore less its distance.
type Ply struct {
	Move     toguz.Move    `json:"m"`
	Eval     engine.Score  `json:"e"`           // after the ply
	Best     toguz.Move    `json:"b,omitempty"` // the engine's move before it
	BestEval engine.Score  `json:"be"`          // the best move's evaluation
	Line     Line          `json:"l,omitempty"` // the best move's line, when the ply played cost something
	Cost     float64       `json:"c,omitempty"` // stones lost
	Mark     analysis.Mark `json:"k,omitempty"`
	Forced   bool          `json:"f,omitempty"`
}

// Line is a line of moves, written in JSON as an array of holes (a
// []toguz.Move, bytes, would be base64).
type Line []toguz.Move

func (l Line) MarshalJSON() ([]byte, error) {
	ints := make([]int, len(l))
	for i, m := range l {
		ints[i] = int(m)
	}
	return json.Marshal(ints)
}

func (l *Line) UnmarshalJSON(b []byte) error {
	var ints []int
	if err := json.Unmarshal(b, &ints); err != nil {
		return err
	}
	*l = make(Line, len(ints))
	for i, n := range ints {
		if n < 1 || n > toguz.MaxHoles {
			return fmt.Errorf("review: hole %d in a line", n)
		}
		(*l)[i] = toguz.Move(n)
	}
	return nil
}

// maxLine bounds the line kept of each costly ply.
const maxLine = 8

// Settings is how the plies are searched, as a job records it.
func Settings(depth int) string { return fmt.Sprintf("depth %d", depth) }

// Build makes the review of moves from the analysis of their plies.
func Build(start toguz.Position, moves []toguz.Move, plies []analysis.Ply, depth int) Data {
	d := Data{Version: Version, Depth: depth, Plies: make([]Ply, len(plies))}
	for i, p := range plies {
		q := Ply{Move: moves[i], Eval: p.After, Best: p.Best, BestEval: p.BestScore,
			Cost: float64(int(p.Cost*10+0.5)) / 10, Mark: p.Mark, Forced: p.Forced}
		if p.Cost > 0 && p.Best != moves[i] {
			q.Line = p.Line[:min(len(p.Line), maxLine)]
		}
		d.Plies[i] = q
	}
	acc, ok := analysis.Accuracy(start, plies)
	for pl := range 2 {
		d.Accuracy[pl] = -1
		if ok[pl] {
			d.Accuracy[pl] = float64(int(acc[pl]*10+0.5)) / 10
		}
	}
	d.Counts = analysis.Summary(start, plies)
	return d
}

// ErrVersion is Decode's answer for a review of another format.
var ErrVersion = errors.New("review: stored in another format")

// Decode reads a stored review.
func Decode(b []byte) (Data, error) {
	var d Data
	if err := json.Unmarshal(b, &d); err != nil {
		return d, fmt.Errorf("review: %w", err)
	}
	if d.Version != Version {
		return d, fmt.Errorf("review version %d: %w", d.Version, ErrVersion)
	}
	return d, nil
}
