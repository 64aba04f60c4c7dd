package toguz

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
)

// DefaultMaxGameBytes is the default bound of one game's text in a
// GameReader and in ParseGames: far more than any game played, whose
// movetext is a few kilobytes, comments included.
const DefaultMaxGameBytes = 1 << 20

// detectBytes is how far a GameReader looks ahead to detect the format.
const detectBytes = 1 << 20

// ErrTooLarge is wrapped by the ParseError of a game longer than the
// GameReader's bound.
var ErrTooLarge = errors.New("too large")

// GameReader reads the games of a record file one at a time, as ParseGames
// reads them, holding in memory only the game being read (and a chunk of
// the file after it), however large the file.
//
//	gr := toguz.NewGameReader(f, "games.pgn", 0)
//	for g, err := range gr.All() {
//		if err != nil {
//			return err
//		}
//		…
//	}
type GameReader struct {
	// MaxGameBytes bounds the text of one game, its tags, movetext and
	// comments: a longer game is a *ParseError wrapping ErrTooLarge. It
	// bounds the reader's memory. 0 means DefaultMaxGameBytes. Set it
	// before the first Next.
	MaxGameBytes int

	r       reader
	started bool
	n       int   // the games read
	err     error // what Next returns from now on
}

// NewGameReader returns a reader of the games of src in format f (0: detected
// from the content as DetectFormat does, looking at most 1 MiB ahead).
// file names the file in errors and may be "".
func NewGameReader(src io.Reader, file string, f Format) *GameReader {
	return &GameReader{r: reader{file: file, format: f, line: 1, col: 1, src: &source{r: src}}}
}

// Format is the format being read: the one given, or the one detected once
// Next has been called.
func (gr *GameReader) Format() Format { return gr.r.format }

// Next returns the next game, or io.EOF after the last one. It checks the
// text as ParseGames does; the error (a *ParseError naming the file, line,
// column, game and ply, or the source's read error in one) ends the
// reading: Next returns it again from then on.
func (gr *GameReader) Next() (*Game, error) {
	if gr.err != nil {
		return nil, gr.err
	}
	g, err := gr.next()
	if err != nil {
		gr.err = err
	}
	return g, err
}

// All returns an iterator over the games left to read: each game with a
// nil error, then the error that stopped the reading, if any (not io.EOF).
func (gr *GameReader) All() iter.Seq2[*Game, error] {
	return func(yield func(*Game, error) bool) {
		for {
			g, err := gr.Next()
			if err == io.EOF || !yield(g, err) || err != nil {
				return
			}
		}
	}
}

func (gr *GameReader) next() (*Game, error) {
	r := &gr.r
	if !gr.started {
		gr.started = true
		if r.format != 0 && (r.format < FormatToguz || r.format > FormatPlayStrategy) {
			return nil, fmt.Errorf("unknown record format %d", r.format)
		}
		r.max = gr.MaxGameBytes
		if r.max <= 0 {
			r.max = DefaultMaxGameBytes
		}
		r.avail(len(bom) - 1)
		r.data = strings.TrimPrefix(r.data, bom)
		if r.format == 0 {
			r.keep = true
			r.format = r.detect(detectBytes)
			r.keep = false
			r.i, r.line, r.col = 0, 1, 1
			// The reading of the game that passed the bound, or that the
			// read error cut short, says so again, naming it.
			r.err = nil
		}
	}
	r.skipBetween()
	if r.i >= len(r.data) && r.err == nil {
		return nil, io.EOF
	}
	at, index := r.at(), gr.n+1
	g, err := r.game(index)
	switch {
	case r.err == errTooLarge:
		return nil, &ParseError{File: r.file, Line: int(r.cutAt.line), Column: int(r.cutAt.col), Game: index,
			Msg: fmt.Sprintf("more than %d bytes in one game, reading %q", r.max, r.cut), Err: ErrTooLarge}
	case r.err != nil:
		// A game cut short by a read error may look whole: drop it.
		return nil, &ParseError{File: r.file, Line: int(at.line), Column: int(at.col), Game: index,
			Msg: "reading the file", Err: r.err}
	case err != nil:
		return nil, err
	}
	gr.n++
	return g, nil
}

// skipBetween drops what has been read, so that the window holds one game
// at a time, and skips the white space before the next game.
func (r *reader) skipBetween() {
	r.off += r.i
	r.data, r.i = r.data[r.i:], 0
	r.start, r.skipped = r.off, 0
	r.skipSpace()
	r.start, r.skipped = r.off+r.i, 0
}
