// The event page's live part: fetched again every few seconds with the
// ETag of the last copy, so the server answers 304 while nothing changed.
// The server renders it whole, in the page's language; no rule here.

const box = document.getElementById('event-live');
if (box) {
  const src = box.getAttribute('data-src') || '';
  let etag = '';
  const every = 5000;
  const poll = (): void => {
    if (document.hidden) { setTimeout(poll, every); return; }
    const headers: Record<string, string> = etag ? { 'If-None-Match': etag } : {};
    fetch(src, { headers, credentials: 'same-origin' }).then((r) => {
      if (r.status === 200) {
        etag = r.headers.get('ETag') || '';
        return r.text().then((html) => { box.innerHTML = html; });
      }
    }).catch(() => {}).then(() => { setTimeout(poll, every); });
  };
  setTimeout(poll, every);
}

export {};
