// The position editor. It knows no rule: the stone total comes from the
// page (the server renders it from the ruleset) and the verdict on a
// position from the server (POST /api/positions/check, the rules library's
// Setup), whose error text it shows.

const form = document.getElementById('editor') as HTMLFormElement | null;
if (form) editor(form);

function editor(form: HTMLFormElement): void {
  const out = document.getElementById('editor-total') as HTMLElement;
  const errBox = document.getElementById('editor-error') as HTMLElement;
  const fen = document.getElementById('editor-fen') as HTMLElement;
  const want = parseInt(form.dataset.total || '', 10);
  const holes = form.querySelectorAll('.hole-input').length / 2;
  const num = (name: string): number => {
    const i = form.elements.namedItem(name) as HTMLInputElement | null;
    return i ? parseInt(i.value || '0', 10) || 0 : 0;
  };

  function total(): void {
    let n = 0;
    for (const i of form.querySelectorAll<HTMLInputElement>('.hole-input, .kazan-input')) n += parseInt(i.value || '0', 10) || 0;
    out.textContent = String(n);
    out.classList.toggle('bad', n !== want);
  }

  function request(): object {
    const row = (prefix: string): number[] => {
      const r: number[] = [];
      for (let h = 1; h <= holes; h++) r.push(num(prefix + h));
      return r;
    };
    const turn = form.elements.namedItem('turn') as RadioNodeList | HTMLInputElement;
    return {
      ruleset: form.dataset.ruleset, board: [row('w'), row('b')], kazan: [num('kw'), num('kb')],
      tuzdik: [num('tw'), num('tb')], turn: turn.value,
    };
  }

  function showError(text: string): void {
    errBox.textContent = text;
    errBox.hidden = !text;
  }

  // check asks the server about the position; only the latest answer shows.
  let seq = 0, timer = 0;
  function check(): void {
    const mine = ++seq;
    fetch('/api/positions/check', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request()),
    }).then((r) => r.json()).then((a: { ok?: boolean; fen?: string; error?: { message?: string } }) => {
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
    timer = window.setTimeout(check, 300);
  });
  total();

  // The ruleset and FEN form: a new ruleset shows its starting position,
  // a pasted FEN its position, both from the server (GET /editor); the
  // button does the same without JavaScript.
  const setup = document.getElementById('editor-setup') as HTMLFormElement | null;
  if (setup) {
    const paste = setup.elements.namedItem('fen') as HTMLInputElement;
    (setup.elements.namedItem('ruleset') as HTMLSelectElement).addEventListener('change', () => { paste.value = ''; setup.submit(); });
    paste.addEventListener('paste', () => setTimeout(() => { if (paste.value.trim()) setup.submit(); }, 0));
  }
}

export {};
