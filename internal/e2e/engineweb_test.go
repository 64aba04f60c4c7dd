package e2e

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdpage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// engineJS runs body in the page, an async function of engine (the
// in-browser engine of engine-client.js), and returns its JSON result.
func engineJS(u *user, body string) string {
	u.t.Helper()
	expr := `(async () => {
  const { createEngine } = await import(document.getElementById('engine-assets').dataset.client);
  const engine = createEngine();
  await engine.ready;
  const r = await (async (engine) => {` + body + `})(engine);
  return JSON.stringify(r);
})()`
	v, err := chromedp.Run(u.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		u.t.Fatalf("%s: %s: %v", u.name, body, err)
	}
	return v
}

// TestEngineWorker: the WebAssembly build loads in its worker, answers the
// legal moves of the start as the server does, and gives a best move with
// its lines, depth by depth.
func TestEngineWorker(t *testing.T) {
	base, browser, _ := setup(t)
	u := newUser(t, browser, base, "analyst")
	u.do("offline page", chromedp.Navigate(base+"/play-offline"))

	kind := engineJS(u, `return engine.kind;`)
	if kind != `"wasm"` {
		t.Fatalf("engine kind %s, want the WebAssembly build", kind)
	}
	var legal map[string]any
	json.Unmarshal([]byte(engineJS(u, `return await engine.legal('');`)), &legal)
	delete(legal, "id")
	delete(legal, "type")
	server := apiCall(t, "POST", base+"/api/positions/legal", "", map[string]any{})
	if moves, _ := legal["moves"].([]any); len(moves) != 9 || !reflect.DeepEqual(legal, server) {
		t.Errorf("the worker's legal moves of the start:\n%v\nthe server's:\n%v", legal, server)
	}

	var res struct {
		Best struct {
			Move     int    `json:"move"`
			Notation string `json:"notation"`
		} `json:"best"`
		Infos []struct {
			Depth int `json:"depth"`
			Lines []struct {
				PV       []int    `json:"pv"`
				Notation []string `json:"notation"`
			} `json:"lines"`
			Nodes int `json:"nodes"`
		} `json:"infos"`
	}
	out := engineJS(u, `const infos = [];
    const best = await engine.analyse('', {multipv: 2, depth: 6}, (i) => infos.push(i));
    return {best, infos};`)
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Best.Move < 1 || res.Best.Move > 9 || res.Best.Notation == "" || len(res.Infos) != 6 {
		t.Fatalf("analysis: %s", out)
	}
	for i, in := range res.Infos {
		if in.Depth != i+1 || len(in.Lines) != 2 || in.Nodes == 0 || len(in.Lines[0].PV) == 0 || len(in.Lines[0].PV) != len(in.Lines[0].Notation) {
			t.Fatalf("info %d: %+v", i, in)
		}
	}
	if last := res.Infos[len(res.Infos)-1]; last.Lines[0].PV[0] != res.Best.Move {
		t.Errorf("best move %d, the last line starts with %d", res.Best.Move, last.Lines[0].PV[0])
	}

	// Stop: an analysis with no limit answers its best move once stopped.
	out = engineJS(u, `const p = engine.analyse('', {}, () => {});
    await new Promise((r) => setTimeout(r, 300));
    engine.stop();
    return await p;`)
	var best struct {
		Move int `json:"move"`
	}
	if json.Unmarshal([]byte(out), &best); best.Move < 1 {
		t.Errorf("stopped analysis: %s", out)
	}
}

// emulateNetworkConditions is the protocol's Network.emulateNetworkConditions,
// deprecated in cdproto but what this Chromium takes for the whole page.
var emulateNetworkConditions = cdp.Command[networkConditions, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

type networkConditions struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

// offline cuts the network of the page (and its worker and service
// worker, whose requests go through the page's target).
func offline(on bool) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, t, emulateNetworkConditions, networkConditions{Offline: on, DownloadThroughput: -1, UploadThroughput: -1})
		return chromedp.Void{}, err
	}
}

