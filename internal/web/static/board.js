// The Toguz Kumalak board: live play over the game websocket (docs/api.md)
// and the replay of finished or imported games. Plain JavaScript, no
// dependencies; the server renders the page around it. It implements no
// rule of the game: the server sends the legal moves, each move's landing,
// capture and trail (the holes its stones fell in, which the animation
// follows), all from the rules library. Every text comes from the page
// (data-texts, in the page's language).
(function () {
  'use strict';
  const root = document.getElementById('game');
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const { parseJSON, translator } = BoardView; // boardview.js
  const texts = parseJSON(root.dataset.texts, {});
  const holeNames = parseJSON(root.dataset.holenames, []);
  // Short glosses of the names (ru, en), where the page gives them.
  const holeGlosses = parseJSON(root.dataset.holeglosses, []);
  const errorTexts = parseJSON(root.dataset.errors, {});
  const reduceMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)');

  // T is the text of key, formatted; old pages give data-t-* attributes.
  // N is the text of key in the plural form that n takes, formatted.
  const { T, N } = translator(texts, (key) => {
    const short = key.replace(/^game\./, '');
    const s = root.dataset['t' + short.charAt(0).toUpperCase() + short.slice(1)];
    return s === undefined ? undefined : s.replace('0', '%d');
  });
  const outcomes = parseJSON(root.dataset.outcomes, {});

  const st = {
    mode: root.dataset.mode || 'replay', // "live" or "replay"
    id: root.dataset.id || '',
    game: null,         // the last state message (live)
    positions: parseJSON(root.dataset.positions, []),
    moves: parseJSON(root.dataset.moves, []),
    final: root.dataset.final || '', // the board after an atsyrau's collection
    legal: [],          // the holes the player to move may play (live)
    view: -1,           // index of the position shown; -1 follows the last
    flipped: false,
    you: '',
    control: false,
    clock: null, clockAt: 0,
    abortAt: 0,         // when the first-move timeout aborts the game (local time), 0: none
    presence: { white: true, black: true, left: [0, 0], at: 0 },
    pending: false,
    premove: 0,         // the hole queued to play when it is our turn
    declined: '',       // who declined the last draw offer, until the next move
    anim: [],           // moves waiting to be animated: {ply, trail, by, hole}
    frame: null,        // the board the animation shows now, or null
    shownPly: -1,       // the last ply whose animation is done
    ws: null, retry: 0, connected: false,
  };
  st.sound = localStorage.getItem('toguz.sound') === '1';
  st.notation = localStorage.getItem('toguz.notation') !== '0';
  st.names = localStorage.getItem('toguz.names') === '1';
  st.shownPly = st.positions.length - 1;

  const { parseFEN, other, el, stones } = BoardView; // boardview.js

  function bottomSide() {
    const me = st.you || 'white';
    return st.flipped ? other(me) : me;
  }

  // current is the position shown: the animation's frame, or the one the
  // replay is at (after an atsyrau, the last one with the stones collected).
  function current() {
    const last = Math.min(st.shownPly, st.positions.length - 1);
    const i = st.view < 0 ? last : Math.min(st.view, last);
    if (!st.positions.length) return { i, p: null };
    if (st.frame && st.view < 0) return { i, p: st.frame, animating: true };
    let fen = st.positions[i];
    const final = st.game ? st.game.final_fen : st.final;
    if (final && i === st.positions.length - 1 && ended()) fen = final;
    return { i, p: parseFEN(fen) };
  }

  function ended() {
    return st.game ? st.game.status !== 'playing' : st.mode === 'replay';
  }

  function playing() {
    return st.mode === 'live' && st.game && st.game.status === 'playing';
  }

  // myTurn: the game, as the server last said, waits for our move.
  function myTurn() {
    if (!playing() || !st.you || !st.control || st.pending) return false;
    return parseFEN(st.positions[st.positions.length - 1]).turn === st.you;
  }

  function canMove(i, animating) {
    return !animating && st.view < 0 && i === st.positions.length - 1 && myTurn();
  }

  function holeName(h) {
    const name = holeNames[h - 1] || '', gloss = holeGlosses[h - 1] || '';
    return gloss ? name + ' (' + gloss + ')' : name;
  }

  function render() {
    const { i, p, animating } = current();
    const board = $('board');
    board.textContent = '';
    if (!p) return;
    const bottom = bottomSide(), top = other(bottom);
    let last = null;
    if (i > 0 && st.moves[i - 1] && !animating) {
      const mv = st.moves[i - 1];
      last = { side: mv.by, hole: mv.hole, land: mv.landing || null, captured: mv.captured };
    }
    const movable = canMove(i, animating);
    const premoving = !animating && st.premove && st.view < 0;
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
        hole.appendChild(el('span', 'num', String(h)));
        if (st.names && holeNames[h - 1]) {
          const name = el('span', 'hname', holeNames[h - 1]);
          name.setAttribute('aria-hidden', 'true'); // the label says it
          name.setAttribute('translate', 'no'); // the game's own words, in every language
          hole.appendChild(name);
        }
        if (cell.t) {
          hole.classList.add('tuzdik');
          { const x = el('span', 'mark', 'X'); x.translate = false; hole.appendChild(x); } // the tuzdik's mark, a sign, not a word
          hole.setAttribute('aria-label', T('game.tuzdiklabel', h, holeName(h), T('game.' + other(side))));
          hole.title = hole.getAttribute('aria-label');
        } else {
          hole.appendChild(stones(cell.n, 24));
          hole.appendChild(el('span', 'count', String(cell.n)));
          hole.setAttribute('aria-label', N('game.holelabel', cell.n, h, holeName(h), cell.n));
          hole.title = hole.getAttribute('aria-label');
        }
        if (last && last.side === side && last.hole === h) hole.classList.add('from');
        if (last && last.land && last.land.side === side && last.land.hole === h) hole.classList.add('to');
        if (premoving && side === st.you && st.premove === h) hole.classList.add('premove');
        const ok = movable && side === st.you && st.legal.indexOf(h) >= 0;
        // Holes stay focusable (aria-disabled, not disabled) so that a
        // screen reader can read every one of them.
        hole.setAttribute('aria-disabled', ok ? 'false' : 'true');
        if (ok) hole.classList.add('playable');
        hole.addEventListener('click', () => choose(side, h));
        r.appendChild(hole);
      }
      return r;
    };
    const kazan = (side) => {
      const k = el('div', 'kazan ' + side + (side === bottom ? ' mine' : ' theirs'));
      k.dataset.side = side;
      k.setAttribute('role', 'img');
      k.setAttribute('aria-label', N('game.kazanlabel', p.kazan[side], T('game.' + side), p.kazan[side]));
      k.appendChild(el('span', 'label', T('game.' + side) + ' · ' + T('game.kazan')));
      k.appendChild(stones(p.kazan[side], 90));
      k.appendChild(el('span', 'count', String(p.kazan[side])));
      if (last && last.side === side && last.captured > 0) k.appendChild(el('span', 'captured', '+' + last.captured));
      return k;
    };
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#board .hole');
    const refocus = focused ? { side: focused.dataset.side, hole: focused.dataset.hole } : null;
    board.appendChild(row(top, true));
    board.appendChild(kazan(top));
    board.appendChild(kazan(bottom));
    board.appendChild(row(bottom, false));
    if (refocus) {
      const again = board.querySelector(`.hole[data-side="${refocus.side}"][data-hole="${refocus.hole}"]`);
      if (again) again.focus();
    }
    root.classList.toggle('no-notation', !st.notation);
    root.dataset.animating = animating ? '1' : '';
    renderPlayers(bottom, top);
    renderMoves(i);
    document.dispatchEvent(new CustomEvent('toguz:render', { detail: { ended: ended() } })); // review.js
    renderStatus(p, i);
    renderNotice();
    renderButtons();
    if (!performance.getEntriesByName('toguz:board-ready').length) performance.mark('toguz:board-ready'); // the first board drawn (internal/e2e measures it)
  }

  function seatName(side) {
    const g = st.game;
    if (!g) return T('game.' + side) + (root.dataset[side] ? ': ' + root.dataset[side] : '');
    const s = g[side];
    // The engine's seat is named in the page's language.
    let n = s.engine_level ? T('game.engine', s.engine_level) : s.name + (s.rating ? ' (' + s.rating + ')' : '');
    if (g.status === 'playing' && st.mode === 'live' && !s.engine_level && !st.presence[side]) n += ' ⚠';
    return T('game.' + side) + ': ' + n;
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
      c.dataset.ms = ms === null ? '' : String(Math.max(0, Math.round(ms)));
      c.classList.toggle('running', !!(st.clock && st.clock.running === side && playing()));
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
      a.dataset.ply = k + 1; // review.js marks the plies by it
      if (k + 1 === i) a.setAttribute('aria-current', 'step');
      a.addEventListener('click', () => { finishAnimation(); st.view = k + 1; render(); });
      li.appendChild(a);
    });
    if (st.view < 0) list.scrollTop = list.scrollHeight;
  }

  // resultText is the sentence of a game's end: "Game over: 0-1 Black won
  // on time (10–10)", and after an atsyrau what was collected.
  function resultText(g) {
    // The sentence of the result and termination (the server's texts),
    // with the score; an atsyrau says where its stones came from.
    const o = (g.reason && outcomes[g.result + ' ' + g.termination + ' ' + g.reason]) ||
      outcomes[g.result + ' ' + g.termination] || outcomes[g.result + ' none'];
    let s = o ? o.replace('{w}', g.score[0]).replace('{b}', g.score[1]) : T('game.over');
    if (g.collected) {
      const turn = other(g.collected.side);
      s += ' · ' + N('game.collected', g.collected.stones, T('game.' + turn), T('game.' + g.collected.side), g.collected.stones);
    }
    return s;
  }

  function renderStatus(p, i) {
    const s = $('status');
    if (!s) return;
    const g = st.game;
    let text = '';
    // Following the game (an animation may still show the last move), the
    // status is the game's: its result as soon as it is over.
    const atEnd = st.view < 0 || i === st.positions.length - 1;
    if (st.mode === 'live' && !st.connected) text = T('game.reconnecting');
    else if (g && g.status === 'aborted') text = T('game.aborted');
    else if (g && g.status === 'ended' && atEnd) text = resultText(g);
    else if (!g && atEnd && root.dataset.result) text = T('game.over') + ': ' + root.dataset.result;
    else if (playing() && st.you && p.turn === st.you && atEnd) text = T('game.yourturn');
    else text = T('game.tomove', T('game.' + p.turn));
    if (st.mode === 'live' && !st.you && g) text += ' · ' + T('game.spectator');
    if (i > 0 && st.moves[i - 1] && st.moves[i - 1].captured > 0) text += ' · ' + st.moves[i - 1].notation + ' ' + T('game.captured', st.moves[i - 1].captured);
    if (s.textContent !== text && !s.classList.contains('flash')) s.textContent = text;
    root.dataset.status = g ? g.status : '';
    root.dataset.ply = String(i);
    root.dataset.turn = p.turn;
    root.dataset.premove = String(st.premove || '');
  }

  // noticeText: a draw offer, a declined one, the first-move countdown, or
  // a queued premove, as a sentence.
  function noticeText() {
    const g = st.game;
    if (!playing()) return '';
    if (g.draw_offer) {
      if (!st.you) return T('game.drawside', T('game.' + g.draw_offer));
      return g.draw_offer === st.you ? T('game.drawyou') : T('game.drawthem');
    }
    if (st.declined) {
      if (!st.you) return T('game.declinedside', T('game.' + st.declined));
      return st.declined === st.you ? T('game.declinedyou') : T('game.declinedthem');
    }
    if (st.premove) return T('game.premove', st.premove);
    if (st.abortAt) {
      const left = fmtClock(Math.max(0, st.abortAt - Date.now()));
      const turn = parseFEN(st.positions[st.positions.length - 1]).turn;
      return turn === st.you ? T('game.abortyou', left) : T('game.abortother', T('game.' + turn), left);
    }
    return '';
  }

  function renderNotice() {
    const n = $('notice');
    if (!n) return;
    const text = noticeText();
    if (n.textContent !== text) n.textContent = text;
  }

  // announce says text to screen readers (the aria-live region).
  function announce(text) {
    const a = $('announce');
    if (a && text) a.textContent = text;
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

  // ---- the animation ----

  // The stones of a move fall one by one along its trail (from the
  // server); the whole move takes under half a second, and a queued reply
  // starts only after the move before it has been seen. Skipped under
  // prefers-reduced-motion.
  const STEP_MAX = 60, MOVE_MS = 450, HOLD_MS = 300;
  let animTimer = 0;

  function animate(ply, trail, by, hole) {
    st.anim.push({ ply, trail, by, hole });
    if (!animTimer && !st.frame) nextAnimation();
  }

  function nextAnimation() {
    animTimer = 0;
    const a = st.anim.shift();
    if (!a) { st.frame = null; render(); return; }
    if ((reduceMotion && reduceMotion.matches) || !a.trail || !a.trail.length || a.ply !== st.shownPly + 1) {
      doneAnimation(a);
      return;
    }
    const f = parseFEN(st.positions[a.ply - 1]);
    f.rows[a.by][a.hole - 1].n = 0;
    f.turn = other(a.by);
    st.frame = f;
    const step = Math.min(STEP_MAX, MOVE_MS / a.trail.length);
    let k = 0;
    const tick = () => {
      const h = a.trail[k++]; // White's hole h is h, Black's -h
      const cell = st.frame.rows[h > 0 ? 'white' : 'black'][Math.abs(h) - 1];
      if (!cell.t) cell.n += 1;
      render();
      if (k < a.trail.length) animTimer = setTimeout(tick, step);
      else animTimer = setTimeout(() => doneAnimation(a), step);
    };
    render();
    animTimer = setTimeout(tick, step);
  }

  function doneAnimation(a) {
    st.frame = null;
    st.shownPly = Math.max(st.shownPly, a.ply);
    render();
    if (st.anim.length) animTimer = setTimeout(nextAnimation, HOLD_MS);
    else animTimer = 0;
  }

  // finishAnimation shows the last position at once (a click, a key, a
  // new state).
  function finishAnimation() {
    if (animTimer) clearTimeout(animTimer);
    animTimer = 0;
    st.anim = [];
    st.frame = null;
    st.shownPly = st.positions.length - 1;
  }

  // ---- moves: clicks, keys, premoves ----

  // choose is a click (or key) on hole h of side: a move when it is ours to
  // play, a premove (or its cancellation) while the opponent is to move.
  function choose(side, h) {
    if (!playing() || !st.you || !st.control || side !== st.you || st.view >= 0 && st.view < st.positions.length - 1) return;
    if (myTurn()) {
      if (st.legal.indexOf(h) < 0) return;
      finishAnimation();
      sendMove(h);
      return;
    }
    if (st.pending) return;
    // The server judges the premove when it is sent; the board only queues it.
    if (st.premove === h) { st.premove = 0; announce(T('game.premovegone')); }
    else { st.premove = h; announce(T('game.premove', h)); }
    render();
  }

  // playPremove sends the queued premove once it is our turn; a hole that
  // is no longer playable cancels it.
  function playPremove() {
    if (!st.premove || !myTurn()) return;
    const h = st.premove;
    st.premove = 0;
    if (st.legal.indexOf(h) < 0) { announce(T('game.premovegone')); return; }
    sendMove(h);
  }

  // ---- the websocket ----

  function send(m) {
    if (st.ws && st.ws.readyState === WebSocket.OPEN) st.ws.send(JSON.stringify(m));
  }
  // Other scripts of the page (chat, rematch) send on the game's socket.
  window.toguzSend = send;

  function sendMove(h) {
    st.pending = true;
    send({ type: 'move', ply: st.positions.length - 1, hole: h });
    render();
  }

  function applyState(g) {
    finishAnimation();
    st.game = g;
    st.positions = g.positions;
    st.moves = g.moves;
    st.legal = g.legal || [];
    st.clock = g.clock;
    st.clockAt = Date.now();
    st.abortAt = g.abort_in_ms ? Date.now() + g.abort_in_ms : 0;
    st.shownPly = st.positions.length - 1;
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
    // Other scripts of the page (chat, rematch) hear every server message.
    document.dispatchEvent(new CustomEvent('toguz:message', { detail: m }));
    switch (m.type) {
      case 'state':
        applyState(m);
        break;
      case 'move': {
        if (!st.game || m.ply !== st.positions.length) { send({ type: 'sync' }); return; }
        st.positions.push(m.fen);
        st.moves.push({ hole: m.hole, notation: m.notation, by: m.by, captured: m.captured, landing: m.landing });
        st.legal = m.legal || [];
        st.game.ply = m.ply;
        st.game.draw_offer = '';
        st.declined = '';
        st.game.can_abort = st.game.can_abort && m.by !== st.you;
        st.clock = m.clock; st.clockAt = Date.now();
        st.abortAt = m.abort_in_ms ? Date.now() + m.abort_in_ms : 0;
        st.pending = false;
        let said = T('game.plays', T('game.' + m.by), m.notation);
        if (m.captured > 0) said += '. ' + N('game.captures', m.captured, T('game.' + m.by), m.captured);
        announce(said);
        beep(m.captured > 0 ? 660 : 440);
        animate(m.ply, m.trail, m.by, m.hole);
        playPremove();
        break;
      }
      case 'end':
        if (!st.game) return;
        Object.assign(st.game, { status: m.status, result: m.result, termination: m.termination, reason: m.reason || '', score: m.score,
          collected: m.collected || null, final_fen: m.final_fen || '' });
        // The clocks freeze at the server's final values.
        if (m.clock) { st.clock = m.clock; st.clockAt = Date.now(); } else if (st.clock) st.clock.running = '';
        st.legal = [];
        st.premove = 0;
        st.abortAt = 0;
        announce(m.status === 'aborted' ? T('game.aborted') : resultText(st.game));
        beep(220);
        break;
      case 'draw_offer':
        if (!st.game) return;
        st.game.draw_offer = m.by;
        st.declined = '';
        break;
      case 'draw_declined':
        if (!st.game) return;
        st.game.draw_offer = '';
        st.declined = m.by;
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
    const n = noticeText();
    if (n && (m.type === 'draw_offer' || m.type === 'draw_declined')) announce(n);
  }

  function flash(msg) {
    const s = $('status');
    if (!s) return;
    s.classList.remove('flash');
    s.textContent = msg;
    s.classList.add('flash');
    announce(msg);
    setTimeout(() => { s.classList.remove('flash'); render(); }, 1500);
  }

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(proto + '//' + location.host + '/api/games/' + encodeURIComponent(st.id) + '/ws');
    st.ws = ws;
    window.toguzSend = send;
    ws.onopen = () => { st.connected = true; st.retry = 0; };
    ws.onmessage = onMessage;
    ws.onclose = (ev) => {
      st.connected = false;
      st.pending = false;
      render();
      if (ev.reason && errorTexts[ev.reason]) flash(errorTexts[ev.reason]);
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
  function step(to) { finishAnimation(); st.view = to; render(); }
  function viewIndex() { return st.view < 0 ? st.positions.length - 1 : st.view; }
  on('flip', () => { st.flipped = !st.flipped; render(); });
  on('first', () => step(0));
  on('prev', () => step(Math.max(0, viewIndex() - 1)));
  on('next', () => { const i = viewIndex(); step(i + 1 >= st.positions.length - 1 ? -1 : i + 1); });
  on('last', () => step(-1));
  on('resign', () => { if (confirm(T('game.confirmresign'))) send({ type: 'resign' }); });
  on('draw', () => send({ type: 'draw_offer' }));
  on('accept-draw', () => send({ type: 'draw_accept' }));
  on('decline-draw', () => send({ type: 'draw_decline' }));
  on('abort', () => send({ type: 'abort' }));
  on('claim', () => send({ type: 'claim_win' }));
  on('take-control', () => send({ type: 'take_control' }));
  function toggle(id, key, get, set) {
    const box = $(id);
    if (!box) return;
    box.checked = get();
    box.addEventListener('change', () => { set(box.checked); localStorage.setItem(key, box.checked ? '1' : '0'); render(); });
  }
  toggle('sound', 'toguz.sound', () => st.sound, (v) => { st.sound = v; });
  toggle('show-notation', 'toguz.notation', () => st.notation, (v) => { st.notation = v; });
  toggle('show-names', 'toguz.names', () => st.names, (v) => { st.names = v; });
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (e.ctrlKey || e.altKey || e.metaKey || t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable) return;
    if (e.key === 'ArrowLeft') { $('prev') && $('prev').click(); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { $('next') && $('next').click(); e.preventDefault(); }
    else if (e.key === 'Home') { $('first') && $('first').click(); e.preventDefault(); }
    else if (e.key === 'End') { $('last') && $('last').click(); e.preventDefault(); }
    else if (e.key === 'Escape' && st.premove) { st.premove = 0; announce(T('game.premovegone')); render(); }
    else if (/^[1-9]$/.test(e.key) && st.you) {
      const h = +e.key;
      const { p } = current();
      if (p && h <= p.holes) { e.preventDefault(); choose(st.you, h); }
    }
  });

  setInterval(() => {
    if (!playing()) return;
    const { p } = current();
    if (p) { renderPlayers(bottomSide(), other(bottomSide())); renderNotice(); renderButtons(); }
  }, 200);

  if (st.mode === 'live') connect();
  render();
})();
