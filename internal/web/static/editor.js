// The position editor. It knows no rule: the stone total comes from the
// page (the server renders it from the ruleset) and the verdict on a
// position from the server (POST /api/positions/check, the rules library's
// Setup), whose error text it shows.
(function () {
  'use strict';
  const form = document.getElementById('editor');
  if (!form) return;
  const out = document.getElementById('editor-total');
  const errBox = document.getElementById('editor-error');
  const fen = document.getElementById('editor-fen');
  const want = parseInt(form.dataset.total, 10);
  const holes = form.querySelectorAll('.hole-input').length / 2;
  const num = (name) => {
    const i = form.elements[name];
    return i ? parseInt(i.value || '0', 10) || 0 : 0;
  };

  function total() {
    let n = 0;
    for (const i of form.querySelectorAll('.hole-input, .kazan-input')) n += parseInt(i.value || '0', 10) || 0;
    out.textContent = String(n);
    out.classList.toggle('bad', n !== want);
  }

  function request() {
    const row = (prefix) => {
      const r = [];
      for (let h = 1; h <= holes; h++) r.push(num(prefix + h));
      return r;
    };
    return {
      ruleset: form.dataset.ruleset, board: [row('w'), row('b')], kazan: [num('kw'), num('kb')],
      tuzdik: [num('tw'), num('tb')], turn: form.elements.turn.value,
    };
  }

  function showError(text) {
    errBox.textContent = text;
    errBox.hidden = !text;
  }

  // check asks the server about the position; only the latest answer shows.
  let seq = 0, timer = 0;
  function check() {
    const mine = ++seq;
    fetch('/api/positions/check', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request()),
    }).then((r) => r.json()).then((a) => {
      if (mine !== seq) return;
      showError(a.ok ? '' : (a.error && a.error.message) || '');
      form.dataset.checked = a.ok ? 'ok' : 'bad';
      // The FEN of the position, as the server writes it; a position it
      // refuses has none, so the last good one is shown struck out.
      if (a.ok && a.fen) fen.textContent = a.fen;
      fen.classList.toggle('bad', !a.ok);
    }).catch(() => { /* offline: the server judges on submit */ });
  }

  form.addEventListener('input', () => {
    total();
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  });
  total();

  // The ruleset and FEN form: a new ruleset shows its starting position,
  // a pasted FEN its position, both from the server (GET /editor); the
  // button does the same without JavaScript.
  const setup = document.getElementById('editor-setup');
  if (setup) {
    const paste = setup.elements.fen;
    setup.elements.ruleset.addEventListener('change', () => { paste.value = ''; setup.submit(); });
    paste.addEventListener('paste', () => setTimeout(() => { if (paste.value.trim()) setup.submit(); }, 0));
  }
})();
