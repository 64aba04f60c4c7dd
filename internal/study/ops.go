package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/posjson"
)

// Op is one edit of a study, as a client sends it (docs/api.md). Path
// names a move by the holes played from the chapter's root.
type Op struct {
	Op      string `json:"op"` // move, delete, promote, comment, mark, shapes, chapter, rename
	Chapter int    `json:"chapter"`
	Path    []int  `json:"path,omitempty"`
	Hole    int    `json:"hole,omitempty"`    // move: the hole sown
	Text    string `json:"text,omitempty"`    // comment
	Mark    string `json:"mark,omitempty"`    // mark: ! ? !! ?? !? ?! or ""
	Name    string `json:"name,omitempty"`    // chapter, rename
	Ruleset string `json:"ruleset,omitempty"` // chapter
	FEN     string `json:"fen,omitempty"`     // chapter
	Shapes
}

// Apply applies op to the chapters and returns them (a new chapter is
// appended) with the index of the chapter it changed. A failed op leaves
// the chapters as they were.
func Apply(chapters []*Chapter, op Op) ([]*Chapter, int, error) {
	if op.Op == "chapter" {
		if len(chapters) >= MaxChapters {
			return chapters, 0, fmt.Errorf("%w: %d chapters", ErrTooMany, MaxChapters)
		}
		if strings.TrimSpace(op.Name) == "" {
			return chapters, 0, fmt.Errorf("%w: a chapter with no name", ErrBadOp)
		}
		rules := toguz.Standard()
		if op.Ruleset != "" {
			r, err := toguz.ParseRules(op.Ruleset)
			if err != nil {
				return chapters, 0, fmt.Errorf("%w: %w", ErrBadOp, err)
			}
			rules = r
		}
		c, err := NewChapter(op.Name, rules, op.FEN)
		if err != nil {
			return chapters, 0, err
		}
		return append(chapters, c), len(chapters), nil
	}
	if op.Chapter < 0 || op.Chapter >= len(chapters) {
		return chapters, 0, fmt.Errorf("%w: %d", ErrNoChapter, op.Chapter)
	}
	c := chapters[op.Chapter]
	if op.Op == "rename" {
		if strings.TrimSpace(op.Name) == "" || len(op.Name) > MaxName {
			return chapters, 0, fmt.Errorf("%w: a name over %d bytes", ErrBadOp, MaxName)
		}
		c.Name = op.Name
		return chapters, op.Chapter, nil
	}
	n, parent, err := c.Find(op.Path)
	if err != nil {
		return chapters, 0, err
	}
	if parent == nil && op.Op != "move" {
		return chapters, 0, fmt.Errorf("%w: %s at the start", ErrBadOp, op.Op)
	}
	switch op.Op {
	case "move":
		err = addMove(c, n, op.Hole)
	case "delete":
		i := slices.Index(parent.Children, n)
		parent.Children = slices.Delete(parent.Children, i, i+1)
	case "promote":
		err = promote(c, op.Path)
	case "comment":
		if len(op.Text) > MaxComment {
			return chapters, 0, fmt.Errorf("%w: a comment over %d bytes", ErrTooMany, MaxComment)
		}
		_, sh := SplitComment(n.Comment)
		text, _ := SplitComment(op.Text) // shapes come by their own op
		n.Comment = JoinComment(text, sh)
	case "mark":
		m, merr := toguz.ParseMark(op.Mark)
		if merr != nil {
			return chapters, 0, fmt.Errorf("%w: %w", ErrBadOp, merr)
		}
		n.Mark = m
	case "shapes":
		sh, serr := validShapes(op.Shapes, n.Position.Holes())
		if serr != nil {
			return chapters, 0, serr
		}
		text, _ := SplitComment(n.Comment)
		n.Comment = JoinComment(text, sh)
	default:
		return chapters, 0, fmt.Errorf("%w: %q", ErrBadOp, op.Op)
	}
	if err != nil {
		return chapters, 0, err
	}
	return chapters, op.Chapter, nil
}

// addMove plays hole h from n under the rules library; a move already
// there is no change.
func addMove(c *Chapter, n *toguz.Node, h int) error {
	for _, ch := range n.Children {
		if int(ch.Ply.Move) == h {
			return nil
		}
	}
	if c.Moves() >= MaxMoves {
		return fmt.Errorf("%w: %d moves", ErrTooMany, MaxMoves)
	}
	m := toguz.Move(h)
	if h < 1 || h > n.Position.Holes() {
		m = toguz.NoMove
	}
	if err := n.Position.CheckMove(m); err != nil {
		return fmt.Errorf("%w: %w", ErrIllegal, err)
	}
	y, after := n.Position.Ply(m)
	n.Children = append(n.Children, &toguz.Node{Ply: y, Position: after})
	return nil
}

// promote makes the variation that holds the move at path the main line
// of its parent: the deepest node on the path that is not its parent's
// first child climbs to first (as the analysis board does).
func promote(c *Chapter, path []int) error {
	for k := len(path); k > 0; k-- {
		n, parent, err := c.Find(path[:k])
		if err != nil {
			return err
		}
		if i := slices.Index(parent.Children, n); i > 0 {
			parent.Children = slices.Delete(parent.Children, i, i+1)
			parent.Children = slices.Insert(parent.Children, 0, n)
			return nil
		}
	}
	return nil // on the main line already
}

// NodeJSON is a move of a chapter as the page draws it: its hole and
// notation, the position after it, its comment's text, mark, shapes and
// children (main line first). The root has no move.
type NodeJSON struct {
	Hole     int              `json:"hole,omitempty"`
	Notation string           `json:"notation,omitempty"`
	FEN      string           `json:"fen"`
	Pos      posjson.Position `json:"pos"` // FEN's position as the board draws it
	Comment  string           `json:"comment,omitempty"`
	Mark     string           `json:"mark,omitempty"`
	Children []*NodeJSON      `json:"children"`
	Shapes
}

// ChapterJSON is a chapter for the page.
type ChapterJSON struct {
	Name    string    `json:"name"`
	Ruleset string    `json:"ruleset"`
	Moves   int       `json:"moves"`
	Root    *NodeJSON `json:"root"`
}

// JSON returns the chapter for the page.
func (c *Chapter) JSON() ChapterJSON {
	var walk func(n *toguz.Node, full int) *NodeJSON
	walk = func(n *toguz.Node, full int) *NodeJSON {
		text, sh := SplitComment(n.Comment)
		j := &NodeJSON{FEN: toguz.FormatFEN(n.Position, full), Pos: posjson.Of(n.Position, full), Comment: text, Mark: n.Mark.String(), Shapes: sh, Children: []*NodeJSON{}}
		if n.Ply.Move != toguz.NoMove {
			j.Hole, j.Notation = int(n.Ply.Move), n.Ply.String()
		}
		next := full
		if n.Position.Turn() == toguz.Black {
			next++
		}
		for _, ch := range n.Children {
			j.Children = append(j.Children, walk(ch, next))
		}
		return j
	}
	return ChapterJSON{Name: c.Name, Ruleset: c.Tree.Root.Position.Rules().String(), Moves: c.Moves(),
		Root: walk(c.Tree.Root, max(c.Tree.Game.StartMove, 1))}
}
