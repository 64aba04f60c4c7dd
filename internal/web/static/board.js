// The Toguz Kumalak board: live play over the game websocket (docs/api.md)
// and the replay of finished or imported games. Plain JavaScript, no
// dependencies; the server renders the page around it. It implements no
// rule of the game: the server sends the legal moves, and each move's
// landing and capture, all from the rules library.
(function () {
  'use strict';
  const root = document.getElementById('game');
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const T = (k) => root.dataset['t' + k.charAt(0).toUpperCase() + k.slice(1)] || k;
  const holeNames = parseJSON(root.dataset.holenames, []);
  const errorTexts = parseJSON(root.dataset.errors, {});

  const st = {
    mode: root.dataset.mode || 'replay', // "live" or "replay"
    id: root.dataset.id || '',
    game: null,         // the last state message (live)
    positions: parseJSON(root.dataset.positions, []),
    moves: parseJSON(root.dataset.moves, []),
    legal: [],          // the holes the player to move may play (live)
    view: -1,           // index of the position shown; -1 follows the last
    flipped: false,
    you: '',
    control: false,
    clock: null, clockAt: 0,
    presence: { white: true, black: true, left: [0, 0], at: 0 },
    pending: false,
    ws: null, retry: 0, connected: false,
  };
  st.sound = localStorage.getItem('toguz.sound') === '1';

  function parseJSON(s, dflt) {
    if (!s) return dflt;
    try { return JSON.parse(s); } catch (e) { return dflt; }
  }

  // parseFEN reads the position string (RULES.md §6) for display only.
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
      turn: parts[3] === 'N' ? 'black' : 'white' };
  }

  const other = (c) => (c === 'white' ? 'black' : 'white');

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function stones(n, max) {
    const box = el('div', 'stones');
    const shown = Math.min(n, max);
    for (let i = 0; i < shown; i++) box.appendChild(el('span', 'stone'));
    if (n > max) box.appendChild(el('span', 'more', '+' + (n - max)));
    return box;
  }

  function bottomSide() {
    const me = st.you || 'white';
    return st.flipped ? other(me) : me;
  }

  function current() {
    const i = st.view < 0 ? st.positions.length - 1 : st.view;
    return { i, p: st.positions.length ? parseFEN(st.positions[i]) : null };
  }

  function playing() {
    return st.mode === 'live' && st.game && st.game.status === 'playing';
  }

  function canMove(p, i) {
    return playing() && st.you && st.control && !st.pending && i === st.positions.length - 1 && p.turn === st.you;
  }

  function render() {
    const { i, p } = current();
    const board = $('board');
    board.textContent = '';
    if (!p) return;
    const bottom = bottomSide(), top = other(bottom);
    let last = null;
    if (i > 0 && st.moves[i - 1]) {
      const mv = st.moves[i - 1];
      last = { side: mv.by, hole: mv.hole, land: mv.landing || null, captured: mv.captured };
    }
    const movable = canMove(p, i);
    const row = (side, desc) => {
      const r = el('div', 'row ' + (side === bottom ? 'mine' : 'theirs'));
      const order = [];
      for (let h = 1; h <= p.holes; h++) order.push(h);
      if (desc) order.reverse();
      for (const h of order) {
        const cell = p.rows[side][h - 1];
        const hole = el('button', 'hole');
        hole.type = 'button';
        hole.dataset.side = side;
        hole.dataset.hole = h;
        hole.title = T('hole').replace('0', h) + (holeNames[h - 1] ? ' · ' + holeNames[h - 1] : '');
        hole.appendChild(el('span', 'num', String(h)));
        if (cell.t) {
          hole.classList.add('tuzdik');
          hole.appendChild(el('span', 'mark', 'X'));
        } else {
          hole.appendChild(stones(cell.n, 24));
          hole.appendChild(el('span', 'count', String(cell.n)));
        }
        if (last && last.side === side && last.hole === h) hole.classList.add('from');
        if (last && last.land && last.land.side === side && last.land.hole === h) hole.classList.add('to');
        const ok = movable && side === st.you && st.legal.indexOf(h) >= 0;
        hole.disabled = !ok;
        if (ok) {
          hole.classList.add('playable');
          hole.addEventListener('click', () => sendMove(h));
        }
        r.appendChild(hole);
      }
      return r;
    };
    const kazan = (side) => {
      const k = el('div', 'kazan ' + side + (side === bottom ? ' mine' : ' theirs'));
      k.dataset.side = side;
      k.appendChild(el('span', 'label', T(side) + ' · ' + T('kazan')));
      k.appendChild(stones(p.kazan[side], 90));
      k.appendChild(el('span', 'count', String(p.kazan[side])));
      if (last && last.side === side && last.captured > 0) k.appendChild(el('span', 'captured', '+' + last.captured));
      return k;
    };
    board.appendChild(row(top, true));
    board.appendChild(kazan(top));
    board.appendChild(kazan(bottom));
    board.appendChild(row(bottom, false));
    renderPlayers(bottom, top);
    renderMoves(i);
    renderStatus(p, i);
    renderButtons();
  }

  function seatName(side) {
    const g = st.game;
    if (!g) return T(side) + (root.dataset[side] ? ': ' + root.dataset[side] : '');
    const s = g[side];
    let n = s.name + (s.rating ? ' (' + s.rating + ')' : '');
    if (g.status === 'playing' && st.mode === 'live' && !s.engine_level && !st.presence[side]) n += ' ⚠';
    return T(side) + ': ' + n;
  }

  function fmtClock(ms) {
    if (ms <= 0) return '0:00';
    if (ms >= 86400000) return Math.floor(ms / 86400000) + 'd ' + Math.floor((ms % 86400000) / 3600000) + 'h';
    const s = Math.floor(ms / 1000), m = Math.floor(s / 60), h = Math.floor(m / 60);
    const ss = String(s % 60).padStart(2, '0');
    if (h > 0) return h + ':' + String(m % 60).padStart(2, '0') + ':' + ss;
    return m + ':' + ss + (ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '');
  }

  function clockOf(side) {
    const c = st.clock;
    if (!c || !st.game || !st.game.tc) return null;
    let ms = side === 'white' ? c.white_ms : c.black_ms;
    if (c.running === side && st.game.status === 'playing') ms -= Date.now() - st.clockAt;
    return ms;
  }

  function renderPlayers(bottom, top) {
    for (const [id, side] of [['player-top', top], ['player-bottom', bottom]]) {
      const box = $(id);
      if (!box) continue;
      box.querySelector('.name').textContent = seatName(side);
      const ms = clockOf(side);
      const c = box.querySelector('.clock');
      c.textContent = ms === null ? '' : fmtClock(ms);
      c.classList.toggle('running', !!(st.clock && st.clock.running === side));
      c.classList.toggle('low', ms !== null && ms < 20000);
    }
  }

  function renderMoves(i) {
    const list = $('moves');
    if (!list) return;
    list.textContent = '';
    let li = null, num = 1;
    st.moves.forEach((m, k) => {
      const white = m.by === 'white';
      if (white || !li) {
        li = el('li');
        li.value = num++;
        list.appendChild(li);
        if (!white) li.appendChild(el('span', 'ply empty', '…'));
      }
      const a = el('button', 'ply' + (k + 1 === i ? ' current' : ''), m.notation);
      a.type = 'button';
      a.addEventListener('click', () => { st.view = k + 1; render(); });
      li.appendChild(a);
    });
    if (st.view < 0) list.scrollTop = list.scrollHeight;
  }

  function renderStatus(p, i) {
    const s = $('status');
    if (!s) return;
    const g = st.game;
    let text = '';
    if (st.mode === 'live' && !st.connected) text = T('reconnecting');
    else if (g && g.status === 'aborted') text = T('aborted');
    else if (g && g.status === 'ended') text = T('over') + ': ' + g.result + ' (' + g.termination + ') ' + g.score[0] + '–' + g.score[1];
    else if (!g && i === st.positions.length - 1 && root.dataset.result) text = T('over') + ': ' + root.dataset.result;
    else if (playing() && st.you && p.turn === st.you) text = T('yourturn');
    else text = T('tomove').replace('%s', T(p.turn));
    if (st.mode === 'live' && !st.you && g) text += ' · ' + T('spectator');
    if (i > 0 && st.moves[i - 1] && st.moves[i - 1].captured > 0) text += ' · ' + st.moves[i - 1].notation + ' ' + T('captured').replace('0', st.moves[i - 1].captured);
    s.textContent = text;
    root.dataset.status = g ? g.status : '';
    root.dataset.ply = String(st.positions.length - 1);
    root.dataset.turn = p.turn;
  }

  function show(id, on) { const b = $(id); if (b) b.hidden = !on; }

  function renderButtons() {
    const g = st.game;
    const live = playing() && !!st.you;
    show('resign', live && st.control);
    show('draw', live && st.control && !(g.draw_offer && g.draw_offer !== st.you));
    show('accept-draw', live && st.control && g.draw_offer && g.draw_offer !== st.you);
    show('decline-draw', live && st.control && g.draw_offer && g.draw_offer !== st.you);
    show('abort', live && st.control && g.can_abort);
    show('take-control', live && !st.control);
    let claim = false;
    if (live && st.control && g.tc.indexOf('d') < 0) {
      const opp = other(st.you);
      if (!g[opp].engine_level && !st.presence[opp]) {
        const gone = st.presence.left[opp === 'white' ? 0 : 1] + (Date.now() - st.presence.at);
        claim = gone >= g.grace_ms;
      }
    }
    show('claim', claim);
  }

  // ---- the websocket ----

  function send(m) {
    if (st.ws && st.ws.readyState === WebSocket.OPEN) st.ws.send(JSON.stringify(m));
  }

  function sendMove(h) {
    st.pending = true;
    send({ type: 'move', ply: st.positions.length - 1, hole: h });
    render();
  }

  function applyState(g) {
    st.game = g;
    st.positions = g.positions;
    st.moves = g.moves;
    st.legal = g.legal || [];
    st.clock = g.clock;
    st.clockAt = Date.now();
    if (g.you !== undefined) {
      if (g.you && g.you !== st.you) st.flipped = false;
      st.you = g.you || '';
      st.control = !!g.control;
    }
    st.pending = false;
  }

  function onMessage(ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    switch (m.type) {
      case 'state':
        applyState(m);
        break;
      case 'move':
        if (m.ply !== st.positions.length) { send({ type: 'sync' }); return; }
        st.positions.push(m.fen);
        st.moves.push({ hole: m.hole, notation: m.notation, by: m.by, captured: m.captured, landing: m.landing });
        st.legal = m.legal || [];
        st.game.ply = m.ply;
        st.game.draw_offer = '';
        st.game.can_abort = st.game.can_abort && m.by !== st.you;
        st.clock = m.clock; st.clockAt = Date.now();
        st.pending = false;
        beep(m.captured > 0 ? 660 : 440);
        break;
      case 'end':
        Object.assign(st.game, { status: m.status, result: m.result, termination: m.termination, score: m.score });
        st.legal = [];
        if (st.clock) st.clock.running = '';
        beep(220);
        break;
      case 'draw_offer':
        st.game.draw_offer = m.by;
        break;
      case 'draw_declined':
        st.game.draw_offer = '';
        break;
      case 'presence':
        st.presence = { white: m.white, black: m.black, left: m.left_ms, at: Date.now() };
        break;
      case 'control':
        st.control = m.in_control;
        break;
      case 'error':
        st.pending = false;
        if (m.code === 'stale_move' || m.code === 'future_ply' || m.code === 'duplicate_move') send({ type: 'sync' });
        flash(errorTexts[m.code] || m.message);
        break;
    }
    render();
  }

  function flash(msg) {
    const s = $('status');
    if (s) { s.textContent = msg; s.classList.add('flash'); setTimeout(() => s.classList.remove('flash'), 1500); }
  }

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(proto + '//' + location.host + '/api/games/' + encodeURIComponent(st.id) + '/ws');
    st.ws = ws;
    ws.onopen = () => { st.connected = true; st.retry = 0; };
    ws.onmessage = onMessage;
    ws.onclose = () => {
      st.connected = false;
      st.pending = false;
      render();
      if (st.game && st.game.status !== 'playing' && st.game.status !== undefined && st.retry > 0) return;
      const wait = Math.min(500 * Math.pow(2, st.retry++), 5000);
      setTimeout(connect, wait);
    };
  }

  // ---- sound ----
  let audio = null;
  function beep(freq) {
    if (!st.sound) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = freq; g.gain.value = 0.05;
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.08);
    } catch (e) { /* no audio */ }
  }

  // ---- controls ----
  function on(id, f) { const b = $(id); if (b) b.addEventListener('click', f); }
  on('flip', () => { st.flipped = !st.flipped; render(); });
  on('first', () => { st.view = 0; render(); });
  on('prev', () => { const { i } = current(); st.view = Math.max(0, i - 1); render(); });
  on('next', () => { const { i } = current(); st.view = i + 1 >= st.positions.length - 1 ? -1 : i + 1; render(); });
  on('last', () => { st.view = -1; render(); });
  on('resign', () => { if (confirm(T('resign'))) send({ type: 'resign' }); });
  on('draw', () => send({ type: 'draw_offer' }));
  on('accept-draw', () => send({ type: 'draw_accept' }));
  on('decline-draw', () => send({ type: 'draw_decline' }));
  on('abort', () => send({ type: 'abort' }));
  on('claim', () => send({ type: 'claim_win' }));
  on('take-control', () => send({ type: 'take_control' }));
  const snd = $('sound');
  if (snd) { snd.checked = st.sound; snd.addEventListener('change', () => { st.sound = snd.checked; localStorage.setItem('toguz.sound', st.sound ? '1' : '0'); }); }
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA') return;
    if (e.key === 'ArrowLeft') $('prev') && $('prev').click();
    if (e.key === 'ArrowRight') $('next') && $('next').click();
  });

  setInterval(() => { if (playing()) { const { p } = current(); if (p) { renderPlayers(bottomSide(), other(bottomSide())); renderButtons(); } } }, 200);

  if (st.mode === 'live') connect();
  render();
})();
