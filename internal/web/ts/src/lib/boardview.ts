// The one board view of every page that draws a live board (the game,
// the analysis board, the studies): the 2×N holes, each with its number,
// stones and count or its tuzdik mark, and the two kazans. A page says
// what is particular to it (which holes are playable, the last move's
// marks, a click) through BoardOptions; the view implements no rule.

import { el, type NFunc, type TFunc } from './dom';
import { other, type Cell, type Side, type View } from './position';

/** stones draws n stones, at most max of them and a "+k" for the rest. */
export function stones(n: number, max: number): HTMLDivElement {
  const box = el('div', 'stones');
  box.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < Math.min(n, max); i++) box.appendChild(el('span', 'stone'));
  if (n > max) box.appendChild(el('span', 'more', '+' + (n - max)));
  return box;
}

export interface BoardOptions {
  T: TFunc;
  N: NFunc;
  /** The side drawn at the bottom. */
  bottom: Side;
  /** The name of hole h in the labels (with its gloss where the page has one). */
  holeName: (h: number) => string;
  /** Where given, each hole shows its name. */
  shownName?: (h: number) => string;
  /** Set the row's grid to the number of holes (analysis, study). */
  grid?: boolean;
  /** playable: the hole may be played now (class playable, aria-disabled false). */
  playable: (side: Side, h: number) => boolean;
  /** enabled, where given, overrides aria-disabled (a study's editor marks any hole). */
  enabled?: (side: Side, h: number) => boolean;
  /** decorate adds the page's marks (from, to, premove…) and returns a suffix for the label. */
  decorate?: (hole: HTMLButtonElement, side: Side, h: number, cell: Cell) => string | void;
  onClick: (side: Side, h: number) => void;
  /** The stones the last move captured, shown at the mover's kazan. */
  captured?: { side: Side; count: number } | null;
}

/** holeRow draws side's holes, from the last where desc (the top row). */
export function holeRow(p: View, side: Side, desc: boolean, o: BoardOptions): HTMLDivElement {
  const { T, N } = o;
  const r = el('div', 'row ' + (side === o.bottom ? 'mine' : 'theirs'));
  if (o.grid) r.style.gridTemplateColumns = 'repeat(' + p.holes + ', 1fr)';
  const order: number[] = [];
  for (let h = 1; h <= p.holes; h++) order.push(h);
  if (desc) order.reverse();
  for (const h of order) {
    const cell = p.rows[side][h - 1];
    const hole = el('button', 'hole');
    hole.type = 'button';
    hole.dataset.side = side;
    hole.dataset.hole = String(h);
    hole.appendChild(el('span', 'num', String(h)));
    const shown = o.shownName ? o.shownName(h) : '';
    if (shown) {
      const name = el('span', 'hname', shown);
      name.setAttribute('aria-hidden', 'true'); // the label says it
      name.setAttribute('translate', 'no'); // the game's own words, in every language
      hole.appendChild(name);
    }
    let label: string;
    if (cell.t) {
      hole.classList.add('tuzdik');
      const x = el('span', 'mark', 'X');
      x.translate = false; // the tuzdik's mark, a sign, not a word
      hole.appendChild(x);
      // Its owner by name, not only by the side it lies on.
      const owner = el('span', 'owner', T('game.' + other(side)));
      owner.setAttribute('aria-hidden', 'true'); // the label says it
      hole.appendChild(owner);
      label = T('game.tuzdiklabel', h, o.holeName(h), T('game.' + other(side)));
    } else {
      hole.appendChild(stones(cell.n, 24));
      hole.appendChild(el('span', 'count', String(cell.n)));
      label = N('game.holelabel', cell.n, h, o.holeName(h), cell.n);
    }
    const suffix = o.decorate ? o.decorate(hole, side, h, cell) : '';
    if (suffix) label += suffix;
    hole.setAttribute('aria-label', label);
    hole.title = label;
    const ok = o.playable(side, h);
    if (ok) hole.classList.add('playable');
    // Holes stay focusable (aria-disabled, not disabled) so that a screen
    // reader can read every one of them.
    const enabled = o.enabled ? o.enabled(side, h) : ok;
    hole.setAttribute('aria-disabled', enabled ? 'false' : 'true');
    hole.addEventListener('click', () => o.onClick(side, h));
    r.appendChild(hole);
  }
  return r;
}

/** kazan draws side's kazan. */
export function kazan(p: View, side: Side, o: BoardOptions): HTMLDivElement {
  const { T, N } = o;
  const k = el('div', 'kazan ' + side + (side === o.bottom ? ' mine' : ' theirs'));
  k.dataset.side = side;
  k.setAttribute('role', 'img');
  k.setAttribute('aria-label', N('game.kazanlabel', p.kazan[side], T('game.' + side), p.kazan[side]));
  k.appendChild(el('span', 'label', T('game.' + side) + ' · ' + T('game.kazan')));
  k.appendChild(stones(p.kazan[side], 90));
  k.appendChild(el('span', 'count', String(p.kazan[side])));
  const cap = o.captured;
  if (cap && cap.side === side && cap.count > 0) k.appendChild(el('span', 'captured', '+' + cap.count));
  return k;
}

/** drawBoard replaces box's content with p: the top row, the kazans, the bottom row. */
export function drawBoard(box: HTMLElement, p: View, o: BoardOptions): void {
  box.textContent = '';
  const top = other(o.bottom);
  box.appendChild(holeRow(p, top, true, o));
  box.appendChild(kazan(p, top, o));
  box.appendChild(kazan(p, o.bottom, o));
  box.appendChild(holeRow(p, o.bottom, false, o));
}
