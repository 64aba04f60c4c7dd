//go:build js && wasm

// Command wasm is the rules and the engine for the browser: built by
// `go generate ./internal/engineweb` into internal/web/static/engine.wasm,
// run by the Web Worker static/engine-worker.js. It sets the global
// toguzEngine to {legal, play, go, stop}, all in JSON strings
// (engineweb.Session), and then waits for calls for ever.
package main

import (
	"syscall/js"

	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/engineweb"
)

func main() {
	opts := engine.DefaultOptions()
	opts.HashMB = 32
	e, err := engine.New(opts)
	if err != nil {
		panic(err)
	}
	s := engineweb.NewSession(e, yield)
	str := func(f func(string) string) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args[0].String()) })
	}
	api := map[string]any{
		"legal": str(s.Legal),
		"play":  str(s.Play),
		"go": js.FuncOf(func(_ js.Value, args []js.Value) any {
			info, done := args[1], args[2]
			s.Go(args[0].String(), func(m string) { info.Invoke(m) }, func(m string) { done.Invoke(m) })
			return nil
		}),
		"stop": js.FuncOf(func(js.Value, []js.Value) any { s.Stop(); return nil }),
	}
	js.Global().Set("toguzEngine", js.ValueOf(api))
	js.Global().Call("toguzEngineReady")
	select {}
}

// yield lets the worker's event loop run its queued messages (a stop): it
// asks the worker for a turn of its loop (toguzYield, a MessageChannel
// round trip, not a clamped timer) and blocks this goroutine until then;
// with nothing else to run, the Go runtime returns to the event loop.
func yield() {
	ch := make(chan struct{}, 1)
	f := js.FuncOf(func(js.Value, []js.Value) any {
		ch <- struct{}{}
		return nil
	})
	js.Global().Call("toguzYield", f)
	<-ch
	f.Release()
}
