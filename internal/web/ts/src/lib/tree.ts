// The one move tree of the analysis board and the studies: the main line
// with each variation indented under the move it replaces, every move a
// button with its number and notation. The numbers and the side to move
// come from each node's position (PositionJSON), as the server or the
// engine wrote it.

import { el } from './dom';
import type { PositionJSON } from './position';

export interface TreeNode<N extends TreeNode<N>> {
  hole?: number;
  notation?: string;
  mark?: string;
  comment?: string;
  pos: PositionJSON;
  parent: N | null;
  children: N[];
}

/** moveLabel is a move's number (for White's, and for Black's where a line begins) and its notation with its mark. */
export function moveLabel<N extends TreeNode<N>>(n: N, first: boolean): string {
  const p = n.parent ? n.parent.pos : n.pos;
  let num = '';
  if (p.turn === 'white') num = p.full + '. ';
  else if (first) num = p.full + '… ';
  return num + (n.notation || '') + (n.mark || '');
}

/** offMain: n lies in a variation. */
export function offMain<N extends TreeNode<N>>(n: N | null): boolean {
  for (; n && n.parent; n = n.parent) if (n.parent.children[0] !== n) return true;
  return false;
}

/** endOfLine is the last move of n's main line. */
export function endOfLine<N extends TreeNode<N>>(n: N): N {
  while (n.children.length) n = n.children[0];
  return n;
}

/** sibling is n's sibling d places away, or null. */
export function sibling<N extends TreeNode<N>>(n: N, d: number): N | null {
  if (!n.parent) return null;
  const sib = n.parent.children;
  const i = sib.indexOf(n) + d;
  return i >= 0 && i < sib.length ? sib[i] : null;
}

/** link gives every node of a tree as the server writes it its parent and default fields. */
export function link<N extends TreeNode<N>>(n: N, parent: N | null, each?: (n: N) => void): N {
  n.parent = parent;
  n.children = n.children || [];
  n.comment = n.comment || '';
  n.mark = n.mark || '';
  if (each) each(n);
  n.children.forEach((c) => link(c, n, each));
  return n;
}

/**
 * drawTree replaces box's content with the tree of root: a start button
 * (startText), then the moves; cur is marked current, a click goes to the
 * node. It returns each node's button.
 */
export function drawTree<N extends TreeNode<N>>(box: HTMLElement, root: N, cur: N, startText: string, go: (n: N) => void): Map<N, HTMLButtonElement> {
  box.textContent = '';
  const buttons = new Map<N, HTMLButtonElement>();
  const button = (n: N, first: boolean): HTMLButtonElement => {
    const b = el('button', 'move' + (n === cur ? ' current' : ''), moveLabel(n, first));
    b.type = 'button';
    b.setAttribute('translate', 'no'); // notation: data, not interface
    b.setAttribute('aria-pressed', n === cur ? 'true' : 'false');
    b.addEventListener('click', () => go(n));
    buttons.set(n, b);
    return b;
  };
  const comment = (text: string): HTMLSpanElement => {
    const c = el('span', 'comment', text);
    c.setAttribute('translate', 'no'); // the user's words
    return c;
  };
  // line draws the line that goes on from the move from; first: its first
  // move begins a line of text (it gets its number).
  const line = (from: N, container: HTMLElement, first: boolean): void => {
    for (let n = from; n.children.length;) {
      const main = n.children[0];
      container.appendChild(button(main, first));
      if (main.comment) container.appendChild(comment(main.comment));
      first = false;
      for (const v of n.children.slice(1)) {
        const sub = el('div', 'variation');
        sub.appendChild(button(v, true));
        if (v.comment) sub.appendChild(comment(v.comment));
        line(v, sub, false);
        container.appendChild(sub);
        first = true;
      }
      n = main;
    }
  };
  const start = el('button', 'move' + (root === cur ? ' current' : ''), startText);
  start.type = 'button';
  start.addEventListener('click', () => go(root));
  box.appendChild(start);
  line(root, box, true);
  return buttons;
}

/** outcomeText is the sentence of a position's end (the server's texts), with the score. */
export function outcomeText(outcomes: Record<string, string>, e: { result?: string; termination?: string; score: [number, number] }, over: string): string {
  const o = outcomes[e.result + ' ' + e.termination] || outcomes[e.result + ' none'];
  return o ? o.replace('{w}', String(e.score[0])).replace('{b}', String(e.score[1])) : over;
}
