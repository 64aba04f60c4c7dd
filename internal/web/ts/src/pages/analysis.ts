// The analysis board (/analysis): a move tree with variations, comments
// and marks over any position, the engine's lines and the endgame
// tablebase. It implements no rule of the game: every move's legality,
// notation, landing and the position after it, and the engine's lines, come
// from the engine client (engine-client.js: the Go rules and engine
// compiled to WebAssembly in a worker, else the server's
// /api/positions/legal, /play and /api/analysis, the same JSON), and the
// tree stores what they said; the server's tree gives each node's position
// as JSON. The endgame tablebase is the server's alone: a position with no
// more stones on the board than its tables of the position's ruleset hold
// (data-tbstones, per ruleset) is analysed by the server. Every text comes
// from the page (data-texts, in the page's language).

import { drawBoard } from '../lib/boardview';
import { $, el, errorText, parseJSON, postJSON as post, statusOf, translator, type Texts } from '../lib/dom';
import { importClient, type Engine, type InfoJSON, type Landing, type LegalJSON, type LineJSON, type TablebaseJSON } from '../lib/engine';
import { view, type PositionJSON } from '../lib/position';
import { drawTree, endOfLine, link, offMain, outcomeText, sibling, type TreeNode } from '../lib/tree';

interface Node extends TreeNode<Node> {
  fen: string;
  captured?: number;
  landing?: Landing | null;
  info?: LegalJSON | null;
}

interface TreeJSON { ruleset?: string; tags?: [string, string][]; comment?: string; root: Node; games?: number; game?: number }

const root = document.getElementById('analysis');
if (root) analysis(root);

