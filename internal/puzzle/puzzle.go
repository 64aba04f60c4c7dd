// Package puzzle holds the site's puzzles: positions where exactly one move
// wins, saves the game or wins stones, mined from real games and self-play
// (Miner, `toguz puzzles mine`), proven by a deep search or the endgame
// tablebase, tagged by theme and difficulty, and shipped embedded as a line
// file (puzzles.txt; docs/puzzles.md defines every field).
//
// Site (site.go) is the puzzles on the web site: the pages and the judge,
// which plays the opponent's replies and says the solution only at the
// end, so that the page never holds it. An account's first attempt at a
// puzzle alone is rated, through the Ratings port (internal/store), so a
// known answer earns nothing; guests get verdicts only. The WebAssembly
// build does not import this package.
package puzzle

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/rating"
)

// Goal is what the solution achieves and no other move does.
type Goal uint8

const (
	// Win: the solution wins by force (a proven result), no other move does.
	Win Goal = iota + 1
	// Save: every other move loses by force, the solution does not.
	Save
	// Stones: the solution keeps the side to move at least the margin in
	// stones better off than any other move, by the deep search.
	Stones
)

var goalNames = [...]string{Win: "win", Save: "save", Stones: "stones"}

func (g Goal) String() string {
	if int(g) < len(goalNames) && goalNames[g] != "" {
		return goalNames[g]
	}
	return "goal(" + strconv.Itoa(int(g)) + ")"
}

// ParseGoal reads a goal's name.
func ParseGoal(s string) (Goal, error) {
	for g, n := range goalNames {
		if n != "" && n == s {
			return Goal(g), nil
		}
	}
	return 0, fmt.Errorf("puzzle goal %q: want win, save or stones", s)
}

// Theme is a tag of what the solution move does, computed by the rules
// library (Themes).
type Theme string

const (
	Capture   Theme = "capture"   // the move captures stones: its last stone makes an opponent's hole even
	Tuzdik    Theme = "tuzdik"    // the move makes a tuzdik
	Prevent   Theme = "prevent"   // after another move the opponent could make a tuzdik, after this one he cannot
	Atsyrau   Theme = "atsyrau"   // the solution's line ends by atsyrau (a side left without a move)
	Endgame   Theme = "endgame"   // at most EndgameStones stones are left on the board
	Counting  Theme = "counting"  // the move sows at least CountingStones stones: its landing must be counted round the board
	Tablebase Theme = "tablebase" // proven exactly by the endgame tablebase (a tag of the proof, not of the move)
)

// AllThemes lists the themes in the order the site shows them.
var AllThemes = []Theme{Capture, Tuzdik, Prevent, Atsyrau, Endgame, Counting}

// EndgameStones and CountingStones are the thresholds of the themes
// Endgame and Counting.
const (
	EndgameStones  = 40
	CountingStones = 10
)

// Puzzle is one shipped puzzle.
type Puzzle struct {
	ID    string         // the position's key in hexadecimal: unique per position
	Start toguz.Position // the position the player solves, he is to move
	Goal  Goal
	// Solution is the line: the solver's first move (Solution[0]), the
	// opponent's reply, the solver's second move and so on, for Moves moves
	// of the solver, then the line the deep search expects (shown after the
	// puzzle, not judged).
	Solution []toguz.Move
	// Moves is how many of the solver's moves are judged (1 for a one-move
	// puzzle): Solution[0], Solution[2], …, Solution[2*(Moves-1)], each
	// proven alone in reaching the goal in its position, the opponent's
	// replies between them played for him.
	Moves  int
	Themes []Theme
	// Depth is the difficulty: the depth from which the engine's iterative
	// deepening keeps choosing the solution (1 = seen at once).
	Depth int
	// Margin is the lead of the solution over the second best move at the
	// deep search, in hundredths of a stone (0 for a proven result over an
	// unproven one).
	Margin int
	// Source names where the position comes from: masters, playok, tgk,
	// site or selfplay, then ':' and the game and ply.
	Source string
}

// Move is the move the player must find first.
func (p Puzzle) Move() toguz.Move { return p.Solution[0] }

// MaxMoves is the most solver's moves a puzzle judges.
const MaxMoves = 5

