package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/toguz/toguz/internal/i18n"
)

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		header, coding string
		want           bool
	}{
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip, deflate, br, zstd", "gzip", true},
		{"gzip", "br", false},
		{"", "gzip", false},
		{"br;q=0, gzip", "br", false},
		{"BR ; q=0.5", "br", true},
		{"*", "br", true},
		{"*;q=0", "gzip", false},
		{"gzip;q=0, *", "gzip", false},
		{"identity", "gzip", false},
	} {
		if got := accepts(c.header, c.coding); got != c.want {
			t.Errorf("accepts(%q, %q) = %v, want %v", c.header, c.coding, got, c.want)
		}
	}
}

// TestStaticCompressed: an asset comes in the best coding the request
// accepts, decodes to the embedded file, has an ETag per coding that a
// revalidation answers with 304, and says Vary: Accept-Encoding.
func TestStaticCompressed(t *testing.T) {
	ps, err := NewPages(i18n.New())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := files.ReadFile("static/board.js")
	if err != nil {
		t.Fatal(err)
	}
	decode := map[string]func(io.Reader) (io.Reader, error){
		"":     func(r io.Reader) (io.Reader, error) { return r, nil },
		"gzip": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		"br":   func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	}
	url := ps.Asset("board.js")
	etags := map[string]string{}
	for _, c := range []struct{ accept, want string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"", ""},
		{"identity", ""},
	} {
		req := httptest.NewRequest("GET", url, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		w := httptest.NewRecorder()
		ps.Static().ServeHTTP(w, req)
		h := w.Result().Header
		if w.Code != 200 || h.Get("Content-Encoding") != c.want || h.Get("Vary") != "Accept-Encoding" ||
			h.Get("Content-Type") != "text/javascript; charset=utf-8" || h.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Fatalf("Accept-Encoding %q: %d %v, want the coding %q", c.accept, w.Code, h, c.want)
		}
		body, err := decode[c.want](w.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(body)
		if err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("Accept-Encoding %q: the body decodes to %d bytes (%v), want board.js's %d", c.accept, len(got), err, len(raw))
		}
		if c.want != "" && w.Body.Len() > len(raw)/2 {
			t.Errorf("%s: %d bytes of %d", c.want, w.Body.Len(), len(raw))
		}
		etag := h.Get("ETag")
		if prev, ok := etags[c.want]; ok && prev != etag {
			t.Errorf("coding %q: ETag %s, then %s", c.want, prev, etag)
		}
		etags[c.want] = etag

		// A revalidation with the ETag of this form: 304, no body.
		req.Header.Set("If-None-Match", etag)
		w = httptest.NewRecorder()
		ps.Static().ServeHTTP(w, req)
		if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
			t.Errorf("Accept-Encoding %q, If-None-Match %s: %d with %d bytes, want 304", c.accept, etag, w.Code, w.Body.Len())
		}
	}
	if len(etags) != 3 || etags[""] == etags["br"] || etags[""] == etags["gzip"] || etags["br"] == etags["gzip"] {
		t.Errorf("ETags %v: want one per coding", etags)
	}
	// Another form's ETag is not this one's.
	req := httptest.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("If-None-Match", etags["br"])
	w := httptest.NewRecorder()
	ps.Static().ServeHTTP(w, req)
	if w.Code != 200 || w.Result().Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gzip asked with brotli's ETag: %d %v", w.Code, w.Result().Header)
	}

	for _, c := range []struct {
		path, typ, cache string
		code             int
	}{
		{"/static/favicon.svg", "image/svg+xml", "no-cache", 200},
		{"/static/style.css?v=1", "text/css; charset=utf-8", "public, max-age=31536000, immutable", 200},
		{"/static/nothing.js", "", "", 404},
	} {
		w := httptest.NewRecorder()
		ps.Static().ServeHTTP(w, httptest.NewRequest("GET", c.path, nil))
		if w.Code != c.code || c.code == 200 && (w.Result().Header.Get("Content-Type") != c.typ || w.Result().Header.Get("Cache-Control") != c.cache) {
			t.Errorf("%s: %d %v", c.path, w.Code, w.Result().Header)
		}
	}
}

// TestPrecompressed: every static/NAME.br decodes to static/NAME (else:
// `go generate ./internal/engineweb`), and is what a brotli request gets.
func TestPrecompressed(t *testing.T) {
	ps, err := NewPages(i18n.New())
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(files, "static/*.br")
	if err != nil || len(names) == 0 {
		t.Fatalf("no static/*.br (%v): the engine's wasm should have one", err)
	}
	for _, name := range names {
		pre, _ := files.ReadFile(name)
		raw, err := files.ReadFile(strings.TrimSuffix(name, ".br"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(pre)))
		if err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("%s does not decode to %s (%v): run go generate ./internal/engineweb", name, strings.TrimSuffix(name, ".br"), err)
		}
		req := httptest.NewRequest("GET", ps.Asset(strings.TrimSuffix(strings.TrimPrefix(name, "static/"), ".br")), nil)
		req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		w := httptest.NewRecorder()
		ps.Static().ServeHTTP(w, req)
		if w.Code != 200 || w.Result().Header.Get("Content-Encoding") != "br" || !bytes.Equal(w.Body.Bytes(), pre) {
			t.Errorf("%s: %d %v, %d bytes: want %s's %d", req.URL, w.Code, w.Result().Header, w.Body.Len(), name, len(pre))
		}
		// NAME.br is no asset of its own.
		w = httptest.NewRecorder()
		ps.Static().ServeHTTP(w, httptest.NewRequest("GET", "/"+name, nil))
		if w.Code != 404 {
			t.Errorf("/%s: %d, want 404", name, w.Code)
		}
	}
}
