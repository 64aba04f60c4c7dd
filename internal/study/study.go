// Package study is a coach's study: a set of chapters, each a board of any
// ruleset from its start or a FEN with a move tree (toguz.Tree) whose
// moves carry comments, marks (! ?), marked holes and arrows, edited by
// ops that the server applies to the stored tree and sends to everyone
// who follows the study (Hub).
//
// Marked holes and arrows live in the move's comment, after its text, in
// the syntax lichess uses for chess (docs/api.md):
//
//	{a good sowing [%csl w3,b5][%cal w3b5,b9w1]}
//
// a hole is its side (w White's, b Black's) and number; an arrow is its
// two holes, from and to. So a chapter is stored as a record of our format
// and round-trips through toguz.WriteTrees and toguz.ParseTrees with its
// variations.
//
// The package is also the studies' and classes' side of the web site
// (site.go): their pages, the study's websocket that feeds the Hub, and
// the store port they need (Studies); internal/server composes it through
// site.Kit and calls Site.Routes. A member's role is read when his
// connection opens, so the hub itself never checks who may edit: the
// socket does, before an op reaches it.
package study

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
)

// Bounds of a study (docs/api.md).
const (
	MaxChapters    = 32   // chapters per study
	MaxMoves       = 400  // moves per chapter, every variation's
	MaxComment     = 1000 // bytes of one move's comment text
	MaxShapes      = 24   // marked holes and arrows of one move, together
	MaxName        = 80   // bytes of a study's or a chapter's name
	MaxStudies     = 50   // studies one account owns
	MaxMembers     = 50   // invited members of a study
	MaxFollowers   = 200  // open connections to one study
	MaxOpsPerSec   = 5    // edits one connection sends a second (burst MaxOpsBurst)
	MaxOpsBurst    = 20
	maxCommentFull = MaxComment + MaxShapes*12
)

// Errors of an op; site.go turns them into the API's (studyError).
var (
	ErrBadOp     = errors.New("study: bad op")
	ErrNoNode    = errors.New("study: no such move")
	ErrTooMany   = errors.New("study: bound reached")
	ErrIllegal   = errors.New("study: illegal move")
	ErrNoChapter = errors.New("study: no such chapter")
)

// Shapes are a move's marked holes and arrows: "w3", "b5"; "w3b5".
type Shapes struct {
	Holes  []string `json:"holes,omitempty"`
	Arrows []string `json:"arrows,omitempty"`
}

var (
	shapeRE = regexp.MustCompile(`\s*\[%(csl|cal) ([^\]]*)\]`)
	holeRE  = regexp.MustCompile(`^[wb][1-9]$`)
	arrowRE = regexp.MustCompile(`^[wb][1-9][wb][1-9]$`)
)

// SplitComment separates a stored comment into its text and its shapes.
// Unknown or malformed shapes are dropped.
func SplitComment(c string) (string, Shapes) {
	var sh Shapes
	for _, m := range shapeRE.FindAllStringSubmatch(c, -1) {
		for _, x := range strings.Split(m[2], ",") {
			x = strings.TrimSpace(x)
			switch {
			case m[1] == "csl" && holeRE.MatchString(x):
				sh.Holes = append(sh.Holes, x)
			case m[1] == "cal" && arrowRE.MatchString(x):
				sh.Arrows = append(sh.Arrows, x)
			}
		}
	}
	return strings.TrimSpace(shapeRE.ReplaceAllString(c, "")), sh
}

// JoinComment is SplitComment's inverse.
func JoinComment(text string, sh Shapes) string {
	var b strings.Builder
	b.WriteString(text)
	if len(sh.Holes) > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("[%csl " + strings.Join(sh.Holes, ",") + "]")
	}
	if len(sh.Arrows) > 0 {
		if b.Len() > 0 && len(sh.Holes) == 0 {
			b.WriteByte(' ')
		}
		b.WriteString("[%cal " + strings.Join(sh.Arrows, ",") + "]")
	}
	return b.String()
}

// validShapes checks and normalises sh (sorted, no repeats), for a board
// of holes holes per side.
func validShapes(sh Shapes, holes int) (Shapes, error) {
	if len(sh.Holes)+len(sh.Arrows) > MaxShapes {
		return sh, fmt.Errorf("%w: more than %d shapes", ErrTooMany, MaxShapes)
	}
	ok := func(h string) bool { n, _ := strconv.Atoi(h[1:2]); return n <= holes }
	for _, h := range sh.Holes {
		if !holeRE.MatchString(h) || !ok(h) {
			return sh, fmt.Errorf("%w: hole %q", ErrBadOp, h)
		}
	}
	for _, a := range sh.Arrows {
		if !arrowRE.MatchString(a) || !ok(a[:2]) || !ok(a[2:]) || a[:2] == a[2:] {
			return sh, fmt.Errorf("%w: arrow %q", ErrBadOp, a)
		}
	}
	norm := func(x []string) []string {
		x = slices.Clone(x)
		slices.Sort(x)
		return slices.Compact(x)
	}
	return Shapes{Holes: norm(sh.Holes), Arrows: norm(sh.Arrows)}, nil
}

// Chapter is one board of a study.
type Chapter struct {
	Name string
	Tree *toguz.Tree
}

// NewChapter starts a chapter at the start of rules, or at fen when fen
// is not "".
func NewChapter(name string, rules toguz.Rules, fen string) (*Chapter, error) {
	if len(name) > MaxName {
		return nil, fmt.Errorf("%w: a name over %d bytes", ErrBadOp, MaxName)
	}
	g := &toguz.Game{Rules: rules}
	if fen != "" {
		p, full, err := toguz.ParseFEN(fen, rules)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadOp, err)
		}
		g.Start, g.StartMove = p, full
	} else {
		p, err := toguz.NewPosition(rules)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadOp, err)
		}
		g.Start = p
	}
	t, err := toguz.NewTree(g)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadOp, err)
	}
	return &Chapter{Name: name, Tree: t}, nil
}

// Record writes the chapter's tree in our format, with its variations.
func (c *Chapter) Record() (string, error) {
	var b bytes.Buffer
	if err := toguz.WriteTrees(&b, toguz.FormatToguz, c.Tree); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ReadChapter reads a chapter stored by Record.
func ReadChapter(name, record string) (*Chapter, error) {
	trees, err := toguz.ParseTrees("", []byte(record), toguz.FormatToguz)
	if err != nil {
		return nil, err
	}
	if len(trees) != 1 {
		return nil, fmt.Errorf("study: chapter %q holds %d games", name, len(trees))
	}
	return &Chapter{Name: name, Tree: trees[0]}, nil
}

// Moves returns the moves of the chapter's tree.
func (c *Chapter) Moves() int { return count(c.Tree.Root) }

func count(n *toguz.Node) int {
	k := 0
	for _, ch := range n.Children {
		k += 1 + count(ch)
	}
	return k
}

// Find returns the node at path (the holes played from the root, each a
// child of the one before; children of a node have distinct holes) and
// its parent (nil at the root).
func (c *Chapter) Find(path []int) (node, parent *toguz.Node, err error) {
	n := c.Tree.Root
	for _, h := range path {
		var next *toguz.Node
		for _, ch := range n.Children {
			if int(ch.Ply.Move) == h {
				next = ch
				break
			}
		}
		if next == nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrNoNode, path)
		}
		parent, n = n, next
	}
	return n, parent, nil
}