// Step returns the position of the solver's move i (0-based) and that
// move: the start after Solution[:2i].
func (p Puzzle) Step(i int) (toguz.Position, toguz.Move) {
	pos := p.Start
	for _, m := range p.Solution[:2*i] {
		pos = pos.After(m)
	}
	return pos, p.Solution[2*i]
}

// Has reports whether p carries theme t.
func (p Puzzle) Has(t Theme) bool { return slices.Contains(p.Themes, t) }

// InitialRating is the Glicko-2 rating a puzzle starts from, made of its
// difficulty: 1000 plus 150 per ply of depth, so that deeper puzzles start
// harder; attempts then move it.
func (p Puzzle) InitialRating() float64 { return 1000 + 150*float64(min(p.Depth, 10)) }

// StartRating is the puzzle's Glicko-2 rating before its first rated
// attempt: InitialRating, with the default deviation and volatility.
func (p Puzzle) StartRating() rating.Rating {
	r := rating.Default()
	r.Rating = p.InitialRating()
	return r
}

// Format writes p as one line of the puzzle file: tab-separated fields
// id, FEN, goal, solution (holes, space-separated), themes (comma-separated,
// "-" for none), depth, margin, source, and for a puzzle of several moves
// their number (a ninth field, absent for one move, so that the files of
// one-move puzzles read as before).
func (p Puzzle) Format() string {
	sol := make([]string, len(p.Solution))
	for i, m := range p.Solution {
		sol[i] = strconv.Itoa(m.Hole())
	}
	th := "-"
	if len(p.Themes) > 0 {
		ts := make([]string, len(p.Themes))
		for i, t := range p.Themes {
			ts[i] = string(t)
		}
		th = strings.Join(ts, ",")
	}
	f := []string{p.ID, toguz.FormatFEN(p.Start, 1), p.Goal.String(), strings.Join(sol, " "),
		th, strconv.Itoa(p.Depth), strconv.Itoa(p.Margin), p.Source}
	if p.Moves > 1 {
		f = append(f, strconv.Itoa(p.Moves))
	}
	return strings.Join(f, "\t")
}

