package engineweb

// The browser's build, committed so that a fresh clone serves it, and
// rebuilt by CI (.ci/run), which fails when it differs: reproducible, with
// no path, build ID or VCS stamp in it.
//go:generate env GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false "-ldflags=-s -w -buildid=" -o ../web/static/engine.wasm ./wasm
//go:generate sh -c "cp \"$(go env GOROOT)/lib/wasm/wasm_exec.js\" ../web/static/wasm_exec.js"
//go:generate go run ../web/precompress ../web/static/engine.wasm
