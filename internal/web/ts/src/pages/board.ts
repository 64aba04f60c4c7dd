// The Toguz Kumalak board: live play over the game websocket (docs/api.md)
// and the replay of finished or imported games; the server renders the
// page around it. It implements no rule of the game: the server sends each
// position as JSON (internal/posjson) beside its FEN, the legal moves, each
// move's landing, capture and trail (the holes its stones fell in, which
// the animation follows), all from the rules library. Every text comes
// from the page (data-texts, in the page's language).

import { drawBoard } from '../lib/boardview';
import { el, maybe, parseJSON, translator, typing, who, type Texts } from '../lib/dom';
import type { Landing } from '../lib/engine';
import { other, view, type PositionJSON, type Side, type View } from '../lib/position';

interface Move { hole: number; notation: string; by: Side; captured: number; landing?: Landing | null }
interface Seat { name: string; guest?: boolean; engine_level: number; rating: number; rating_diff?: number }
interface Clock { white_ms: number; black_ms: number; running: Side | ''; deadline_ms?: number }
interface Collected { side: Side; stones: number }
interface Game {
  status: string;
  positions: string[];
  boards: PositionJSON[];
  moves: Move[];
  legal?: number[];
  clock: Clock;
  white: Seat;
  black: Seat;
  tc: string;
  draw_offer: Side | '';
  result: string;
  termination: string;
  reason?: string;
  score: [number, number];
  you?: Side | '';
  control?: boolean;
  grace_ms: number;
  can_abort?: boolean;
  abort_in_ms?: number;
  collected?: Collected | null;
  final_fen?: string;
  final_board?: PositionJSON | null;
  ply: number;
}
interface Message {
  type: string;
  [k: string]: unknown;
}

const root = document.getElementById('game');
if (root) board(root);

