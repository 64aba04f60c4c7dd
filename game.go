package toguz

import "fmt"

// Tag is one tag pair of a game record, [Name "Value"].
type Tag struct{ Name, Value string }

// GamePly is a ply of a game record with what the record says about it.
type GamePly struct {
	Ply
	// Kazan is the mover's kazan total after the ply as the record annotates
	// it ("87(10)"), or 0 when the ply carries no annotation. A kazan total
	// is only written after stones went into the kazan, so it is never 0.
	Kazan   int
	Comment string // the comment after the ply, without braces
}

// Marking says what a record must mark, beyond what it may.
type Marking uint8

const (
	// MarkingOptional: any ply may carry a kazan total, and those written
	// are checked; the ending is marked by the Termination tag, if at all.
	MarkingOptional Marking = iota
	// MarkingPlayOK: PlayOK's rule, found in its 1,199 games. Exactly the
	// plies that end with a capture (the last stone makes an opponent's
	// hole even) carry the mover's kazan total: stones sown into a tuzdik
	// and the 3 stones of a new tuzdik get none. Exactly the games that end
	// by atsyrau carry {zero} after the result. Every mark is checked, and
	// so is every missing one.
	MarkingPlayOK
)

// Game is a game record: what a score sheet or a game file holds. It is
// separate from Position and Move: a Game is text-shaped (tags, plies as
// written, annotations, the recorded result), and Game.Final, Positions and
// Outcome replay it and check every part of it against the rules.
//
// The fields Rules, Start, StartMove, Result and Termination are the
// authority for the tags Ruleset, FEN, Result and Termination: readers fill
// both, writers write the fields.
type Game struct {
	// Tags are the tag pairs in the order read or set.
	Tags []Tag
	// Rules is the ruleset of the game (tag Ruleset); the zero value means
	// Standard.
	Rules Rules
	// Start is the position before the first ply (tag FEN); the zero value
	// means the starting position of Rules.
	Start Position
	// StartMove is the full-move number of Start (the FEN's last field), 1
	// when zero.
	StartMove int
	// Comment is the comment before the first ply.
	Comment string
	Plies   []GamePly
	// Result is the result the record states (tag and result token);
	// NoResult when it states none.
	Result Result
	// Termination is how the record says the game ended: the tag
	// Termination, or PlayOK's {zero} (ByAtsyrau). Unterminated when the
	// record does not say; the rules' own ending comes from Outcome.
	Termination Termination
	// Marking is what the record must mark; the replay checks it.
	Marking Marking

	// Where the game was read from, for error messages.
	file     string
	index    int      // 1-based index in its file
	line     int      // line of its first tag or token
	plyAt    []textAt // plyAt[i] is where ply i was written, when read
	resultAt textAt   // where the result token or tag was written
	// What a record in our format has beyond the main line, for
	// ParseTrees: the marks of the plies (marks[i] is ply i's, NoMark past
	// the end) and the variations, as written.
	marks []Mark
	vars  []rawVariation
}

// rawVariation is a variation as the game reader found it: its text, where
// it was, and the main-line ply (0-based) it is an alternative to.
type rawVariation struct {
	ply  int
	at   textAt
	text string
}

// textAt is a 1-based line and column (in runes) of a token.
type textAt struct{ line, col int32 }

// NewGame returns the record of the moves played from start (under
// start.Rules()), with each ply's landing digit and tuzdik mark. The error
// is a *ParseError naming the first illegal move.
func NewGame(start Position, moves ...Move) (*Game, error) {
	g := &Game{Rules: start.Rules(), Start: start, StartMove: 1, Plies: make([]GamePly, 0, len(moves))}
	p := start
	for i, m := range moves {
		if err := p.CheckMove(m); err != nil {
			return nil, &ParseError{Ply: i + 1, Msg: m.String(), Err: err}
		}
		var y Ply
		y, p = p.Ply(m)
		g.Plies = append(g.Plies, GamePly{Ply: y})
	}
	return g, nil
}

