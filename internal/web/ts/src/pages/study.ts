// A study (/study/{id}): chapters, each a board with a move tree, edited
// live by its owner and editors and followed by everyone on the page. It
// implements no rule of the game: an editor's move is an op the server
// plays by the rules library (internal/study), each node's position comes
// as JSON with the chapter, and the legal holes and the end come from
// /api/positions/legal. Every text comes from the page (data-texts,
// data-stexts, in the page's language).

import { drawBoard } from '../lib/boardview';
import { $, el, errorText, parseJSON, postJSON as post, translator, type Texts } from '../lib/dom';
import type { LegalJSON } from '../lib/engine';
import { view, type Side } from '../lib/position';
import { drawTree, endOfLine, link, offMain, outcomeText, sibling, type TreeNode } from '../lib/tree';

interface Node extends TreeNode<Node> {
  fen: string;
  holes: string[];
  arrows: string[];
  info?: LegalJSON;
}
interface Chapter { name: string; ruleset: string; moves: number; root: Node }
interface At { chapter: number; path: number[] }

const root = document.getElementById('study');
if (root) study(root);

function study(root: HTMLElement): void {
  const texts = Object.assign(parseJSON<Texts>(root.dataset.texts, {}), parseJSON<Texts>(root.dataset.stexts, {}));
  const outcomes = parseJSON<Record<string, string>>(root.dataset.outcomes, {});
  const holeNames = parseJSON<string[]>(root.dataset.holenames, []);
  const canEdit = root.dataset.edit === 'true';
  const { T, N } = translator(texts);

  const st = {
    chapters: [] as Chapter[], // ChapterJSON of the server, with parent links
    ci: 0, // the chapter shown
    cur: null as Node | null, // the node shown
    flipped: false,
    sync: true,
    mode: 'play',
    arrowFrom: '',
    ws: null as WebSocket | null,
    retry: 500,
  };
  const cur = (): Node => st.cur as Node;

  function linked(ch: Chapter): Chapter {
    link(ch.root, null, (n) => {
      n.holes = n.holes || [];
      n.arrows = n.arrows || [];
    });
    return ch;
  }
  const chapter = (): Chapter => st.chapters[st.ci];
  function pathOf(n: Node | null): number[] {
    const p: number[] = [];
    for (; n && n.parent; n = n.parent) p.unshift(n.hole || 0);
    return p;
  }
  // find returns the node at path in chapter ch, or the deepest one there.
  function find(ch: Chapter, path: number[] | undefined): Node {
    let n = ch.root;
    for (const h of path || []) {
      const c = n.children.find((x) => x.hole === h);
      if (!c) break;
      n = c;
    }
    return n;
  }

  function fail(err: unknown): void {
    const e = $('study-error');
    e.textContent = errorText(err);
    e.hidden = false;
  }
  function clearError(): void { $('study-error').hidden = true; }

  async function legalOf(n: Node): Promise<LegalJSON> {
    if (!n.info) n.info = await post<LegalJSON>('/api/positions/legal', { fen: n.fen, ruleset: chapter().ruleset });
    return n.info;
  }

  function draw(): void {
    const n = cur();
    const p = view(n.pos);
    const legal = n.info ? n.info.moves.map((l) => l.hole) : [];
    const mover = n.parent ? n.parent.pos.turn : '';
    const playable = (side: Side, h: number): boolean => canEdit && side === p.turn && legal.indexOf(h) >= 0;
    drawBoard($('board'), p, {
      T, N, bottom: st.flipped ? 'black' : 'white', grid: true,
      holeName: (h) => holeNames[h - 1] || '',
      playable,
      enabled: (side, h) => canEdit && (playable(side, h) || st.mode !== 'play'),
      decorate: (hole, side, h) => {
        const id = side[0] + h;
        hole.dataset.id = id;
        if (st.arrowFrom === id) hole.classList.add('arrow-from');
        if (n.hole && side === mover && h === n.hole) hole.classList.add('from');
        if (n.holes.indexOf(id) >= 0) { hole.classList.add('marked'); return ' · ' + T('study.mode.hole'); }
      },
      onClick: clickHole,
    });
    let status = T('game.tomove', T('game.' + p.turn));
    if (n.info && n.info.over) status = outcomeText(outcomes, n.info, T('game.over'));
    $('status').textContent = status;
    root.dataset.fen = n.fen;
    root.dataset.path = pathOf(n).join(',');
    root.dataset.chapter = String(st.ci);
    drawArrows();
  }

  // drawArrows draws the move's arrows over the board, from hole to hole.
  function drawArrows(): void {
    const svg = document.getElementById('study-arrows') as unknown as SVGSVGElement;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const area = (svg.parentNode as HTMLElement).getBoundingClientRect();
    const ns = 'http://www.w3.org/2000/svg';
    const defs = document.createElementNS(ns, 'defs');
    defs.innerHTML = '<marker id="study-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0L10,5L0,10z"/></marker>';
    svg.appendChild(defs);
    const centre = (id: string): [number, number] | null => {
      const h = $('board').querySelector('[data-id="' + id + '"]');
      if (!h) return null;
      const r = h.getBoundingClientRect();
      return [r.left - area.left + r.width / 2, r.top - area.top + r.height / 2];
    };
    for (const a of cur().arrows) {
      const f = centre(a.slice(0, 2)), t = centre(a.slice(2));
      if (!f || !t) continue;
      const line = document.createElementNS(ns, 'line');
      line.setAttribute('x1', String(f[0])); line.setAttribute('y1', String(f[1]));
      line.setAttribute('x2', String(t[0])); line.setAttribute('y2', String(t[1]));
      line.setAttribute('marker-end', 'url(#study-head)');
      line.setAttribute('class', 'study-arrow');
      line.dataset.arrow = a;
      svg.appendChild(line);
    }
  }

  function drawMoves(): void {
    const n = cur();
    drawTree($('tree'), chapter().root, n, T('study.start'), (m) => void go(m, true));
    $('study-comment-view').textContent = n.comment || '';
    // The marks and arrows in words too, for a reader who does not see the board.
    $('study-shapes-view').textContent = n.holes.concat(n.arrows.map((a) => a.slice(0, 2) + '→' + a.slice(2))).join(' · ');
    if (canEdit) {
      const atRoot = n === chapter().root;
      $<HTMLSelectElement>('mark').value = n.mark || '';
      $<HTMLTextAreaElement>('comment').value = n.comment || '';
      for (const id of ['mark', 'comment', 'delete', 'shapes-clear']) $<HTMLButtonElement>(id).disabled = atRoot;
      $<HTMLButtonElement>('promote').disabled = !offMain(n);
    }
  }

  function drawChapters(): void {
    const ol = $('study-chapters');
    ol.textContent = '';
    st.chapters.forEach((c, i) => {
      const li = el('li');
      const b = el('button', 'chapter' + (i === st.ci ? ' current' : ''), c.name);
      b.type = 'button';
      b.setAttribute('translate', 'no');
      b.setAttribute('aria-pressed', i === st.ci ? 'true' : 'false');
      b.addEventListener('click', () => { st.ci = i; void go(c.root, true); });
      li.appendChild(b);
      li.appendChild(el('span', 'help', ' · ' + N('study.chapter.moves', c.moves, c.moves)));
      ol.appendChild(li);
    });
  }

  // go shows node n; mine: the user moved there himself, and an editor's
  // board then moves the followers' (sync).
  async function go(n: Node, mine: boolean): Promise<void> {
    st.cur = n;
    st.arrowFrom = '';
    clearError();
    drawChapters();
    draw();
    drawMoves();
    if (mine && canEdit && st.sync) send({ type: 'goto', at: { chapter: st.ci, path: pathOf(n) } });
    try { await legalOf(n); } catch (e) { fail(e); }
    if (st.cur === n) draw();
  }

  function send(m: object): void {
    if (st.ws && st.ws.readyState === 1) st.ws.send(JSON.stringify(m));
  }
  function op(o: object): void { send(Object.assign({ type: 'op', chapter: st.ci, path: pathOf(st.cur) }, o)); }

  function clickHole(side: Side, h: number): void {
    if (!canEdit) return;
    const id = side[0] + h;
    const n = cur();
    if (st.mode === 'play') {
      if (side === n.pos.turn) play(h);
      return;
    }
    if (!n.parent) return;
    const holes = n.holes.slice(), arrows = n.arrows.slice();
    if (st.mode === 'hole') {
      const i = holes.indexOf(id);
      if (i >= 0) holes.splice(i, 1); else holes.push(id);
    } else {
      if (!st.arrowFrom) { st.arrowFrom = id; draw(); $('status').textContent = T('study.arrow.from', id); return; }
      const a = st.arrowFrom + id;
      st.arrowFrom = '';
      if (a.slice(0, 2) === a.slice(2)) { draw(); return; }
      const i = arrows.indexOf(a);
      if (i >= 0) arrows.splice(i, 1); else arrows.push(a);
    }
    op({ op: 'shapes', holes, arrows });
  }

  function play(h: number): void {
    const n = cur();
    const known = n.children.find((c) => c.hole === h);
    if (known) { void go(known, true); return; }
    if (!n.info || n.info.over || !n.info.moves.some((l) => l.hole === h)) return;
    op({ op: 'move', hole: h });
  }

  interface Message { type: string; chapters?: Chapter[]; chapter?: Chapter; index?: number; at?: At; by?: string; message?: string; code?: string }

  // receive applies a message of the study's socket.
  function receive(m: Message): void {
    const keep = { ci: st.ci, path: pathOf(st.cur) };
    switch (m.type) {
      case 'study': {
        const at = m.at as At;
        st.chapters = (m.chapters || []).map(linked);
        st.ci = Math.min(at.chapter, st.chapters.length - 1);
        if (!st.sync && st.cur) { st.ci = Math.min(keep.ci, st.chapters.length - 1); void go(find(chapter(), keep.path), false); } else void go(find(chapter(), at.path), false);
        break;
      }
      case 'chapter': {
        const at = m.at as At;
        st.chapters[m.index as number] = linked(m.chapter as Chapter);
        if (st.sync) { st.ci = at.chapter; void go(find(chapter(), at.path), false); } else void go(find(chapter(), keep.path), false);
        $('study-conn').textContent = T('study.edited', m.by);
        break;
      }
      case 'position': {
        const at = m.at as At;
        if (st.sync && st.chapters[at.chapter]) { st.ci = at.chapter; void go(find(chapter(), at.path), false); }
        break;
      }
      case 'error':
        fail(new Error(m.message || m.code));
        break;
    }
  }

  function connect(): void {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(proto + '//' + location.host + '/api/studies/' + encodeURIComponent(root.dataset.id || '') + '/ws');
    st.ws = ws;
    ws.onopen = () => { st.retry = 500; $('study-conn').textContent = T('study.connected'); root.dataset.live = 'true'; };
    ws.onmessage = (ev: MessageEvent<string>) => { const m = parseJSON<Message | null>(ev.data, null); if (m) receive(m); };
    ws.onclose = () => {
      root.dataset.live = 'false';
      $('study-conn').textContent = T('study.disconnected');
      setTimeout(connect, st.retry);
      st.retry = Math.min(st.retry * 2, 10000);
    };
  }

  function toSibling(d: number): void {
    const s = sibling(cur(), d);
    if (s) void go(s, true);
  }
  const click = (id: string, f: () => void): void => $(id).addEventListener('click', f);
  click('first', () => void go(chapter().root, true));
  click('prev', () => { const p = cur().parent; if (p) void go(p, true); });
  click('next', () => { if (cur().children.length) void go(cur().children[0], true); });
  click('last', () => void go(endOfLine(cur()), true));
  click('flip', () => { st.flipped = !st.flipped; draw(); });
  $('study-sync').addEventListener('change', () => { st.sync = $<HTMLInputElement>('study-sync').checked; });
  if (canEdit) {
    click('promote', () => op({ op: 'promote' }));
    click('delete', () => { const p = cur().parent; op({ op: 'delete' }); if (p) st.cur = p; });
    $('mark').addEventListener('change', () => op({ op: 'mark', mark: $<HTMLSelectElement>('mark').value }));
    $('comment').addEventListener('change', () => op({ op: 'comment', text: $<HTMLTextAreaElement>('comment').value }));
    click('shapes-clear', () => op({ op: 'shapes', holes: [], arrows: [] }));
    document.querySelectorAll<HTMLInputElement>('input[name="mode"]').forEach((r) => r.addEventListener('change', () => {
      st.mode = r.value; st.arrowFrom = ''; draw();
    }));
    $('chapter-new').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const f = ev.target as HTMLFormElement;
      send({ type: 'op', op: 'chapter', name: $<HTMLInputElement>('chapter-name').value,
        ruleset: (f.querySelector('[name="ruleset"]') as HTMLSelectElement).value, fen: $<HTMLInputElement>('chapter-fen').value.trim() });
      f.reset();
    });
  }
  document.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !st.cur) return;
    const k = ev.key;
    if (canEdit && k >= '1' && k <= '9') { play(+k); ev.preventDefault(); return; }
    const acts: Record<string, () => void> = {
      ArrowLeft: () => { const p = cur().parent; if (p) void go(p, true); },
      ArrowRight: () => { if (cur().children.length) void go(cur().children[0], true); },
      ArrowUp: () => toSibling(-1),
      ArrowDown: () => toSibling(1),
      Home: () => void go(chapter().root, true),
      End: () => void go(endOfLine(cur()), true),
    };
    if (acts[k]) { acts[k](); ev.preventDefault(); }
  });
  window.addEventListener('resize', () => { if (st.cur) drawArrows(); });
  connect();
}
