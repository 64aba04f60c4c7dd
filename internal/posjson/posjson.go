// Package posjson is a position as the pages draw it, in JSON: each
// player's holes, the kazans, the tuzdiks, the side to move and the
// full-move number, from the rules library, so that no page reads a
// position string (FEN). The game websocket (package live), the browser's
// engine (package engineweb), the analysis board and the studies send it
// beside each FEN.
package posjson

import "github.com/toguz/toguz"

// Board is what a board draws: each player's holes from hole 1 (White's
// first), the kazans, and the hole of the opponent's each player owns as
// his tuzdik (0: none).
type Board struct {
	Board  [2][]int `json:"board"`
	Kazan  [2]int   `json:"kazan"`
	Tuzdik [2]int   `json:"tuzdik"`
}

// Position is a Board with the side to move ("white" or "black") and the
// full-move number the position string carries.
type Position struct {
	Board
	Turn string `json:"turn"`
	Full int    `json:"full"`
}

// BoardOf is p's Board.
func BoardOf(p toguz.Position) Board {
	var b Board
	n := p.Holes()
	rows := make([]int, 2*n) // both rows in one allocation
	for _, pl := range []toguz.Player{toguz.White, toguz.Black} {
		b.Board[pl] = rows[int(pl)*n : (int(pl)+1)*n : (int(pl)+1)*n]
		for h := range p.Holes() {
			b.Board[pl][h] = p.Stones(pl, h+1)
		}
		b.Kazan[pl], b.Tuzdik[pl] = p.Kazan(pl), p.Tuzdik(pl)
	}
	return b
}

// Of is p's Position, full its full-move number.
func Of(p toguz.Position, full int) Position {
	turn := "white"
	if p.Turn() == toguz.Black {
		turn = "black"
	}
	return Position{Board: BoardOf(p), Turn: turn, Full: full}
}

// Parse is the Position of fen in the rules r.
func Parse(fen string, r toguz.Rules) (Position, error) {
	p, full, err := toguz.ParseFEN(fen, r)
	if err != nil {
		return Position{}, err
	}
	return Of(p, full), nil
}

// ParseAll is Parse of each of fens; nil if one does not parse.
func ParseAll(fens []string, r toguz.Rules) ([]Position, error) {
	out := make([]Position, len(fens))
	for i, f := range fens {
		var err error
		if out[i], err = Parse(f, r); err != nil {
			return nil, err
		}
	}
	return out, nil
}