function analysis(root: HTMLElement): void {
  const texts = parseJSON<Texts>(root.dataset.texts, {});
  const outcomes = parseJSON<Record<string, string>>(root.dataset.outcomes, {});
  const holeNames = parseJSON<string[]>(root.dataset.holenames, []);
  // The most stones of a position the server's tables hold, per ruleset.
  const tbStones = parseJSON<Record<string, number>>(root.dataset.tbstones, {});
  const { T, N } = translator(texts);

  // The engine client, loaded as a module from this classic script: the
  // worker's engine (WebAssembly, the server where it is missing) for the
  // rules and the lines, and the server's for the tablebase's positions.
  const client = importClient();
  const engines = {
    local: client.then((m) => m.createEngine()),
    server: client.then((m) => m.createEngine({ server: true })),
  };
  // With the worker running, keep the engine's files for use with no
  // network (the service worker keeps this page, web.OfflinePages).
  Promise.all([client, engines.local]).then(([m, e]) => e.ready && e.ready.then((ok) => { if (ok) void m.keepOffline(); }))
    .catch(() => {});
  const rules = {
    legal: async (fen: string) => (await engines.local).legal(fen, st.ruleset),
    play: async (fen: string, move: number) => (await engines.local).play(fen, move, st.ruleset),
  };

  const st = {
    ruleset: 'standard',
    tags: [] as [string, string][],
    comment: '',
    root: null as unknown as Node,
    cur: null as unknown as Node, // the node shown
    buttons: new Map<Node, HTMLButtonElement>(),
    flipped: false,
    engineOn: true,
    engineSeq: 0, // the latest analysis asked for; older answers are dropped
    engineTimer: 0,
    busy: false,
  };

  // load takes a tree as the server writes it (treeJSON) and gives each
  // node its parent.
  function load(t: TreeJSON): void {
    st.ruleset = t.ruleset || 'standard';
    st.tags = t.tags || [];
    st.comment = t.comment || '';
    st.root = link(t.root, null);
    st.cur = st.root;
  }

  // legalOf returns the legal moves of node n (asked once, then kept).
  async function legalOf(n: Node): Promise<LegalJSON> {
    if (!n.info) n.info = await rules.legal(n.fen);
    return n.info;
  }

  function draw(): void {
    const n = st.cur;
    const p = view(n.pos);
    const legal = n.info ? n.info.moves.map((l) => l.hole) : [];
    const mover = n.parent ? n.parent.pos.turn : '';
    const landing = n.landing || null;
    drawBoard($('board'), p, {
      T, N, bottom: st.flipped ? 'black' : 'white', grid: true,
      holeName: (h) => holeNames[h - 1] || '',
      playable: (side, h) => side === p.turn && legal.indexOf(h) >= 0,
      decorate: (hole, side, h) => {
        if (n.hole && side === mover && h === n.hole) hole.classList.add('from');
        if (landing && landing.side === side && landing.hole === h) hole.classList.add('to');
      },
      onClick: (side, h) => { if (side === p.turn) void play(h); },
      captured: mover ? { side: mover, count: n.captured || 0 } : null,
    });
    let status = T('game.tomove', T('game.' + p.turn));
    if (n.info && n.info.over) status = outcomeText(outcomes, n.info, T('game.over'));
    $('status').textContent = status;
    root.dataset.fen = n.fen;
    root.dataset.turn = p.turn;
  }

  function drawMoves(): void {
    const box = $('tree');
    st.buttons = drawTree(box, st.root, st.cur, T('analysis.start'), (n) => void go(n));
    const cur = st.cur;
    const mark = $<HTMLSelectElement>('mark'), comment = $<HTMLTextAreaElement>('comment');
    mark.value = cur.mark || '';
    mark.disabled = cur === st.root;
    comment.value = cur.comment || '';
    comment.disabled = cur === st.root;
    $<HTMLButtonElement>('promote').disabled = !offMain(cur);
    $<HTMLButtonElement>('delete').disabled = cur === st.root;
    // Keep the current move in view inside the tree, not moving the page.
    const b = st.buttons.get(cur);
    if (b && (b.offsetTop < box.scrollTop || b.offsetTop + b.offsetHeight > box.scrollTop + box.clientHeight)) {
      box.scrollTop = b.offsetTop - box.clientHeight / 2;
    }
  }

  function fail(err: unknown): void {
    const e = $('analysis-error');
    e.textContent = errorText(err);
    e.hidden = false;
  }
  function clearError(): void { $('analysis-error').hidden = true; }

  async function go(n: Node): Promise<void> {
    st.cur = n;
    clearError();
    try { await legalOf(n); } catch (e) { fail(e); }
    if (st.cur !== n) return;
    draw();
    drawMoves();
    analyse();
  }

  // play plays hole h from the node shown: the child already there, or a
  // new one with what the rules said (a variation when the node had moves).
  async function play(h: number): Promise<void> {
    if (st.busy) return;
    const n = st.cur;
    const known = n.children.find((c) => c.hole === h);
    if (known) return go(known);
    const info = n.info;
    if (!info || info.over || !info.moves.some((l) => l.hole === h)) return;
    st.busy = true;
    try {
      const r = await rules.play(n.fen, h);
      const pos: PositionJSON = { board: r.board, kazan: r.kazan, tuzdik: r.tuzdik, turn: r.turn, full: r.full };
      const c: Node = {
        hole: h, notation: r.notation, fen: r.fen, pos, comment: '', mark: '', children: [], parent: n,
        captured: r.captured, landing: r.landing,
        info: { ...pos, fen: r.fen, moves: r.legal, over: r.over, result: r.result, termination: r.termination, score: r.score },
      };
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
  function onBoard(n: Node): number {
    const b = n.info && n.info.board;
    return b ? b[0].concat(b[1]).reduce((a, x) => a + x, 0) : Infinity;
  }

  // stopEngines stops the analysis under way, whichever engine runs it.
  function stopEngines(): void {
    engines.local.then((e) => e.stop(), () => {});
    engines.server.then((e) => e.stop(), () => {});
  }

  // The engine: its lines for the node shown, asked a moment after the
  // last step so that stepping through a game does not flood the server.
  // The worker searches deeper until the next step (or 30 s), showing
  // each depth's lines as it completes; the server answers once, bounded.
  function analyse(): void {
    clearTimeout(st.engineTimer);
    const seq = ++st.engineSeq;
    stopEngines();
    // The lines shown are the last node's until the new ones come.
    $('engine-lines').textContent = '';
    $('tablebase').hidden = true;
    if (!st.engineOn) { $('engine-depth').textContent = T('analysis.engine.off'); bar(null); return; }
    $('engine-depth').textContent = T('analysis.thinking');
    const n = st.cur;
    st.engineTimer = window.setTimeout(async () => {
      try {
        const run = async (e: Engine): Promise<void> => {
          if (seq !== st.engineSeq) return;
          root.dataset.engine = e.kind; // "wasm" or "server", for the tests
          const o: { ruleset: string; multipv: number; movetime: number; game?: string } =
            { ruleset: st.ruleset, multipv: +$<HTMLSelectElement>('multipv').value, movetime: e.kind === 'wasm' ? 30000 : 800 };
          if (root.dataset.game) o.game = root.dataset.game;
          const best = await e.analyse(n.fen, o, (info) => { if (seq === st.engineSeq) showLines(info, null); });
          if (best && seq === st.engineSeq) showLines(best.info || null, best.tablebase || null);
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
          if (statusOf(err) !== 429 || local.kind !== 'wasm') throw err;
          await run(local);
        }
      } catch (err) {
        if (seq === st.engineSeq) $('engine-depth').textContent = errorText(err);
      }
    }, 250);
  }

  function scoreText(l: LineJSON): string {
    if (l.mate !== undefined && l.mate > 0) return N('analysis.mate.white', l.mate, l.mate);
    if (l.mate !== undefined && l.mate < 0) return N('analysis.mate.black', -l.mate, -l.mate);
    return (l.score >= 0 ? '+' : '−') + (Math.abs(l.score) / 100).toFixed(2);
  }

  // showLines shows an iteration's lines (info: engineweb's InfoJSON,
  // absent once the game is over) and the tablebase's result, if any.
  function showLines(info: InfoJSON | null, tablebase: TablebaseJSON | null): void {
    const r = { depth: info ? info.depth : 0, lines: info ? info.lines : [] };
    const tb = $('tablebase');
    tb.hidden = !tablebase;
    let barScore: number | null = null;
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
      li.appendChild(el('span', 'score', scoreText(l)));
      const pv = el('button', 'pv', ' ' + l.notation.join(' '));
      pv.type = 'button';
      pv.addEventListener('click', () => { if (l.pv.length) void play(l.pv[0]); });
      li.appendChild(pv);
      ol.appendChild(li);
    }
    if (barScore === null && r.lines.length) barScore = r.lines[0].mate ? Math.sign(r.lines[0].mate) * 100000 : r.lines[0].score;
    bar(barScore);
  }

  // bar shows a score (hundredths of a stone, White's view) as White's
  // share of the bar.
  function bar(score: number | null): void {
    const share = score === null ? 50 : Math.round(50 + 50 * Math.tanh(score / 1500));
    $('evalfill').style.height = share + '%';
    $('evalbar').setAttribute('aria-valuenow', String(share));
    $('evalbar').setAttribute('aria-valuetext', score === null ? '' : T('analysis.evalwhite', share));
  }

  interface Plain { hole: number; fen: string; comment: string; mark: string; children: Plain[] }
  // The tree as the export reads it: holes, comments, marks.
  function plain(n: Node): Plain {
    return { hole: n.hole || 0, fen: n.parent ? '' : n.fen, comment: n.comment || '', mark: n.mark || '', children: n.children.map(plain) };
  }

  interface Exported { record: string; shareable: boolean }
  async function exportTree(): Promise<Exported> {
    const r = await post<Exported>('/api/analysis/export', { ruleset: st.ruleset, tags: st.tags, comment: st.comment, root: plain(st.root) });
    const t = $<HTMLTextAreaElement>('export-text');
    t.value = r.record;
    t.hidden = false;
    const a = $<HTMLAnchorElement>('download');
    a.href = URL.createObjectURL(new Blob([r.record], { type: 'text/plain' }));
    a.hidden = false;
    return r;
  }

  async function share(): Promise<void> {
    const r = await exportTree();
    const io = $('io-status');
    if (!r.shareable || r.record.length > +(root.dataset.maxshare || 0)) { io.textContent = T('analysis.share.too_long'); return; }
    const link = location.origin + '/analysis?record=' + encodeURIComponent(r.record);
    const input = $<HTMLInputElement>('share-link');
    input.value = link;
    input.hidden = false;
    input.select();
    try { await navigator.clipboard.writeText(link); io.textContent = T('analysis.share.copied'); } catch { io.textContent = ''; }
  }

  async function importTree(): Promise<void> {
    const r = await post<TreeJSON>('/api/analysis/import', { record: $<HTMLTextAreaElement>('import-text').value, game: +$<HTMLInputElement>('import-game').value || 1 });
    load(r);
    $('io-status').textContent = T('analysis.import.done', r.game, r.games);
    await go(st.root);
  }

  function promote(): void {
    let n = st.cur;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    if (!n.parent) return;
    const sib = n.parent.children;
    sib.splice(sib.indexOf(n), 1);
    sib.unshift(n);
    drawMoves();
  }

  function remove(): void {
    const n = st.cur;
    if (!n.parent) return;
    const sib = n.parent.children;
    sib.splice(sib.indexOf(n), 1);
    void go(n.parent);
  }

  function toSibling(d: number): void {
    const s = sibling(st.cur, d);
    if (s) void go(s);
  }

  const guard = (f: () => Promise<unknown>) => () => { f().catch(fail); };
  const click = (id: string, f: () => void): void => $(id).addEventListener('click', f);
  click('first', () => void go(st.root));
  click('prev', () => { if (st.cur.parent) void go(st.cur.parent); });
  click('next', () => { if (st.cur.children.length) void go(st.cur.children[0]); });
  click('last', () => void go(endOfLine(st.cur)));
  click('flip', () => { st.flipped = !st.flipped; draw(); });
  click('promote', promote);
  click('delete', remove);
  $('mark').addEventListener('change', () => { if (st.cur.parent) { st.cur.mark = $<HTMLSelectElement>('mark').value; drawMoves(); } });
  $('comment').addEventListener('change', () => { if (st.cur.parent) { st.cur.comment = $<HTMLTextAreaElement>('comment').value; drawMoves(); } });
  click('export', guard(exportTree));
  click('share', guard(share));
  click('import', guard(importTree));
  $<HTMLInputElement>('import-file').addEventListener('change', (ev) => {
    const f = (ev.target as HTMLInputElement).files?.[0];
    if (f) f.text().then((s) => { $<HTMLTextAreaElement>('import-text').value = s; }).catch(fail);
  });
  $('engine-on').addEventListener('change', () => { st.engineOn = $<HTMLInputElement>('engine-on').checked; analyse(); });
  $('multipv').addEventListener('change', analyse);
  document.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (k >= '1' && k <= '9') { void play(+k); ev.preventDefault(); return; }
    const acts: Record<string, () => void> = {
      ArrowLeft: () => { if (st.cur.parent) void go(st.cur.parent); },
      ArrowRight: () => { if (st.cur.children.length) void go(st.cur.children[0]); },
      ArrowUp: () => toSibling(-1),
      ArrowDown: () => toSibling(1),
      Home: () => void go(st.root),
      End: () => void go(endOfLine(st.cur)),
    };
    if (acts[k]) { acts[k](); ev.preventDefault(); }
  });

  load(parseJSON<TreeJSON>(root.dataset.tree, { root: null as unknown as Node }));
  void go(st.root);
}
