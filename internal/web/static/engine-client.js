// The engine for the pages that need it, as an ES module:
//
//   const { createEngine } = await import(document.getElementById('engine-assets').dataset.client);
//   const engine = createEngine();       // reads #engine-assets (partials/engine.html)
//   const best = await engine.analyse(fen, { multipv, depth, movetime, ruleset, game }, onInfo);
//   engine.stop(); await engine.legal(fen, ruleset); await engine.play(fen, move, ruleset);
//
// It runs the Go engine and rules compiled to WebAssembly in a Web Worker
// (engine-worker.js). Where WebAssembly or workers are missing, or the
// worker cannot start, the same calls go to the server: POST /api/analysis
// (bounded, rate-limited; one answer, no live lines) and POST
// /api/positions/legal and /play, which answer the worker's JSON. The
// answers are the Go code's: nothing here knows a rule.

function assets() {
  const el = document.getElementById('engine-assets');
  return el ? el.dataset : null;
}

async function post(path, body, signal) {
  const r = await fetch(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal,
    credentials: 'same-origin',
  });
  const m = await r.json().catch(() => ({}));
  if (!r.ok) {
    const e = new Error((m.error && m.error.message) || String(r.status));
    e.status = r.status;
    e.code = m.error && m.error.code;
    throw e;
  }
  return m;
}

// serverEngine answers with the server (the fallback).
function serverEngine() {
  let abort = null;
  return {
    kind: 'server',
    analyse(fen, o = {}, onInfo) {
      if (abort) abort.abort();
      const ctl = new AbortController();
      abort = ctl;
      const req = { fen: fen || '', ruleset: o.ruleset || '', multipv: o.multipv || 1, depth: o.depth || 0, movetime: o.movetime || 0 };
      if (o.game) req.game = o.game;
      return post('/api/analysis', req, ctl.signal).then((best) => {
        if (best.info && onInfo) onInfo(best.info);
        return best;
      }, (err) => {
        if (err.name === 'AbortError') return null;
        throw err;
      });
    },
    stop() { if (abort) abort.abort(); abort = null; },
    legal(fen, ruleset) { return post('/api/positions/legal', { fen: fen || '', ruleset: ruleset || '' }); },
    play(fen, move, ruleset) { return post('/api/positions/play', { fen: fen || '', ruleset: ruleset || '', move }); },
  };
}

// workerEngine answers with the WebAssembly build in a worker, and turns to
// the server if the worker cannot start.
function workerEngine(a) {
  const url = a.worker + '&exec=' + encodeURIComponent(a.exec) + '&wasm=' + encodeURIComponent(a.wasm);
  const worker = new Worker(url);
  const pending = new Map(); // id → {resolve, reject, onInfo}
  let next = 1;
  let current = 0; // the analysis under way
  let fallback = null;
  let readyResolve;
  const ready = new Promise((r) => { readyResolve = r; });

  const toServer = (err) => {
    if (fallback) return;
    fallback = serverEngine();
    api.kind = 'server';
    api.error = err;
    worker.terminate();
    readyResolve(false);
    // What was asked of the worker goes to the server.
    for (const [, p] of pending) p.retry();
    pending.clear();
  };
  worker.onerror = (e) => toServer(new Error(e.message || 'worker'));
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === 'ready') { readyResolve(true); return; }
    if (m.type === 'error' && m.fatal) { toServer(new Error(m.message)); return; }
    const p = pending.get(m.id);
    if (!p) return;
    switch (m.type) {
      case 'info':
        if (p.onInfo) p.onInfo(m);
        return;
      case 'error': {
        const err = new Error(m.message);
        pending.delete(m.id);
        p.reject(err);
        return;
      }
      default:
        pending.delete(m.id);
        if (m.id === current) current = 0;
        p.resolve(m);
    }
  };

  const ask = (msg, onInfo, retry) => new Promise((resolve, reject) => {
    if (fallback) { retry().then(resolve, reject); return; }
    const id = next++;
    pending.set(id, { resolve, reject, onInfo, retry: () => retry().then(resolve, reject) });
    worker.postMessage(Object.assign({ id }, msg));
    return id;
  });

  const api = {
    kind: 'wasm',
    ready,
    analyse(fen, o = {}, onInfo) {
      if (fallback) return fallback.analyse(fen, o, onInfo);
      // A new analysis stops the one under way, which answers first.
      if (current) worker.postMessage({ type: 'stop' });
      current = next;
      return ask({ type: 'go', fen: fen || '', ruleset: o.ruleset || '', multipv: o.multipv || 1, depth: o.depth || 0, movetime: o.movetime || 0 },
        onInfo, () => fallback.analyse(fen, o, onInfo));
    },
    stop() {
      if (fallback) { fallback.stop(); return; }
      worker.postMessage({ type: 'stop' });
    },
    legal(fen, ruleset) {
      return ask({ type: 'legal', fen: fen || '', ruleset: ruleset || '' }, null, () => fallback.legal(fen, ruleset));
    },
    play(fen, move, ruleset) {
      return ask({ type: 'play', fen: fen || '', ruleset: ruleset || '', move }, null, () => fallback.play(fen, move, ruleset));
    },
    terminate() { worker.terminate(); },
  };
  return api;
}

// createEngine returns the in-browser engine, or the server's where
// WebAssembly is missing ({server: true} asks for the server's).
export function createEngine(opts = {}) {
  const a = assets();
  const wasm = typeof WebAssembly === 'object' && typeof Worker === 'function';
  if (!wasm || !a || opts.server) {
    const e = serverEngine();
    e.ready = Promise.resolve(false);
    return e;
  }
  return workerEngine(a);
}

// keepOffline asks the service worker to keep the engine's files, so that
// this page works with no network next time.
export function keepOffline() {
  if (!('serviceWorker' in navigator)) return Promise.resolve(false);
  return navigator.serviceWorker.ready.then((reg) => new Promise((resolve) => {
    const sw = reg.active;
    if (!sw) { resolve(false); return; }
    navigator.serviceWorker.addEventListener('message', function done(e) {
      if (e.data && e.data.type === 'engine-cached') {
        navigator.serviceWorker.removeEventListener('message', done);
        resolve(true);
      }
    });
    sw.postMessage({ type: 'cache-engine' });
  }));
}
