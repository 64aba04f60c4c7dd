package analysisboard

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/engineweb"
	"github.com/toguz/toguz/internal/posjson"
	"github.com/toguz/toguz/internal/site"
)

// The analysis board (/analysis): any position of any ruleset, a move tree
// with variations, comments and marks, exported and imported in our record
// format (toguz.Tree). The page knows no rule: the moves come from the
// engine client (engineweb's WebAssembly in a worker, or /api/positions/legal
// and /play, engineweb.go), and the tree it sends to be exported is
// replayed here by the rules library.

// Bounds of a tree the server reads or writes for the board.
const (
	// maxTreeNodes is the most moves of one tree (every variation's); the
	// body limit of the API (site.MaxBody) allows somewhat more.
	maxTreeNodes = 2000
	// maxTreeComment is the longest comment of one move, in bytes.
	maxTreeComment = 2000
	// maxShareRecord is the longest record a shared link carries.
	maxShareRecord = 8 << 10
)

// nodeJSON is a node of the board's tree: the move (hole and notation),
// the position after it with its full-move number, its comment and mark,
// and its children, the main line first. The root has no move: its FEN is
// the start. The export reads hole, comment, mark and children only.
type nodeJSON struct {
	Hole     int    `json:"hole,omitempty"`
	Notation string `json:"notation,omitempty"`
	FEN      string `json:"fen,omitempty"`
	// Pos is FEN's position as the board draws it (not read back).
	Pos      *posjson.Position `json:"pos,omitempty"`
	Comment  string            `json:"comment,omitempty"`
	Mark     string            `json:"mark,omitempty"`
	Children []*nodeJSON       `json:"children"`
}

// treeJSON is a whole tree: its ruleset, tags (the ones without a meaning
// to the rules: players, event, date) and root; Games and Game say, for an
// imported file, how many games it holds and which one (from 1) this is.
type treeJSON struct {
	Ruleset string      `json:"ruleset"`
	Tags    [][2]string `json:"tags"`
	Comment string      `json:"comment,omitempty"` // the game's, before its first move
	Root    *nodeJSON   `json:"root"`
	Games   int         `json:"games,omitempty"`
	Game    int         `json:"game,omitempty"`
}

// treeToJSON writes t for the board. The kazan totals a record annotates
// are not kept: the board shows the kazans themselves.
func treeToJSON(t *toguz.Tree) treeJSON {
	g := t.Game
	out := treeJSON{Ruleset: t.Root.Position.Rules().String(), Tags: [][2]string{}, Comment: g.Comment}
	for _, tag := range g.Tags {
		switch tag.Name {
		case "Result", "Ruleset", "FEN", "Termination":
		default:
			out.Tags = append(out.Tags, [2]string{tag.Name, tag.Value})
		}
	}
	start := max(g.StartMove, 1)
	var walk func(n *toguz.Node, full int) *nodeJSON
	walk = func(n *toguz.Node, full int) *nodeJSON {
		pos := posjson.Of(n.Position, full)
		j := &nodeJSON{FEN: toguz.FormatFEN(n.Position, full), Pos: &pos, Comment: n.Comment, Mark: n.Mark.String(), Children: []*nodeJSON{}}
		if n.Ply.Move != toguz.NoMove {
			j.Hole, j.Notation = int(n.Ply.Move), n.Ply.String()
		}
		for _, c := range n.Children {
			j.Children = append(j.Children, walk(c, nextFull(n.Position, full)))
		}
		return j
	}
	out.Root = walk(t.Root, start)
	return out
}

// nextFull is the full-move number after a ply by the side to move in p.
func nextFull(p toguz.Position, full int) int {
	if p.Turn() == toguz.Black {
		return full + 1
	}
	return full
}

