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

import { postJSON } from '../lib/dom';
import type { AnalyseOptions, BestJSON, Engine, InfoJSON, LegalJSON, PlayJSON } from '../lib/engine';

function assets(): DOMStringMap | null {
  const el = document.getElementById('engine-assets');
  return el ? el.dataset : null;
}

function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return postJSON<T>(path, body, { signal, credentials: 'same-origin' });
}

// serverEngine answers with the server (the fallback).
function serverEngine(): Engine {
  let abort: AbortController | null = null;
  return {
    kind: 'server',
    ready: Promise.resolve(false),
    analyse(fen, o = {}, onInfo) {
      if (abort) abort.abort();
      const ctl = new AbortController();
      abort = ctl;
      const req: Record<string, unknown> = { fen: fen || '', ruleset: o.ruleset || '', multipv: o.multipv || 1, depth: o.depth || 0, movetime: o.movetime || 0 };
      if (o.game) req.game = o.game;
      return post<BestJSON>('/api/analysis', req, ctl.signal).then((best) => {
        if (best.info && onInfo) onInfo(best.info);
        return best;
      }, (err: unknown) => {
        if (err instanceof Error && err.name === 'AbortError') return null;
        throw err;
      });
    },
    stop() { if (abort) abort.abort(); abort = null; },
    legal(fen, ruleset) { return post<LegalJSON>('/api/positions/legal', { fen: fen || '', ruleset: ruleset || '' }); },
    play(fen, move, ruleset) { return post<PlayJSON>('/api/positions/play', { fen: fen || '', ruleset: ruleset || '', move }); },
  };
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onInfo: ((info: InfoJSON) => void) | null | undefined;
  retry: () => void;
}

interface WorkerMsg { type: string; id?: number; fatal?: boolean; message?: string }

// workerEngine answers with the WebAssembly build in a worker, and turns to
// the server if the worker cannot start.
function workerEngine(a: DOMStringMap): Engine {
  const url = a.worker + '&exec=' + encodeURIComponent(a.exec || '') + '&wasm=' + encodeURIComponent(a.wasm || '');
  const worker = new Worker(url);
  const pending = new Map<number, Pending>();
  let next = 1;
  let current = 0; // the analysis under way
  let fallback: Engine | null = null;
  let readyResolve: (ok: boolean) => void = () => {};
  const ready = new Promise<boolean>((r) => { readyResolve = r; });

  const toServer = (err: Error): void => {
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
  worker.onmessage = (e: MessageEvent<WorkerMsg>) => {
    const m = e.data;
    if (m.type === 'ready') { readyResolve(true); return; }
    if (m.type === 'error' && m.fatal) { toServer(new Error(m.message)); return; }
    const p = m.id === undefined ? undefined : pending.get(m.id);
    if (!p || m.id === undefined) return;
    switch (m.type) {
      case 'info':
        if (p.onInfo) p.onInfo(m as unknown as InfoJSON);
        return;
      case 'error': {
        pending.delete(m.id);
        p.reject(new Error(m.message));
        return;
      }
      default:
        pending.delete(m.id);
        if (m.id === current) current = 0;
        p.resolve(m);
    }
  };

  const ask = <T>(msg: Record<string, unknown>, onInfo: ((info: InfoJSON) => void) | null | undefined, retry: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (fallback) { retry().then(resolve, reject); return; }
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onInfo, retry: () => { retry().then(resolve, reject); } });
      worker.postMessage(Object.assign({ id }, msg));
    });

  const api: Engine = {
    kind: 'wasm',
    ready,
    analyse(fen: string, o: AnalyseOptions = {}, onInfo?: ((info: InfoJSON) => void) | null) {
      if (fallback) return fallback.analyse(fen, o, onInfo);
      // A new analysis stops the one under way, which answers first.
      if (current) worker.postMessage({ type: 'stop' });
      current = next;
      return ask<BestJSON | null>({ type: 'go', fen: fen || '', ruleset: o.ruleset || '', multipv: o.multipv || 1, depth: o.depth || 0, movetime: o.movetime || 0 },
        onInfo, () => (fallback as Engine).analyse(fen, o, onInfo));
    },
    stop() {
      if (fallback) { fallback.stop(); return; }
      worker.postMessage({ type: 'stop' });
    },
    legal(fen, ruleset) {
      return ask<LegalJSON>({ type: 'legal', fen: fen || '', ruleset: ruleset || '' }, null, () => (fallback as Engine).legal(fen, ruleset));
    },
    play(fen, move, ruleset) {
      return ask<PlayJSON>({ type: 'play', fen: fen || '', ruleset: ruleset || '', move }, null, () => (fallback as Engine).play(fen, move, ruleset));
    },
    terminate() { worker.terminate(); },
  };
  return api;
}

// createEngine returns the in-browser engine, or the server's where
// WebAssembly is missing ({server: true} asks for the server's).
export function createEngine(opts: { server?: boolean } = {}): Engine {
  const a = assets();
  const wasm = typeof WebAssembly === 'object' && typeof Worker === 'function';
  if (!wasm || !a || opts.server) return serverEngine();
  return workerEngine(a);
}

// keepOffline asks the service worker to keep the engine's files, so that
// this page works with no network next time.
export function keepOffline(): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return Promise.resolve(false);
  return navigator.serviceWorker.ready.then((reg) => new Promise<boolean>((resolve) => {
    const sw = reg.active;
    if (!sw) { resolve(false); return; }
    navigator.serviceWorker.addEventListener('message', function done(e: MessageEvent<{ type?: string } | null>) {
      if (e.data && e.data.type === 'engine-cached') {
        navigator.serviceWorker.removeEventListener('message', done);
        resolve(true);
      }
    });
    sw.postMessage({ type: 'cache-engine' });
  }));
}
