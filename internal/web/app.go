package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"text/template"
)

// The installable web app: the manifest and the service worker. The
// service worker caches the site's shell (the hashed static assets and the
// offline pages, /play-offline and /analysis, which carry no user data) so that
// one can play and analyse with the engine with no network; it never
// caches an API answer or a page with user data. Its cache is named after
// a hash of every asset's hash, so that a new build replaces it whole.

// engineAssets are fetched only by the pages that use the engine; the
// service worker caches them when such a page asks it (cache-engine), so
// that a visitor of the other pages never downloads the engine.
var engineAssets = []string{"engine.wasm"}

// OfflinePages are the pages the service worker caches: they must carry no
// user data (the server renders them without the visitor's name).
// The first is the page of any other with no network.
var OfflinePages = []string{"/play-offline", "/analysis"}

// Version returns the hash of every asset's hash: the service worker's
// cache version.
func (ps *Pages) Version() string {
	names := make([]string, 0, len(ps.hashes))
	for n := range ps.hashes {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(n + "=" + ps.hashes[n] + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// shellAssets returns the hashed URLs of the assets the service worker
// caches at its install: every static asset but the engine's.
func (ps *Pages) shellAssets() (shell, engine []string) {
	for n := range ps.hashes {
		if slices.Contains(engineAssets, n) {
			engine = append(engine, ps.Asset(n))
			continue
		}
		shell = append(shell, ps.Asset(n))
	}
	slices.Sort(shell)
	slices.Sort(engine)
	return shell, engine
}

var swTemplate = template.Must(template.New("sw").Parse(`// The service worker of the site (internal/web/app.go writes it).
'use strict';
const CACHE = 'toguz-{{.Version}}';
const SHELL = {{.Shell}};
const ENGINE = {{.Engine}};
const PAGES = {{.Pages}};

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL.concat(PAGES))).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith('toguz-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// An engine page asks for the engine's files to be kept for offline use.
self.addEventListener('message', (e) => {
  if (e.data && e.data.type === 'cache-engine') {
    e.waitUntil(caches.open(CACHE).then((c) => c.addAll(ENGINE)).then(() => {
      if (e.source) e.source.postMessage({ type: 'engine-cached' });
    }));
  }
});

// A Web Push message (internal/notifications): its JSON shown as a
// notification, and posted to the site's open pages; a click opens its
// page (a site path only).
self.addEventListener('push', (e) => {
  let m = {};
  try { m = e.data ? e.data.json() : {}; } catch (err) { m = { body: e.data ? e.data.text() : '' }; }
  const url = typeof m.url === 'string' && m.url.startsWith('/') && !m.url.startsWith('//') ? m.url : '/notifications';
  e.waitUntil(Promise.all([
    self.registration.showNotification(m.title || 'Toguz', { body: m.body || '', tag: m.tag || m.kind || 'toguz', data: { url }, icon: '/favicon.ico' }),
    self.clients.matchAll({ type: 'window' }).then((cs) => cs.forEach((c) => c.postMessage({ type: 'push', notice: m }))),
  ]));
});

self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = new URL((e.notification.data && e.notification.data.url) || '/notifications', self.location.origin).href;
  e.waitUntil(self.clients.matchAll({ type: 'window' }).then((cs) => {
    for (const c of cs) { if (c.url === url && 'focus' in c) return c.focus(); }
    return self.clients.openWindow(url);
  }));
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return; // never cached
  if (url.pathname.startsWith('/static/') && url.searchParams.has('v')) {
    // A hashed asset never changes: the cache first.
    e.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
    return;
  }
  if (PAGES.includes(url.pathname) && url.search === '') {
    // An offline page: the network first (a new language, a new build),
    // kept for the next time without one.
    e.respondWith(fetch(req).then((resp) => {
      if (resp.ok) {
        const copy = resp.clone();
        caches.open(CACHE).then((c) => c.put(url.pathname, copy));
      }
      return resp;
    }).catch(() => caches.match(url.pathname)));
    return;
  }
  if (req.mode === 'navigate') {
    // Any other page with no network: the offline engine page.
    e.respondWith(fetch(req).catch(() => caches.match(PAGES[0]).then((hit) => hit || Response.error())));
  }
});
`))

// ServiceWorker serves /sw.js, at the root so that it may control every
// page. It is never cached by HTTP: the browser checks it for a new
// version on every visit.
func (ps *Pages) ServiceWorker() http.Handler {
	shell, engine := ps.shellAssets()
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	var b bytes.Buffer
	err := swTemplate.Execute(&b, map[string]string{"Version": ps.Version(), "Shell": js(shell), "Engine": js(engine), "Pages": js(OfflinePages)})
	body := b.Bytes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(body)
	})
}

// Manifest is the web app's manifest in lang: its name, and the favicon's
// SVG as its icon at any size.
func (ps *Pages) Manifest(lang string) map[string]any {
	return map[string]any{
		"name": ps.cat.T(lang, "site.name"), "short_name": ps.cat.T(lang, "site.name"),
		"description": ps.cat.T(lang, "manifest.description"), "lang": lang,
		"start_url": "/", "scope": "/", "display": "standalone",
		"background_color": "#faf7f2", "theme_color": "#1f6f8b",
		"icons": []map[string]string{
			{"src": ps.Asset("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
		},
	}
}
