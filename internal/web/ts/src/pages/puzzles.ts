// /puzzles: the player picks a hole (click, or the keys 1–9); the server
// judges his moves so far against the stored solution (POST
// /api/puzzles/{id}) and answers in the page's language. While they are
// right and the puzzle has more, it plays the opponent's reply and sends the
// board after it, which replaces the board here; at the end: right or
// wrong, the solution, the themes and, for an account, the puzzle rating.
// No rule of the game is here.

interface Verdict { right: boolean; done: boolean; board: string; headline: string; text: string; tags: string; rating_text?: string; message?: string }

const root = document.getElementById('puzzle');
if (root) puzzle(root);

function puzzle(root: HTMLElement): void {
  const feedback = document.getElementById('puzzle-feedback') as HTMLElement;
  const next = document.getElementById('puzzle-next') as HTMLAnchorElement;
  const board = document.getElementById('puzzle-board') as HTMLElement;
  let holes: HTMLButtonElement[] = [];
  const moves: number[] = []; // the solver's moves so far, judged by the server
  let done = false;

  function bind(): void {
    holes = Array.from(board.querySelectorAll<HTMLButtonElement>('button.hole.playable'));
    for (const b of holes) b.addEventListener('click', () => answer(b.dataset.hole || ''));
  }

  function answer(hole: string): void {
    if (done) return;
    done = true;
    for (const b of holes) b.disabled = true;
    moves.push(+hole);
    fetch('/api/puzzles/' + encodeURIComponent(root.dataset.id || ''), {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
      body: JSON.stringify({ moves }),
    }).then((r) => r.json().then((v: Verdict) => ({ ok: r.ok, v }))).then(({ ok, v }) => {
      if (!ok) throw new Error(v && v.message);
      if (v.right && !v.done) {
        // The opponent has answered: the board after his reply, the next move to find.
        board.innerHTML = v.board;
        bind();
        root.dataset.step = String(moves.length);
        feedback.textContent = v.headline;
        feedback.className = 'feedback right';
        done = false;
        if (holes.length) holes[0].focus();
        return;
      }
      root.classList.add(v.right ? 'solved' : 'missed');
      feedback.textContent = v.headline;
      feedback.className = 'feedback ' + (v.right ? 'right' : 'wrong');
      const sol = document.getElementById('puzzle-solution') as HTMLElement;
      sol.textContent = v.text;
      sol.hidden = false;
      const tags = document.getElementById('puzzle-tags') as HTMLElement;
      tags.textContent = v.tags;
      tags.hidden = false;
      const rating = document.getElementById('puzzle-rating');
      if (rating && v.rating_text) rating.textContent = v.rating_text;
      const streak = +(root.dataset.streak || '');
      if (streak >= 0) {
        if (v.right) {
          next.href = '/puzzles?streak=' + (streak + 1);
        } else {
          next.href = '/puzzles?streak=0';
          feedback.textContent = v.headline + ' ' + (root.dataset.tStreakEnd || '').replace('%d', String(streak));
        }
      }
      next.hidden = false;
      next.focus();
    }).catch((e: unknown) => {
      moves.pop();
      done = false;
      for (const b of holes) b.disabled = false;
      feedback.textContent = (e instanceof Error && e.message) || root.dataset.tFailed || '';
    });
  }
  bind();
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || (e.target as HTMLElement).closest('input, textarea, select')) return;
    if (e.key >= '1' && e.key <= '9') {
      const b = holes.find((x) => x.dataset.hole === e.key);
      if (b && !b.disabled) { e.preventDefault(); b.click(); }
    } else if (e.key === 'n' && !next.hidden) {
      next.click();
    }
  });
}

export {};
