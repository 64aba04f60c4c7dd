// The live pages of broadcasts and simuls. A broadcast's page listens to
// its event stream and, at each change, fetches itself again and puts in
// the new round (boards, plies, results, standings: all drawn by the
// server, in the page's language). The host's grid of a simul does the
// same every few seconds, and the key n goes to the next board where it
// is the host's move. No rule of the game is here.

import { typing } from '../lib/dom';

// swap fetches the page again and replaces the elements of ids by their
// new versions, keeping the focus on the element of the same id.
async function swap(...ids: string[]): Promise<boolean> {
  const resp = await fetch(location.href, { headers: { Accept: 'text/html' }, cache: 'no-store' });
  if (!resp.ok) return false;
  const doc = new DOMParser().parseFromString(await resp.text(), 'text/html');
  const focused = document.activeElement && document.activeElement.id;
  for (const id of ids) {
    const fresh = doc.getElementById(id);
    const old = document.getElementById(id);
    if (fresh && old) old.replaceWith(fresh);
  }
  if (focused) {
    const el = document.getElementById(focused);
    if (el) el.focus();
  }
  return true;
}

const live = document.getElementById('bc-live');
if (live) {
  const status = document.getElementById('bc-status') as HTMLElement;
  const es = new EventSource(live.dataset.events || '');
  let busy = false, again = false;
  const refresh = async (): Promise<void> => {
    if (busy) { again = true; return; }
    busy = true;
    try { await swap('bc-round'); } finally { busy = false; }
    if (again) { again = false; void refresh(); }
  };
  es.onopen = () => { status.textContent = live.dataset.tLive || ''; };
  es.onerror = () => { status.textContent = live.dataset.tOffline || ''; };
  es.addEventListener('change', () => void refresh());
}

// A simul's page and the host's grid: the parts marked data-refresh are
// fetched again every few seconds.
const parts = Array.from(document.querySelectorAll<HTMLElement>('[data-refresh]')).map((el) => el.id);
if (parts.length) {
  const every = Number((document.getElementById(parts[0]) as HTMLElement).dataset.refresh) || 3000;
  setInterval(() => { void swap(...parts); }, every);
}
const grid = document.getElementById('simul-grid');
if (grid) {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'n' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) return;
    const boards = Array.from(document.querySelectorAll<HTMLElement>('#simul-grid .simul-board'));
    const at = boards.indexOf(document.activeElement as HTMLElement);
    for (let i = 1; i <= boards.length; i++) {
      const b = boards[(at + i + boards.length) % boards.length];
      if (b.dataset.myMove === 'true') { b.focus(); e.preventDefault(); return; }
    }
  });
}
