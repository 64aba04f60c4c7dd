package toguz

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Mark is a move's annotation as a commentator writes it after the ply.
type Mark uint8

const (
	NoMark      Mark = iota
	Good             // !
	Mistake          // ?
	Brilliant        // !!
	Blunder          // ??
	Interesting      // !?
	Dubious          // ?!
)

var markNames = [...]string{"", "!", "?", "!!", "??", "!?", "?!"}

// String returns the mark as it is written: "!", "?!", …; "" for NoMark.
func (m Mark) String() string {
	if int(m) < len(markNames) {
		return markNames[m]
	}
	return fmt.Sprintf("Mark(%d)", uint8(m))
}

// ParseMark reads a mark as String writes it ("" is NoMark).
func ParseMark(s string) (Mark, error) {
	for i, name := range markNames {
		if s == name {
			return Mark(i), nil
		}
	}
	return NoMark, fmt.Errorf("%w: mark %q: want one of the marks %s", ErrSyntax, excerpt(s), "! ? !! ?? !? ?!")
}

// cutMark splits the mark off the end of the rest of a ply's word ("(10)!?"
// gives "(10)" and Interesting); ok is false for a run of ! and ? that is
// no mark.
func cutMark(rest string) (string, Mark, bool) {
	j := len(rest)
	for j > 0 && (rest[j-1] == '!' || rest[j-1] == '?') {
		j--
	}
	m, err := ParseMark(rest[j:])
	return rest[:j], m, err == nil
}

// Node is a position of a move tree and the move that led to it.
type Node struct {
	// Ply is the move as written, landing and tuzdik mark included; the
	// zero Ply at the root.
	Ply Ply
	// Kazan is the mover's kazan total the record annotates after the ply
	// (0 when none), as GamePly.Kazan.
	Kazan    int
	Position Position // the position after the move (at the root, the start)
	Comment  string   // the comment after the move
	Mark     Mark
	// Children are the moves played from Position: the main line first,
	// then the variations in the order written.
	Children []*Node
}

// Tree is a game with its variations: a record of our format read with
// ParseTrees, or a game analysed on a board.
type Tree struct {
	// Game holds the tags, start, comment, result and termination; its
	// Plies are ignored by the writers, which write Root's lines.
	Game *Game
	// Root is the start position; Root.Children[0] begins the main line.
	Root *Node
}

// NewTree returns the tree of g's main line: g's plies, replayed and
// checked as Game.Positions does, with their comments and marks.
func NewTree(g *Game) (*Tree, error) {
	ps, err := g.Positions()
	if err != nil {
		return nil, err
	}
	t := &Tree{Game: g, Root: &Node{Position: ps[0]}}
	n := t.Root
	for i, gp := range g.Plies {
		c := &Node{Ply: gp.Ply, Kazan: gp.Kazan, Position: ps[i+1], Comment: gp.Comment}
		if i < len(g.marks) {
			c.Mark = g.marks[i]
		}
		n.Children = append(n.Children, c)
		n = c
	}
	return t, nil
}

// MainLine returns the tree's game with the plies of its main line: what
// the formats that hold no variation (TGK, PlayOK, PlayStrategy) write.
func (t *Tree) MainLine() *Game {
	g := *t.Game
	g.Plies = nil
	g.marks, g.vars, g.plyAt = nil, nil, nil
	for n := t.Root; len(n.Children) > 0; {
		n = n.Children[0]
		g.Plies = append(g.Plies, GamePly{Ply: n.Ply, Kazan: n.Kazan, Comment: n.Comment})
	}
	return &g
}

// Variations reports whether the tree has a move off its main line.
func (t *Tree) Variations() bool {
	for n := t.Root; len(n.Children) > 0; n = n.Children[0] {
		if len(n.Children) > 1 {
			return true
		}
	}
	return false
}

