// The event page's live part: fetched again every few seconds with the
// ETag of the last copy, so the server answers 304 while nothing changed.
// The server renders it whole, in the page's language; no rule here.
(function () {
  'use strict';
  var box = document.getElementById('event-live');
  if (!box) return;
  var src = box.getAttribute('data-src');
  var etag = '';
  var every = 5000;
  function poll() {
    if (document.hidden) { setTimeout(poll, every); return; }
    var headers = etag ? { 'If-None-Match': etag } : {};
    fetch(src, { headers: headers, credentials: 'same-origin' }).then(function (r) {
      if (r.status === 200) {
        etag = r.headers.get('ETag') || '';
        return r.text().then(function (html) { box.innerHTML = html; });
      }
    }).catch(function () {}).then(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