// Tag returns the value of the first tag called name, or "".
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SetTag sets the value of the tag called name, adding it at the end when
// the game has none.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// Moves returns the moves of the game's plies.
func (g *Game) Moves() []Move {
	moves := make([]Move, len(g.Plies))
	for i, y := range g.Plies {
		moves[i] = y.Move
	}
	return moves
}

// rules returns the game's ruleset, Standard for the zero value.
func (g *Game) rules() Rules {
	if g.Rules == (Rules{}) {
		return Standard()
	}
	return g.Rules
}

// StartPosition returns the position before the first ply.
func (g *Game) StartPosition() (Position, error) {
	if g.Start == (Position{}) {
		return NewPosition(g.rules())
	}
	if g.Start.Rules() != g.rules() {
		return Position{}, g.errorf(0, textAt{}, ErrRules, "the start position is for the ruleset %s, the game for %s", g.Start.Rules(), g.rules())
	}
	return g.Start, nil
}

// startMove returns the full-move number of the start position.
func (g *Game) startMove() int { return max(g.StartMove, 1) }

// errorf returns a *ParseError about ply (1-based, 0 for the game) of g.
func (g *Game) errorf(ply int, at textAt, err error, format string, args ...any) *ParseError {
	if at.line == 0 {
		at.line = int32(g.line)
	}
	return &ParseError{File: g.file, Line: int(at.line), Column: int(at.col), Game: g.index, Ply: ply,
		Msg: fmt.Sprintf(format, args...), Err: err}
}

// at returns where ply i (0-based) was written, if known.
func (g *Game) at(i int) textAt {
	if i < len(g.plyAt) {
		return g.plyAt[i]
	}
	return textAt{}
}

// replay plays every ply from the start, checking it and its annotations,
// calls visit (if not nil) with each position after the start, and checks the
// recorded ending. It returns the final position.
func (g *Game) replay(visit func(Position)) (Position, error) {
	p, err := g.StartPosition()
	if err != nil {
		return p, err
	}
	for i, gp := range g.Plies {
		at := g.at(i)
		if p.IsOver() {
			o := p.Outcome()
			return p, g.errorf(i+1, at, ErrGameOver, "%s: a move after the end of the game (%s, %s, %d–%d)",
				gp.Ply, o.Termination, o.Result, o.Score[0], o.Score[1])
		}
		me := p.Turn()
		next, err := p.PlayPly(gp.Ply)
		if err != nil {
			msg, cause := explainPly(gp.Ply.String(), err)
			return p, g.errorf(i+1, at, cause, "%s", msg)
		}
		if err := g.checkKazan(p, next, me, gp); err != "" {
			return p, g.errorf(i+1, at, ErrNotation, "%s", err)
		}
		p = next
		if visit != nil {
			visit(p)
		}
	}
	return p, g.checkEnding(p)
}

// checkKazan returns what is wrong with the kazan annotation of gp, played
// from p to next by me, or "".
func (g *Game) checkKazan(p, next Position, me Player, gp GamePly) string {
	k := next.Kazan(me)
	if gp.Kazan != 0 && gp.Kazan != k {
		return fmt.Sprintf("%s(%d): %s's kazan holds %d after it", gp.Ply, gp.Kazan, me, k)
	}
	if g.Marking == MarkingPlayOK {
		captured := captures(p, next, me, gp.Move)
		switch {
		case captured && gp.Kazan == 0:
			return fmt.Sprintf("%s captures but carries no kazan total: want %s(%d)", gp.Ply, gp.Ply, k)
		case !captured && gp.Kazan != 0:
			return fmt.Sprintf("%s(%d) captures nothing, so it carries no kazan total", gp.Ply, gp.Kazan)
		}
	}
	return ""
}

