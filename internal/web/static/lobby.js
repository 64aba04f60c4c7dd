// The lobby: live seek list, and the jump to the game when a seek of ours
// is accepted (lobby websocket, docs/api.md).
(function () {
  'use strict';
  const table = document.getElementById('seeks');
  const challenge = document.getElementById('challenge');
  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(proto + '//' + location.host + '/api/lobby/ws');
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === 'game_started') { location.href = '/game/' + m.game_id; return; }
      if (m.type === 'seeks' && table) renderSeeks(m.seeks || []);
    };
    ws.onclose = () => setTimeout(connect, 2000);
  }
  function renderSeeks(seeks) {
    const body = table.querySelector('tbody');
    const t = table.dataset;
    body.textContent = '';
    if (!seeks.length) {
      const tr = document.createElement('tr'); tr.className = 'empty';
      const td = document.createElement('td'); td.colSpan = 5; td.textContent = t.tEmpty;
      tr.appendChild(td); body.appendChild(tr); return;
    }
    for (const s of seeks) {
      const tr = document.createElement('tr');
      for (const v of [s.by, s.tc || '∞', s.rated ? t.tRated : t.tCasual, s.color]) {
        const td = document.createElement('td'); td.textContent = v; tr.appendChild(td);
      }
      const td = document.createElement('td');
      const f = document.createElement('form'); f.method = 'post'; f.action = '/challenge/' + encodeURIComponent(s.id);
      const b = document.createElement('button'); b.type = 'submit'; b.className = 'accept-seek'; b.textContent = t.tPlay;
      f.appendChild(b); td.appendChild(f); tr.appendChild(td); body.appendChild(tr);
    }
  }
  if (challenge && challenge.dataset.own === 'true') {
    // Poll too, in case the socket missed the start.
    setInterval(() => {
      fetch('/api/seeks/' + encodeURIComponent(challenge.dataset.seek)).then((r) => r.json()).then((j) => {
        if (j.game_id) location.href = '/game/' + j.game_id;
      }).catch(() => {});
    }, 3000);
  }
  if (table || challenge) connect();
})();
