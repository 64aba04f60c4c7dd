// The analysis board (/analysis): a move tree with variations, comments
// and marks over any position, the engine's lines and the endgame
// tablebase. Plain JavaScript, no dependencies. It implements no rule of
// the game: every move's legality, notation, landing and the position after
// it, and the engine's lines, come from the engine client (engine-client.js:
// the Go rules and engine compiled to WebAssembly in a worker, else the
// server's /api/positions/legal, /play and /api/analysis, the same JSON),
// and the tree stores what they said. The endgame tablebase is the
// server's alone: a position with no more stones on the board than its
// tables of the position's ruleset hold (data-tbstones, per ruleset) is
// analysed by the server. Every text comes
// from the page (data-texts, in the page's language).
(function () {
  'use strict';
  const root = document.getElementById('analysis');
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const { parseJSON, translator, postJSON: post } = BoardView; // boardview.js
  const texts = parseJSON(root.dataset.texts, {});
  const outcomes = parseJSON(root.dataset.outcomes, {});
  const holeNames = parseJSON(root.dataset.holenames, []);
  // The most stones of a position the server's tables hold, per ruleset.
  const tbStones = parseJSON(root.dataset.tbstones, {});
  const { T, N } = translator(texts);

  // The engine client, loaded as a module from this classic script: the
  // worker's engine (WebAssembly, the server where it is missing) for the
  // rules and the lines, and the server's for the tablebase's positions.
  const client = import(document.getElementById('engine-assets').dataset.client);
  const engines = {
    local: client.then((m) => m.createEngine()),
    server: client.then((m) => m.createEngine({ server: true })),
  };
  // With the worker running, keep the engine's files for use with no
  // network (the service worker keeps this page, web.OfflinePages).
  Promise.all([client, engines.local]).then(([m, e]) => e.ready && e.ready.then((ok) => { if (ok) m.keepOffline(); }))
    .catch(() => {});
  const rules = {
    legal: async (fen) => (await engines.local).legal(fen, st.ruleset),
    play: async (fen, move) => (await engines.local).play(fen, move, st.ruleset),
  };

  const st = {
    ruleset: 'standard',
    tags: [],
    root: null,
    cur: null,      // the node shown
    flipped: false,
    engineOn: true,
    engineSeq: 0,   // the latest analysis asked for; older answers are dropped
    engineTimer: 0,
    busy: false,
  };

  // load takes a tree as the server writes it (treeJSON) and gives each
  // node its parent.
  function load(t) {
    st.ruleset = t.ruleset || 'standard';
    st.tags = t.tags || [];
    st.comment = t.comment || '';
    const link = (n, parent) => {
      n.parent = parent;
      n.children = n.children || [];
      n.comment = n.comment || '';
      n.mark = n.mark || '';
      n.children.forEach((c) => link(c, n));
      return n;
    };
    st.root = link(t.root, null);
    st.cur = st.root;
  }

  const { parseFEN, other, el, stones } = BoardView; // boardview.js

  // legalOf returns the legal moves of node n (asked once, then kept).
  async function legalOf(n) {
    if (!n.info) n.info = await rules.legal(n.fen);
    return n.info;
  }

  function drawBoard() {
    const n = st.cur;
    const p = parseFEN(n.fen);
    const board = $('board');
    board.textContent = '';
    const bottom = st.flipped ? 'black' : 'white', top = other(bottom);
    const legal = n.info ? n.info.moves.map((l) => l.hole) : [];
    const mover = n.parent ? parseFEN(n.parent.fen).turn : '';
    const landing = n.landing || null;
    const row = (side, desc) => {
      const r = el('div', 'row ' + (side === bottom ? 'mine' : 'theirs'));
      r.style.gridTemplateColumns = 'repeat(' + p.holes + ', 1fr)';
      const order = [];
      for (let h = 1; h <= p.holes; h++) order.push(h);
      if (desc) order.reverse();
      for (const h of order) {
        const cell = p.rows[side][h - 1];
        const hole = el('button', 'hole');
        hole.type = 'button';
        hole.dataset.side = side;
        hole.dataset.hole = h;
        hole.appendChild(el('span', 'num', String(h)));
        if (cell.t) {
          hole.classList.add('tuzdik');
          hole.appendChild(el('span', 'mark', 'X'));
          hole.setAttribute('aria-label', T('game.tuzdiklabel', h, holeNames[h - 1] || '', T('game.' + other(side))));
        } else {
          hole.appendChild(stones(cell.n, 24));
          hole.appendChild(el('span', 'count', String(cell.n)));
          hole.setAttribute('aria-label', N('game.holelabel', cell.n, h, holeNames[h - 1] || '', cell.n));
        }
        hole.title = hole.getAttribute('aria-label');
        if (n.hole && side === mover && h === n.hole) hole.classList.add('from');
        if (landing && landing.side === side && landing.hole === h) hole.classList.add('to');
        const ok = side === p.turn && legal.indexOf(h) >= 0;
        hole.setAttribute('aria-disabled', ok ? 'false' : 'true');
        if (ok) hole.classList.add('playable');
        hole.addEventListener('click', () => { if (side === p.turn) play(h); });
        r.appendChild(hole);
      }
      return r;
    };
    const kazan = (side) => {
      const k = el('div', 'kazan ' + side + (side === bottom ? ' mine' : ' theirs'));
      k.setAttribute('role', 'img');
      k.setAttribute('aria-label', N('game.kazanlabel', p.kazan[side], T('game.' + side), p.kazan[side]));
      k.appendChild(el('span', 'label', T('game.' + side) + ' · ' + T('game.kazan')));
      k.appendChild(stones(p.kazan[side], 90));
      k.appendChild(el('span', 'count', String(p.kazan[side])));
      if (n.captured > 0 && side === mover) k.appendChild(el('span', 'captured', '+' + n.captured));
      return k;
    };
    board.appendChild(row(top, true));
    board.appendChild(kazan(top));
    board.appendChild(kazan(bottom));
    board.appendChild(row(bottom, false));
    let status = T('game.tomove', T('game.' + p.turn));
    if (n.info && n.info.over) {
      const o = outcomes[n.info.result + ' ' + n.info.termination] || outcomes[n.info.result + ' none'];
      status = o ? o.replace('{w}', n.info.score[0]).replace('{b}', n.info.score[1]) : T('game.over');
    }
    $('status').textContent = status;
    root.dataset.fen = n.fen;
    root.dataset.turn = p.turn;
  }

  // moveLabel is a move's number (for White's, and for Black's where a
  // line begins) and its notation with its mark.
  function moveLabel(n, first) {
    const p = parseFEN(n.parent.fen);
    let num = '';
    if (p.turn === 'white') num = p.full + '. ';
    else if (first) num = p.full + '… ';
    return num + n.notation + (n.mark || '');
  }

  function drawTree() {
    const box = $('tree');
    box.textContent = '';
    const button = (n, first) => {
      const b = el('button', 'move' + (n === st.cur ? ' current' : ''), moveLabel(n, first));
      b.type = 'button';
      b.setAttribute('translate', 'no'); // notation: data, not interface
      b.setAttribute('aria-pressed', n === st.cur ? 'true' : 'false');
      b.addEventListener('click', () => go(n));
      n.el = b;
      return b;
    };
    const comment = (text) => {
      const c = el('span', 'comment', text);
      c.setAttribute('translate', 'no'); // the user's words
      return c;
    };
    // line draws the line that goes on from the move from; first: its
    // first move begins a line of text (it gets its number).
    const line = (from, container, first) => {
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
    const start = el('button', 'move' + (st.root === st.cur ? ' current' : ''), T('analysis.start'));
    start.type = 'button';
    start.addEventListener('click', () => go(st.root));
    box.appendChild(start);
    line(st.root, box, true);
    $('mark').value = st.cur.mark || '';
    $('mark').disabled = st.cur === st.root;
    $('comment').value = st.cur.comment || '';
    $('comment').disabled = st.cur === st.root;
    $('promote').disabled = !offMain(st.cur);
    $('delete').disabled = st.cur === st.root;
    // Keep the current move in view inside the tree, not moving the page.
    const b = st.cur.el;
    if (b && (b.offsetTop < box.scrollTop || b.offsetTop + b.offsetHeight > box.scrollTop + box.clientHeight)) {
      box.scrollTop = b.offsetTop - box.clientHeight / 2;
    }
  }

  function offMain(n) {
    for (; n && n.parent; n = n.parent) if (n.parent.children[0] !== n) return true;
    return false;
  }

  function fail(err) {
    const e = $('analysis-error');
    e.textContent = err.message || String(err);
    e.hidden = false;
  }
  function clearError() { $('analysis-error').hidden = true; }

  async function go(n) {
    st.cur = n;
    clearError();
    try { await legalOf(n); } catch (e) { fail(e); }
    if (st.cur !== n) return;
    drawBoard();
    drawTree();
    analyse();
  }

  // play plays hole h from the node shown: the child already there, or a
  // new one with what the rules said (a variation when the node had moves).
  async function play(h) {
    if (st.busy) return;
    const n = st.cur;
    const known = n.children.find((c) => c.hole === h);
    if (known) return go(known);
    const info = n.info;
    if (!info || info.over || !info.moves.some((l) => l.hole === h)) return;
    st.busy = true;
    try {
      const r = await rules.play(n.fen, h);
      const c = { hole: h, notation: r.notation, fen: r.fen, comment: '', mark: '', children: [], parent: n,
        captured: r.captured, landing: r.landing,
        info: { moves: r.legal, board: r.board, over: r.over, result: r.result, termination: r.termination, score: r.score } };
      n.children.push(c);
      await go(c);
    } catch (e) {
      fail(e);
    } finally {
      st.busy = false;
    }
  }

  // onBoard counts the stones in the holes of a node's position (the
  // rules' answer: its board), for the choice of the tablebase.
  function onBoard(n) {
    const b = n.info && n.info.board;
    return b ? b[0].concat(b[1]).reduce((a, x) => a + x, 0) : Infinity;
  }

  // stopEngines stops the analysis under way, whichever engine runs it.
  function stopEngines() {
    engines.local.then((e) => e.stop(), () => {});
    engines.server.then((e) => e.stop(), () => {});
  }

  // The engine: its lines for the node shown, asked a moment after the
  // last step so that stepping through a game does not flood the server.
  // The worker searches deeper until the next step (or 30 s), showing
  // each depth's lines as it completes; the server answers once, bounded.
  function analyse() {
    clearTimeout(st.engineTimer);
    const seq = ++st.engineSeq;
    stopEngines();
    // The lines shown are the last node's until the new ones come.
    $('engine-lines').textContent = '';
    $('tablebase').hidden = true;
    if (!st.engineOn) { $('engine-depth').textContent = T('analysis.engine.off'); bar(null); return; }
    $('engine-depth').textContent = T('analysis.thinking');
    const n = st.cur;
    st.engineTimer = setTimeout(async () => {
      try {
        const run = async (e) => {
          if (seq !== st.engineSeq) return;
          root.dataset.engine = e.kind; // "wasm" or "server", for the tests
          const o = { ruleset: st.ruleset, multipv: +$('multipv').value, movetime: e.kind === 'wasm' ? 30000 : 800 };
          if (root.dataset.game) o.game = root.dataset.game;
          const best = await e.analyse(n.fen, o, (info) => { if (seq === st.engineSeq) showLines(info, null); });
          if (best && seq === st.engineSeq) showLines(best.info, best.tablebase);
        };
        const tb = +tbStones[st.ruleset] || 0;
        if (!(tb > 0 && onBoard(n) <= tb)) { await run(await engines.local); return; }
        // A tablebase position goes to the server at once, not after the
        // worker's WebAssembly has loaded.
        try {
          await run(await engines.server);
        } catch (err) {
          // Over the server's bound of analyses a minute, the worker's
          // lines without the tablebase, rather than none.
          const local = await engines.local;
          if (err.status !== 429 || local.kind !== 'wasm') throw err;
          await run(local);
        }
      } catch (err) {
        if (seq === st.engineSeq) $('engine-depth').textContent = err.message;
      }
    }, 250);
  }

  function scoreText(l) {
    if (l.mate > 0) return N('analysis.mate.white', l.mate, l.mate);
    if (l.mate < 0) return N('analysis.mate.black', -l.mate, -l.mate);
    return (l.score >= 0 ? '+' : '−') + (Math.abs(l.score) / 100).toFixed(2);
  }

  // showLines shows an iteration's lines (info: engineweb's InfoJSON,
  // absent once the game is over) and the tablebase's result, if any.
  function showLines(info, tablebase) {
    const r = { depth: info ? info.depth : 0, lines: info ? info.lines : [] };
    const tb = $('tablebase');
    tb.hidden = !tablebase;
    let barScore = null;
    if (tablebase) {
      const t = tablebase;
      let s = T('analysis.tb.draw');
      if (t.result !== '1/2-1/2') {
        const side = t.result === '1-0' ? 'white' : 'black';
        s = t.plies !== undefined ? N('analysis.tb.' + side, t.plies, t.plies) : T('analysis.tb.' + side + 'wins');
        barScore = side === 'white' ? 100000 : -100000;
      } else barScore = 0;
      tb.textContent = s;
    }
    $('engine-depth').textContent = r.lines.length ? T('analysis.depth', r.depth) : '';
    const ol = $('engine-lines');
    ol.textContent = '';
    for (const l of r.lines) {
      const li = el('li', 'engine-line');
      const score = el('span', 'score', scoreText(l));
      li.appendChild(score);
      const pv = el('button', 'pv', ' ' + l.notation.join(' '));
      pv.type = 'button';
      pv.addEventListener('click', () => { if (l.pv.length) play(l.pv[0]); });
      li.appendChild(pv);
      ol.appendChild(li);
    }
    if (barScore === null && r.lines.length) barScore = r.lines[0].mate ? Math.sign(r.lines[0].mate) * 100000 : r.lines[0].score;
    bar(barScore);
  }

  // bar shows a score (hundredths of a stone, White's view) as White's
  // share of the bar.
  function bar(score) {
    const share = score === null ? 50 : Math.round(50 + 50 * Math.tanh(score / 1500));
    $('evalfill').style.height = share + '%';
    $('evalbar').setAttribute('aria-valuenow', String(share));
    $('evalbar').setAttribute('aria-valuetext', score === null ? '' : T('analysis.evalwhite', share));
  }

  // The tree as the export reads it: holes, comments, marks.
  function plain(n) {
    return { hole: n.hole || 0, fen: n.parent ? '' : n.fen, comment: n.comment || '', mark: n.mark || '', children: n.children.map(plain) };
  }

  async function exportTree() {
    const r = await post('/api/analysis/export', { ruleset: st.ruleset, tags: st.tags, comment: st.comment, root: plain(st.root) });
    const t = $('export-text');
    t.value = r.record;
    t.hidden = false;
    const a = $('download');
    a.href = URL.createObjectURL(new Blob([r.record], { type: 'text/plain' }));
    a.hidden = false;
    return r;
  }

  async function share() {
    const r = await exportTree();
    const io = $('io-status');
    if (!r.shareable || r.record.length > +root.dataset.maxshare) { io.textContent = T('analysis.share.too_long'); return; }
    const link = location.origin + '/analysis?record=' + encodeURIComponent(r.record);
    const input = $('share-link');
    input.value = link;
    input.hidden = false;
    input.select();
    try { await navigator.clipboard.writeText(link); io.textContent = T('analysis.share.copied'); } catch (e) { io.textContent = ''; }
  }

  async function importTree() {
    const r = await post('/api/analysis/import', { record: $('import-text').value, game: +$('import-game').value || 1 });
    load(r);
    $('io-status').textContent = T('analysis.import.done', r.game, r.games);
    await go(st.root);
  }

  function promote() {
    let n = st.cur;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    if (!n.parent) return;
    const sib = n.parent.children;
    sib.splice(sib.indexOf(n), 1);
    sib.unshift(n);
    drawTree();
  }

  function remove() {
    const n = st.cur;
    if (!n.parent) return;
    const sib = n.parent.children;
    sib.splice(sib.indexOf(n), 1);
    go(n.parent);
  }

  function endOfLine(n) { while (n.children.length) n = n.children[0]; return n; }
  function sibling(d) {
    const n = st.cur;
    if (!n.parent) return;
    const sib = n.parent.children;
    const i = sib.indexOf(n) + d;
    if (i >= 0 && i < sib.length) go(sib[i]);
  }

  const guard = (f) => () => f().catch(fail);
  $('first').addEventListener('click', () => go(st.root));
  $('prev').addEventListener('click', () => { if (st.cur.parent) go(st.cur.parent); });
  $('next').addEventListener('click', () => { if (st.cur.children.length) go(st.cur.children[0]); });
  $('last').addEventListener('click', () => go(endOfLine(st.cur)));
  $('flip').addEventListener('click', () => { st.flipped = !st.flipped; drawBoard(); });
  $('promote').addEventListener('click', promote);
  $('delete').addEventListener('click', remove);
  $('mark').addEventListener('change', () => { if (st.cur.parent) { st.cur.mark = $('mark').value; drawTree(); } });
  $('comment').addEventListener('change', () => { if (st.cur.parent) { st.cur.comment = $('comment').value; drawTree(); } });
  $('export').addEventListener('click', guard(exportTree));
  $('share').addEventListener('click', guard(share));
  $('import').addEventListener('click', guard(importTree));
  $('import-file').addEventListener('change', (ev) => {
    const f = ev.target.files[0];
    if (f) f.text().then((s) => { $('import-text').value = s; }).catch(fail);
  });
  $('engine-on').addEventListener('change', () => { st.engineOn = $('engine-on').checked; analyse(); });
  $('multipv').addEventListener('change', analyse);
  document.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (k >= '1' && k <= '9') { play(+k); ev.preventDefault(); return; }
    const acts = {
      ArrowLeft: () => { if (st.cur.parent) go(st.cur.parent); },
      ArrowRight: () => { if (st.cur.children.length) go(st.cur.children[0]); },
      ArrowUp: () => sibling(-1),
      ArrowDown: () => sibling(1),
      Home: () => go(st.root),
      End: () => go(endOfLine(st.cur)),
    };
    if (acts[k]) { acts[k](); ev.preventDefault(); }
  });

  load(parseJSON(root.dataset.tree, null));
  go(st.root);
})();