// captures reports whether the move from p to next, made by me, ended with
// an even capture: its last stone made an opponent's hole even, and that
// hole was emptied into me's kazan.
func captures(p, next Position, me Player, m Move) bool {
	side, hole := p.Landing(m)
	return side != me && next.Stones(side, hole) == 0 && !next.IsTuzdik(side, hole)
}

// checkEnding compares the recorded result and termination with how the
// rules leave the final position p.
func (g *Game) checkEnding(p Position) error {
	o := p.Outcome()
	n := len(g.Plies)
	if o.Termination == Unterminated {
		switch g.Termination {
		case ByKazan, ByDraw, ByAtsyrau:
			return g.errorf(n, g.resultAt, ErrNotation, "the record says the game ended by %s, but it goes on: %s to move, %d–%d",
				g.Termination, p.Turn(), o.Score[0], o.Score[1])
		}
		return nil
	}
	if g.Marking == MarkingPlayOK && o.Termination == ByAtsyrau && g.Termination != ByAtsyrau {
		return g.errorf(n, g.resultAt, ErrNotation, "the game ends by atsyrau (%s %d–%d), but the record has no {zero}",
			o.Result, o.Score[0], o.Score[1])
	}
	if g.Result != NoResult && g.Result != o.Result {
		return g.errorf(n, g.resultAt, ErrNotation, "the record says %s, but the rules end the game %s by %s, %d–%d",
			g.Result, o.Result, o.Termination, o.Score[0], o.Score[1])
	}
	switch g.Termination {
	case Unterminated, o.Termination:
	case ByAtsyrau:
		if o.Termination == ByDraw && p.sideMoves(p.Turn()) == 0 {
			break // the 81–81 draw reached when a side ran out of stones
		}
		fallthrough
	default:
		return g.errorf(n, g.resultAt, ErrNotation, "the record says the game ended by %s, but the rules end it by %s, %s %d–%d",
			g.Termination, o.Termination, o.Result, o.Score[0], o.Score[1])
	}
	return nil
}

// Final replays the game, checking every ply, annotation and the recorded
// ending, and returns the final position. The error is a *ParseError naming
// the game and ply (and line and column when the game was read from text);
// it wraps ErrIllegalMove, ErrGameOver, ErrNotation, or ErrRules when the
// start position is under another ruleset than the game.
func (g *Game) Final() (Position, error) {
	return g.replay(nil)
}

// Positions replays the game as Final does and returns every position:
// positions[0] is the start, positions[i] the position after ply i.
func (g *Game) Positions() ([]Position, error) {
	start, err := g.StartPosition()
	if err != nil {
		return nil, err
	}
	ps := make([]Position, 1, len(g.Plies)+1)
	ps[0] = start
	_, err = g.replay(func(p Position) { ps = append(ps, p) })
	return ps, err
}

// Outcome replays the game as Final does and returns how it ended: the
// rules' ending when the final position is over (with the final score after
// an atsyrau collection), and otherwise the recorded result and termination
// with the kazans as the score.
func (g *Game) Outcome() (Outcome, error) {
	p, err := g.Final()
	if err != nil {
		return Outcome{}, err
	}
	return g.outcome(p), nil
}

func (g *Game) outcome(p Position) Outcome {
	o := p.Outcome()
	if o.Termination == Unterminated {
		o.Termination, o.Result = g.Termination, g.Result
	}
	return o
}

// FullMove returns the full-move number of the position after the last ply,
// as its FEN writes it.
func (g *Game) FullMove() int {
	return FullMove(g.Start.Turn(), g.StartMove, len(g.Plies))
}

// FullMove returns the full-move number (the last field of a FEN) of the
// position plies plies after a start position where first was to move and
// whose number was startMove (1 when below 1): the number grows after each
// of Black's plies. A Position does not carry it, so that equal positions
// reached by different move orders stay equal; what knows the plies played
// (a Game, a live game, an opening suite) passes it to FormatFEN.
func FullMove(first Player, startMove, plies int) int {
	if first == Black {
		plies++
	}
	return max(startMove, 1) + plies/2
}
