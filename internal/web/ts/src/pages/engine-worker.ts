// The engine's Web Worker: the rules and the engine of the Go module,
// compiled to WebAssembly (engine.wasm, internal/engineweb), answering the
// page's messages. Its URL carries those of wasm_exec.js and engine.wasm
// (?exec=…&wasm=…, each with its content hash), which engine-client.js
// gives it. Every answer comes from the Go code: nothing here knows a rule.
//
// In:  {type:'go', id, fen, ruleset, multipv, depth, movetime}, {type:'stop'},
//      {type:'legal', id, fen, ruleset}, {type:'play', id, fen, ruleset, move}
// Out: {type:'ready'}, {type:'info', id, depth, multipv, lines, nodes, nps},
//      {type:'bestmove', id, move, notation, info},
//      {type:'legal', id, moves, over, …}, {type:'play', id, fen, notation,
//      trail, captured, legal, over, result, …}, {type:'error', id, message}

// What wasm_exec.js (Go's) and engine.wasm put on the worker's global.
interface GoEngine {
  go(req: string, onInfo: (info: string) => void, onDone: (done: string) => void): void;
  stop(): void;
  legal(req: string): string;
  play(req: string): string;
}
interface Go { importObject: WebAssembly.Imports; run(instance: WebAssembly.Instance): Promise<void> }
interface WorkerScope {
  location: Location;
  postMessage(m: unknown): void;
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  toguzYield?: (f: () => void) => void;
  toguzEngineReady?: () => void;
  toguzEngine?: GoEngine;
  Go: new () => Go;
}
interface Request { type?: string; id?: number; fen?: string; ruleset?: string; multipv?: number; depth?: number; movetime?: number; move?: number }

const self_ = self as unknown as WorkerScope;
const params = new URL(self_.location.href).searchParams;
importScripts(params.get('exec') || '');

// toguzYield gives the event loop a turn in the middle of a search, so
// that a stop arrives: a MessageChannel round trip, which no timer clamps.
const channel = new MessageChannel();
let resume: (() => void) | null = null;
channel.port1.onmessage = () => {
  const f = resume;
  resume = null;
  if (f) f();
};
self_.toguzYield = (f) => {
  resume = f;
  channel.port2.postMessage(0);
};

const ready = new Promise<GoEngine>((resolve, reject) => {
  self_.toguzEngineReady = () => resolve(self_.toguzEngine as GoEngine);
  const go = new self_.Go();
  const url = params.get('wasm') || '';
  const start = (result: WebAssembly.WebAssemblyInstantiatedSource): void => { void go.run(result.instance); };
  const stream = WebAssembly.instantiateStreaming
    ? WebAssembly.instantiateStreaming(fetch(url), go.importObject)
    : fetch(url).then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject));
  stream.then(start, reject);
});

ready.then(() => self_.postMessage({ type: 'ready' }),
  (err: unknown) => self_.postMessage({ type: 'error', fatal: true, message: String(err) }));

// answer posts the JSON the Go code answered, or its error, with id.
function answer(type: string, id: number | undefined, json: string): void {
  const m = JSON.parse(json) as Record<string, unknown>;
  if (m.type === 'error') {
    self_.postMessage({ type: 'error', id, message: m.message });
    return;
  }
  m.type = type;
  m.id = id;
  self_.postMessage(m);
}

function position(m: Request): { fen: string; ruleset: string } {
  return { fen: m.fen || '', ruleset: m.ruleset || '' };
}

self_.onmessage = async (e) => {
  const m: Request = e.data || {};
  let engine: GoEngine;
  try {
    engine = await ready;
  } catch (err) {
    self_.postMessage({ type: 'error', id: m.id, fatal: true, message: String(err) });
    return;
  }
  switch (m.type) {
    case 'go': {
      const req = Object.assign(position(m), { multipv: m.multipv || 1, depth: m.depth || 0, movetime: m.movetime || 0 });
      engine.go(JSON.stringify(req),
        (info) => { const i = JSON.parse(info) as Record<string, unknown>; i.id = m.id; self_.postMessage(i); },
        (done) => answer('bestmove', m.id, done));
      break;
    }
    case 'stop':
      engine.stop();
      break;
    case 'legal':
      answer('legal', m.id, engine.legal(JSON.stringify(position(m))));
      break;
    case 'play':
      answer('play', m.id, engine.play(JSON.stringify(Object.assign(position(m), { move: m.move }))));
      break;
    default:
      self_.postMessage({ type: 'error', id: m.id, message: 'unknown message type ' + m.type });
  }
};
