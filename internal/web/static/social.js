// What players expect from lichess around a game (docs/api.md): on the
// game page the rematch, the takeback by consent and the chat, through the
// game websocket of board.js (its 'toguz:message' events and
// window.toguzSend); in the lobby its chat (GET /api/lobby/chat); on /tv
// the switch to the next game when one ends. Every text comes from the
// page's data-t-* attributes, in the page's language; a chat message is
// put in the page as text, never as markup. A muted user's messages are
// hidden for the rest of the browser session (sessionStorage).
const root = document.getElementById('social');
if (root) init(root);

function init(root) {
  const page = root.dataset.page;
  const T = (k) => root.dataset['t' + k.charAt(0).toUpperCase() + k.slice(1)] || '';
  const fmt = (s, ...a) => { let i = 0; return s.replace(/%[sd]/g, () => String(a[i++])); };
  const $ = (id) => document.getElementById(id);
  const me = root.dataset.me || '';

  if (page === 'tv-wait') {
    // No game is being played: look again every few seconds.
    setInterval(async () => {
      try { if ((await fetch('/api/tv')).ok) location.reload(); } catch (e) { /* offline */ }
    }, 5000);
    return;
  }

  // ---- chat ----
  const chatCodes = ['chat_empty', 'chat_too_long', 'chat_rate_limited', 'chat_anonymous'];
  const log = $('chat-log'), form = $('chat-form'), input = $('chat-input'), errorBox = $('chat-error');
  let room = page === 'lobby' ? 'lobby' : 'players';
  let entries = []; // {m, li}
  const maxShown = 100;
  const muted = new Set(JSON.parse(sessionStorage.getItem('toguz.muted') || '[]'));
  let myName = '';

  function saveMuted() { sessionStorage.setItem('toguz.muted', JSON.stringify([...muted])); }

  function showError(code, message) {
    errorBox.textContent = T(code) || message || '';
    $('chat-guest').hidden = code !== 'chat_anonymous';
  }

  function chatTitle() { $('chat-title').textContent = T(room); }

  function entry(m) {
    const li = document.createElement('li');
    li.className = 'chat-line';
    const by = document.createElement('span');
    by.className = 'chat-by'; by.setAttribute('translate', 'no');
    by.textContent = m.by;
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
      report.addEventListener('click', () => reportMessage(m));
      li.append(' ', mute, ' ', report);
    }
    return li;
  }

  function renderChat() {
    log.replaceChildren();
    for (const e of entries) if (!muted.has(e.m.by)) log.append(e.li);
    let list = $('chat-muted');
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

  function addChat(m) {
    entries.push({ m, li: entry(m) });
    if (entries.length > maxShown) entries = entries.slice(-maxShown);
    renderChat();
    log.scrollTop = log.scrollHeight;
  }

  async function reportMessage(m) {
    if (!confirm(fmt(T('reportconfirm'), m.by))) return;
    const body = { game: page === 'lobby' ? '' : root.dataset.id, room: m.room, user: m.by, text: m.text };
    try {
      const r = await fetch('/api/reports', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      errorBox.textContent = r.ok ? T('reported') : T('reportfailed');
    } catch (e) { errorBox.textContent = T('reportfailed'); }
  }

  function onChatMessage(m) {
    switch (m.type) {
      case 'chat': addChat(m); return true;
      case 'chat_history':
        entries = (m.messages || []).map((c) => ({ m: c, li: entry(c) }));
        renderChat();
        return true;
      case 'error':
        if (chatCodes.includes(m.code)) { showError(m.code, m.message); return true; }
    }
    return false;
  }

  $('chat-guest').addEventListener('click', async () => {
    await fetch('/api/guest', { method: 'POST' });
    location.reload();
  });

  let sendChat = () => {};
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
    chatTitle();
    let retry = 0;
    const connect = () => {
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(proto + '//' + location.host + '/api/lobby/chat');
      sendChat = (m) => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m)); };
      ws.onopen = () => { retry = 0; };
      ws.onmessage = (ev) => { try { onChatMessage(JSON.parse(ev.data)); } catch (e) { /* not JSON */ } };
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

  function show(id, on) { const b = $(id); if (b) b.hidden = !on; }
  function render() {
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
  function say(text) { status.textContent = text; }

  const act = (id, type) => { const b = $(id); if (b) b.addEventListener('click', () => window.toguzSend && window.toguzSend({ type })); };
  act('rematch', 'rematch_offer');
  act('rematch-accept', 'rematch_accept');
  act('rematch-decline', 'rematch_decline');
  act('takeback', 'takeback_offer');
  act('takeback-accept', 'takeback_accept');
  act('takeback-decline', 'takeback_decline');

  // The TV: the spectators of its game, and the next game once it ends.
  async function tvInfo() {
    try {
      const r = await fetch('/api/tv');
      if (!r.ok) return;
      const t = await r.json();
      if (t.id !== root.dataset.id) { location.reload(); return; }
      const cat = new Intl.PluralRules(document.documentElement.lang || 'en').select(t.spectators);
      const sample = { one: 'tvspectators1', two: 'tvspectators2', few: 'tvspectators2', many: 'tvspectators5' }[cat] || 'tvspectators';
      const el = $('tv-spectators');
      if (el) el.textContent = T(sample).replace(/\d+/, String(t.spectators));
    } catch (e) { /* offline: next time */ }
  }
  if (tv) { tvInfo(); setInterval(tvInfo, 5000); }

  document.addEventListener('toguz:message', (ev) => {
    const m = ev.detail || {};
    if (onChatMessage(m)) return;
    switch (m.type) {
      case 'state':
        if (m.you !== undefined) g.you = m.you || '';
        Object.assign(g, { status: m.status, rated: !!m.rated, ply: m.ply, rematchOffer: m.rematch_offer || '',
          rematch: m.rematch || '', takebackOffer: m.takeback_offer || '' });
        g.engine = !!(m.white && m.white.engine_level) || !!(m.black && m.black.engine_level);
        if (g.you) myName = (m[g.you] || {}).name || '';
        room = g.you ? 'players' : 'spectators';
        chatTitle();
        if (g.rematch && g.you && !tv) location.href = '/game/' + encodeURIComponent(g.rematch);
        break;
      case 'move': g.ply = m.ply; break;
      case 'end':
        g.status = m.status; g.takebackOffer = '';
        if (tv) { say(T('tvnext')); setTimeout(() => location.reload(), 3000); }
        break;
      case 'rematch_offer':
        g.rematchOffer = m.by;
        say(m.by === g.you ? T('rematchsent') : T('rematchoffered'));
        break;
      case 'rematch_declined': g.rematchOffer = ''; say(T('rematchdeclined')); break;
      case 'rematch':
        g.rematch = m.game_id;
        if (!tv && g.you) location.href = '/game/' + encodeURIComponent(m.game_id);
        break;
      case 'takeback_offer':
        g.takebackOffer = m.by;
        say(m.by === g.you ? T('takebacksent') : T('takebackoffered'));
        break;
      case 'takeback_declined': g.takebackOffer = ''; say(T('takebackdeclined')); break;
      case 'takeback': g.takebackOffer = ''; g.ply = m.ply; say(T('takebackdone')); break;
      case 'error':
        if (['not_over', 'no_offer', 'cannot_take_back'].includes(m.code)) say(T(m.code) || m.message);
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