// Parse reads one line Format wrote, checking the solution against the
// rules.
func Parse(line string) (Puzzle, error) {
	f := strings.Split(line, "\t")
	if len(f) != 8 && len(f) != 9 {
		return Puzzle{}, fmt.Errorf("puzzle line: %d fields, want 8 or 9", len(f))
	}
	var p Puzzle
	var err error
	p.ID = f[0]
	if p.Start, _, err = toguz.ParseFEN(f[1], toguz.Standard()); err != nil {
		return Puzzle{}, fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	if p.Goal, err = ParseGoal(f[2]); err != nil {
		return Puzzle{}, fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	pos := p.Start
	for s := range strings.FieldsSeq(f[3]) {
		h, err := strconv.Atoi(s)
		if err != nil || h < 1 || h > pos.Holes() {
			return Puzzle{}, fmt.Errorf("puzzle %s: solution move %q", p.ID, s)
		}
		if pos, err = pos.Play(toguz.Move(h)); err != nil {
			return Puzzle{}, fmt.Errorf("puzzle %s: solution: %w", p.ID, err)
		}
		p.Solution = append(p.Solution, toguz.Move(h))
	}
	if len(p.Solution) == 0 {
		return Puzzle{}, fmt.Errorf("puzzle %s: no solution", p.ID)
	}
	if f[4] != "-" {
		for t := range strings.SplitSeq(f[4], ",") {
			p.Themes = append(p.Themes, Theme(t))
		}
	}
	if p.Depth, err = strconv.Atoi(f[5]); err != nil {
		return Puzzle{}, fmt.Errorf("puzzle %s: depth: %w", p.ID, err)
	}
	if p.Margin, err = strconv.Atoi(f[6]); err != nil {
		return Puzzle{}, fmt.Errorf("puzzle %s: margin: %w", p.ID, err)
	}
	p.Source = f[7]
	p.Moves = 1
	if len(f) == 9 {
		if p.Moves, err = strconv.Atoi(f[8]); err != nil || p.Moves < 2 || p.Moves > MaxMoves {
			return Puzzle{}, fmt.Errorf("puzzle %s: moves %q: want 2 to %d", p.ID, f[8], MaxMoves)
		}
		// Every judged move and the replies between them are in the line,
		// and the game goes on until the last judged move.
		if len(p.Solution) < 2*p.Moves-1 {
			return Puzzle{}, fmt.Errorf("puzzle %s: %d moves judged, the solution has %d plies", p.ID, p.Moves, len(p.Solution))
		}
		pos := p.Start
		for _, m := range p.Solution[:2*p.Moves-2] {
			if pos = pos.After(m); pos.IsOver() {
				return Puzzle{}, fmt.Errorf("puzzle %s: the game ends before the last judged move", p.ID)
			}
		}
	}
	return p, nil
}

// Read reads a puzzle file: one puzzle a line; blank lines and lines
// starting with '#' are skipped.
func Read(r io.Reader) ([]Puzzle, error) {
	var out []Puzzle
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := Parse(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

//go:embed puzzles.txt
var shipped string

// Shipped returns the embedded puzzles, in the order of the file.
func Shipped() ([]Puzzle, error) { return Read(strings.NewReader(shipped)) }

// ErrNotLegal is the judgement of a move the position does not allow.
var ErrNotLegal = errors.New("puzzle: not a legal move")

// Judge says whether m solves p's first move: a legal move other than the
// solution is wrong (the miner proved it does not reach the goal); an
// illegal one is ErrNotLegal, checked by the rules library.
func (p Puzzle) Judge(m toguz.Move) (bool, error) {
	right, _, err := p.JudgeLine([]toguz.Move{m})
	return right, err
}

// ErrTooMany is the judgement of more solver's moves than p judges.
var ErrTooMany = errors.New("puzzle: more moves than the puzzle has")

// JudgeLine judges the solver's moves played so far (the opponent's
// replies between them are the solution's): right while each is the
// solution's move of its step; done when one is wrong or the last step is
// reached. A move the rules do not allow in its position is ErrNotLegal.
func (p Puzzle) JudgeLine(moves []toguz.Move) (right, done bool, err error) {
	n := max(p.Moves, 1)
	if len(moves) == 0 || len(moves) > n {
		return false, false, fmt.Errorf("%w: %d moves, the puzzle has %d", ErrTooMany, len(moves), n)
	}
	for i, m := range moves {
		pos, want := p.Step(i)
		if err := pos.CheckMove(m); err != nil {
			return false, false, fmt.Errorf("%w: %w", ErrNotLegal, err)
		}
		if m != want {
			return false, true, nil
		}
	}
	return true, len(moves) == n, nil
}

// Themes computes the themes of move m in p (its line: m and the expected
// continuation) by the rules library.
func Themes(p toguz.Position, line []toguz.Move) []Theme {
	m := line[0]
	me := p.Turn()
	ply, next := p.Ply(m)
	var ts []Theme
	if pl, h := p.Landing(m); pl != me && !ply.Tuzdik && !p.IsTuzdik(pl, h) && next.Stones(pl, h) == 0 && p.Stones(me, m.Hole()) > 0 {
		ts = append(ts, Capture)
	}
	if ply.Tuzdik {
		ts = append(ts, Tuzdik)
	}
	if p.Tuzdik(me.Other()) == 0 && !canMakeTuzdik(next) {
		for o := range p.LegalMoves().Without(m).All() {
			if canMakeTuzdik(p.After(o)) {
				ts = append(ts, Prevent)
				break
			}
		}
	}
	end := p
	for _, x := range line {
		if end.IsOver() || end.CheckMove(x) != nil {
			break
		}
		end = end.After(x)
	}
	if end.IsOver() && end.Outcome().Termination == toguz.ByAtsyrau {
		ts = append(ts, Atsyrau)
	}
	if p.OnBoard(toguz.White)+p.OnBoard(toguz.Black) <= EndgameStones {
		ts = append(ts, Endgame)
	}
	if p.Stones(me, m.Hole()) >= CountingStones {
		ts = append(ts, Counting)
	}
	return ts
}

// canMakeTuzdik reports whether the side to move in p has a move making a
// tuzdik.
func canMakeTuzdik(p toguz.Position) bool {
	if p.IsOver() {
		return false
	}
	for m := range p.LegalMoves().All() {
		if y, _ := p.Ply(m); y.Tuzdik {
			return true
		}
	}
	return false
}
