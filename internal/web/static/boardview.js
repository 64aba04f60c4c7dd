// BoardView: what every page that draws a board shares (board.js,
// analysis.js, study.js): the position string (RULES.md §6) read for
// display only, and the board's DOM pieces. It implements no rule of the
// game: which moves are legal and what they do come from the server or
// the engine client. A classic script, loaded before those: it defines
// BoardView and nothing else.
const BoardView = (function () {
  'use strict';

  // parseFEN reads a position string for display: each side's holes (its
  // stones, and t for a tuzdik), the kazans, the side to move and the move
  // number.
  function parseFEN(fen) {
    const parts = fen.trim().split(/\s+/);
    const rows = parts[0].split('/');
    const expand = (row) => {
      const out = [];
      for (const c of row.split(',')) {
        if (c === 't') out.push({ n: 0, t: true });
        else if (c.endsWith('S')) out.push({ n: parseInt(c, 10), t: false });
        else for (let i = 0; i < parseInt(c, 10); i++) out.push({ n: 0, t: false });
      }
      return out;
    };
    const black = expand(rows[0]).reverse(); // NORTH lists Black's holes from the last
    const white = expand(rows[1]);
    return { holes: white.length, rows: { white, black }, kazan: { white: +parts[1], black: +parts[2] },
      turn: parts[3] === 'N' ? 'black' : 'white', full: +parts[4] || 1 };
  }

  const other = (c) => (c === 'white' ? 'black' : 'white');

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // stones draws n stones, at most max of them and a "+k" for the rest.
  function stones(n, max) {
    const box = el('div', 'stones');
    box.setAttribute('aria-hidden', 'true');
    for (let i = 0; i < Math.min(n, max); i++) box.appendChild(el('span', 'stone'));
    if (n > max) box.appendChild(el('span', 'more', '+' + (n - max)));
    return box;
  }

  return Object.freeze({ parseFEN, other, el, stones });
})();
