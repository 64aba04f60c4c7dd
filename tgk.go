package toguz

import "fmt"

// The Master app's TGK files (FormatTGK) are PGN-like: tag pairs (White,
// Black, WhiteTime, BlackTime, WhiteELO, BlackELO, Android, Online, Start,
// Date, Event, Site, ID, …), a blank line and one numbered pair of
// score-sheet plies per line, with no kazan totals and no result token. A
// blank line between tag pairs ends a game without plies. The reader is
// record.go's; TGK games are read with MarkingOptional. The writer writes
// no kazan totals, as the Master app does not, and the comments a game has,
// as our format does (the Master app writes none).

// appendTGK writes g as the Master app does: tags, a blank line, one
// numbered pair per line, no result token. TGK has no ruleset nor start
// position: only standard games from the start can be written.
func (g *Game) appendTGK(b []byte) ([]byte, error) {
	if !g.fromStandardStart() {
		return b, fmt.Errorf("game %s: %w: TGK records only standard games from the starting position (ruleset %s)", g.name(), ErrUnwritable, g.rules())
	}
	b, err := g.appendTags(b, map[string]bool{"Result": g.Result != NoResult, "Termination": g.Termination != Unterminated})
	if err != nil {
		return b, err
	}
	if g.empty() {
		return b, fmt.Errorf("game %s: %w: TGK cannot write a game with no tags, plies nor comment", g.name(), ErrUnwritable)
	}
	b = append(b, '\n')
	if g.Comment != "" {
		b = appendComment(b, g.Comment)
		b = append(b, '\n')
	}
	return g.appendPairs(b, false), nil
}

// empty reports whether TGK would write nothing of g: no tags (Result and
// Termination are written as tags), plies nor comment.
func (g *Game) empty() bool {
	return len(g.Tags) == 0 && g.Result == NoResult && g.Termination == Unterminated && len(g.Plies) == 0 && g.Comment == ""
}

// fromStandardStart reports whether g is a standard game from the starting
// position, the only games TGK and PlayOK record.
func (g *Game) fromStandardStart() bool { return g.rules() == Standard() && !g.startsElsewhere() }
