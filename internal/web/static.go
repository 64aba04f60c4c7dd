package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// The static assets are served compressed: each asset's brotli and gzip
// forms are made once, at the first request that accepts them, and kept
// for the life of the process (the assets are embedded, so they never
// change under it), rather than compressed again for every visitor as a
// compressing middleware would (the engine's wasm is 4 MB: 0.7 s of CPU
// per download at gzip's default level); the engine's wasm comes with its
// brotli form made at generate time at brotli's best level
// (static/engine.wasm.br, cmd precompress), too slow to make at a request.
// Each form has its own strong
// ETag, the asset's hash with the coding's suffix, and every answer says
// Vary: Accept-Encoding, so that a cache keeps the forms apart.

// encoding is one content coding of the static assets.
type encoding struct {
	name, etag string // Content-Encoding; the ETag's suffix
	compress   func(w io.Writer, b []byte, large bool) error
}

// largeAsset is the size above which brotli's best level (11) is too slow
// to make a form at the first request: 40 s for the engine's 4 MB on this
// project's machines, against 2 s at level 9 (1.00 MB against 0.89 MB).
const largeAsset = 1 << 20

var encodings = []encoding{
	{name: "br", etag: "-br", compress: func(w io.Writer, b []byte, large bool) error {
		level := brotli.BestCompression
		if large {
			level = 9
		}
		bw := brotli.NewWriterLevel(w, level)
		if _, err := bw.Write(b); err != nil {
			return err
		}
		return bw.Close()
	}},
	{name: "gzip", etag: "-gz", compress: func(w io.Writer, b []byte, _ bool) error {
		gw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
		if err != nil {
			return err
		}
		if _, err := gw.Write(b); err != nil {
			return err
		}
		return gw.Close()
	}},
}

// asset is one file under static/ with its compressed forms.
type asset struct {
	name, contentType, etag string
	raw                     []byte
	compressible            bool
	// brotli is static/NAME.br, the asset made at generate time at
	// brotli's best level (cmd precompress, for the engine's wasm), used
	// as the brotli form once checked to decode to raw.
	brotli []byte
	once   [2]sync.Once // per encodings
	forms  [2][]byte    // nil: the coding does not make it smaller
}

func newAsset(name string, raw []byte) *asset {
	sum := sha256.Sum256(raw)
	a := &asset{name: name, raw: raw, etag: hex.EncodeToString(sum[:12])}
	a.contentType = mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".wasm":
		// Set, not guessed from the system's MIME table: browsers
		// compile a module while it downloads only under this type.
		a.contentType = "application/wasm"
	case ".js":
		a.contentType = "text/javascript; charset=utf-8"
	case ".css":
		a.contentType = "text/css; charset=utf-8"
	case ".svg":
		a.contentType = "image/svg+xml"
	}
	a.compressible = len(raw) >= 512 && path.Ext(name) != ".png" && path.Ext(name) != ".woff2" && path.Ext(name) != ".jpg"
	return a
}

// form returns the asset in coding i, made at its first call; nil if the
// coding does not make it smaller.
func (a *asset) form(i int) []byte {
	a.once[i].Do(func() {
		if encodings[i].name == "br" && a.brotli != nil {
			// A stale NAME.br (the asset rebuilt without it) is
			// replaced by one made here; TestPrecompressed fails on it.
			if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(a.brotli))); err == nil && bytes.Equal(got, a.raw) {
				a.forms[i] = a.brotli
				return
			}
		}
		var b bytes.Buffer
		if err := encodings[i].compress(&b, a.raw, len(a.raw) > largeAsset); err != nil || b.Len() >= len(a.raw) {
			return
		}
		a.forms[i] = b.Bytes()
	})
	return a.forms[i]
}

// staticAssets reads every file of static into assets by name; a file
// NAME.br is NAME's brotli form, not an asset.
func staticAssets(static fs.FS) (map[string]*asset, error) {
	assets := map[string]*asset{}
	pre := map[string][]byte{}
	err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		if base, ok := strings.CutSuffix(p, ".br"); ok {
			pre[base] = b
			return nil
		}
		assets[p] = newAsset(p, b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for name, b := range pre {
		a, ok := assets[name]
		if !ok {
			return nil, fmt.Errorf("web: static/%s.br: no static/%s", name, name)
		}
		a.brotli = b
	}
	return assets, nil
}

// serveStatic serves /static/NAME: the form of the asset the request
// accepts best, with its ETag (If-None-Match answers 304) and, where the
// URL carries the asset's hash (?v=, Asset), a year's cache.
func serveStatic(assets map[string]*asset) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, ok := assets[strings.TrimPrefix(r.URL.Path, "/static/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		if r.URL.Query().Get("v") != "" {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		if a.contentType != "" {
			h.Set("Content-Type", a.contentType)
		}
		body, etag := a.raw, a.etag
		if a.compressible {
			h.Set("Vary", "Accept-Encoding")
			for i, e := range encodings {
				if !accepts(r.Header.Get("Accept-Encoding"), e.name) {
					continue
				}
				if f := a.form(i); f != nil {
					body, etag = f, a.etag+e.etag
					h.Set("Content-Encoding", e.name)
					break
				}
			}
		}
		h.Set("ETag", `"`+etag+`"`)
		// ServeContent answers If-None-Match (304), HEAD and ranges (of
		// the coded bytes, as HTTP defines them under a Content-Encoding).
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	}
}

// accepts reports whether the Accept-Encoding header value ae accepts the
// coding name: listed (or "*") with a q-value above 0.
func accepts(ae, name string) bool {
	star := false
	for part := range strings.SplitSeq(ae, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.TrimSpace(coding)
		q := 1.0
		if k, v, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				q = f
			}
		}
		switch {
		case strings.EqualFold(coding, name):
			return q > 0
		case coding == "*":
			star = q > 0
		}
	}
	return star
}
