// The engine game played wholly in the browser (/play-offline): the moves
// are played by the WebAssembly build's rules and the engine's replies come
// from its worker (engine-client.js); nothing is sent to the server, and
// with the service worker it works with no network. The board shows what
// the rules answer (the holes' stones, the kazans, the tuzdiks, the legal
// moves); it computes none of it.
// The client is imported by its hashed URL (#engine-assets), the one the
// service worker keeps.

import { importClient, type InfoJSON, type Landing, type LegalJSON, type LineJSON, type PlayJSON } from '../lib/engine';
import { parseJSON, statusOf, translator, typing, type Texts } from '../lib/dom';
import { drawBoard } from '../lib/boardview';
import { view, type Side } from '../lib/position';

const { createEngine, keepOffline } = await importClient();

const root = document.getElementById('offline') as HTMLElement;
const texts = JSON.parse(root.dataset.texts || '{}') as Record<string, string>;
const outcomes = JSON.parse(root.dataset.outcomes || '{}') as Record<string, string>;
const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;
const status = $('offline-status');
const engine = createEngine();

// The board is drawn by the one board view of the site (lib/boardview),
// with its texts in the page's language.
const { T, N } = translator(parseJSON<Texts>(root.dataset.boardTexts, {}));
const holeNames = parseJSON<string[]>(root.dataset.holenames, []);

// last is the last move played, for its marks: the hole it was played from,
// the hole its last stone fell in, what it captured.
interface LastMove { side: Side; hole: number; landing: Landing; captured: number }

const game = { fen: root.dataset.fen || '', ruleset: root.dataset.ruleset || '', side: 'white' as Side, pos: null as LegalJSON | null,
  moves: [] as string[], busy: false, serial: 0, last: null as LastMove | null };

function say(text: string): void { status.textContent = text; }

// fill puts the numbers in a text's %d, in order.
function fill(template: string, ...ns: number[]): string { return ns.reduce((t, n) => t.replace('%d', String(n)), template); }

function render(): void {
  const p = game.pos;
  if (!p) return;
  const mine = !p.over && p.turn === game.side && !game.busy;
  const legal = new Set(mine ? p.moves.map((m) => m.hole) : []);
  const last = game.last;
  drawBoard($('board'), view(p), {
    T, N, bottom: game.side,
    holeName: (h) => holeNames[h - 1] || '',
    playable: (side, h) => side === game.side && legal.has(h),
    decorate: (hole, side, h) => {
      if (last && last.side === side && last.hole === h) hole.classList.add('from');
      if (last && last.landing.side === side && last.landing.hole === h) hole.classList.add('to');
    },
    onClick: (side, h) => { if (side === game.side && legal.has(h)) void move(h); },
    captured: last ? { side: last.side, count: last.captured } : null,
  });
  const list = $('offline-moves');
  list.textContent = '';
  for (const m of game.moves) {
    const li = document.createElement('li');
    li.textContent = m;
    list.appendChild(li);
  }
  if (p.over) say(texts['offline.over'] + ' ' + (outcomes[p.result + ' ' + p.termination] || ''));
  else if (mine) say(texts['offline.your_move']);
}

// score writes a line's evaluation: stones from White's view, or the
// proven result's distance.
function score(l: LineJSON): string {
  if (l.mate !== undefined) return fill(texts[l.mate > 0 ? 'offline.win_in' : 'offline.loss_in'], Math.abs(l.mate));
  return (l.score > 0 ? '+' : '') + (l.score / 100).toFixed(2);
}

function showInfo(info: InfoJSON | null | undefined): void {
  if (!info || !info.lines || !info.lines.length) return;
  const l = info.lines[0];
  $('offline-depth').textContent = String(info.depth);
  $('offline-eval').textContent = score(l);
  $('offline-line').textContent = l.notation.join(' ');
  const list = $('offline-lines');
  list.textContent = '';
  for (const line of info.lines) {
    const li = document.createElement('li');
    li.textContent = score(line) + ' · ' + line.notation.join(' ');
    list.appendChild(li);
  }
}

// The analysis of the position on the board: several lines, deeper until
// stopped, with no network like the rest.
const analyseButton = $('offline-analyse');
let analysing: Promise<unknown> | null = null;