function board(root: HTMLElement): void {
  const $ = maybe;
  const texts = parseJSON<Texts>(root.dataset.texts, {});
  const holeNames = parseJSON<string[]>(root.dataset.holenames, []);
  // Short glosses of the names (ru, en), where the page gives them.
  const holeGlosses = parseJSON<string[]>(root.dataset.holeglosses, []);
  const errorTexts = parseJSON<Record<string, string>>(root.dataset.errors, {});
  const reduceMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;

  // T is the text of key, formatted; old pages give data-t-* attributes.
  // N is the text of key in the plural form that n takes, formatted.
  const { T, N } = translator(texts, (key) => {
    const short = key.replace(/^game\./, '');
    const s = root.dataset['t' + short.charAt(0).toUpperCase() + short.slice(1)];
    return s === undefined ? undefined : s.replace('0', '%d');
  });
  const outcomes = parseJSON<Record<string, string>>(root.dataset.outcomes, {});

  const st = {
    mode: root.dataset.mode || 'replay', // "live" or "replay"
    id: root.dataset.id || '',
    game: null as Game | null, // the last state message (live)
    positions: parseJSON<string[]>(root.dataset.positions, []), // the FENs, for the plies' count
    boards: parseJSON<PositionJSON[]>(root.dataset.boards, []), // the same positions, drawn
    moves: parseJSON<Move[]>(root.dataset.moves, []),
    final: parseJSON<PositionJSON | null>(root.dataset.finalBoard, null), // the board after an atsyrau's collection
    legal: [] as number[], // the holes the player to move may play (live)
    view: -1, // index of the position shown; -1 follows the last
    flipped: false,
    you: '' as Side | '',
    control: false,
    clock: null as Clock | null, clockAt: 0,
    abortAt: 0, // when the first-move timeout aborts the game (local time), 0: none
    presence: { white: true, black: true, left: [0, 0], at: 0 },
    pending: false,
    premove: 0, // the hole queued to play when it is our turn
    declined: '' as Side | '', // who declined the last draw offer, until the next move
    anim: [] as Anim[], // moves waiting to be animated
    frame: null as View | null, // the board the animation shows now, or null
    shownPly: -1, // the last ply whose animation is done
    ws: null as WebSocket | null, retry: 0, connected: false,
    sound: localStorage.getItem('toguz.sound') === '1',
    notation: localStorage.getItem('toguz.notation') !== '0',
    names: localStorage.getItem('toguz.names') === '1',
  };
  st.shownPly = st.positions.length - 1;

  interface Anim { ply: number; trail: number[]; by: Side; hole: number }

  function bottomSide(): Side {
    const me: Side = st.you || 'white';
    return st.flipped ? other(me) : me;
  }

  // current is the position shown: the animation's frame, or the one the
  // replay is at (after an atsyrau, the last one with the stones collected).
  function current(): { i: number; p: View | null; animating?: boolean } {
    const last = Math.min(st.shownPly, st.positions.length - 1);
    const i = st.view < 0 ? last : Math.min(st.view, last);
    if (!st.positions.length || !st.boards[i]) return { i, p: null };
    if (st.frame && st.view < 0) return { i, p: st.frame, animating: true };
    let pos = st.boards[i];
    const final = st.game ? st.game.final_board : st.final;
    if (final && i === st.positions.length - 1 && ended()) pos = final;
    return { i, p: view(pos) };
  }

  function lastTurn(): Side {
    return st.boards[st.boards.length - 1].turn;
  }

  function ended(): boolean {
    return st.game ? st.game.status !== 'playing' : st.mode === 'replay';
  }

  function playing(): boolean {
    return st.mode === 'live' && !!st.game && st.game.status === 'playing';
  }

  // myTurn: the game, as the server last said, waits for our move.
  function myTurn(): boolean {
    if (!playing() || !st.you || !st.control || st.pending) return false;
    return lastTurn() === st.you;
  }

  function canMove(i: number, animating: boolean): boolean {
    return !animating && st.view < 0 && i === st.positions.length - 1 && myTurn();
  }

  function holeName(h: number): string {
    const name = holeNames[h - 1] || '', gloss = holeGlosses[h - 1] || '';
    return gloss ? name + ' (' + gloss + ')' : name;
  }

  function render(): void {
    const { i, p, animating } = current();
    const box = $('board');
    if (!box) return;
    box.textContent = '';
    if (!p) return;
    const bottom = bottomSide(), top = other(bottom);
    let last: { side: Side; hole: number; land: Landing | null; captured: number } | null = null;
    if (i > 0 && st.moves[i - 1] && !animating) {
      const mv = st.moves[i - 1];
      last = { side: mv.by, hole: mv.hole, land: mv.landing || null, captured: mv.captured };
    }
    const movable = canMove(i, !!animating);
    const premoving = !animating && st.premove && st.view < 0;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('#board .hole') : null;
    const refocus = focused ? { side: focused.dataset.side, hole: focused.dataset.hole } : null;
    drawBoard(box, p, {
      T, N, bottom, holeName,
      shownName: (h) => (st.names ? holeNames[h - 1] || '' : ''),
      playable: (side, h) => movable && side === st.you && st.legal.indexOf(h) >= 0,
      decorate: (hole, side, h) => {
        if (last && last.side === side && last.hole === h) hole.classList.add('from');
        if (last && last.land && last.land.side === side && last.land.hole === h) hole.classList.add('to');
        if (premoving && side === st.you && st.premove === h) hole.classList.add('premove');
      },
      onClick: choose,
      captured: last ? { side: last.side, count: last.captured } : null,
    });
    if (refocus) {
      const again = box.querySelector<HTMLElement>(`.hole[data-side="${refocus.side}"][data-hole="${refocus.hole}"]`);
      if (again) again.focus();
    }
    root.classList.toggle('no-notation', !st.notation);
    root.dataset.animating = animating ? '1' : '';
    renderPlayers(bottom, top);
    renderMoves(i, !!animating);
    document.dispatchEvent(new CustomEvent('toguz:render', { detail: { ended: ended() } })); // review.js
    renderStatus(p, i, !!animating);
    renderNotice();
    renderButtons();
    if (!performance.getEntriesByName('toguz:board-ready').length) performance.mark('toguz:board-ready'); // the first board drawn (internal/e2e measures it)
  }

  function seatName(side: Side): string {
    const g = st.game;
    if (!g) return T('game.' + side) + (root.dataset[side] ? ': ' + root.dataset[side] : '');
    const s = g[side];
    // The engine's seat is named in the page's language.
    let n = s.engine_level ? T('game.engine', s.engine_level) : who(s.name, T('game.guestname', '%d')) + (s.rating ? ' (' + s.rating + ratingChange(s.rating_diff) + ')' : '');
    if (g.status === 'playing' && st.mode === 'live' && !s.engine_level && !st.presence[side]) n += ' ⚠';
    return T('game.' + side) + ': ' + n;
  }

  // The change a rated game made to a rating, once it has ended: " +12",
  // " −7" (a minus sign), " ±0".
  function ratingChange(d: number | undefined): string {
    if (d === undefined) return '';
    return ' ' + (d > 0 ? '+' + d : d < 0 ? '\u2212' + -d : '\u00b10');
  }

  function fmtClock(ms: number): string {
    if (ms <= 0) return '0:00';
    if (ms >= 86400000) return Math.floor(ms / 86400000) + 'd ' + Math.floor((ms % 86400000) / 3600000) + 'h';
    const s = Math.floor(ms / 1000), m = Math.floor(s / 60), h = Math.floor(m / 60);
    const ss = String(s % 60).padStart(2, '0');
    if (h > 0) return h + ':' + String(m % 60).padStart(2, '0') + ':' + ss;
    return m + ':' + ss + (ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '');
  }

  function clockOf(side: Side): number | null {
    const c = st.clock;
    if (!c || !st.game || !st.game.tc) return null;
    let ms = side === 'white' ? c.white_ms : c.black_ms;
    if (c.running === side && st.game.status === 'playing') ms -= Date.now() - st.clockAt;
    return ms;
  }

  function renderPlayers(bottom: Side, top: Side): void {
    for (const [id, side] of [['player-top', top], ['player-bottom', bottom]] as const) {
      const box = $(id);
      if (!box) continue;
      (box.querySelector('.name') as HTMLElement).textContent = seatName(side);
      const ms = clockOf(side);
      const c = box.querySelector('.clock') as HTMLElement;
      c.textContent = ms === null ? '' : fmtClock(ms);
      c.dataset.ms = ms === null ? '' : String(Math.max(0, Math.round(ms)));
      c.classList.toggle('running', !!(st.clock && st.clock.running === side && playing()));
      c.classList.toggle('low', ms !== null && ms < 20000);
    }
  }

  // renderMoves lists the moves; following the game, only those the board
  // has shown (or is showing), never one still waiting for its animation.
  function renderMoves(i: number, animating: boolean): void {
    const list = $('moves');
    if (!list) return;
    list.textContent = '';
    let li: HTMLLIElement | null = null, num = 1;
    const shown = st.view < 0 ? st.moves.slice(0, animating ? i + 1 : i) : st.moves;
    shown.forEach((m, k) => {
      const white = m.by === 'white';
      if (white || !li) {
        li = el('li');
        li.value = num++;
        list.appendChild(li);
        if (!white) li.appendChild(el('span', 'ply empty', '…'));
      }
      const a = el('button', 'ply' + (k + 1 === i ? ' current' : ''), m.notation);
      a.type = 'button';
      a.dataset.ply = String(k + 1); // review.js marks the plies by it
      if (k + 1 === i) a.setAttribute('aria-current', 'step');
      a.addEventListener('click', () => { finishAnimation(); st.view = k + 1; render(); });
      li.appendChild(a);
    });
    if (st.view < 0) list.scrollTop = list.scrollHeight;
  }

  // resultText is the sentence of a game's end ("Black won on time,
  // 10–10."), and after an atsyrau what was collected.
  function resultText(g: Game): string {
    // The sentence of the result and termination (the server's texts),
    // with the score; an atsyrau says where its stones came from.
    const o = (g.reason && outcomes[g.result + ' ' + g.termination + ' ' + g.reason]) ||
      outcomes[g.result + ' ' + g.termination] || outcomes[g.result + ' none'];
    let s = o ? o.replace('{w}', String(g.score[0])).replace('{b}', String(g.score[1])) : T('game.over');
    if (g.collected) {
      const turn = other(g.collected.side);
      s += ' · ' + N('game.collected', g.collected.stones, T('game.' + turn), T('game.' + g.collected.side), g.collected.stones);
    }
    return s;
  }

  function renderStatus(p: View, i: number, animating: boolean): void {
    const s = $('status');
    if (!s) return;
    const g = st.game;
    let text: string;
    // The result waits until the board has shown the last move.
    const atEnd = i === st.positions.length - 1 && !animating;
    if (st.mode === 'live' && !st.connected) text = T('game.reconnecting');
    else if (g && g.status === 'aborted') text = T('game.aborted');
    else if (g && g.status === 'ended' && atEnd) text = resultText(g);
    // A finished game's replay: the sentence of its end says it is over.
    else if (!g && atEnd && root.dataset.result) text = root.dataset.result;
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
  function noticeText(): string {
    const g = st.game;
    if (!playing() || !g) return '';
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
      const turn = lastTurn();
      return turn === st.you ? T('game.abortyou', left) : T('game.abortother', T('game.' + turn), left);
    }
    return '';
  }

  function renderNotice(): void {
    const n = $('notice');
    if (!n) return;
    const text = noticeText();
    if (n.textContent !== text) n.textContent = text;
  }

  // announce says text to screen readers (the aria-live region).
  function announce(text: string): void {
    const a = $('announce');
    if (a && text) a.textContent = text;
  }

  function show(id: string, on: boolean): void { const b = $(id); if (b) b.hidden = !on; }

  function renderButtons(): void {
    const g = st.game;
    const live = playing() && !!st.you && !!g;
    const theirOffer = !!g && !!g.draw_offer && g.draw_offer !== st.you;
    show('resign', live && st.control);
    show('draw', live && st.control && !theirOffer);
    show('accept-draw', live && st.control && theirOffer);
    show('decline-draw', live && st.control && theirOffer);
    show('abort', live && st.control && !!g && !!g.can_abort);
    show('take-control', live && !st.control);
    let claim = false;
    if (live && g && st.you && st.control && g.tc.indexOf('d') < 0) {
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

  function animate(ply: number, trail: number[], by: Side, hole: number): void {
    st.anim.push({ ply, trail, by, hole });
    if (!animTimer && !st.frame) nextAnimation();
  }

  function nextAnimation(): void {
    animTimer = 0;
    const a = st.anim.shift();
    if (!a) { st.frame = null; render(); return; }
    if ((reduceMotion && reduceMotion.matches) || !a.trail || !a.trail.length || a.ply !== st.shownPly + 1) {
      doneAnimation(a);
      return;
    }
    const f = view(st.boards[a.ply - 1]);
    f.rows[a.by][a.hole - 1].n = 0;
    f.turn = other(a.by);
    st.frame = f;
    const step = Math.min(STEP_MAX, MOVE_MS / a.trail.length);
    let k = 0;
    const tick = (): void => {
      const h = a.trail[k++]; // White's hole h is h, Black's -h
      const frame = st.frame as View;
      const cell = frame.rows[h > 0 ? 'white' : 'black'][Math.abs(h) - 1];
      if (!cell.t) cell.n += 1;
      render();
      if (k < a.trail.length) animTimer = window.setTimeout(tick, step);
      else animTimer = window.setTimeout(() => doneAnimation(a), step);
    };
    render();
    animTimer = window.setTimeout(tick, step);
  }

  function doneAnimation(a: Anim): void {
    st.frame = null;
    st.shownPly = Math.max(st.shownPly, a.ply);
    render();
    if (st.anim.length) animTimer = window.setTimeout(nextAnimation, HOLD_MS);
    else animTimer = 0;
  }

  // finishAnimation shows the last position at once (a click, a key, a
  // new state).
  function finishAnimation(): void {
    if (animTimer) clearTimeout(animTimer);
    animTimer = 0;
    st.anim = [];
    st.frame = null;
    st.shownPly = st.positions.length - 1;
  }

  // ---- moves: clicks, keys, premoves ----

  // choose is a click (or key) on hole h of side: a move when it is ours to
  // play, a premove (or its cancellation) while the opponent is to move.
  function choose(side: Side, h: number): void {
    if (!playing() || !st.you || !st.control || side !== st.you || (st.view >= 0 && st.view < st.positions.length - 1)) return;
    if (myTurn()) {
      if (st.legal.indexOf(h) < 0) return;
      finishAnimation();
      sendMove(h);
      return;
    }
    if (st.pending) return;
    // The server judges the premove when it is sent; the board only queues it.
    if (st.premove === h) { st.premove = 0; announce(T('game.premovegone')); } else { st.premove = h; announce(T('game.premove', h)); }
    render();
  }

  // playPremove sends the queued premove once it is our turn; a hole that
  // is no longer playable cancels it.
  function playPremove(): void {
    if (!st.premove || !myTurn()) return;
    const h = st.premove;
    st.premove = 0;
    if (st.legal.indexOf(h) < 0) { announce(T('game.premovegone')); return; }
    sendMove(h);
  }

  // ---- the websocket ----

  // What is sent while the socket is not open (a move chosen as the page
  // loads, or while it reconnects) waits until it opens, the last few
  // messages only, and the newest move and sync only (a move chosen again
  // replaces the one waiting, which the server would refuse as a second
  // move for the same ply): the server judges a move's ply then, and
  // refuses a stale one instead of playing it.
  const outbox: { type: string; msg: string }[] = [];
  function send(m: { type: string; [k: string]: unknown }): void {
    const msg = JSON.stringify(m);
    if (st.ws && st.ws.readyState === WebSocket.OPEN) { st.ws.send(msg); return; }
    if (m.type === 'move' || m.type === 'sync') {
      const same = outbox.findIndex((q) => q.type === m.type);
      if (same >= 0) outbox.splice(same, 1);
    }
    if (outbox.length >= 8) outbox.shift();
    outbox.push({ type: m.type, msg });
  }
  // Other scripts of the page (chat, rematch) send on the game's socket.
  window.toguzSend = send;

  function sendMove(h: number): void {
    st.pending = true;
    send({ type: 'move', ply: st.positions.length - 1, hole: h });
    render();
  }

  function applyState(g: Game): void {
    finishAnimation();
    st.game = g;
    st.positions = g.positions;
    st.boards = g.boards;
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

  function onMessage(ev: MessageEvent<string>): void {
    const m = parseJSON<Message | null>(ev.data, null);
    if (!m) return;
    // Other scripts of the page (chat, rematch) hear every server message.
    document.dispatchEvent(new CustomEvent('toguz:message', { detail: m }));
    const g = st.game;
    switch (m.type) {
      case 'state':
        applyState(m as unknown as Game);
        break;
      case 'move': {
        const mv = m as unknown as { ply: number; fen: string; board: PositionJSON; hole: number; notation: string; by: Side; captured: number;
          landing: Landing; legal?: number[]; clock: Clock; abort_in_ms?: number; trail: number[] };
        if (!g || mv.ply !== st.positions.length) { send({ type: 'sync' }); return; }
        st.positions.push(mv.fen);
        st.boards.push(mv.board);
        st.moves.push({ hole: mv.hole, notation: mv.notation, by: mv.by, captured: mv.captured, landing: mv.landing });
        st.legal = mv.legal || [];
        g.ply = mv.ply;
        g.draw_offer = '';
        st.declined = '';
        g.can_abort = g.can_abort && mv.by !== st.you;
        st.clock = mv.clock; st.clockAt = Date.now();
        st.abortAt = mv.abort_in_ms ? Date.now() + mv.abort_in_ms : 0;
        st.pending = false;
        let said = T('game.plays', T('game.' + mv.by), mv.notation);
        if (mv.captured > 0) said += '. ' + N('game.captures', mv.captured, T('game.' + mv.by), mv.captured);
        announce(said);
        beep(mv.captured > 0 ? 660 : 440);
        animate(mv.ply, mv.trail, mv.by, mv.hole);
        playPremove();
        break;
      }
      case 'end': {
        if (!g) return;
        const e = m as unknown as Partial<Game> & { clock?: Clock; rating_diff?: [number, number] };
        Object.assign(g, { status: e.status, result: e.result, termination: e.termination, reason: e.reason || '', score: e.score,
          collected: e.collected || null, final_fen: e.final_fen || '', final_board: e.final_board || null });
        // The clocks freeze at the server's final values.
        if (e.clock) { st.clock = e.clock; st.clockAt = Date.now(); } else if (st.clock) st.clock.running = '';
        if (e.rating_diff) { g.white.rating_diff = e.rating_diff[0]; g.black.rating_diff = e.rating_diff[1]; }
        st.legal = [];
        st.premove = 0;
        st.abortAt = 0;
        announce(e.status === 'aborted' ? T('game.aborted') : resultText(g));
        beep(220);
        break;
      }
      case 'draw_offer':
        if (!g) return;
        g.draw_offer = m.by as Side;
        st.declined = '';
        break;
      case 'draw_declined':
        if (!g) return;
        g.draw_offer = '';
        st.declined = m.by as Side;
        break;
      case 'presence':
        st.presence = { white: !!m.white, black: !!m.black, left: m.left_ms as number[], at: Date.now() };
        break;
      case 'control':
        st.control = !!m.in_control;
        break;
      case 'error': {
        st.pending = false;
        const code = String(m.code);
        if (code === 'stale_move' || code === 'future_ply' || code === 'duplicate_move') send({ type: 'sync' });
        flash(errorTexts[code] || String(m.message));
        break;
      }
    }
    render();
    const n = noticeText();
    if (n && (m.type === 'draw_offer' || m.type === 'draw_declined')) announce(n);
  }

  function flash(msg: string): void {
    const s = $('status');
    if (!s) return;
    s.classList.remove('flash');
    s.textContent = msg;
    s.classList.add('flash');
    announce(msg);
    setTimeout(() => { s.classList.remove('flash'); render(); }, 1500);
  }

  function connect(): void {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(proto + '//' + location.host + '/api/games/' + encodeURIComponent(st.id) + '/ws');
    st.ws = ws;
    window.toguzSend = send;
    ws.onopen = () => {
      st.connected = true; st.retry = 0;
      for (const q of outbox.splice(0)) ws.send(q.msg);
    };
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
  let audio: AudioContext | null = null;
  function beep(freq: number): void {
    if (!st.sound) return;
    try {
      const Ctx = window.AudioContext || (window as unknown as { webkitAudioContext: typeof AudioContext }).webkitAudioContext;
      audio = audio || new Ctx();
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = freq; g.gain.value = 0.05;
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.08);
    } catch { /* no audio */ }
  }

  // ---- controls ----
  function on(id: string, f: () => void): void { const b = $(id); if (b) b.addEventListener('click', f); }
  function step(to: number): void { finishAnimation(); st.view = to; render(); }
  function viewIndex(): number { return st.view < 0 ? st.positions.length - 1 : st.view; }
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
  function toggle(id: string, key: string, get: () => boolean, set: (v: boolean) => void): void {
    const box = $<HTMLInputElement>(id);
    if (!box) return;
    box.checked = get();
    box.addEventListener('change', () => { set(box.checked); localStorage.setItem(key, box.checked ? '1' : '0'); render(); });
  }
  toggle('sound', 'toguz.sound', () => st.sound, (v) => { st.sound = v; });
  toggle('show-notation', 'toguz.notation', () => st.notation, (v) => { st.notation = v; });
  toggle('show-names', 'toguz.names', () => st.names, (v) => { st.names = v; });
  const click = (id: string): void => { const b = $(id); if (b) b.click(); };
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey || typing(e.target)) return;
    if (e.key === 'ArrowLeft') { click('prev'); e.preventDefault(); } else if (e.key === 'ArrowRight') { click('next'); e.preventDefault(); } else if (e.key === 'Home') { click('first'); e.preventDefault(); } else if (e.key === 'End') { click('last'); e.preventDefault(); } else if (e.key === 'Escape' && st.premove) { st.premove = 0; announce(T('game.premovegone')); render(); } else if (/^[1-9]$/.test(e.key) && st.you) {
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
}
