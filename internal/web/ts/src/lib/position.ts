// A position as the server or the engine sends it (posjson.Position in
// Go: internal/posjson), and the view the board draws of it. Nothing here
// reads a position string or knows a rule.

export type Side = 'white' | 'black';

export const other = (c: Side): Side => (c === 'white' ? 'black' : 'white');

/** PositionJSON: each player's holes from hole 1, the kazans and the tuzdiks (White first), the side to move, the full-move number. */
export interface PositionJSON {
  board: [number[], number[]];
  kazan: [number, number];
  tuzdik: [number, number];
  turn: Side;
  full: number;
}

/** A hole as drawn: its stones, or a tuzdik. */
export interface Cell { n: number; t: boolean }

/** View is what the board draws; an animation changes its stones one by one. */
export interface View {
  holes: number;
  rows: Record<Side, Cell[]>;
  kazan: Record<Side, number>;
  turn: Side;
  full: number;
}

/** view is p as the board draws it: a hole that is the opponent's tuzdik is marked. */
export function view(p: PositionJSON): View {
  const row = (i: 0 | 1): Cell[] => p.board[i].map((n, k) => {
    const t = p.tuzdik[1 - i] === k + 1;
    return { n: t ? 0 : n, t };
  });
  return {
    holes: p.board[0].length, rows: { white: row(0), black: row(1) },
    kazan: { white: p.kazan[0], black: p.kazan[1] }, turn: p.turn, full: p.full,
  };
}
