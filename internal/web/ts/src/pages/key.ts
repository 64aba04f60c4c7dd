// The key's stepper (/key): the server draws every step's boards; this
// shows one step at a time, with buttons and the arrow keys, and plays them
// in turn. The carries' highlight is CSS, off under prefers-reduced-motion.
// No arithmetic here: the steps are the server's (internal/abacus).

const root = document.getElementById('key-stepper');
if (root) stepper(root);

function stepper(root: HTMLElement): void {
  const steps = [...root.querySelectorAll<HTMLElement>('.key-step')];
  const controls = root.querySelector('.key-controls') as HTMLElement;
  const prev = document.getElementById('key-prev') as HTMLButtonElement;
  const next = document.getElementById('key-next') as HTMLButtonElement;
  const play = document.getElementById('key-play') as HTMLButtonElement;
  const status = document.getElementById('key-status') as HTMLElement;
  const tpl = root.dataset.tStep || '';
  let i = 0;
  let timer = 0;
  const show = (n: number): void => {
    i = Math.max(0, Math.min(steps.length - 1, n));
    steps.forEach((s, k) => { s.hidden = k !== i; });
    let k = 0;
    status.textContent = tpl.replace(/%d/g, () => String(k++ === 0 ? i + 1 : steps.length));
    prev.disabled = i === 0;
    next.disabled = i === steps.length - 1;
    root.dataset.current = String(i + 1);
  };
  const stop = (): void => {
    clearInterval(timer);
    timer = 0;
    play.textContent = root.dataset.tPlay || '';
    play.setAttribute('aria-pressed', 'false');
  };
  prev.addEventListener('click', () => { stop(); show(i - 1); });
  next.addEventListener('click', () => { stop(); show(i + 1); });
  play.addEventListener('click', () => {
    if (timer) { stop(); return; }
    if (i === steps.length - 1) show(0);
    play.textContent = root.dataset.tPause || '';
    play.setAttribute('aria-pressed', 'true');
    timer = window.setInterval(() => {
      if (i >= steps.length - 1) { stop(); return; }
      show(i + 1);
    }, 1400);
  });
  root.addEventListener('keydown', (e) => {
    if ((e.target as HTMLElement).closest('input, select')) return;
    if (e.key === 'ArrowRight') { stop(); show(i + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { stop(); show(i - 1); e.preventDefault(); }
  });
  controls.hidden = false;
  root.classList.add('stepping');
  show(0);
}

export {};
