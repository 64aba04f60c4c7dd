package toguz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format is a game-record file format.
//
// # The toguz record format (FormatToguz)
//
// Our own format is PGN with the score-sheet plies of docs/rules.md §6. A file
// holds any number of games, each made of tag pairs and movetext:
//
//	[Event "Kazakhstan Cup"]
//	[White "Ainur"]
//	[Black "Bolat"]
//	[Result "0-1"]
//	[Ruleset "standard"]
//	[Termination "atsyrau"]
//
//	1. 76(10) 98
//	2. 66 87 {a comment on 87}
//	0-1
//
// In detail:
//
//   - A tag pair is [Name "Value"], one per line; `\"` and `\\` escape a
//     quote and a backslash. A name is letters, digits and _; a value
//     cannot hold a line end (the writers refuse one, with ErrUnwritable). The tags are kept in order. Four of them have a
//     meaning: Ruleset (a name ParseRules reads; "standard" when absent),
//     FEN (the start position, as ParseFEN reads it, with its move number;
//     the ruleset's starting position when absent), Result (1-0, 0-1,
//     1/2-1/2 or *) and Termination (how the game ended: one of the names of
//     Termination.String; absent when the record does not say). Any other
//     value of these four is an error.
//   - The movetext lists the plies in order. A ply is two digits and an
//     optional tuzdik mark x (X, х and Х are read too): the hole played and
//     the hole where the last stone fell; or, in the short form of seed 004,
//     the hole played alone ("7"), written back as it was read. A ply may carry the mover's kazan
//     total after it in parentheses, "87(10)"; any ply may, and every one
//     written is checked. A move number "N." may precede White's ply and
//     "N..." Black's; when written it must be right.
//   - A comment {…} after a ply belongs to it; one before the first ply
//     belongs to the game, and comments in a row are joined with a space.
//     Comments may span lines and cannot nest; inside one, \} stands for }
//     and \\ for \ (any other backslash is itself), so that every text
//     can be written. A comment from ; to the end of the line is read too.
//   - A variation ( … ) after a ply is another move in its place, written
//     like the movetext (nested variations too), and a ply may carry a
//     mark (! ? !! ?? !? ?!) glued after it and its kazan total: see
//     ParseTrees, which keeps them in a Tree. ParseGames skips the
//     variations and the Game writer writes the main line, so a game
//     with none reads and writes exactly as it did before them.
//   - The result token (1-0, 0-1, 1/2-1/2 or *) ends the movetext; it must
//     agree with the Result tag.
//
// The writer writes the tags in their order (those with a meaning from the
// Game's fields, adding Result and Ruleset if missing, FEN when the game
// does not start from the starting position, Termination when it is
// recorded), a blank line, one numbered pair of plies per line, the result
// token on its own line and a blank line after each game. What it writes
// reads back to an equal Game and writes back to the same bytes.
//
// # The other formats
//
//   - FormatPlayOK (read and write): PlayOK's PGN. The same plies; a
//     kazan total follows exactly the plies that capture (see
//     MarkingPlayOK), and {zero} after the result token marks an atsyrau
//     ending; both are checked. The writer writes PlayOK's files byte for
//     byte (playok.go).
//   - FormatTGK (read and write): the Master app's files: tags, a blank
//     line, one numbered pair of plies per line, no kazan totals, no result
//     token; the writer writes comments as ours does.
//   - FormatPlayStrategy (read and write): moves as square pairs, see
//     PlayStrategyMove.
type Format uint8

const (
	FormatToguz        Format = iota + 1 // our PGN-like format ("toguz", also "ours" or "pgn")
	FormatPlayOK                         // PlayOK's PGN ("playok")
	FormatTGK                            // the Master app's TGK ("tgk")
	FormatPlayStrategy                   // PlayStrategy move lists ("playstrategy")
)

var formatNames = [...]string{"", "toguz", "playok", "tgk", "playstrategy"}

