// BoardView: what every page that draws a board shares (board.js,
// analysis.js, study.js; learn.js takes its format): the position string
// (RULES.md §6) read for display only, the board's DOM pieces, the page's
// texts (the catalog's, with their plural forms), the data-* attributes'
// JSON and the JSON posted to the server. It implements no rule of the
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

  // parseJSON reads the JSON of a data-* attribute (web's {{json v}}):
  // dflt where s is empty or not JSON.
  function parseJSON(s, dflt) {
    if (!s) return dflt;
    try { return JSON.parse(s); } catch (e) { return dflt; }
  }

  // format fills a catalog text's verbs (%s, %d, %[2]s, %%) with args.
  function format(s, args) {
    let k = 0;
    return String(s).replace(/%(?:\[(\d+)\])?([sdv%])/g, (all, idx, verb) => {
      if (verb === '%') return '%';
      const v = idx ? args[+idx - 1] : args[k++];
      return v === undefined ? '' : String(v);
    });
  }

  // translator returns T and N over texts (catalog key → its text, or its
  // plural forms → text), in the page's language (<html lang>).
  // T(key, ...args) is key's text formatted, the "other" form of a plural
  // one; N(key, n, ...args) is the form that n takes (the browser's CLDR
  // rules), formatted. missing(key), where given, is the text of a key
  // texts lacks (undefined: none); a key with no text shows as itself.
  function translator(texts, missing) {
    const lang = document.documentElement.lang || 'en';
    let plurals = null;
    try { plurals = new Intl.PluralRules(lang); } catch (e) { plurals = null; }
    function T(key, ...args) {
      let s = texts[key];
      if (s === undefined && missing) s = missing(key);
      if (s === undefined) return key;
      if (typeof s === 'object') s = s.other || Object.values(s)[0];
      return format(s, args);
    }
    function N(key, n, ...args) {
      const s = texts[key];
      if (!s || typeof s !== 'object') return T(key, ...args);
      const form = plurals ? plurals.select(n) : 'other';
      return format(s[form] || s.other || s.many || s.one, args);
    }
    return { T, N };
  }

  // postJSON posts body as JSON to url and returns the JSON answer; an
  // answer that is not 2xx throws an Error with the server's message
  // (docs/api.md's {"error": {"message"}}), else its status.
  async function postJSON(url, body) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const j = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error((j.error && j.error.message) || String(r.status));
    return j;
  }

  return Object.freeze({ parseFEN, other, el, stones, parseJSON, format, translator, postJSON });
})();
