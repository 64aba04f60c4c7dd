// What players expect from lichess around a game (docs/api.md): on the
// game page the rematch, the takeback by consent and the chat, through the
// game websocket of board.js (its 'toguz:message' events and
// window.toguzSend); in the lobby its chat (GET /api/lobby/chat); on /tv
// the switch to the next game when one ends. Every text comes from the
// page's data-t-* attributes, in the page's language; a chat message is
// put in the page as text, never as markup. A muted user's messages are
// hidden for the rest of the browser session (sessionStorage).

import { parseJSON, who } from '../lib/dom';

interface Chat { type?: string; room: string; by: string; text: string; at_ms?: number }
interface Message {
  type: string;
  [k: string]: unknown;
}

const social = document.getElementById('social');
if (social) init(social);

function init(root: HTMLElement): void {
  const page = root.dataset.page;
  const T = (k: string): string => root.dataset['t' + k.charAt(0).toUpperCase() + k.slice(1)] || '';
  const fmt = (s: string, ...a: unknown[]): string => { let i = 0; return s.replace(/%[sd]/g, () => String(a[i++])); };
  const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;
  const me = root.dataset.me || '';

  if (page === 'tv-wait') {
    // No game is being played: look again every few seconds.
    setInterval(async () => {
      try { if ((await fetch('/api/tv')).ok) location.reload(); } catch { /* offline */ }
    }, 5000);
    return;
  }

  // ---- chat ----
  // forbidden: a block or kid mode (the server's message says which);
  // chat_muted: a moderator muted the player.
  const chatCodes = ['chat_empty', 'chat_too_long', 'chat_rate_limited', 'chat_anonymous', 'forbidden', 'chat_muted'];
  const log = $('chat-log'), form = $('chat-form'), input = $('chat-input') as HTMLInputElement, errorBox = $('chat-error');
  let room = page === 'lobby' ? 'lobby' : 'players';
  let entries: { m: Chat; li: HTMLLIElement }[] = [];
  const maxShown = 100;
  const muted = new Set<string>(parseJSON<string[]>(sessionStorage.getItem('toguz.muted') || '[]', []));
  let myName = '';

  function saveMuted(): void { sessionStorage.setItem('toguz.muted', JSON.stringify([...muted])); }

  function showError(code: string, message?: string): void {
    errorBox.textContent = T(code) || message || '';
    $('chat-guest').hidden = code !== 'chat_anonymous';
  }

  function chatTitle(): void { $('chat-title').textContent = T(room); }

  function entry(m: Chat): HTMLLIElement {
    const li = document.createElement('li');
    li.className = 'chat-line';
    const by = document.createElement('span');
    by.className = 'chat-by'; by.setAttribute('translate', 'no');
    by.textContent = who(m.by, T('guestname'));
    const text = document.createElement('span');
    text.className = 'chat-text'; text.setAttribute('translate', 'no');
    text.textContent = m.text;
    li.append(by, document.createTextNode(' '), text);
    if (m.by !== myName) {
      const mute = document.createElement('button');
      mute.type = 'button'; mute.className = 'chat-mute link';
      mute.textContent = T('mute');
      mute.setAttribute('aria-label', fmt(T('muteuser'), m.by));
      mute.addEventListener('click', () => { muted.add(m.by); saveMuted(); renderChat(); });
      const report = document.createElement('button');
      report.type = 'button'; report.className = 'chat-report link';
      report.textContent = T('report');
      report.setAttribute('aria-label', fmt(T('reportuser'), m.by));
      report.addEventListener('click', () => void reportMessage(m));
      li.append(' ', mute, ' ', report);
    }
    return li;
  }

  function renderChat(): void {
    log.replaceChildren();
    for (const e of entries) if (!muted.has(e.m.by)) log.append(e.li);
    let list = document.getElementById('chat-muted');
    if (!muted.size) { if (list) list.remove(); return; }
    if (!list) {
      list = document.createElement('p');
      list.id = 'chat-muted'; list.className = 'chat-muted';
      log.after(list);
    }
    list.replaceChildren();
    for (const name of muted) {
      const b = document.createElement('button');
      b.type = 'button'; b.className = 'chat-unmute link';
      b.textContent = T('unmute') + ' ';
      const n = document.createElement('span'); n.setAttribute('translate', 'no'); n.textContent = name;
      b.append(n);
      b.addEventListener('click', () => { muted.delete(name); saveMuted(); renderChat(); });
      list.append(b, ' ');
    }
  }

  function addChat(m: Chat): void {
    entries.push({ m, li: entry(m) });
    if (entries.length > maxShown) entries = entries.slice(-maxShown);
    renderChat();
    log.scrollTop = log.scrollHeight;
  }

  async function reportMessage(m: Chat): Promise<void> {
    if (!confirm(fmt(T('reportconfirm'), m.by))) return;
    const body = { game: page === 'lobby' ? '' : root.dataset.id, room: m.room, user: m.by, text: m.text };
    try {
      const r = await fetch('/api/reports', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      errorBox.textContent = r.ok ? T('reported') : T('reportfailed');
    } catch { errorBox.textContent = T('reportfailed'); }
  }

  function onChatMessage(m: Message): boolean {
    switch (m.type) {
      case 'chat': addChat(m as unknown as Chat); return true;
      case 'chat_history':
        entries = ((m.messages as Chat[] | undefined) || []).map((c) => ({ m: c, li: entry(c) }));
        renderChat();
        return true;
      case 'error':
        if (chatCodes.includes(String(m.code))) { showError(String(m.code), m.message as string | undefined); return true; }
    }
    return false;
  }

  $('chat-guest').addEventListener('click', async () => {
    await fetch('/api/guest', { method: 'POST' });
    location.reload();
  });

  let sendChat: (m: { type: string; [k: string]: unknown }) => void = () => {};
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) { showError('chat_empty'); return; }
    showError('');
    sendChat({ type: 'chat', text });
    input.value = '';
  });

  if (page === 'lobby') {
    myName = me;
    if (root.dataset.nochat === '1') return; // kid mode: the server refuses the chat
    chatTitle();
    let retry = 0;
    const connect = (): void => {
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      // A team's page names its own room (data-chat-url).
      const ws = new WebSocket(proto + '//' + location.host + (root.dataset.chatUrl || '/api/lobby/chat'));
      sendChat = (m) => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m)); };
      ws.onopen = () => { retry = 0; };
      ws.onmessage = (ev: MessageEvent<string>) => { const m = parseJSON<Message | null>(ev.data, null); if (m) onChatMessage(m); };
      ws.onclose = () => setTimeout(connect, Math.min(1000 * 2 ** retry++, 10000));
    };
    connect();
    return;
  }

  // ---- the game page: rematch, takeback, TV ----
  sendChat = (m) => { if (window.toguzSend) window.toguzSend(m); };
  const tv = root.dataset.tv === '1';
  const g = { you: '', status: '', rated: false, ply: 0, rematchOffer: '', rematch: '', takebackOffer: '', engine: false };
  const status = $('social-status');

  function show(id: string, on: boolean): void { const b = document.getElementById(id); if (b) b.hidden = !on; }
  function render(): void {
    const player = !!g.you && !tv;
    const over = g.status !== '' && g.status !== 'playing';
    const theirRematch = g.rematchOffer && g.rematchOffer !== g.you;
    show('rematch', player && over && !g.rematch && !theirRematch && g.rematchOffer !== g.you);
    show('rematch-accept', player && over && !!theirRematch);
    show('rematch-decline', player && over && !!theirRematch && !g.engine);
    const theirTakeback = g.takebackOffer && g.takebackOffer !== g.you;
    const playing = g.status === 'playing';
    show('takeback', player && playing && !g.rated && g.ply > 0 && !theirTakeback && g.takebackOffer !== g.you);
    show('takeback-accept', player && playing && !!theirTakeback);
    show('takeback-decline', player && playing && !!theirTakeback);
  }
  function say(text: string): void { status.textContent = text; }

  const act = (id: string, type: string): void => {
    const b = document.getElementById(id);
    if (b) b.addEventListener('click', () => { if (window.toguzSend) window.toguzSend({ type }); });
  };
  act('rematch', 'rematch_offer');
  act('rematch-accept', 'rematch_accept');
  act('rematch-decline', 'rematch_decline');
  act('takeback', 'takeback_offer');
  act('takeback-accept', 'takeback_accept');
  act('takeback-decline', 'takeback_decline');

  // The TV: the spectators of its game, and the next game once it ends.
  async function tvInfo(): Promise<void> {
    try {
      const r = await fetch('/api/tv');
      if (!r.ok) return;
      const t = (await r.json()) as { id: string; spectators: number };
      if (t.id !== root.dataset.id) { location.reload(); return; }
      const cat = new Intl.PluralRules(document.documentElement.lang || 'en').select(t.spectators);
      const samples: Record<string, string> = { one: 'tvspectators1', two: 'tvspectators2', few: 'tvspectators2', many: 'tvspectators5' };
      const sample = samples[cat] || 'tvspectators';
      const el = document.getElementById('tv-spectators');
      if (el) el.textContent = T(sample).replace(/\d+/, String(t.spectators));
    } catch { /* offline: next time */ }
  }
  if (tv) { void tvInfo(); setInterval(tvInfo, 5000); }

  document.addEventListener('toguz:message', (ev) => {
    const m = ((ev as CustomEvent<Message | null>).detail || { type: '' }) as Message;
    if (onChatMessage(m)) return;
    const s = (k: string): string => (m[k] as string | undefined) || '';
    switch (m.type) {
      case 'state': {
        if (m.you !== undefined) g.you = s('you');
        Object.assign(g, { status: m.status, rated: !!m.rated, ply: m.ply, rematchOffer: s('rematch_offer'),
          rematch: s('rematch'), takebackOffer: s('takeback_offer') });
        const seat = (k: string): { name?: string; engine_level?: number } | undefined => m[k] as { name?: string; engine_level?: number } | undefined;
        g.engine = !!seat('white')?.engine_level || !!seat('black')?.engine_level;
        if (g.you) myName = seat(g.you)?.name || '';
        room = g.you ? 'players' : 'spectators';
        chatTitle();
        if (g.rematch && g.you && !tv) location.href = '/game/' + encodeURIComponent(g.rematch);
        break;
      }
      case 'move': g.ply = m.ply as number; break;
      case 'end':
        g.status = s('status'); g.takebackOffer = '';
        if (tv) { say(T('tvnext')); setTimeout(() => location.reload(), 3000); }
        break;
      case 'rematch_offer':
        g.rematchOffer = s('by');
        say(m.by === g.you ? T('rematchsent') : T('rematchoffered'));
        break;
      case 'rematch_declined': g.rematchOffer = ''; say(T('rematchdeclined')); break;
      case 'rematch':
        g.rematch = s('game_id');
        if (!tv && g.you) location.href = '/game/' + encodeURIComponent(s('game_id'));
        break;
      case 'takeback_offer':
        g.takebackOffer = s('by');
        say(m.by === g.you ? T('takebacksent') : T('takebackoffered'));
        break;
      case 'takeback_declined': g.takebackOffer = ''; say(T('takebackdeclined')); break;
      case 'takeback': g.takebackOffer = ''; g.ply = m.ply as number; say(T('takebackdone')); break;
      case 'error':
        if (['not_over', 'no_offer', 'cannot_take_back'].includes(String(m.code))) say(T(String(m.code)) || String(m.message));
        break;
    }
    render();
  });
  chatTitle();
  render();
  // The socket may have brought the state and the chat before this module
  // ran: ask again (a socket not open yet brings them when it opens).
  if (window.toguzSend) { window.toguzSend({ type: 'sync' }); window.toguzSend({ type: 'chat_history' }); }
}