func (f Format) String() string {
	if int(f) < len(formatNames) && f != 0 {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat reads a format name as Format.String writes it; "ours" and
// "pgn" name FormatToguz.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "ours", "pgn":
		return FormatToguz, nil
	}
	for i, name := range formatNames {
		if i > 0 && strings.EqualFold(s, name) {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("unknown record format %q: want toguz (ours), playok, tgk or playstrategy", s)
}

// DetectFormat tells the format of a game file from its content. It looks
// at the games in order until one decides:
//
//   - a first move written as squares (e1f2) is PlayStrategy;
//   - plies with no result token after them are TGK: only the Master app
//     writes none (a Ruleset tag does not change that: our writer keeps the
//     tags of a game it writes as TGK);
//   - a Ruleset tag is ours (our writer always writes one);
//   - Site "PlayOK", or {zero} after the result, is PlayOK, and so are
//     plies that read and replay under PlayOK's rules (MarkingPlayOK: a
//     kazan total on exactly the captures, {zero} on an atsyrau);
//   - the Master app's tags (ID, Android, Online, WhiteTime, BlackTime,
//     Start) are TGK;
//   - any other game with plies is ours.
//
// A game with a result token and no plies reads the same in every format
// and decides nothing. A file where no game decides is TGK when it holds a
// game of tags or comments alone (which only TGK and PlayStrategy read)
// and ours otherwise. A file ours would read as truncated, with no result token at
// the end, is read as TGK: give the format to be told it is truncated.
func DetectFormat(data []byte) Format {
	r := reader{data: strings.TrimPrefix(string(data), bom), line: 1, col: 1}
	return r.detect(0)
}

// detect is DetectFormat on what r reads, from where it is. With a limit,
// it decides as at the end of the file once it has read limit bytes
// without a game that decides (a GameReader's bounded look ahead).
func (r *reader) detect(limit int) Format {
	noResult := false // a game with no plies and no result token
	for {
		r.skipSpace()
		if r.eof() || limit > 0 && r.i >= limit {
			break
		}
		r.start, r.skipped = r.off+r.i, 0
		s := r.shape()
		switch {
		case s.bad:
			return FormatToguz // let the reader say what is wrong
		case s.squares:
			return FormatPlayStrategy
		case !s.result:
			if s.plies > 0 {
				return FormatTGK
			}
			noResult = true
			continue
		case s.has("Ruleset", ""):
			return FormatToguz
		case s.has("Site", "PlayOK"), s.zero:
			return FormatPlayOK
		case s.plies > 0 && r.replaysAsPlayOK(s):
			return FormatPlayOK
		case s.hasTGKTag():
			return FormatTGK
		}
		if s.plies == 0 {
			continue
		}
		return FormatToguz
	}
	if noResult {
		return FormatTGK
	}
	return FormatToguz
}

// gameShape is what DetectFormat sees of one game.
type gameShape struct {
	start   int    // the offset of the game's first tag or token
	startAt textAt // and its line and column
	tags    []Tag
	plies   int  // words in the movetext before the result token
	squares bool // the first move is written as squares
	result  bool // a result token ends the movetext
	zero    bool // {zero} follows it
	bad     bool // a tag or comment the readers reject
}

// has reports whether the game has the tag name, with the value (in any
// case) unless value is "".
func (s *gameShape) has(name, value string) bool {
	for _, t := range s.tags {
		if t.Name == name && (value == "" || strings.EqualFold(t.Value, value)) {
			return true
		}
	}
	return false
}

// hasTGKTag reports whether the game has a tag that only TGK's files
// write.
func (s *gameShape) hasTGKTag() bool {
	for _, name := range []string{"ID", "Android", "Online", "WhiteTime", "BlackTime", "Start"} {
		if s.has(name, "") {
			return true
		}
	}
	return false
}

// replaysAsPlayOK reports whether the game s, which has plies, reads and
// replays under PlayOK's rules: a game that does is PlayOK's, one that
// does not (a capture without its kazan total) is not.
func (r *reader) replaysAsPlayOK(s gameShape) bool {
	// A copy of r at the game's start, which reads no further than r has.
	pr := *r
	pr.i, pr.line, pr.col = s.start, int(s.startAt.line), int(s.startAt.col)
	pr.src, pr.err, pr.format = nil, nil, FormatPlayOK
	if g, err := pr.game(1); err == nil {
		if _, err := g.Final(); err == nil {
			return true
		}
	}
	return false
}

// shape reads one game, up to the next game's tags or the end of the file,
// as DetectFormat needs it.
func (r *reader) shape() gameShape {
	s := gameShape{start: r.i, startAt: r.at()}
	for {
		r.skipSpace()
		if r.eof() {
			return s
		}
		switch c := r.peek(); {
		case c == '[':
			if s.plies > 0 || s.result {
				return s // the next game
			}
			t, _, err := r.tag()
			if err != nil {
				s.bad = true
				return s
			}
			s.tags = append(s.tags, t)
			continue
		case c == '{' || c == ';':
			text, ok := r.comment()
			if !ok {
				s.bad = true
				return s
			}
			s.zero = s.zero || s.result && strings.TrimSpace(text) == "zero"
			continue
		}
		w := r.word()
		switch {
		case w == "":
			r.advance(1)
			continue
		case s.result:
			continue // the reader says what is wrong
		}
		if _, err := resultToken(w); err == nil {
			s.result = true
			continue
		}
		if n := moveNumberLen(w); n > 0 {
			if w = w[n:]; w == "" {
				continue
			}
		}
		if _, _, ok := parseSquares(w); ok && s.plies == 0 {
			s.squares = true
		}
		s.plies++
	}
}

// ParseGames reads every game of a file in format f (0: DetectFormat). file
// names the file in errors and may be "". It checks the text (tags,
// numbering, the shape of every ply, PlayStrategy's squares); call
// Game.Final or Game.Outcome on each game to check it against the rules.
// The error is a *ParseError with the line, column and game; the games read
// before it are returned with it. A game is at most DefaultMaxGameBytes; a
// file too large to hold all its games in memory is read with a
// GameReader, one game at a time.
func ParseGames(file string, data []byte, f Format) ([]*Game, error) {
	if f == 0 {
		f = DetectFormat(data)
	}
	gr := NewGameReader(bytes.NewReader(data), file, f)
	var games []*Game
	for {
		g, err := gr.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
}

// WriteGames writes the games to w in format f; every format has a writer.
// A game the format cannot hold is an error wrapping ErrUnwritable, and
// then nothing is written.
func WriteGames(w io.Writer, f Format, games ...*Game) error {
	var b []byte
	for i, g := range games {
		var err error
		if b, err = appendGame(b, f, i, g); err != nil {
			return err
		}
	}
	_, err := w.Write(b)
	return err
}

// GameWriter writes games one at a time, as WriteGames writes them all:
// what it writes of a file of games is the same bytes.
type GameWriter struct {
	w   io.Writer
	f   Format
	n   int
	buf []byte
}

// NewGameWriter returns a writer of games to w in format f.
func NewGameWriter(w io.Writer, f Format) *GameWriter { return &GameWriter{w: w, f: f} }

// Write writes g after the games written before. A game the format cannot
// hold is an error wrapping ErrUnwritable, and then nothing of it is
// written.
func (gw *GameWriter) Write(g *Game) error {
	b, err := appendGame(gw.buf[:0], gw.f, gw.n, g)
	if err != nil {
		return err
	}
	gw.buf = b
	gw.n++
	_, err = gw.w.Write(b)
	return err
}

// appendGame writes g, the game of index i (from 0) in a file, in format f.
func appendGame(b []byte, f Format, i int, g *Game) ([]byte, error) {
	switch f {
	case FormatToguz:
		return g.appendToguz(b)
	case FormatTGK:
		if i > 0 {
			b = append(b, '\n')
		}
		return g.appendTGK(b)
	case FormatPlayOK:
		if i > 0 {
			b = append(b, '\n')
		}
		return g.appendPlayOK(b)
	case FormatPlayStrategy:
		return g.appendPlayStrategy(b)
	}
	return b, fmt.Errorf("no writer for the record format %s", f)
}

// String returns the game in our format.
func (g *Game) String() string {
	b, err := g.appendToguz(nil)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// bom is the byte-order mark some editors put at the start of a UTF-8 file;
// the readers skip it.
const bom = "\ufeff"

// reader reads the PGN-like formats. It works on a string so that slicing
// never copies, and counts lines and columns (in runes) as it goes. With a
// source, data is a window on it that grows as the reader looks further
// (more) and that the GameReader drops between games; without one, data is
// all there is. Runs of white space that reach the end of the window are
// dropped as they are read (unless keep), and count for no game.
type reader struct {
	data      string
	i         int
	line, col int
	file      string
	format    Format

	src     *source
	keep    bool   // keep all the source read in data (DetectFormat's look ahead)
	off     int    // the offset in the source of data[0]
	start   int    // the offset in the source of the game being read
	skipped int    // the bytes of white space dropped since start
	max     int    // the most bytes of one game, white space dropped aside (0: no bound)
	err     error  // why more stopped early: the source's error or errTooLarge
	cut     string // what was being read when the game passed the bound
	cutAt   textAt // and where
}

// source is what a reader reads its data from.
type source struct {
	r   io.Reader
	buf []byte
	err error // a read error after the data read with it
}

// readChunk is the least a reader asks its source for.
const readChunk = 64 << 10

// errTooLarge is reader.err when a game passes the bound; the GameReader
// turns it into a ParseError naming the game.
var errTooLarge = errors.New("game over the bound")

// more appends more of the source to data and reports whether it did:
// false at the end of the source, on a read error and when the game being
// read would pass the bound (r.err says which).
func (r *reader) more() bool {
	if r.src == nil {
		return false
	}
	if r.src.err != nil {
		// The read error, once the reader needs what it would have read.
		r.err = r.src.err
		return false
	}
	if r.max > 0 && r.off+len(r.data)-r.start-r.skipped >= r.max {
		r.err, r.cut, r.cutAt = errTooLarge, excerpt(r.data[r.i:]), r.at()
		if r.i+excerptBytes > len(r.data) {
			// Within a tag or a comment, r.i has gone as far as the bound:
			// what is quoted is what comes before.
			r.cut = excerptEnd(r.data[:r.i])
		}
		return false
	}
	// Each read adds at least half of what the window holds (when the
	// source has it), so that the copying stays linear in the size of a
	// long game whatever the size of the source's reads; a short window
	// takes what one read gives.
	least := max(1, len(r.data)/2)
	want := max(readChunk, least)
	if l, ok := r.src.r.(interface{ Len() int }); ok {
		// A source that tells what is left (ParseGames's bytes.Reader)
		// needs no larger a buffer: one more byte, to meet its end.
		want = max(least, min(want, l.Len()+1))
	}
	buf := r.src.buf
	if len(buf) < want {
		buf = make([]byte, want)
		r.src.buf = buf
	}
	n, err := 0, error(nil)
	for empty := 0; n < least && err == nil; {
		var k int
		k, err = r.src.r.Read(buf[n:])
		n += k
		if k > 0 {
			empty = 0
		} else if empty++; empty == 100 && err == nil {
			err = io.ErrNoProgress // as bufio says of a reader that never gives
		}
	}
	if n > 0 {
		var b strings.Builder
		b.Grow(len(r.data) + n)
		b.WriteString(r.data)
		b.Write(buf[:n])
		r.data = b.String()
	}
	switch {
	case err == io.EOF:
		r.src = nil
	case err != nil:
		r.src.err = err
		if n == 0 {
			r.err = err
		}
	}
	return n > 0
}

// avail reports whether data holds the byte at offset k, reading more of
// the source if needed.
func (r *reader) avail(k int) bool {
	for k >= len(r.data) {
		if !r.more() {
			return false
		}
	}
	return true
}

func (r *reader) eof() bool  { return !r.avail(r.i) }
func (r *reader) peek() byte { return r.data[r.i] }
func (r *reader) at() textAt { return textAt{int32(r.line), int32(r.col)} }

// advance moves n bytes on.
func (r *reader) advance(n int) {
	for _, c := range []byte(r.data[r.i : r.i+n]) {
		switch {
		case c == '\n':
			r.line++
			r.col = 1
		case c&0xc0 != 0x80:
			r.col++
		}
	}
	r.i += n
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skipSpace skips white space and returns the number of line ends skipped.
func (r *reader) skipSpace() int {
	lines := r.line
	run := r.i
	for {
		for r.i < len(r.data) && isSpace(r.data[r.i]) {
			if r.data[r.i] == '\n' {
				r.line++
				r.col = 1
			} else {
				r.col++
			}
			r.i++
		}
		if r.i < len(r.data) || r.src == nil {
			break
		}
		if !r.keep {
			// No caller holds an offset in data across white space: the
			// window can go, and the run counts for no game.
			r.skipped += r.i - run
			r.off += r.i
			r.data, r.i, run = "", 0, 0
		}
		if !r.more() {
			break
		}
	}
	return r.line - lines
}

// word reads up to the next space, comment or tag.
func (r *reader) word() string {
	j := r.i
	for r.avail(j) && !isSpace(r.data[j]) && r.data[j] != '{' && r.data[j] != '[' && r.data[j] != ';' {
		j++
	}
	w := r.data[r.i:j]
	r.advance(j - r.i)
	return w
}

func (r *reader) errorf(at textAt, game, ply int, err error, format string, args ...any) *ParseError {
	return &ParseError{File: r.file, Line: int(at.line), Column: int(at.col), Game: game, Ply: ply,
		Msg: fmt.Sprintf(format, args...), Err: err}
}

// tag reads [Name "Value"] and returns where the value starts.
func (r *reader) tag() (Tag, textAt, error) {
	start := r.at()
	bad := func(what string) (Tag, textAt, error) {
		return Tag{}, start, r.errorf(start, 0, 0, ErrSyntax, "tag pair: %s; want [Name \"Value\"]", what)
	}
	r.advance(1) // [
	r.skipSpace()
	j := r.i
	for r.avail(j) && isTagNameByte(r.data[j]) {
		j++
	}
	if j == r.i {
		return bad("no tag name")
	}
	name := r.data[r.i:j]
	r.advance(j - r.i)
	r.skipSpace()
	if r.eof() || r.peek() != '"' {
		return bad("no quoted value after " + excerpt(name))
	}
	r.advance(1)
	valueAt := r.at()
	var b strings.Builder
	plain := r.i
	for {
		if r.eof() || r.peek() == '\n' {
			return bad("the value of " + excerpt(name) + " has no closing quote")
		}
		c := r.peek()
		if c == '"' {
			break
		}
		if c == '\\' && r.avail(r.i+1) && (r.data[r.i+1] == '"' || r.data[r.i+1] == '\\') {
			b.WriteString(r.data[plain:r.i])
			b.WriteByte(r.data[r.i+1])
			r.advance(2)
			plain = r.i
			continue
		}
		r.advance(1)
	}
	value := r.data[plain:r.i]
	if b.Len() > 0 {
		b.WriteString(value)
		value = b.String()
	}
	r.advance(1) // "
	r.skipSpace()
	if r.eof() || r.peek() != ']' {
		return bad("no ] after the value of " + excerpt(name))
	}
	r.advance(1)
	// Clones, so that a Game does not hold the reader's window.
	return Tag{strings.Clone(name), strings.Clone(value)}, valueAt, nil
}

func isTagNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// comment reads {…} or ; to the end of the line and returns the text. In
// {…}, \} stands for } and \\ for \; any other backslash is itself.
func (r *reader) comment() (string, bool) {
	if r.peek() == ';' {
		j := r.i
		for r.avail(j) && r.data[j] != '\n' {
			j++
		}
		// The writer puts one space after the ;.
		text := strings.TrimSuffix(strings.TrimPrefix(r.data[r.i+1:j], " "), "\r")
		r.advance(j - r.i)
		return strings.Clone(text), true
	}
	var b strings.Builder
	plain := r.i + 1
	for j := plain; r.avail(j); j++ {
		switch r.data[j] {
		case '}':
			text := r.data[plain:j]
			if b.Len() > 0 {
				b.WriteString(text)
				text = b.String()
			}
			r.advance(j + 1 - r.i)
			return strings.Clone(text), true
		case '\\':
			if r.avail(j+1) && (r.data[j+1] == '}' || r.data[j+1] == '\\') {
				b.WriteString(r.data[plain:j])
				j++
				plain = j
			}
		}
	}
	return "", false
}

// variation reads a variation ( … ), with the variations nested in it,
// and returns its text, parentheses included; false when it does not end.
// Comments are skipped as comment reads them, so that a parenthesis in one
// counts for nothing; a kazan total such as (10) nests like a variation.
func (r *reader) variation() (string, bool) {
	depth := 0
	for j := r.i; r.avail(j); j++ {
		switch r.data[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				text := strings.Clone(r.data[r.i : j+1])
				r.advance(j + 1 - r.i)
				return text, true
			}
		case ';':
			for r.avail(j+1) && r.data[j+1] != '\n' {
				j++
			}
		case '{':
			for j++; r.avail(j) && r.data[j] != '}'; j++ {
				if r.data[j] == '\\' && r.avail(j+1) && (r.data[j+1] == '}' || r.data[j+1] == '\\') {
					j++
				}
			}
		}
	}
	return "", false
}

// moveNumberLen returns the length of the move number ("12." or "12...")
// at the start of w, or 0.
func moveNumberLen(w string) int {
	j := 0
	for j < len(w) && w[j] >= '0' && w[j] <= '9' {
		j++
	}
	if j == 0 || j == len(w) || w[j] != '.' {
		return 0
	}
	for j < len(w) && w[j] == '.' {
		j++
	}
	return j
}

// requiresResult reports whether each game must end with a result token.
func (r *reader) requiresResult() bool { return r.format == FormatToguz || r.format == FormatPlayOK }

// game reads one game: its tags, then its movetext.
func (r *reader) game(index int) (*Game, error) {
	g := &Game{file: r.file, index: index, line: r.line}
	if r.format == FormatPlayOK {
		g.Marking = MarkingPlayOK
	}
	if err := r.header(g); err != nil {
		return nil, err
	}
	g.Rules = g.rules()
	start, err := g.StartPosition()
	if err != nil {
		return nil, err
	}
	// For PlayStrategy's squares the reader plays the moves as it goes.
	pos := start
	blackFirst := start.Turn() == Black
	for {
		r.skipSpace()
		if r.eof() || r.peek() == '[' {
			return r.endWithoutResult(g, index)
		}
		at := r.at()
		if read, err := r.aside(g, at, index); err != nil {
			return nil, err
		} else if read {
			continue
		}
		w := r.word()
		if w == "" {
			return nil, r.errorf(at, index, len(g.Plies)+1, ErrSyntax, "unexpected %q", r.data[r.i:r.i+1])
		}
		if res, err := resultToken(w); err == nil {
			return r.endWithResult(g, res, at, index)
		}
		ply := len(g.Plies) // 0-based index of the next ply
		full := g.startMove() + (ply+b2i(blackFirst))/2
		if w, at, err = r.cutMoveNumber(w, at, index, ply, full); err != nil {
			return nil, err
		}
		if w == "" {
			continue
		}
		gp, err := r.gamePly(g, &pos, w, at, index, ply)
		if err != nil {
			return nil, err
		}
		g.Plies = append(g.Plies, gp)
		g.plyAt = append(g.plyAt, at)
	}
}

// endWithoutResult ends a game's movetext at the end of the data or at
// the next game's tags: an error in the formats whose games end with a
// result token.
func (r *reader) endWithoutResult(g *Game, index int) (*Game, error) {
	if !r.requiresResult() {
		return g, nil
	}
	what := "the file ends"
	if !r.eof() {
		what = "a new game's tags begin"
	}
	return nil, r.errorf(r.at(), index, len(g.Plies), ErrSyntax, "%s before the result token (1-0, 0-1, 1/2-1/2 or *): is the file truncated?", what)
}

// endWithResult ends a game's movetext with its result token res, at at,
// which must agree with the Result tag if the game has one (g.Result is
// the tag's until then).
func (r *reader) endWithResult(g *Game, res Result, at textAt, index int) (*Game, error) {
	if g.Tag("Result") != "" && res != g.Result {
		return nil, r.errorf(at, index, 0, ErrSyntax, "result %s disagrees with the Result tag %s", res, g.Result)
	}
	g.Result, g.resultAt = res, at
	return g, r.afterResult(g, index)
}

// aside reads, at at, a comment or a variation of toguz's format, where
// one begins; read says whether one did.
func (r *reader) aside(g *Game, at textAt, index int) (read bool, err error) {
	switch c := r.peek(); {
	case c == '{' || c == ';':
		return true, r.gameComment(g, at, index)
	case r.format == FormatToguz && (c == '(' || c == ')'):
		return true, r.gameVariation(g, at, index)
	}
	return false, nil
}

// gameComment reads a comment of the movetext, at at: the last ply's, or
// the game's before the first ply.
func (r *reader) gameComment(g *Game, at textAt, index int) error {
	text, ok := r.comment()
	if !ok {
		return r.errorf(at, index, len(g.Plies), ErrSyntax, "comment with no closing }")
	}
	if n := len(g.Plies); n > 0 {
		g.Plies[n-1].Comment = joinComment(g.Plies[n-1].Comment, text)
	} else {
		g.Comment = joinComment(g.Comment, text)
	}
	return nil
}

// gameVariation reads a variation ( … ) of toguz's format, at at, as it
// is: another move in place of the last ply, read later.
func (r *reader) gameVariation(g *Game, at textAt, index int) error {
	if r.peek() == ')' {
		return r.errorf(at, index, len(g.Plies), ErrSyntax, "a ) with no ( before it")
	}
	if len(g.Plies) == 0 {
		return r.errorf(at, index, 0, ErrSyntax, "a variation ( … ) before the first ply: a variation is another move in place of the ply before it")
	}
	text, ok := r.variation()
	if !ok {
		return r.errorf(at, index, len(g.Plies), ErrSyntax, "a variation ( with no closing )")
	}
	g.vars = append(g.vars, rawVariation{ply: len(g.Plies) - 1, at: at, text: text})
	return nil
}

// cutMoveNumber cuts the move number that the word w at at may begin
// with, which must be full, the move of the ply-th ply (0-based), and
// returns the rest of w and where it begins.
func (r *reader) cutMoveNumber(w string, at textAt, index, ply, full int) (string, textAt, error) {
	n := moveNumberLen(w)
	if n == 0 {
		return w, at, nil
	}
	num, err := strconv.Atoi(strings.TrimRight(w[:n], "."))
	if err != nil || num != full {
		return "", at, r.errorf(at, index, ply+1, ErrSyntax, "move number %s: want %d", excerpt(w[:n]), full)
	}
	at.col += int32(n)
	return w[n:], at, nil
}

// gamePly reads the ply-th ply (0-based) from the word w at at: the
// move, its mark in toguz's format, and a kazan note. In PlayStrategy's
// format *pos is the position before the ply, and after it on return.
func (r *reader) gamePly(g *Game, pos *Position, w string, at textAt, index, ply int) (GamePly, error) {
	var gp GamePly
	var rest string
	var err error
	if r.format == FormatPlayStrategy {
		gp.Ply, *pos, rest, err = readSquares(*pos, w)
		if err != nil {
			msg, cause := explainPly(w, err)
			return gp, r.errorf(at, index, ply+1, cause, "%s", msg)
		}
	} else {
		var n int
		if gp.Ply, n = scanPly(w); n == 0 {
			return gp, r.errorf(at, index, ply+1, ErrSyntax, "%q: want a ply (two digits and an optional x: 76, 48x; or the hole alone: 7), a move number, a comment or a result", excerpt(w))
		}
		rest = w[n:]
	}
	if r.format == FormatToguz {
		if rest, err = r.cutGameMark(g, w, rest, at, index, ply); err != nil {
			return gp, err
		}
	}
	if rest != "" {
		k, ok := parseKazanNote(rest)
		switch {
		case r.format == FormatPlayStrategy:
			return gp, r.errorf(at, index, ply+1, ErrSyntax, "%q: want a move as two squares such as e1f2", excerpt(w))
		case !ok:
			return gp, r.errorf(at, index, ply+1, ErrSyntax, "%q: after the ply %s want only a kazan total such as (10)", excerpt(w), gp.Ply)
		}
		gp.Kazan = k
	}
	return gp, nil
}

// cutGameMark cuts the mark (! ? …) of the ply-th ply off rest, the word
// w after its move, and keeps it in g.
func (r *reader) cutGameMark(g *Game, w, rest string, at textAt, index, ply int) (string, error) {
	rest, mk, ok := cutMark(rest)
	if !ok {
		return "", r.errorf(at, index, ply+1, ErrSyntax, "%q: a move's mark is one of ! ? !! ?? !? ?!", excerpt(w))
	}
	if mk != NoMark {
		for len(g.marks) < ply {
			g.marks = append(g.marks, NoMark)
		}
		g.marks = append(g.marks, mk)
	}
	return rest, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parseKazanNote reads "(10)": a kazan total from 1 to 255.
func parseKazanNote(s string) (int, bool) {
	if len(s) < 3 || s[0] != '(' || s[len(s)-1] != ')' {
		return 0, false
	}
	k, err := strconv.Atoi(s[1 : len(s)-1])
	if err != nil || k < 1 || k > 255 || s[1] == '+' || s[1] == '-' {
		return 0, false
	}
	return k, true
}

func joinComment(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// afterResult reads what may follow the result token: PlayOK's {zero}.
func (r *reader) afterResult(g *Game, index int) error {
	r.skipSpace()
	if r.eof() || r.peek() == '[' {
		return nil
	}
	at := r.at()
	if r.format == FormatPlayOK && r.peek() == '{' {
		text, ok := r.comment()
		switch {
		case !ok:
			return r.errorf(at, index, 0, ErrSyntax, "comment with no closing }")
		case strings.TrimSpace(text) != "zero":
			return r.errorf(at, index, 0, ErrSyntax, "comment {%s} after the result: PlayOK writes only {zero} there", excerpt(text))
		}
		g.Termination = ByAtsyrau
		r.skipSpace()
		if r.eof() || r.peek() == '[' {
			return nil
		}
		at = r.at()
	}
	w := r.word()
	if w == "" {
		w = r.data[r.i : r.i+1]
	}
	return r.errorf(at, index, 0, ErrSyntax, "%q after the result token: want the next game's tags or the end of the file", excerpt(w))
}

// header reads the tag pairs of a game and the tags with a meaning.
func (r *reader) header(g *Game) error {
	for {
		lines := r.skipSpace()
		if r.eof() || r.peek() != '[' {
			return nil
		}
		if lines > 1 && len(g.Tags) > 0 && !r.requiresResult() {
			// Without result tokens, a blank line between tags ends a
			// game that has no plies.
			return nil
		}
		t, at, err := r.tag()
		if err != nil {
			err.(*ParseError).Game = g.index
			return err
		}
		g.Tags = append(g.Tags, t)
		if err := applyTag(g, t); err != nil {
			if pe, ok := err.(*ParseError); ok {
				pe.File, pe.Game, pe.Line = r.file, g.index, int(at.line)
				pe.Column += int(at.col) - 1
				if pe.Column < int(at.col) {
					pe.Column = int(at.col)
				}
				pe.Msg = "tag " + t.Name + ": " + pe.Msg
				return pe
			}
			return r.errorf(at, g.index, 0, err, "tag %s", t.Name)
		}
		if t.Name == "Result" {
			g.resultAt = at
		}
	}
}

// maxTagValue is the longest value of a tag with a meaning: far more than
// any ruleset or position string, few enough bytes to quote in an error.
const maxTagValue = 256

// applyTag sets the field of g that tag t gives a meaning to. The FEN is
// read last, when the ruleset is known: Ruleset may come after it.
func applyTag(g *Game, t Tag) error {
	var err error
	switch t.Name {
	case "Ruleset", "FEN", "Result", "Termination":
		if len(t.Value) > maxTagValue {
			return &ParseError{Msg: fmt.Sprintf("a value of %d bytes, %q: want at most %d", len(t.Value), excerpt(t.Value), maxTagValue), Err: ErrSyntax}
		}
	}
	switch t.Name {
	case "Ruleset":
		if g.Rules, err = ParseRules(t.Value); err != nil {
			return err
		}
		if fen := g.Tag("FEN"); fen != "" {
			return applyTag(g, Tag{"FEN", fen})
		}
	case "FEN":
		g.Start, g.StartMove, err = ParseFEN(t.Value, g.rules())
	case "Result":
		g.Result, err = ParseResult(t.Value)
	case "Termination":
		g.Termination, err = ParseTermination(t.Value)
		if err != nil {
			err = fmt.Errorf("%w (want one of %s)", err, strings.Join(terminationStrings[:], ", "))
		}
	}
	return err
}

// appendTags writes the tag pairs of g in their order, those with a
// meaning (Ruleset, FEN, Result, Termination) with the values of g's fields,
// then those of the four that g lacks and want says to add. A tag the
// readers cannot read back is an error wrapping ErrUnwritable.
func (g *Game) appendTags(b []byte, want map[string]bool) ([]byte, error) {
	value := func(name string) (string, bool) {
		switch name {
		case "Ruleset":
			return g.rules().String(), true
		case "FEN":
			start, _ := g.StartPosition()
			return FormatFEN(start, g.startMove()), true
		case "Result":
			return g.Result.String(), true
		case "Termination":
			return g.Termination.String(), true
		}
		return "", false
	}
	for _, t := range g.Tags {
		v := t.Value
		if fv, ok := value(t.Name); ok {
			v = fv
		}
		if err := g.checkTag(t.Name, v); err != nil {
			return b, err
		}
		b = appendTag(b, t.Name, v)
	}
	for _, name := range [...]string{"Result", "Ruleset", "FEN", "Termination"} {
		if want[name] && g.Tag(name) == "" {
			v, _ := value(name)
			b = appendTag(b, name, v)
		}
	}
	return b, nil
}

// checkTag says why a tag pair cannot be written so that it reads back: a
// name must be letters, digits and _, and a value cannot hold a line end.
func (g *Game) checkTag(name, value string) error {
	if name == "" || strings.IndexFunc(name, func(c rune) bool { return c > 0x7f || !isTagNameByte(byte(c)) }) >= 0 {
		return fmt.Errorf("game %s: tag name %q: %w (want letters, digits and _)", g.name(), name, ErrUnwritable)
	}
	if strings.ContainsAny(value, "\n") {
		return fmt.Errorf("game %s: tag %s: %w: a tag value cannot hold a line end", g.name(), name, ErrUnwritable)
	}
	return nil
}

func appendTag(b []byte, name, value string) []byte {
	b = append(b, '[')
	b = append(b, name...)
	b = append(b, ' ', '"')
	for i := 0; i < len(value); i++ {
		if c := value[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, value[i])
	}
	return append(b, '"', ']', '\n')
}

// startsElsewhere reports whether g starts from another position than its
// ruleset's starting position, or with another move number than 1.
func (g *Game) startsElsewhere() bool {
	if g.startMove() != 1 || g.Start == (Position{}) {
		return g.startMove() != 1
	}
	p, err := NewPosition(g.rules())
	return err != nil || p != g.Start
}

// appendToguz writes g in our format.
func (g *Game) appendToguz(b []byte) ([]byte, error) {
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
	b = g.appendPairs(b, true)
	b = append(b, g.Result.String()...)
	return append(b, '\n', '\n'), nil
}

// appendPairs writes the plies one numbered pair per line, with their
// comments and, if kazans, their kazan totals.
func (g *Game) appendPairs(b []byte, kazans bool) []byte {
	start, _ := g.StartPosition()
	black := start.Turn() == Black
	full := g.startMove()
	for i, gp := range g.Plies {
		if !black || i == 0 {
			b = strconv.AppendInt(b, int64(full), 10)
			if black {
				b = append(b, "..."...)
			} else {
				b = append(b, '.')
			}
		}
		b = append(b, ' ')
		b = gp.appendTo(b)
		if kazans && gp.Kazan != 0 {
			b = append(b, '(')
			b = strconv.AppendInt(b, int64(gp.Kazan), 10)
			b = append(b, ')')
		}
		if gp.Comment != "" {
			b = append(b, ' ')
			b = appendComment(b, gp.Comment)
		}
		if black || i == len(g.Plies)-1 {
			b = append(b, '\n')
			full++
		}
		black = !black
	}
	return b
}

// appendComment writes {text} as comment reads it back: a } as \}, and a
// backslash as \\ where it comes before a backslash, a } or the end.
func appendComment(b []byte, text string) []byte {
	b = append(b, '{')
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '}':
			b = append(b, '\\')
		case c == '\\' && (i+1 == len(text) || text[i+1] == '\\' || text[i+1] == '}'):
			b = append(b, '\\')
		}
		b = append(b, text[i])
	}
	return append(b, '}')
}

// name names g in messages: its players, or its index.
func (g *Game) name() string {
	if w, bl := g.Tag("White"), g.Tag("Black"); w != "" || bl != "" {
		return strconv.Quote(w + " – " + bl)
	}
	return strconv.Itoa(g.index)
}

// resultToken reads a result token as ParseResult does, without building an
// error for the plies that are not one.
func resultToken(w string) (Result, error) {
	if w == "" || w[0] != '*' && w[0] != '1' && w[0] != '0' && w[0] != '\xc2' || len(w) > 1 && w[1] >= '0' && w[1] <= '9' {
		return NoResult, ErrSyntax
	}
	return ParseResult(w)
}
