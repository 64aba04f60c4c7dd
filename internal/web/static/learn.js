// The lessons of /learn: the index marks the lessons done, the lesson page
// sends each answer to the server (POST /api/learn/{lesson}/{exercise}),
// whose rules library judges it, and shows the verdict it writes in the
// page's language. No rule of the game is here. Progress: an account's is
// kept by the server (the page's data-done), a guest's in localStorage.
(function () {
  'use strict';
  const KEY = 'toguz.learn';
  function parse(s, d) { try { return s ? JSON.parse(s) : d; } catch (e) { return d; } }
  // A guest's browser keeps each exercise done with the answer that did it
  // ({id, lesson, exercise, answer}; an id alone from an older page), so
  // that his progress can move to the account he makes later.
  function kept() { try { return parse(localStorage.getItem(KEY), []); } catch (e) { return []; } }
  function keep(list) {
    try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* private mode: this page only */ }
  }
  function idOf(e) { return typeof e === 'string' ? e : e.id; }
  function local() { return kept().map(idOf); }
  function remember(id, lessonID, exerciseID, answer) {
    const list = kept();
    if (list.some((e) => idOf(e) === id)) return;
    list.push({ id: id, lesson: lessonID, exercise: exerciseID, answer: String(answer) });
    keep(list);
  }
  function check(lessonID, exerciseID, a) {
    return fetch('/api/learn/' + encodeURIComponent(lessonID) + '/' + encodeURIComponent(exerciseID), {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ answer: a }),
    });
  }
  // moveGuestProgress runs on an account's pages: each answer this browser
  // kept as a guest is sent again, judged by the server's rules like any
  // answer and so stored as the account's, then forgotten here. The page
  // reloads once to show what moved.
  async function moveGuestProgress(root) {
    if (!root || root.dataset.done === undefined) return;
    const list = kept();
    if (!list.some((e) => typeof e === 'object' && e.lesson)) return;
    const left = [];
    let moved = 0;
    for (const e of list) {
      if (typeof e !== 'object' || !e.lesson) continue; // no answer to send: nothing the server could judge
      try {
        const res = await check(e.lesson, e.exercise, e.answer);
        const v = await res.json();
        if (res.ok && v.right && v.saved) moved++;
        else if (!res.ok && res.status !== 400 && res.status !== 404) left.push(e); // a refusal to retry later
      } catch (err) {
        left.push(e);
      }
    }
    keep(left);
    if (moved > 0) location.reload();
  }
  const { format } = BoardView; // boardview.js: a catalog text's verbs filled
  // solved is the set of exercises done: the account's (data-done), else
  // this browser's.
  function solved(root) {
    return new Set(root.dataset.done !== undefined ? parse(root.dataset.done, []) : local());
  }

  const index = document.getElementById('learn');
  moveGuestProgress(index || document.getElementById('lesson'));
  if (index) {
    const done = solved(index);
    let n = 0, current = null;
    for (const row of index.querySelectorAll('.lesson-row')) {
      const ids = parse(row.dataset.exercises, []);
      const k = ids.filter((id) => done.has(id)).length;
      n += k;
      row.querySelector('.lesson-count').textContent = k + '/' + ids.length;
      const mark = row.querySelector('.lesson-mark');
      if (k === ids.length) {
        row.classList.add('done');
        mark.textContent = document.getElementById('t-done').textContent;
      } else if (!current) {
        current = row;
        row.classList.add('current');
        mark.textContent = document.getElementById('t-current').textContent;
      }
    }
    const p = document.getElementById('learn-progress');
    if (p) p.textContent = format(index.dataset.tProgress, [n, +index.dataset.total]);
  }

  const lesson = document.getElementById('lesson');
  if (!lesson) return;
  const done = solved(lesson);

  function markDone(ex) {
    ex.classList.add('done');
    ex.querySelector('.ex-mark').textContent = lesson.dataset.tDone;
  }

  for (const b of lesson.querySelectorAll('button.demo')) {
    b.addEventListener('click', () => {
      const step = b.closest('.learn-step');
      const before = step.querySelector('.demo-before'), after = step.querySelector('.demo-after');
      const showAfter = after.hidden;
      after.hidden = !showAfter;
      before.hidden = showAfter;
      b.textContent = showAfter ? b.dataset.tBefore : b.dataset.tPlay;
    });
  }

  for (const ex of lesson.querySelectorAll('.exercise')) {
    if (done.has(ex.dataset.pid)) markDone(ex);
    const out = ex.querySelector('.feedback');
    let busy = false;
    async function answer(a) {
      if (busy) return;
      busy = true;
      try {
        const res = await check(lesson.dataset.lesson, ex.dataset.exercise, a);
        const v = await res.json();
        out.textContent = '';
        if (!res.ok) {
          out.className = 'feedback wrong';
          out.textContent = (v.error && v.error.message) || lesson.dataset.tFailed;
          return;
        }
        out.className = 'feedback ' + (v.right ? 'right' : 'wrong');
        const h = document.createElement('strong');
        h.textContent = v.headline;
        out.appendChild(h);
        for (const line of v.feedback) out.appendChild(document.createTextNode(' ' + line));
        if (v.right) {
          if (!v.saved) remember(v.exercise, lesson.dataset.lesson, ex.dataset.exercise, a);
          markDone(ex);
        }
      } catch (e) {
        out.className = 'feedback wrong';
        out.textContent = lesson.dataset.tFailed;
      } finally {
        busy = false;
      }
    }
    for (const b of ex.querySelectorAll('button.hole.playable')) b.addEventListener('click', () => answer(b.dataset.hole));
    for (const b of ex.querySelectorAll('button.choice')) b.addEventListener('click', () => answer(b.dataset.answer));
    const form = ex.querySelector('form.answer-form');
    if (form) form.addEventListener('submit', (e) => { e.preventDefault(); answer(form.elements.answer.value); });
  }
})();
