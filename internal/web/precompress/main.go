// Command precompress writes FILE.br, FILE compressed with brotli at its
// best level, for each FILE named on its command line, so that the server
// sends the engine's wasm at brotli's best (0.89 MB for its 4.2 MB) without
// the 40 s of CPU that level costs (internal/web/static.go). It runs from
// internal/engineweb (`go generate ./internal/engineweb`, after the wasm's
// build); a FILE.br that decodes to FILE already is left as it is, so that a
// run on an unchanged file costs a decoding. brotli's output is the same
// bytes on every run: CI rebuilds it and fails on any difference.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := precompress(name); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
	}
}

func precompress(name string) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(name + ".br"); err == nil {
		if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(old))); err == nil && bytes.Equal(got, raw) {
			return nil
		}
	}
	var b bytes.Buffer
	w := brotli.NewWriterLevel(&b, brotli.BestCompression)
	if _, err := w.Write(raw); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(name+".br", b.Bytes(), 0o644)
}
