package tui

import (
	"fmt"
	"strings"

	"github.com/toguz/toguz"
)

// Ply is one move as the score sheet and the board need it: the
// score-sheet ply, who made it and the side of the landing hole, which the
// score sheet does not write.
type Ply struct {
	toguz.Ply
	Player  toguz.Player
	Landing Square // the hole where the last stone fell
}

// NewPly describes the legal move m in p.
func NewPly(p toguz.Position, m toguz.Move) Ply {
	y, _ := p.Ply(m)
	side, hole := p.Landing(m)
	return Ply{Ply: y, Player: p.Turn(), Landing: Square{Side: side, Hole: hole}}
}

// ScoreSheet writes the plies numbered in pairs, "1. 76 98 2. 48 36x", from
// fullmove on; a game that starts with Black to move begins "1. ... 98".
// Lines are broken before a move number when they would pass width.
func ScoreSheet(plies []Ply, fullmove, width int) string {
	var b, line strings.Builder
	flush := func() {
		if line.Len() > 0 {
			b.WriteString(strings.TrimRight(line.String(), " "))
			b.WriteString("\n")
			line.Reset()
		}
	}
	for i, pl := range plies {
		var tok string
		switch {
		case pl.Player == toguz.White:
			tok = fmt.Sprintf("%d. %s", fullmove, pl)
		case i == 0:
			tok = fmt.Sprintf("%d. ... %s", fullmove, pl)
		default:
			tok = pl.String()
		}
		if pl.Player == toguz.White && line.Len()+len(tok)+8 > width {
			flush()
		}
		line.WriteString(tok)
		line.WriteString(" ")
		if pl.Player == toguz.Black {
			fullmove++
		}
	}
	flush()
	return b.String()
}