// treeFromJSON replays the board's tree under the rules library: each
// move must be legal where it is played. The notation is the library's.
func (b *Board) treeFromJSON(in treeJSON) (*toguz.Tree, error) {
	if in.Root == nil {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_bad", "root")
	}
	p, full, err := b.readPosition(engineweb.Position{FEN: strings.TrimSpace(in.Root.FEN), Ruleset: in.Ruleset})
	if err != nil {
		return nil, err
	}
	if len(in.Comment) > maxTreeComment {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_comment", maxTreeComment)
	}
	g := &toguz.Game{Rules: p.Rules(), Start: p, StartMove: full, Comment: in.Comment}
	if err := setTags(g, in.Tags); err != nil {
		return nil, err
	}
	t := &toguz.Tree{Game: g, Root: &toguz.Node{Position: p}}
	count := 0
	var walk func(from *toguz.Node, in *nodeJSON) error
	walk = func(from *toguz.Node, in *nodeJSON) error {
		for _, c := range in.Children {
			if c == nil {
				return apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_bad", "null")
			}
			if count++; count > maxTreeNodes {
				return apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_too_large", maxTreeNodes)
			}
			n, err := b.nodeFromJSON(from.Position, c)
			if err != nil {
				return err
			}
			from.Children = append(from.Children, n)
			if err := walk(n, c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(t.Root, in.Root); err != nil {
		return nil, err
	}
	// The record's result is the main line's end, when it ends the game.
	last := t.Root
	for len(last.Children) > 0 {
		last = last.Children[0]
	}
	if last.Position.IsOver() {
		g.Result = last.Position.Outcome().Result
	}
	return t, nil
}

// setTags sets the board's tags on g, but for the ones the game itself
// writes (Result, Ruleset, FEN, Termination).
func setTags(g *toguz.Game, tags [][2]string) error {
	for _, tag := range tags {
		if tag[0] == "" || strings.ContainsAny(tag[0]+tag[1], "\r\n") {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_bad", "tags")
		}
		switch tag[0] {
		case "Result", "Ruleset", "FEN", "Termination":
		default:
			g.SetTag(tag[0], tag[1])
		}
	}
	return nil
}

// nodeFromJSON plays the move of the board's node c in pos, with c's
// comment and mark (its children are not read).
func (b *Board) nodeFromJSON(pos toguz.Position, c *nodeJSON) (*toguz.Node, error) {
	if len(c.Comment) > maxTreeComment {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_comment", maxTreeComment)
	}
	mark, err := toguz.ParseMark(c.Mark)
	if err != nil {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_bad", site.Excerpt(c.Mark))
	}
	m := toguz.Move(c.Hole)
	if c.Hole < 1 || c.Hole > pos.Holes() {
		m = toguz.NoMove
	}
	if err := pos.CheckMove(m); err != nil {
		return nil, b.rulesError(http.StatusBadRequest, apierr.CodeIllegalMove, err)
	}
	y, next := pos.Ply(m)
	return &toguz.Node{Ply: y, Position: next, Comment: c.Comment, Mark: mark}, nil
}

// readTree reads game number game (from 1; 0 is the first) of a record
// with its variations.
func (b *Board) readTree(record string, game int) (treeJSON, error) {
	trees, err := toguz.ParseTrees("", []byte(record), 0)
	if err != nil {
		return treeJSON{}, b.rulesError(http.StatusBadRequest, apierr.CodeBadFormat, err)
	}
	if len(trees) == 0 {
		return treeJSON{}, apierr.BadRequest(apierr.CodeBadFormat, "apierr.import_empty")
	}
	if game == 0 {
		game = 1
	}
	if game < 1 || game > len(trees) {
		return treeJSON{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_game", game, len(trees))
	}
	if n := countNodes(trees[game-1].Root); n > maxTreeNodes {
		// The board could not export it back.
		return treeJSON{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_too_large", maxTreeNodes)
	}
	out := treeToJSON(trees[game-1])
	out.Games, out.Game = len(trees), game
	return out, nil
}

// countNodes returns the moves of the tree under n.
func countNodes(n *toguz.Node) int {
	c := 0
	for _, ch := range n.Children {
		c += 1 + countNodes(ch)
	}
	return c
}

// writeTree returns the record of a tree, with its variations.
func (b *Board) writeTree(t *toguz.Tree) (string, error) {
	var buf bytes.Buffer
	if err := toguz.WriteTrees(&buf, toguz.FormatToguz, t); err != nil {
		return "", b.rulesError(http.StatusBadRequest, apierr.CodeBadRequest, err)
	}
	return buf.String(), nil
}

type importRequest struct {
	Record string `json:"record"`
	Game   int    `json:"game"`
}

// apiAnalysisImport reads a record (one game of it) into a tree.
func (b *Board) apiAnalysisImport(w http.ResponseWriter, r *http.Request) error {
	var req importRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	t, err := b.readTree(req.Record, req.Game)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, t)
}

// apiAnalysisExport writes the board's tree as a record.
func (b *Board) apiAnalysisExport(w http.ResponseWriter, r *http.Request) error {
	var req treeJSON
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	t, err := b.treeFromJSON(req)
	if err != nil {
		return err
	}
	rec, err := b.writeTree(t)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"record": rec, "shareable": len(rec) <= maxShareRecord})
}

// analysisData is the analysis page: the tree it opens with (JSON for
// analysis.js), the ruleset choice, and the game it comes from.
type analysisData struct {
	site.FormChoices
	Tree   treeJSON
	GameID string
	// Players names the stored game's players, "White – Black".
	Players string
	Error   string
	FEN     string
	// MaxShare is the longest record a link carries (the page offers the
	// export beyond).
	MaxShare int
	// TBStones is, per ruleset name, the most stones on the board of a
	// position the server's tablebase holds (a ruleset without tables is
	// left out): the page asks the server, not its worker, for those.
	TBStones map[string]int
}

// tbStones is analysisData.TBStones.
func (b *Board) tbStones() map[string]int {
	m := map[string]int{}
	if b.tablebase == nil {
		return m
	}
	for _, name := range toguz.RulesetNames() {
		r, err := toguz.ParseRules(name)
		if err != nil {
			continue
		}
		if n := b.tablebase.MaxStonesFor(r); n > 0 {
			m[r.String()] = n
		}
	}
	return m
}

// pageAnalysis opens the board: ?record= (a shared link: a record in our
// format, its game ?game=), else ?fen= under ?ruleset=, else the ruleset's
// start. Input it cannot read is shown with the reason, on the start.
// With no query it is an offline page (web.OfflinePages): the board works
// with no network, its rules and engine in the browser.
func (b *Board) pageAnalysis(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	lang := b.kit.Lang(r)
	d := analysisData{FormChoices: b.kit.Choices(lang, q.Get("ruleset"), false), MaxShare: maxShareRecord, TBStones: b.tbStones()}
	rules, err := site.ParseRuleset(d.Chosen.Name)
	if err != nil {
		return err
	}
	start := func() treeJSON {
		p, _ := toguz.NewPosition(rules)
		t, _ := toguz.NewTree(&toguz.Game{Rules: rules, Start: p})
		return treeToJSON(t)
	}
	var bad error
	switch rec, fen := q.Get("record"), strings.TrimSpace(q.Get("fen")); {
	case rec != "":
		game, _ := strconv.Atoi(q.Get("game"))
		if len(rec) > maxShareRecord {
			bad = apierr.BadRequest(apierr.CodeBadRequest, "apierr.tree_share", maxShareRecord>>10)
		} else if d.Tree, bad = b.readTree(rec, game); bad == nil {
			d.FormChoices = b.kit.Choices(lang, d.Tree.Ruleset, false)
		}
	case fen != "":
		d.FEN = fen
		p, full, err := b.readPosition(engineweb.Position{FEN: strings.TrimSpace(fen), Ruleset: d.Chosen.Name})
		if bad = err; err == nil {
			g := &toguz.Game{Rules: rules, Start: p, StartMove: full}
			t, err := toguz.NewTree(g)
			if bad = err; err == nil {
				d.Tree = treeToJSON(t)
			}
		}
	}
	status := http.StatusOK
	if bad != nil {
		status = http.StatusBadRequest
		d.Error = b.kit.Message(r, b.kit.AsError(r, bad))
		d.Tree = start()
	}
	if d.Tree.Root == nil {
		d.Tree = start()
	}
	p := b.kit.Page(r, "analysis.title", d)
	if r.URL.RawQuery == "" {
		// The bare board is one of web.OfflinePages, which the service
		// worker keeps: it carries no user data, not even the name.
		p.User, p.Guest = "", false
	}
	return b.kit.Render(w, status, "analysis", p)
}

// pageAnalysisGame opens a stored game on the board. A game still being
// played is not opened for its players (fair play): its analysis opens
// when it ends.
func (b *Board) pageAnalysisGame(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	g, saved, err := b.record(ctx, id)
	if err != nil {
		return err
	}
	if saved.End == nil {
		if me := b.kit.Identity(r); me.Known() {
			seat := me.Seat().ID
			if seat == saved.White.ID || seat == saved.Black.ID {
				return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.analysis_playing")
			}
		}
	}
	t, err := toguz.NewTree(g)
	if err != nil {
		var pe *toguz.ParseError
		if errors.As(err, &pe) {
			return b.rulesError(http.StatusInternalServerError, apierr.CodeInternal, err)
		}
		return err
	}
	lang := b.kit.Lang(r)
	d := analysisData{FormChoices: b.kit.Choices(lang, g.Rules.String(), false), Tree: treeToJSON(t), GameID: saved.ID, MaxShare: maxShareRecord, TBStones: b.tbStones(),
		Players: site.SeatName(b.kit.Catalog(), lang, saved.White) + " – " + site.SeatName(b.kit.Catalog(), lang, saved.Black)}
	return b.kit.Render(w, http.StatusOK, "analysis", b.kit.Page(r, "analysis.title", d))
}