// TestOfflineGame: once the service worker has installed and kept the
// engine, the offline page opens with the network cut, plays a move by the
// wasm rules, gets the engine's reply from its worker, and analyses the
// position (three lines, until stopped).
func TestOfflineGame(t *testing.T) {
	base, browser, dir := setup(t)
	u := newUser(t, browser, base, "offline")
	u.do("offline page", chromedp.Navigate(base+"/play-offline"))
	u.waitFor("the service worker in control", `navigator.serviceWorker.controller`, 30*time.Second)
	// The page asks the service worker to keep the engine (keepOffline).
	const kept = `caches.keys().then(async (ks) => { for (const k of ks) { const c = await caches.open(k); for (const r of await c.keys()) if (r.url.includes('engine.wasm')) return true; } return false; })`
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		ok, err := chromedp.Run(u.ctx, chromedp.Evaluate[bool](kept, chromedp.EvalAwaitPromise))
		if err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the engine is not in the service worker's cache: %v", err)
		}
	}

	u.do("cut the network", offline(true))
	// The network is cut: the server cannot be reached.
	if reached, _ := chromedp.Run(u.ctx, chromedp.Evaluate[bool](`fetch('/api/me').then(() => true, () => false)`, chromedp.EvalAwaitPromise)); reached {
		t.Fatal("the server is still reachable")
	}
	u.do("reload with no network", chromedp.Navigate(base+"/play-offline"), chromedp.WaitVisible(`#board button.hole`))
	u.waitFor("a legal hole", `document.querySelector('#board .row.mine button.hole.playable')`, 30*time.Second)
	// A short think, so that the test does not wait.
	u.do("engine time", chromedp.SetValue(`#offline-time`, "200"))
	// The board is every page's: a click plays, and so does a key.
	u.press("play", `#board .row.mine button.hole.playable`)
	u.waitFor("the engine's reply", `document.querySelectorAll('#offline-moves li').length === 2`, 30*time.Second)
	u.waitFor("my move again", `document.querySelector('#board .row.mine button.hole.playable')`, 10*time.Second)
	// The engine's move is marked where it was played from and where its
	// last stone fell, as on the game's page.
	if marks := eval[int](u, `document.querySelectorAll('#board .row.theirs .hole.from').length + document.querySelectorAll('#board .hole.to').length`); marks != 2 {
		t.Errorf("the last move's marks: %d, want its hole and its landing", marks)
	}
	key := eval[string](u, `document.querySelector('#board .row.mine button.hole.playable').dataset.hole`)
	u.key(key)
	u.waitFor("the move played by its key, and the reply", `document.querySelectorAll('#offline-moves li').length === 4`, 30*time.Second)
	u.waitFor("my move again", `document.querySelector('#board .row.mine button.hole.playable')`, 10*time.Second)
	// And an analysis of the position, with no network either.
	u.do("analyse", click(`#offline-analyse`))
	u.waitFor("three lines, deeper", `document.querySelectorAll('#offline-lines li').length === 3 && Number(document.getElementById('offline-depth').textContent) >= 5`, 30*time.Second)
	u.do("stop", click(`#offline-analyse`))
	u.waitFor("stopped", `document.getElementById('offline-analyse').getAttribute('aria-pressed') === 'false'`, 5*time.Second)
	png, err := chromedp.Run(u.ctx, chromedp.Screenshot(chromedp.CSS("#offline")))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	writeArtifact(t, dir, "offline-game.png", png)

	// The analysis board, kept by the service worker at its install, plays
	// and analyses with no network: the worker's rules and engine.
	const board = `caches.keys().then(async (ks) => { for (const k of ks) { const c = await caches.open(k); for (const r of await c.keys()) if (new URL(r.url).pathname === '/analysis') return true; } return false; })`
	if ok, err := chromedp.Run(u.ctx, chromedp.Evaluate[bool](board, chromedp.EvalAwaitPromise)); err != nil || !ok {
		t.Errorf("the analysis board is not in the service worker's cache: %v", err)
	}
	u.do("the analysis board with no network", chromedp.Navigate(base+"/analysis"))
	u.waitFor("a playable board", `document.querySelector('#board button.hole.playable')`, 30*time.Second)
	u.key("7")
	u.waitFor("the move played", `document.querySelector('#tree .move.current') && document.querySelector('#tree .move.current').textContent === "1. 76"`, 15*time.Second)
	u.waitFor("the worker's lines", `document.querySelectorAll('#engine-lines li').length > 0 && document.getElementById('analysis').dataset.engine === 'wasm'`, 30*time.Second)
	u.do("network back", offline(false))
}