// marked reports whether a move of the main line carries a mark.
func (t *Tree) marked() bool {
	for n := t.Root; len(n.Children) > 0; {
		if n = n.Children[0]; n.Mark != NoMark {
			return true
		}
	}
	return false
}

// ParseTrees reads the games of a file with their variations. Our format
// (FormatToguz) carries variations, comments and marks:
//
//  1. 76(10)! (1. 98?! {too slow} 2. 11) 1... 98
//  2. 66 87
//
// A variation ( … ) follows the ply it is an alternative to and is written
// like the main line: plies with their optional kazan totals, marks,
// comments, move numbers and variations nested in it; a comment at its
// start belongs to its first ply. A ply's mark (! ? !! ?? !? ?!) follows it
// and its kazan total with no space; a ( glued to a ply is its kazan total,
// so a variation begins after a space. Every ply of a variation is played
// and checked as the main line's are, and an error (a bad ply, an
// unclosed or stray parenthesis, a wrong move number) is a *ParseError
// naming its line and column.
//
// The other formats carry no variation (PlayOK's PGN is PGN-like, but
// PlayOK neither writes nor reads one, so reading one there would accept
// files PlayOK refuses): their games read as trees of their main line.
// ParseGames reads a file with variations too, and keeps the main line.
func ParseTrees(file string, data []byte, f Format) ([]*Tree, error) {
	games, err := ParseGames(file, data, f)
	trees := make([]*Tree, 0, len(games))
	for _, g := range games {
		t, terr := g.tree()
		if terr != nil {
			return trees, terr
		}
		trees = append(trees, t)
	}
	return trees, err
}

