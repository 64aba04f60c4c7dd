// A study (/study/{id}): chapters, each a board with a move tree, edited
// live by its owner and editors and followed by everyone on the page.
// Plain JavaScript, no dependencies. It implements no rule of the game:
// an editor's move is an op the server plays by the rules library
// (internal/study), and the legal holes and the end come from
// /api/positions/legal. Every text comes from the page (data-texts,
// data-stexts, in the page's language).
(function () {
  'use strict';
  const root = document.getElementById('study');
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const { parseJSON, translator, postJSON: post } = BoardView; // boardview.js
  const texts = Object.assign(parseJSON(root.dataset.texts, {}), parseJSON(root.dataset.stexts, {}));
  const outcomes = parseJSON(root.dataset.outcomes, {});
  const holeNames = parseJSON(root.dataset.holenames, []);
  const canEdit = root.dataset.edit === 'true';
  const { T, N } = translator(texts);

  const st = {
    chapters: [],   // ChapterJSON of the server, with parent links
    ci: 0,          // the chapter shown
    cur: null,      // the node shown
    flipped: false,
    sync: true,
    mode: 'play',
    arrowFrom: '',
    ws: null,
    retry: 500,
  };

  function link(ch) {
    const walk = (n, parent) => {
      n.parent = parent;
      n.children = n.children || [];
      n.holes = n.holes || [];
      n.arrows = n.arrows || [];
      n.children.forEach((c) => walk(c, n));
    };
    walk(ch.root, null);
    return ch;
  }
  const chapter = () => st.chapters[st.ci];
  function pathOf(n) {
    const p = [];
    for (; n && n.parent; n = n.parent) p.unshift(n.hole);
    return p;
  }
  // find returns the node at path in chapter ch, or the deepest one there.
  function find(ch, path) {
    let n = ch.root;
    for (const h of path || []) {
      const c = n.children.find((x) => x.hole === h);
      if (!c) break;
      n = c;
    }
    return n;
  }

  const { parseFEN, other, el, stones } = BoardView; // boardview.js

  function fail(err) {
    const e = $('study-error');
    e.textContent = err.message || String(err);
    e.hidden = false;
  }
  function clearError() { $('study-error').hidden = true; }

  async function legalOf(n) {
    if (!n.info) n.info = await post('/api/positions/legal', { fen: n.fen, ruleset: chapter().ruleset });
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
    const row = (side, desc) => {
      const r = el('div', 'row ' + (side === bottom ? 'mine' : 'theirs'));
      r.style.gridTemplateColumns = 'repeat(' + p.holes + ', 1fr)';
      const order = [];
      for (let h = 1; h <= p.holes; h++) order.push(h);
      if (desc) order.reverse();
      for (const h of order) {
        const cell = p.rows[side][h - 1];
        const id = side[0] + h;
        const hole = el('button', 'hole');
        hole.type = 'button';
        hole.dataset.side = side;
        hole.dataset.hole = h;
        hole.dataset.id = id;
        hole.appendChild(el('span', 'num', String(h)));
        let label;
        if (cell.t) {
          hole.classList.add('tuzdik');
          hole.appendChild(el('span', 'mark', 'X'));
          label = T('game.tuzdiklabel', h, holeNames[h - 1] || '', T('game.' + other(side)));
        } else {
          hole.appendChild(stones(cell.n, 24));
          hole.appendChild(el('span', 'count', String(cell.n)));
          label = N('game.holelabel', cell.n, h, holeNames[h - 1] || '', cell.n);
        }
        if (n.holes.indexOf(id) >= 0) { hole.classList.add('marked'); label += ' · ' + T('study.mode.hole'); }
        if (st.arrowFrom === id) hole.classList.add('arrow-from');
        hole.setAttribute('aria-label', label);
        hole.title = label;
        if (n.hole && side === mover && h === n.hole) hole.classList.add('from');
        const ok = canEdit && side === p.turn && legal.indexOf(h) >= 0;
        if (ok) hole.classList.add('playable');
        hole.setAttribute('aria-disabled', canEdit && (ok || st.mode !== 'play') ? 'false' : 'true');
        hole.addEventListener('click', () => clickHole(side, h));
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
    root.dataset.path = pathOf(n).join(',');
    root.dataset.chapter = String(st.ci);
    drawArrows();
  }

  // drawArrows draws the move's arrows over the board, from hole to hole.
  function drawArrows() {
    const svg = $('study-arrows');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const area = svg.parentNode.getBoundingClientRect();
    const ns = 'http://www.w3.org/2000/svg';
    const defs = document.createElementNS(ns, 'defs');
    defs.innerHTML = '<marker id="study-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0L10,5L0,10z"/></marker>';
    svg.appendChild(defs);
    const centre = (id) => {
      const h = $('board').querySelector('[data-id="' + id + '"]');
      if (!h) return null;
      const r = h.getBoundingClientRect();
      return [r.left - area.left + r.width / 2, r.top - area.top + r.height / 2];
    };
    for (const a of st.cur.arrows) {
      const f = centre(a.slice(0, 2)), t = centre(a.slice(2));
      if (!f || !t) continue;
      const line = document.createElementNS(ns, 'line');
      line.setAttribute('x1', f[0]); line.setAttribute('y1', f[1]);
      line.setAttribute('x2', t[0]); line.setAttribute('y2', t[1]);
      line.setAttribute('marker-end', 'url(#study-head)');
      line.setAttribute('class', 'study-arrow');
      line.dataset.arrow = a;
      svg.appendChild(line);
    }
  }

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
      b.setAttribute('translate', 'no');
      b.setAttribute('aria-pressed', n === st.cur ? 'true' : 'false');
      b.addEventListener('click', () => go(n, true));
      return b;
    };
    const comment = (text) => { const c = el('span', 'comment', text); c.setAttribute('translate', 'no'); return c; };
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
    const start = el('button', 'move' + (chapter().root === st.cur ? ' current' : ''), T('study.start'));
    start.type = 'button';
    start.addEventListener('click', () => go(chapter().root, true));
    box.appendChild(start);
    line(chapter().root, box, true);
    $('study-comment-view').textContent = st.cur.comment || '';
    // The marks and arrows in words too, for a reader who does not see the board.
    $('study-shapes-view').textContent = st.cur.holes.concat(st.cur.arrows.map((a) => a.slice(0, 2) + '→' + a.slice(2))).join(' · ');
    if (canEdit) {
      const atRoot = st.cur === chapter().root;
      $('mark').value = st.cur.mark || '';
      $('comment').value = st.cur.comment || '';
      for (const id of ['mark', 'comment', 'delete', 'shapes-clear']) $(id).disabled = atRoot;
      $('promote').disabled = !offMain(st.cur);
    }
  }
  function offMain(n) {
    for (; n && n.parent; n = n.parent) if (n.parent.children[0] !== n) return true;
    return false;
  }

  function drawChapters() {
    const ol = $('study-chapters');
    ol.textContent = '';
    st.chapters.forEach((c, i) => {
      const li = el('li');
      const b = el('button', 'chapter' + (i === st.ci ? ' current' : ''), c.name);
      b.type = 'button';
      b.setAttribute('translate', 'no');
      b.setAttribute('aria-pressed', i === st.ci ? 'true' : 'false');
      b.addEventListener('click', () => { st.ci = i; go(c.root, true); });
      li.appendChild(b);
      li.appendChild(el('span', 'help', ' · ' + N('study.chapter.moves', c.moves, c.moves)));
      ol.appendChild(li);
    });
  }

  // go shows node n; mine: the user moved there himself, and an editor's
  // board then moves the followers' (sync).
  async function go(n, mine) {
    st.cur = n;
    st.arrowFrom = '';
    clearError();
    drawChapters();
    drawBoard();
    drawTree();
    if (mine && canEdit && st.sync) send({ type: 'goto', at: { chapter: st.ci, path: pathOf(n) } });
    try { await legalOf(n); } catch (e) { fail(e); }
    if (st.cur === n) drawBoard();
  }

  function send(m) {
    if (st.ws && st.ws.readyState === 1) st.ws.send(JSON.stringify(m));
  }
  function op(o) { send(Object.assign({ type: 'op', chapter: st.ci, path: pathOf(st.cur) }, o)); }

  function clickHole(side, h) {
    if (!canEdit) return;
    const id = side[0] + h;
    if (st.mode === 'play') {
      if (side === parseFEN(st.cur.fen).turn) play(h);
      return;
    }
    if (!st.cur.parent) return;
    const holes = st.cur.holes.slice(), arrows = st.cur.arrows.slice();
    if (st.mode === 'hole') {
      const i = holes.indexOf(id);
      if (i >= 0) holes.splice(i, 1); else holes.push(id);
    } else {
      if (!st.arrowFrom) { st.arrowFrom = id; drawBoard(); $('status').textContent = T('study.arrow.from', id); return; }
      const a = st.arrowFrom + id;
      st.arrowFrom = '';
      if (a.slice(0, 2) === a.slice(2)) { drawBoard(); return; }
      const i = arrows.indexOf(a);
      if (i >= 0) arrows.splice(i, 1); else arrows.push(a);
    }
    op({ op: 'shapes', holes, arrows });
  }

  function play(h) {
    const n = st.cur;
    const known = n.children.find((c) => c.hole === h);
    if (known) return go(known, true);
    if (!n.info || n.info.over || !n.info.moves.some((l) => l.hole === h)) return;
    op({ op: 'move', hole: h });
  }

  // receive applies a message of the study's socket.
  function receive(m) {
    const keep = { ci: st.ci, path: pathOf(st.cur || { parent: null }) };
    switch (m.type) {
      case 'study':
        st.chapters = m.chapters.map(link);
        st.ci = Math.min(m.at.chapter, st.chapters.length - 1);
        if (!st.sync && st.cur) { st.ci = Math.min(keep.ci, st.chapters.length - 1); go(find(chapter(), keep.path), false); } else go(find(chapter(), m.at.path), false);
        break;
      case 'chapter':
        st.chapters[m.index] = link(m.chapter);
        if (st.sync) { st.ci = m.at.chapter; go(find(chapter(), m.at.path), false); } else go(find(chapter(), keep.path), false);
        $('study-conn').textContent = T('study.edited', m.by);
        break;
      case 'position':
        if (st.sync && st.chapters[m.at.chapter]) { st.ci = m.at.chapter; go(find(chapter(), m.at.path), false); }
        break;
      case 'error':
        fail(new Error(m.message || m.code));
        break;
    }
  }

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(proto + '//' + location.host + '/api/studies/' + encodeURIComponent(root.dataset.id) + '/ws');
    st.ws = ws;
    ws.onopen = () => { st.retry = 500; $('study-conn').textContent = T('study.connected'); root.dataset.live = 'true'; };
    ws.onmessage = (ev) => { const m = parseJSON(ev.data, null); if (m) receive(m); };
    ws.onclose = () => {
      root.dataset.live = 'false';
      $('study-conn').textContent = T('study.disconnected');
      setTimeout(connect, st.retry);
      st.retry = Math.min(st.retry * 2, 10000);
    };
  }

  function endOfLine(n) { while (n.children.length) n = n.children[0]; return n; }
  function sibling(d) {
    const n = st.cur;
    if (!n.parent) return;
    const sib = n.parent.children;
    const i = sib.indexOf(n) + d;
    if (i >= 0 && i < sib.length) go(sib[i], true);
  }
  $('first').addEventListener('click', () => go(chapter().root, true));
  $('prev').addEventListener('click', () => { if (st.cur.parent) go(st.cur.parent, true); });
  $('next').addEventListener('click', () => { if (st.cur.children.length) go(st.cur.children[0], true); });
  $('last').addEventListener('click', () => go(endOfLine(st.cur), true));
  $('flip').addEventListener('click', () => { st.flipped = !st.flipped; drawBoard(); });
  $('study-sync').addEventListener('change', () => { st.sync = $('study-sync').checked; });
  if (canEdit) {
    $('promote').addEventListener('click', () => op({ op: 'promote' }));
    $('delete').addEventListener('click', () => { const p = st.cur.parent; op({ op: 'delete' }); if (p) st.cur = p; });
    $('mark').addEventListener('change', () => op({ op: 'mark', mark: $('mark').value }));
    $('comment').addEventListener('change', () => op({ op: 'comment', text: $('comment').value }));
    $('shapes-clear').addEventListener('click', () => op({ op: 'shapes', holes: [], arrows: [] }));
    document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener('change', () => {
      st.mode = r.value; st.arrowFrom = ''; drawBoard();
    }));
    $('chapter-new').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const f = ev.target;
      send({ type: 'op', op: 'chapter', name: $('chapter-name').value, ruleset: f.querySelector('[name="ruleset"]').value, fen: $('chapter-fen').value.trim() });
      f.reset();
    });
  }
  document.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !st.cur) return;
    const k = ev.key;
    if (canEdit && k >= '1' && k <= '9') { play(+k); ev.preventDefault(); return; }
    const acts = {
      ArrowLeft: () => { if (st.cur.parent) go(st.cur.parent, true); },
      ArrowRight: () => { if (st.cur.children.length) go(st.cur.children[0], true); },
      ArrowUp: () => sibling(-1),
      ArrowDown: () => sibling(1),
      Home: () => go(chapter().root, true),
      End: () => go(endOfLine(st.cur), true),
    };
    if (acts[k]) { acts[k](); ev.preventDefault(); }
  });
  window.addEventListener('resize', () => { if (st.cur) drawArrows(); });
  connect();
})();