// TestEngineDepthInBrowser measures the figure of docs/engine-web.md: the
// depth the in-browser engine reaches in 1 s from the start position, in
// headless Chromium (compare `go test ./internal/engine -run '^$' -bench
// 'DepthReached/threads=1/wall=1s' -benchtime 1x` on the same machine).
func TestEngineDepthInBrowser(t *testing.T) {
	base, browser, _ := setup(t)
	u := newUser(t, browser, base, "bench")
	u.do("offline page", chromedp.Navigate(base+"/play-offline"))
	engineJS(u, `return await engine.analyse('', {depth: 3}, () => {});`) // warm: compiled, loaded
	out := engineJS(u, `let last = null;
    const best = await engine.analyse('', {movetime: 1000}, (i) => { last = i; });
    return last;`)
	var in struct {
		Depth int    `json:"depth"`
		Nodes uint64 `json:"nodes"`
		NPS   uint64 `json:"nps"`
	}
	if err := json.Unmarshal([]byte(out), &in); err != nil || in.Depth == 0 {
		t.Fatalf("1 s analysis: %s %v", out, err)
	}
	t.Logf("in-browser engine, 1 s from the start: depth %d, %d nodes, %d nodes/s", in.Depth, in.Nodes, in.NPS)
}

// noWebAssembly removes WebAssembly from every page the browser opens,
// as in a browser without it.
func noWebAssembly() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, cdpage.AddScriptToEvaluateOnNewDocument, cdpage.AddScriptToEvaluateOnNewDocumentParams{Source: `delete globalThis.WebAssembly;`})
		return chromedp.Void{}, err
	}
}

// TestEngineFallback: without WebAssembly the engine pages ask the server
// (POST /api/positions/legal and /play, POST /api/analysis), and the
// offline page still plays a game, saying it needs the network.
func TestEngineFallback(t *testing.T) {
	base, browser, _ := setup(t)
	u := newUser(t, browser, base, "old browser")
	u.do("no WebAssembly", noWebAssembly())
	u.do("offline page", chromedp.Navigate(base+"/play-offline"))
	if kind := engineJS(u, `return engine.kind;`); kind != `"server"` {
		t.Fatalf("engine kind %s without WebAssembly, want the server's", kind)
	}
	var best struct {
		Move int `json:"move"`
		Info struct {
			Depth int   `json:"depth"`
			Lines []any `json:"lines"`
		} `json:"info"`
	}
	out := engineJS(u, `let shown = null;
    const best = await engine.analyse('', {multipv: 2, depth: 4}, (i) => { shown = i; });
    return Object.assign(best, {shown: !!shown});`)
	if err := json.Unmarshal([]byte(out), &best); err != nil || best.Move < 1 || best.Info.Depth != 4 || len(best.Info.Lines) != 2 {
		t.Fatalf("the server's analysis through the client: %s", out)
	}
	u.waitFor("a legal hole", `document.querySelector('#board .row.mine button.hole.playable')`, 30*time.Second)
	u.do("engine time", chromedp.SetValue(`#offline-time`, "200"))
	u.press("play", `#board .row.mine button.hole.playable`)
	u.waitFor("the server's reply", `document.querySelectorAll('#offline-moves li').length === 2`, 30*time.Second)
	want := i18n.New().T("en", "offline.fallback")
	if got := eval[string](u, `document.getElementById('offline-notice').hidden ? '' : document.getElementById('offline-notice').textContent`); got != want {
		t.Errorf("notice %q, want %q", got, want)
	}

	// The analysis board without WebAssembly: its moves and lines are the
	// server's, the same JSON.
	u.do("analysis board", chromedp.Navigate(base+"/analysis"))
	u.waitFor("a playable board", `document.querySelector('#board button.hole.playable')`, 15*time.Second)
	u.key("7")
	u.waitFor("the move played", `document.querySelector('#tree .move.current') && document.querySelector('#tree .move.current').textContent === "1. 76"`, 15*time.Second)
	u.waitFor("the server's lines", `document.querySelectorAll('#engine-lines li').length > 0`, 15*time.Second)
	if k := eval[string](u, `document.getElementById('analysis').dataset.engine`); k != "server" {
		t.Errorf("the analysis board's engine without WebAssembly: %q, want server", k)
	}
}
