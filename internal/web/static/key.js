// The key's stepper (/key): the server draws every step's boards; this
// shows one step at a time, with buttons and the arrow keys, and plays them
// in turn. The carries' highlight is CSS, off under prefers-reduced-motion.
// No arithmetic here: the steps are the server's (internal/abacus).
(() => {
  const root = document.getElementById('key-stepper');
  if (!root) return;
  const steps = [...root.querySelectorAll('.key-step')];
  const controls = root.querySelector('.key-controls');
  const prev = document.getElementById('key-prev');
  const next = document.getElementById('key-next');
  const play = document.getElementById('key-play');
  const status = document.getElementById('key-status');
  const tpl = root.dataset.tStep;
  let i = 0;
  let timer = null;
  const show = (n) => {
    i = Math.max(0, Math.min(steps.length - 1, n));
    steps.forEach((s, k) => { s.hidden = k !== i; });
    let k = 0;
    status.textContent = tpl.replace(/%d/g, () => (k++ === 0 ? i + 1 : steps.length));
    prev.disabled = i === 0;
    next.disabled = i === steps.length - 1;
    root.dataset.current = String(i + 1);
  };
  const stop = () => {
    clearInterval(timer);
    timer = null;
    play.textContent = root.dataset.tPlay;
    play.setAttribute('aria-pressed', 'false');
  };
  prev.addEventListener('click', () => { stop(); show(i - 1); });
  next.addEventListener('click', () => { stop(); show(i + 1); });
  play.addEventListener('click', () => {
    if (timer) { stop(); return; }
    if (i === steps.length - 1) show(0);
    play.textContent = root.dataset.tPause;
    play.setAttribute('aria-pressed', 'true');
    timer = setInterval(() => {
      if (i >= steps.length - 1) { stop(); return; }
      show(i + 1);
    }, 1400);
  });
  root.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select')) return;
    if (e.key === 'ArrowRight') { stop(); show(i + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { stop(); show(i - 1); e.preventDefault(); }
  });
  controls.hidden = false;
  root.classList.add('stepping');
  show(0);
})();
