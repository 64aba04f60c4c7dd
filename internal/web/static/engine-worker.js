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
'use strict';

const params = new URL(self.location.href).searchParams;
importScripts(params.get('exec'));

// toguzYield gives the event loop a turn in the middle of a search, so
// that a stop arrives: a MessageChannel round trip, which no timer clamps.
const channel = new MessageChannel();
let resume = null;
channel.port1.onmessage = () => {
  const f = resume;
  resume = null;
  if (f) f();
};
self.toguzYield = (f) => {
  resume = f;
  channel.port2.postMessage(0);
};

const ready = new Promise((resolve, reject) => {
  self.toguzEngineReady = () => resolve(self.toguzEngine);
  const go = new Go();
  const url = params.get('wasm');
  const start = (result) => { go.run(result.instance); };
  const stream = WebAssembly.instantiateStreaming
    ? WebAssembly.instantiateStreaming(fetch(url), go.importObject)
    : fetch(url).then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject));
  stream.then(start, reject);
});

ready.then(() => postMessage({ type: 'ready' }),
  (err) => postMessage({ type: 'error', fatal: true, message: String(err) }));

// answer posts the JSON the Go code answered, or its error, with id.
function answer(type, id, json) {
  const m = JSON.parse(json);
  if (m.type === 'error') {
    postMessage({ type: 'error', id, message: m.message });
    return;
  }
  m.type = type;
  m.id = id;
  postMessage(m);
}

function position(m) {
  return { fen: m.fen || '', ruleset: m.ruleset || '' };
}

self.onmessage = async (e) => {
  const m = e.data || {};
  let engine;
  try {
    engine = await ready;
  } catch (err) {
    postMessage({ type: 'error', id: m.id, fatal: true, message: String(err) });
    return;
  }
  switch (m.type) {
    case 'go': {
      const req = Object.assign(position(m), { multipv: m.multipv || 1, depth: m.depth || 0, movetime: m.movetime || 0 });
      engine.go(JSON.stringify(req),
        (info) => { const i = JSON.parse(info); i.id = m.id; postMessage(i); },
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
      postMessage({ type: 'error', id: m.id, message: 'unknown message type ' + m.type });
  }
};
