package toguz

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrSyntax is wrapped by every ParseError that is about the text itself
// rather than about the rules.
var ErrSyntax = errors.New("syntax error")

// ErrUnwritable is wrapped by the errors of WriteGames about a game that
// the format cannot hold so that it reads back the same: another ruleset or
// start position in TGK or PlayOK, a tag name or value the readers cannot
// read.
var ErrUnwritable = errors.New("the record format cannot hold it")

// ParseError is the error of every parser in the package. It says where the
// problem is (as much of file, line, column, game and ply as is known) and
// what was wrong or expected.
type ParseError struct {
	File   string // the file name, if known
	Line   int    // 1-based line, 0 if unknown
	Column int    // 1-based column in runes, 0 if unknown
	Game   int    // 1-based index of the game in the file, 0 if not applicable
	Ply    int    // 1-based ply of the move in the game, 0 if not applicable
	Msg    string // what was wrong, or what was expected
	Err    error  // the underlying error, e.g. an *IllegalMoveError, or ErrSyntax
}

func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
	}
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, "%d:", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, "%d:", e.Column)
		}
	case e.Column > 0:
		// A one-line input such as a position string: the column alone.
		fmt.Fprintf(&b, "column %d:", e.Column)
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	var where []string
	if e.Game > 0 {
		where = append(where, fmt.Sprintf("game %d", e.Game))
	}
	if e.Ply > 0 {
		where = append(where, fmt.Sprintf("ply %d", e.Ply))
	}
	if len(where) > 0 {
		b.WriteString(strings.Join(where, ", "))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil && e.Err != ErrSyntax {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// excerptBytes is the most of a bad input's text that an error quotes, so
// that a huge bad token gives a short message.
const excerptBytes = 40

// excerpt returns s for quoting in an error: whole when short, else its
// first excerptBytes bytes (cut at a rune boundary) and an ellipsis.
func excerpt(s string) string {
	if len(s) <= excerptBytes {
		return s
	}
	n := excerptBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// excerptEnd is excerpt for the end of s: an ellipsis and its last
// excerptBytes bytes at most.
func excerptEnd(s string) string {
	if len(s) <= excerptBytes {
		return s
	}
	n := len(s) - excerptBytes
	for n < len(s) && !utf8.RuneStart(s[n]) {
		n++
	}
	return "…" + s[n:]
}
