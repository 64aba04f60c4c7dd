// The game review on the game page (partials/review.html): marks the
// reviewed plies in board.js's move list, each with its mark and, in the
// page's language as the server wrote it, what it cost and the better move
// with its line; a click on (or Enter at) a point of the evaluation graph
// shows that ply, and the graph marks the ply the board shows. While the
// review is pending (or the game is still played) it asks the server for
// the section again, less and less often, until the review is there.

import { parseJSON } from '../lib/dom';

interface Note { ply: number; mark: string; sym: string; text: string }

const first = document.getElementById('review');
if (first) review(first);

function review(sec: HTMLElement): void {
  let notes: Note[] = [];
  let ended = false, polling = false;

  function load(): void {
    notes = parseJSON<Note[] | null>(sec.dataset.notes || 'null', null) || [];
    const g = sec.querySelector<SVGSVGElement>('svg.review-graph');
    if (g) g.addEventListener('click', (e) => {
      // Each point is a link to its ply (internal/review's graph); a click
      // between points goes to the nearest one.
      e.preventDefault();
      let a = (e.target as Element).closest<SVGAElement>('a.point');
      if (!a) {
        let best = Infinity;
        g.querySelectorAll<SVGAElement>('a.point').forEach((p) => {
          const r = p.getBoundingClientRect(), d = Math.abs(r.left + r.width / 2 - e.clientX);
          if (d < best) { best = d; a = p; }
        });
      }
      if (a) showPly(+(a.dataset.key || 0));
    });
  }

  // showPly steps the board to ply (0: the start) by its move list's button.
  function showPly(ply: number): void {
    const b = ply > 0 ? document.querySelector<HTMLElement>('#moves [data-ply="' + ply + '"]') : document.getElementById('first');
    if (b) b.click();
  }

  // current marks the graph's point of the ply the board shows.
  function current(): void {
    // board.js marks the move shown in its list before it tells us.
    const cur = document.querySelector<HTMLElement>('#moves .ply.current');
    const ply = cur ? cur.dataset.ply || '' : '0';
    sec.querySelectorAll<SVGAElement>('svg.review-graph a.point').forEach((p) => {
      p.classList.toggle('current', p.dataset.key === ply);
    });
  }

  function decorate(): void {
    notes.forEach((n) => {
      const b = document.querySelector('#moves [data-ply="' + n.ply + '"]');
      if (!b || b.querySelector('.review-mark')) return;
      const m = document.createElement('span');
      m.className = 'review-mark review-' + n.mark;
      m.textContent = n.sym;
      m.title = n.text;
      b.appendChild(m);
      b.setAttribute('aria-description', n.text);
      const t = document.createElement('span');
      t.className = 'review-note review-' + n.mark;
      t.textContent = n.sym + ' ' + n.text;
      (b.parentNode as HTMLElement).appendChild(t);
    });
  }

  // poll fetches the section until its review is done or failed, every
  // 2 s at first, then less often, for at most half an hour.
  function poll(delay: number, until: number): void {
    if (polling) return;
    polling = true;
    const again = (): void => {
      if (Date.now() > until) return;
      fetch('/game/' + encodeURIComponent(sec.dataset.id || '') + '/review', {
        credentials: 'same-origin',
        // The section alone: without this header the address is the game
        // page's review section (internal/review's SectionHeader).
        headers: { 'X-Toguz-Section': 'review' },
      })
        .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
        .then((html) => {
          const doc = new DOMParser().parseFromString(html, 'text/html');
          const fresh = doc.getElementById('review');
          if (!fresh) return;
          if (fresh.dataset.state !== sec.dataset.state) {
            sec.replaceWith(fresh);
            sec = fresh;
            load();
            decorate();
          }
          if (sec.dataset.state === 'pending' || sec.dataset.state === 'live') {
            delay = Math.min(delay * 1.5, 30000);
            setTimeout(again, delay);
          }
        })
        .catch(() => { delay = Math.min(delay * 2, 60000); setTimeout(again, delay); });
    };
    setTimeout(again, delay);
  }

  function start(): void {
    const s = sec.dataset.state;
    if (s === 'pending' || (s === 'live' && ended)) poll(2000, Date.now() + 30 * 60 * 1000);
  }

  document.addEventListener('toguz:render', (e) => {
    decorate();
    current();
    const d = (e as CustomEvent<{ ended?: boolean } | null>).detail;
    if (d && d.ended && !ended) { ended = true; start(); }
  });
  load();
  decorate();
  start();
}
