// The lessons of /learn: the index marks the lessons done, the lesson page
// sends each answer to the server (POST /api/learn/{lesson}/{exercise}),
// whose rules library judges it, and shows the verdict it writes in the
// page's language. No rule of the game is here. Progress: an account's is
// kept by the server (the page's data-done), a guest's in localStorage.
// The lessons' boards are drawn by the server (partials/learnboard.html).

import { format, parseJSON } from '../lib/dom';

const KEY = 'toguz.learn';
// A guest's browser keeps each exercise done with the answer that did it
// ({id, lesson, exercise, answer}; an id alone from an older page), so
// that his progress can move to the account he makes later.
interface Kept { id: string; lesson: string; exercise: string; answer: string }
type Entry = string | Kept;
function kept(): Entry[] { try { return parseJSON<Entry[]>(localStorage.getItem(KEY), []); } catch { return []; } }
function keep(list: Entry[]): void {
  try { localStorage.setItem(KEY, JSON.stringify(list)); } catch { /* private mode: this page only */ }
}
function idOf(e: Entry): string { return typeof e === 'string' ? e : e.id; }
function local(): string[] { return kept().map(idOf); }
function remember(id: string, lessonID: string, exerciseID: string, answer: string): void {
  const list = kept();
  if (list.some((e) => idOf(e) === id)) return;
  list.push({ id, lesson: lessonID, exercise: exerciseID, answer: String(answer) });
  keep(list);
}
function check(lessonID: string, exerciseID: string, a: string): Promise<Response> {
  return fetch('/api/learn/' + encodeURIComponent(lessonID) + '/' + encodeURIComponent(exerciseID), {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ answer: a }),
  });
}

interface Verdict { right: boolean; saved: boolean; exercise: string; headline: string; feedback: string[]; error?: { message?: string } }

// moveGuestProgress runs on an account's pages: each answer this browser
// kept as a guest is sent again, judged by the server's rules like any
// answer and so stored as the account's, then forgotten here. The page
// reloads once to show what moved.
async function moveGuestProgress(root: HTMLElement | null): Promise<void> {
  if (!root || root.dataset.done === undefined) return;
  const list = kept();
  if (!list.some((e) => typeof e === 'object' && e.lesson)) return;
  const left: Entry[] = [];
  let moved = 0;
  for (const e of list) {
    if (typeof e !== 'object' || !e.lesson) continue; // no answer to send: nothing the server could judge
    try {
      const res = await check(e.lesson, e.exercise, e.answer);
      const v = (await res.json()) as Verdict;
      if (res.ok && v.right && v.saved) moved++;
      else if (!res.ok && res.status !== 400 && res.status !== 404) left.push(e); // a refusal to retry later
    } catch {
      left.push(e);
    }
  }
  keep(left);
  if (moved > 0) location.reload();
}

// solved is the set of exercises done: the account's (data-done), else
// this browser's.
function solved(root: HTMLElement): Set<string> {
  return new Set(root.dataset.done !== undefined ? parseJSON<string[]>(root.dataset.done, []) : local());
}

const index = document.getElementById('learn');
void moveGuestProgress(index || document.getElementById('lesson'));
if (index) {
  const done = solved(index);
  let n = 0, current: HTMLElement | null = null;
  for (const row of index.querySelectorAll<HTMLElement>('.lesson-row')) {
    const ids = parseJSON<string[]>(row.dataset.exercises, []);
    const k = ids.filter((id) => done.has(id)).length;
    n += k;
    (row.querySelector('.lesson-count') as HTMLElement).textContent = k + '/' + ids.length;
    const mark = row.querySelector('.lesson-mark') as HTMLElement;
    if (k === ids.length) {
      row.classList.add('done');
      mark.textContent = (document.getElementById('t-done') as HTMLElement).textContent;
    } else if (!current) {
      current = row;
      row.classList.add('current');
      mark.textContent = (document.getElementById('t-current') as HTMLElement).textContent;
    }
  }
  const p = document.getElementById('learn-progress');
  if (p) p.textContent = format(index.dataset.tProgress || '', [n, +(index.dataset.total || 0)]);
}

const lesson = document.getElementById('lesson');
if (lesson) lessonPage(lesson);

function lessonPage(lesson: HTMLElement): void {
  const done = solved(lesson);

  function markDone(ex: HTMLElement): void {
    ex.classList.add('done');
    (ex.querySelector('.ex-mark') as HTMLElement).textContent = lesson.dataset.tDone || '';
  }

  for (const b of lesson.querySelectorAll<HTMLButtonElement>('button.demo')) {
    b.addEventListener('click', () => {
      const step = b.closest('.learn-step') as HTMLElement;
      const before = step.querySelector('.demo-before') as HTMLElement, after = step.querySelector('.demo-after') as HTMLElement;
      const showAfter = after.hidden;
      after.hidden = !showAfter;
      before.hidden = showAfter;
      b.textContent = (showAfter ? b.dataset.tBefore : b.dataset.tPlay) || '';
    });
  }

  for (const ex of lesson.querySelectorAll<HTMLElement>('.exercise')) {
    if (done.has(ex.dataset.pid || '')) markDone(ex);
    const out = ex.querySelector('.feedback') as HTMLElement;
    let busy = false;
    const answer = async (a: string): Promise<void> => {
      if (busy) return;
      busy = true;
      try {
        const res = await check(lesson.dataset.lesson || '', ex.dataset.exercise || '', a);
        const v = (await res.json()) as Verdict;
        out.textContent = '';
        if (!res.ok) {
          out.className = 'feedback wrong';
          out.textContent = (v.error && v.error.message) || lesson.dataset.tFailed || '';
          return;
        }
        out.className = 'feedback ' + (v.right ? 'right' : 'wrong');
        const h = document.createElement('strong');
        h.textContent = v.headline;
        out.appendChild(h);
        for (const line of v.feedback) out.appendChild(document.createTextNode(' ' + line));
        if (v.right) {
          if (!v.saved) remember(v.exercise, lesson.dataset.lesson || '', ex.dataset.exercise || '', a);
          markDone(ex);
        }
      } catch {
        out.className = 'feedback wrong';
        out.textContent = lesson.dataset.tFailed || '';
      } finally {
        busy = false;
      }
    };
    for (const b of ex.querySelectorAll<HTMLButtonElement>('button.hole.playable')) b.addEventListener('click', () => void answer(b.dataset.hole || ''));
    for (const b of ex.querySelectorAll<HTMLButtonElement>('button.choice')) b.addEventListener('click', () => void answer(b.dataset.answer || ''));
    const form = ex.querySelector<HTMLFormElement>('form.answer-form');
    if (form) form.addEventListener('submit', (e) => { e.preventDefault(); void answer((form.elements.namedItem('answer') as HTMLInputElement).value); });
  }
}
