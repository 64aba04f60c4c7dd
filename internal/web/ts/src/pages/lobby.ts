// The lobby: the live seek list, and the jump to the game when a seek of
// ours is accepted (lobby websocket, docs/api.md). The server sends the
// newest seeks once, then each seek added or removed; this file only
// applies those changes to the list it shows.

import { parseJSON, who } from '../lib/dom';

interface Seek { id: string; by: string; tc: string; rated: boolean; color: string; ruleset: string; own?: boolean }
interface Message { type: string; game_id?: string; seeks?: Seek[]; limit?: number; seek?: Seek; id?: string; next?: Seek; total?: number }

const table = document.getElementById('seeks') as HTMLTableElement | null;
const challenge = document.getElementById('challenge');
let seeks: Seek[] = [], limit = 50;
const rulesets = table ? parseJSON<Record<string, string>>(table.dataset.tRulesets, {}) : {};
const colors = table ? parseJSON<Record<string, string>>(table.dataset.tColors, {}) : {};

function connect(): void {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(proto + '//' + location.host + '/api/lobby/ws');
  ws.onmessage = (ev: MessageEvent<string>) => {
    const m = parseJSON<Message | null>(ev.data, null);
    if (!m) return;
    switch (m.type) {
      case 'game_started': location.href = '/game/' + m.game_id; return;
      case 'seeks': seeks = m.seeks || []; limit = m.limit || limit; break;
      case 'seek_added': {
        const s = m.seek as Seek;
        seeks = seeks.filter((x) => x.id !== s.id);
        seeks.unshift(s);
        if (seeks.length > limit) seeks.length = limit;
        break;
      }
      case 'seek_removed': {
        seeks = seeks.filter((s) => s.id !== m.id);
        const next = m.next;
        if (next && !seeks.some((s) => s.id === next.id)) seeks.push(next);
        break;
      }
      default: return;
    }
    if (table) { table.dataset.total = String(m.total || 0); renderSeeks(table); }
  };
  ws.onclose = () => setTimeout(connect, 2000);
}

function button(action: string, cls: string, text: string): HTMLFormElement {
  const f = document.createElement('form'); f.method = 'post'; f.action = action;
  const b = document.createElement('button'); b.type = 'submit'; b.className = cls; b.textContent = text;
  f.appendChild(b); return f;
}

function renderSeeks(table: HTMLTableElement): void {
  const body = table.querySelector('tbody') as HTMLTableSectionElement;
  const t = table.dataset;
  body.textContent = '';
  if (!seeks.length) {
    const tr = document.createElement('tr'); tr.className = 'empty';
    const td = document.createElement('td'); td.colSpan = 6; td.textContent = t.tEmpty || '';
    tr.appendChild(td); body.appendChild(tr); return;
  }
  for (const s of seeks) {
    const tr = document.createElement('tr'); tr.dataset.seek = s.id;
    // The texts are the page's language's, from the server (data-t-*);
    // the player's name is data, marked translate="no".
    const cells = [who(s.by, t.tGuestname || ''), s.tc || '∞', rulesets[s.ruleset] || s.ruleset, (s.rated ? t.tRated : t.tCasual) || '', colors[s.color] || s.color];
    cells.forEach((v, i) => {
      const td = document.createElement('td'); td.textContent = v;
      if (i === 0) td.setAttribute('translate', 'no');
      if (i >= 3) td.className = 'opt'; // left out on a phone (style.css)
      tr.appendChild(td);
    });
    const td = document.createElement('td');
    const url = '/challenge/' + encodeURIComponent(s.id);
    // One's own seek is offered for cancelling, never for playing.
    td.appendChild(s.own ? button(url + '/cancel', 'cancel-seek', t.tCancel || '') : button(url, 'accept-seek', t.tPlay || ''));
    tr.appendChild(td); body.appendChild(tr);
  }
}

if (challenge && challenge.dataset.own === 'true') {
  // Poll too, in case the socket missed the start.
  setInterval(() => {
    fetch('/api/seeks/' + encodeURIComponent(challenge.dataset.seek || '')).then((r) => r.json()).then((j: { game_id?: string }) => {
      if (j.game_id) location.href = '/game/' + j.game_id;
    }).catch(() => {});
  }, 3000);
}
if (table || challenge) connect();