// tree is NewTree with the variations g was read with.
func (g *Game) tree() (*Tree, error) {
	t, err := NewTree(g)
	if err != nil {
		return nil, err
	}
	line := []*Node{t.Root} // line[i] is the node before main-line ply i
	for n := t.Root; len(n.Children) > 0; {
		n = n.Children[0]
		line = append(line, n)
	}
	for _, v := range g.vars {
		r := &reader{data: v.text, line: int(v.at.line), col: int(v.at.col), file: g.file, format: FormatToguz}
		if err := r.variationLine(g, t.Root.Position.Turn(), line[v.ply], v.ply); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// variationLine reads the variation at r, an alternative to the move after
// parent, which is ply (0-based) of the game whose first mover is first,
// and adds it to parent's children.
func (r *reader) variationLine(g *Game, first Player, parent *Node, ply int) error {
	open := r.at()
	r.advance(1) // (
	var v variationEnd
	for {
		r.skipSpace()
		if r.eof() {
			return r.errorf(open, g.index, ply+1, ErrSyntax, "a variation ( with no closing )")
		}
		at := r.at()
		switch c := r.peek(); c {
		case ')':
			r.advance(1)
			if v.prev == nil {
				return r.errorf(open, g.index, ply+1, ErrSyntax, "an empty variation ( )")
			}
			return nil
		case '(':
			if v.prev == nil {
				return r.errorf(at, g.index, ply+1, ErrSyntax, "a variation ( … ) before the first ply of its own variation")
			}
			if err := r.variationLine(g, first, v.prevFrom, v.prevPly); err != nil {
				return err
			}
			continue
		case '{', ';':
			text, ok := r.comment()
			if !ok {
				return r.errorf(at, g.index, ply+1, ErrSyntax, "comment with no closing }")
			}
			if v.prev == nil {
				v.pending = joinComment(v.pending, text)
			} else {
				v.prev.Comment = joinComment(v.prev.Comment, text)
			}
			continue
		}
		if err := r.variationWord(g, first, parent, ply, at, &v); err != nil {
			return err
		}
	}
}

// variationEnd is where a variation being read stands.
type variationEnd struct {
	prev, prevFrom *Node  // the last node of this variation, and its parent
	prevPly        int    // and its ply
	pending        string // a comment before its first ply
}

// variationWord reads the word at at in a variation of parent's ply ply: a
// move number, a ply or both, adding the ply's node to the variation.
func (r *reader) variationWord(g *Game, first Player, parent *Node, ply int, at textAt, v *variationEnd) error {
	w := r.treeWord()
	if _, err := resultToken(w); err == nil {
		return r.errorf(at, g.index, ply+1, ErrSyntax, "result %s inside a variation: want ) first", excerpt(w))
	}
	from, next := parent, ply
	if v.prev != nil {
		from, next = v.prev, v.prevPly+1
	}
	if n := moveNumberLen(w); n > 0 {
		if err := r.checkMoveNumber(g, w[:n], at, FullMove(first, g.startMove(), next), next); err != nil {
			return err
		}
		w = w[n:]
		at.col += int32(n)
		if w == "" {
			return nil
		}
	}
	node, err := r.variationPly(g, from.Position, w, at, next)
	if err != nil {
		return err
	}
	node.Comment = v.pending
	v.pending = ""
	from.Children = append(from.Children, node)
	v.prev, v.prevFrom, v.prevPly = node, from, next
	return nil
}

// checkMoveNumber checks the move number num (such as "12." or "12...") at
// at before ply next of a variation, which must be full.
func (r *reader) checkMoveNumber(g *Game, num string, at textAt, full, next int) error {
	n, err := strconv.Atoi(strings.TrimRight(num, "."))
	if err != nil || n != full {
		return r.errorf(at, g.index, next+1, ErrSyntax, "move number %s: want %d", excerpt(num), full)
	}
	return nil
}

// variationPly reads the word w at at, a ply with its kazan total and mark
// if any, as ply next of a variation, and returns its node after pos
// (without comment or children).
func (r *reader) variationPly(g *Game, pos Position, w string, at textAt, next int) (*Node, error) {
	y, n := scanPly(w)
	if n == 0 {
		return nil, r.errorf(at, g.index, next+1, ErrSyntax, "%q: want a ply (76, 48x or 7), a move number, a comment, a variation or )", excerpt(w))
	}
	rest, mk, ok := cutMark(w[n:])
	if !ok {
		return nil, r.errorf(at, g.index, next+1, ErrSyntax, "%q: a move's mark is one of ! ? !! ?? !? ?!", excerpt(w))
	}
	k := 0
	if rest != "" {
		if k, ok = parseKazanNote(rest); !ok {
			return nil, r.errorf(at, g.index, next+1, ErrSyntax, "%q: after the ply %s want only a kazan total such as (10) and a mark", excerpt(w), y)
		}
	}
	if pos.IsOver() {
		return nil, r.errorf(at, g.index, next+1, ErrGameOver, "%s: a move after the end of the game", y)
	}
	me := pos.Turn()
	after, err := pos.PlayPly(y)
	if err != nil {
		msg, cause := explainPly(y.String(), err)
		return nil, r.errorf(at, g.index, next+1, cause, "%s", msg)
	}
	if k != 0 && after.Kazan(me) != k {
		return nil, r.errorf(at, g.index, next+1, ErrNotation, "%s(%d): %s's kazan holds %d after it", y, k, me, after.Kazan(me))
	}
	return &Node{Ply: y, Kazan: k, Position: after, Mark: mk}, nil
}

// treeWord reads a word of a variation: up to a space, a comment, a tag or
// a parenthesis, then a kazan total such as (10) glued to it and the mark
// after that.
func (r *reader) treeWord() string {
	stop := func(c byte) bool {
		return isSpace(c) || c == '{' || c == '[' || c == ';' || c == '(' || c == ')'
	}
	j := r.i
	for r.avail(j) && !stop(r.data[j]) {
		j++
	}
	if j > r.i {
		j = r.afterKazanNote(j)
	}
	if j == r.i {
		j++ // a character no word starts with: the caller names it
	}
	w := r.data[r.i:j]
	r.advance(j - r.i)
	return w
}

// afterKazanNote returns where a kazan total such as (10) at j, and the
// mark after it, end; j when there is none.
func (r *reader) afterKazanNote(j int) int {
	if !r.avail(j) || r.data[j] != '(' {
		return j
	}
	k := j + 1
	for r.avail(k) && r.data[k] >= '0' && r.data[k] <= '9' {
		k++
	}
	if k == j+1 || !r.avail(k) || r.data[k] != ')' {
		return j
	}
	j = k + 1
	for r.avail(j) && (r.data[j] == '!' || r.data[j] == '?') {
		j++
	}
	return j
}

// WriteTrees writes the trees to w in format f. Our format writes every
// variation, comment and mark, and a tree with neither variation nor mark
// is written as WriteGames writes its game; the other formats hold no
// variation and write each tree's main line (MainLine).
func WriteTrees(w io.Writer, f Format, trees ...*Tree) error {
	var b []byte
	for i, t := range trees {
		var err error
		if f == FormatToguz && (t.Variations() || t.marked()) {
			b, err = t.appendToguz(b)
		} else {
			b, err = appendGame(b, f, i, t.MainLine())
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Write(b)
	return err
}

// String returns the tree in our format.
func (t *Tree) String() string {
	var b strings.Builder
	if err := WriteTrees(&b, FormatToguz, t); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// appendToguz writes t in our format: the main line one numbered pair of
// plies per line as Game.appendToguz writes it, each variation after the
// ply it replaces, on the same line.
func (t *Tree) appendToguz(b []byte) ([]byte, error) {
	g := t.MainLine()
	if _, err := g.StartPosition(); err != nil {
		return b, err
	}
	b, err := g.appendTags(b, map[string]bool{"Result": true, "Ruleset": true,
		"FEN": g.startsElsewhere(), "Termination": g.Termination != Unterminated})
	if err != nil {
		return b, err
	}
	b = append(b, '\n')
	if g.Comment != "" {
		b = appendComment(b, g.Comment)
		b = append(b, '\n')
	}
	b = t.appendLine(b, t.Root, 0, true)
	b = append(b, g.Result.String()...)
	return append(b, '\n', '\n'), nil
}

// appendLine writes the line that goes on from n, whose next move is ply
// (0-based) of the game: the main line when top, which ends each pair of
// plies with a line end, and a variation's otherwise.
func (t *Tree) appendLine(b []byte, n *Node, ply int, top bool) []byte {
	first, start := t.Root.Position.Turn(), t.Game.startMove()
	number := true // the next ply is written with its move number
	for len(n.Children) > 0 {
		c := n.Children[0]
		black := n.Position.Turn() == Black
		if !black || number {
			b = appendMoveNumber(b, FullMove(first, start, ply), black)
		}
		b = c.appendPly(b)
		number = false
		for _, v := range n.Children[1:] {
			b = append(b, " ("...)
			b = appendMoveNumber(b, FullMove(first, start, ply), black)
			b = v.appendPly(b)
			if len(v.Children) > 0 {
				b = t.appendLine(append(b, ' '), v, ply+1, false)
			}
			b = append(b, ')')
			number = true
		}
		ply++
		n = c
		switch {
		case len(n.Children) == 0:
			if top {
				b = append(b, '\n')
			}
		case top && black:
			b = append(b, '\n')
		default:
			b = append(b, ' ')
		}
	}
	return b
}

func appendMoveNumber(b []byte, full int, black bool) []byte {
	b = strconv.AppendInt(b, int64(full), 10)
	if black {
		return append(b, "... "...)
	}
	return append(b, ". "...)
}

// appendPly writes n's ply with its kazan total, mark and comment.
func (n *Node) appendPly(b []byte) []byte {
	b = n.Ply.appendTo(b)
	if n.Kazan != 0 {
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(n.Kazan), 10)
		b = append(b, ')')
	}
	b = append(b, n.Mark.String()...)
	if n.Comment != "" {
		b = append(b, ' ')
		b = appendComment(b, n.Comment)
	}
	return b
}