function setAnalysing(on: boolean): void {
  analyseButton.setAttribute('aria-pressed', on ? 'true' : 'false');
  analyseButton.textContent = texts[on ? 'offline.stop' : 'offline.analyse'];
}

async function stopAnalysis(): Promise<void> {
  if (!analysing) return;
  const a = analysing;
  engine.stop();
  await a.catch(() => {});
}

analyseButton.addEventListener('click', async () => {
  if (analysing) { await stopAnalysis(); return; }
  if (game.busy || !game.pos || game.pos.over) return;
  setAnalysing(true);
  analysing = engine.analyse(game.fen, { ruleset: game.ruleset, multipv: 3 }, showInfo);
  try {
    await analysing;
  } catch (err) {
    fail(err);
  } finally {
    analysing = null;
    setAnalysing(false);
  }
});

function fail(err: unknown): void {
  game.busy = false;
  // Only the server's messages are in the page's language (the worker's
  // are the rules library's English): show those, and the page's own text.
  say(texts['offline.engine_error'] + (statusOf(err) && err instanceof Error && err.message ? ' ' + err.message : ''));
}

// apply sets the position after a move the rules played.
function apply(r: PlayJSON): void {
  game.moves.push(r.notation);
  game.last = { side: game.pos ? game.pos.turn : game.side, hole: r.hole, landing: r.landing, captured: r.captured };
  game.fen = r.fen;
  game.pos = { fen: r.fen, turn: r.turn, full: r.full, moves: r.legal, board: r.board, kazan: r.kazan, tuzdik: r.tuzdik,
    over: r.over, result: r.result, termination: r.termination, score: r.score };
}

async function reply(serial: number): Promise<void> {
  game.busy = true;
  render();
  say(texts['offline.thinking']);
  try {
    const best = await engine.analyse(game.fen, { ruleset: game.ruleset, movetime: Number(($('offline-time') as HTMLInputElement).value) }, showInfo);
    if (serial !== game.serial || !best || !best.move) return;
    if (best.info) showInfo(best.info);
    const r = await engine.play(game.fen, best.move, game.ruleset);
    if (serial !== game.serial) return;
    apply(r);
    game.busy = false;
    render();
  } catch (err) {
    if (serial === game.serial) fail(err);
  }
}

async function move(n: number): Promise<void> {
  if (game.busy) return;
  await stopAnalysis();
  const serial = game.serial;
  game.busy = true;
  try {
    const r = await engine.play(game.fen, n, game.ruleset);
    if (serial !== game.serial) return;
    apply(r);
    game.busy = false;
    render();
    if (game.pos && !game.pos.over) void reply(serial);
  } catch (err) {
    fail(err);
  }
}

async function start(): Promise<void> {
  await stopAnalysis();
  engine.stop();
  const serial = ++game.serial;
  game.side = ($('offline-side') as HTMLSelectElement).value as Side;
  game.fen = root.dataset.fen || '';
  game.moves = [];
  game.last = null;
  game.busy = false;
  for (const id of ['offline-depth', 'offline-eval', 'offline-line']) $(id).textContent = '';
  try {
    const l = await engine.legal(game.fen, game.ruleset);
    if (serial !== game.serial) return;
    game.fen = l.fen;
    game.pos = l;
    render();
    if (!l.over && l.turn !== game.side) void reply(serial);
  } catch (err) {
    fail(err);
  }
}

$('offline-setup').addEventListener('submit', (e) => { e.preventDefault(); void start(); });
// Keys 1–9 play that hole, as on every board of the site.
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.altKey || e.metaKey || typing(e.target) || !/^[1-9]$/.test(e.key)) return;
  const p = game.pos, h = Number(e.key);
  if (!p || p.over || game.busy || p.turn !== game.side || !p.moves.some((m) => m.hole === h)) return;
  e.preventDefault();
  void move(h);
});
void start();
void engine.ready.then((wasm) => {
  if (wasm) void keepOffline();
  else if (engine.kind === 'server') {
    const notice = $('offline-notice');
    notice.textContent = texts['offline.fallback'];
    notice.hidden = false;
  }
});
