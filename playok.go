package toguz

import (
	"fmt"
	"slices"
	"strconv"
)

// PlayOK's PGN (FormatPlayOK) is our format's syntax with PlayOK's marks
// (MarkingPlayOK): the mover's kazan total after exactly the plies that
// capture, "87(10)", the tuzdik mark X, and {zero} after the result token
// of a game that ended by atsyrau. The movetext runs on in lines of at most
// 59 columns, "1. 87(10) 87(10) 2. 22 99(22) 3. 23 12(24) 4. 68X 25 5. 79";
// a blank line follows each game and another one separates games.
//
// The writer writes a game as PlayOK does, so that PlayOK's games come back
// byte for byte: the tags in their order (adding Result, and Termination
// when the game records one that {zero} does not say; leaving out Ruleset,
// always standard, which PlayOK does not write), the plies with
// their landing digits and kazan totals as the rules give them (a one-digit
// ply is written in full, and kazan totals are put on exactly the
// captures), and {zero} when the game ends by atsyrau (by the rules or by
// the record). It writes the comments a game has, which PlayOK does not.
// PlayOK plays only standard games from the starting position.

// playOKWidth is the longest line of PlayOK's movetext, before {zero}.
const playOKWidth = 59

// appendPlayOK writes g as PlayOK does.
func (g *Game) appendPlayOK(b []byte) ([]byte, error) {
	if !g.fromStandardStart() {
		return b, fmt.Errorf("game %s: %w: PlayOK records only standard games from the starting position (ruleset %s)", g.name(), ErrUnwritable, g.rules())
	}
	ps, err := g.Positions()
	if err != nil {
		return b, err
	}
	zero := g.Termination == ByAtsyrau || ps[len(ps)-1].Outcome().Termination == ByAtsyrau
	// PlayOK has no Ruleset tag: it plays only the standard rules.
	h := *g
	h.Tags = slices.DeleteFunc(slices.Clone(g.Tags), func(t Tag) bool { return t.Name == "Ruleset" })
	b, err = h.appendTags(b, map[string]bool{"Result": true, "Termination": g.Termination != Unterminated && g.Termination != ByAtsyrau})
	if err != nil {
		return b, err
	}
	b = append(b, '\n')
	lineStart := len(b)
	word := func(w []byte) {
		switch {
		case len(b) == lineStart:
		case len(b)-lineStart+1+len(w) > playOKWidth:
			b = append(b, '\n')
			lineStart = len(b)
		default:
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	var w []byte
	if g.Comment != "" {
		word(appendComment(w[:0], g.Comment))
	}
	for i, gp := range g.Plies {
		p := ps[i]
		me := p.Turn()
		if me == White {
			w = strconv.AppendInt(w[:0], int64(g.startMove()+i/2), 10)
			word(append(w, '.'))
		}
		y, next := p.Ply(gp.Move)
		w = append(w[:0], '0'+byte(y.Move), '0'+byte(y.Land))
		if y.Tuzdik {
			w = append(w, 'X')
		}
		if captures(p, next, me, gp.Move) {
			w = append(w, '(')
			w = strconv.AppendInt(w, int64(next.Kazan(me)), 10)
			w = append(w, ')')
		}
		word(w)
		if gp.Comment != "" {
			word(appendComment(w[:0], gp.Comment))
		}
	}
	word(append(w[:0], g.Result.String()...))
	if zero {
		b = append(b, " {zero}"...)
	}
	return append(b, '\n', '\n'), nil
}
