package toguz

import "fmt"

// PlayStrategy writes a move as two squares, the hole emptied and the hole
// where the last stone fell: "e1f2". Files run a.. from White's left; rank 1
// is White's row (White's hole k is file k), rank 2 Black's (Black's hole k
// is file Holes+1-k, file 10-k on the standard board).
//
// A PlayStrategy move list (FormatPlayStrategy) is the moves separated by
// spaces, "f1e2 d2e1 i1a2", optionally preceded by tag pairs as in our
// format (Ruleset and FEN give the rules and the start position), and
// optionally followed by a result token; move numbers and {comments} are
// read too. The reader plays the moves as it reads them, so a move from the
// wrong row, an illegal move or a wrong landing square is an error at its
// line and column.

// playStrategySquare returns PlayStrategy's name of pl's hole (1..Holes) on
// a board of holes holes per side: White's hole 5 is "e1", Black's hole 8
// "b2".
func playStrategySquare(pl Player, hole, holes int) string {
	return string(appendSquare(nil, pl, hole, holes))
}

func appendSquare(b []byte, pl Player, hole, holes int) []byte {
	if pl == White {
		return append(b, 'a'+byte(hole-1), '1')
	}
	return append(b, 'a'+byte(holes-hole), '2')
}

// PlayStrategyMove returns m, which must be legal in p, as PlayStrategy
// writes it: "e1f2".
func (p Position) PlayStrategyMove(m Move) string {
	side, hole := p.Landing(m)
	b := appendSquare(make([]byte, 0, 4), p.Turn(), int(m), p.Holes())
	return string(appendSquare(b, side, hole, p.Holes()))
}

// ParsePlayStrategyMove reads a move in PlayStrategy's notation and checks
// it against p: the square moved from must be a hole of the player to move,
// the move legal and the second square the hole where its last stone falls.
func (p Position) ParsePlayStrategyMove(s string) (Move, error) {
	y, _, rest, err := readSquares(p, s)
	if err == nil && rest != "" {
		err = fmt.Errorf("%w: move %q: want two squares such as e1f2", ErrSyntax, excerpt(s))
	}
	return y.Move, err
}

// parseSquares checks the shape of a move, [a-i][12][a-i][12], and returns
// the two squares' files (0-based) and ranks (0 White, 1 Black).
func parseSquares(w string) (files, ranks [2]int, ok bool) {
	if len(w) < 4 {
		return files, ranks, false
	}
	for i := range 2 {
		f, r := w[2*i], w[2*i+1]
		if f < 'a' || f >= 'a'+MaxHoles || r != '1' && r != '2' {
			return files, ranks, false
		}
		files[i], ranks[i] = int(f-'a'), int(r-'1')
	}
	return files, ranks, true
}

// readSquares reads the move at the start of w, plays it from p and returns
// its score-sheet ply, the position after it and what follows the move in w.
func readSquares(p Position, w string) (Ply, Position, string, error) {
	files, ranks, ok := parseSquares(w)
	if !ok {
		return Ply{}, p, "", fmt.Errorf("%w: %q: want a move as two squares such as e1f2 (files a..%c, rank 1 White, 2 Black)",
			ErrSyntax, excerpt(w), 'a'+p.Holes()-1)
	}
	n := p.Holes()
	hole := func(i int) (Player, int, error) {
		if files[i] >= n {
			return 0, 0, fmt.Errorf("%w: %q: there is no file %c on a board of %d holes", ErrSyntax, w[:4], 'a'+files[i], n)
		}
		if ranks[i] == 0 {
			return White, files[i] + 1, nil
		}
		return Black, n - files[i], nil
	}
	pl, from, err := hole(0)
	if err != nil {
		return Ply{}, p, "", err
	}
	side, land, err := hole(1)
	if err != nil {
		return Ply{}, p, "", err
	}
	if pl != p.Turn() {
		return Ply{}, p, "", &IllegalMoveError{Move: Move(from), Reason: fmt.Sprintf("%s is %s's hole %d, but %s is to move", w[:2], pl, from, p.Turn())}
	}
	m := Move(from)
	if err := p.CheckMove(m); err != nil {
		return Ply{}, p, "", err
	}
	if gotSide, gotLand := p.Landing(m); gotSide != side || gotLand != land {
		return Ply{}, p, "", fmt.Errorf("%s: the last stone falls on %s (%s's hole %d), not %s: %w",
			w[:4], playStrategySquare(gotSide, gotLand, n), gotSide, gotLand, w[2:4], ErrNotation)
	}
	y, next := p.Ply(m)
	return y, next, w[4:], nil
}

// appendPlayStrategy writes g as a PlayStrategy move list: its tags (with
// Ruleset and FEN when they are not the defaults), the moves, and the
// result token when there is a result.
func (g *Game) appendPlayStrategy(b []byte) ([]byte, error) {
	ps, err := g.Positions()
	if err != nil {
		return b, err
	}
	start := len(b)
	b, err = g.appendTags(b, map[string]bool{"Ruleset": g.rules() != Standard(), "FEN": g.startsElsewhere(),
		"Termination": g.Termination != Unterminated})
	if err != nil {
		return b, err
	}
	if len(b) > start {
		b = append(b, '\n')
	}
	if g.Comment != "" {
		b = appendComment(b, g.Comment)
		b = append(b, '\n')
	}
	lineStart := len(b)
	for i, gp := range g.Plies {
		if i > 0 {
			if len(b)-lineStart >= 75 {
				b = append(b, '\n')
				lineStart = len(b)
			} else {
				b = append(b, ' ')
			}
		}
		p := ps[i]
		side, land := p.Landing(gp.Move)
		b = appendSquare(b, p.Turn(), int(gp.Move), p.Holes())
		b = appendSquare(b, side, land, p.Holes())
		if gp.Comment != "" {
			b = append(b, ' ')
			b = appendComment(b, gp.Comment)
		}
	}
	if g.Result != NoResult || g.Tag("Result") != "" || len(b) == start {
		// A result token, also to write a game with nothing else.
		if len(g.Plies) > 0 {
			b = append(b, ' ')
		}
		b = append(b, g.Result.String()...)
	}
	return append(b, '\n', '\n'), nil
}
