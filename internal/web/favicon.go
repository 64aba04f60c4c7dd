package web

import (
	"io/fs"
	"net/http"
)

// Favicon serves the site's icon (static/favicon.svg, a hole with stones)
// at /favicon.ico, where browsers and feed readers look for it without a
// <link rel="icon">; the pages link its hashed URL under /static/.
func (ps *Pages) Favicon() http.Handler {
	b, err := fs.ReadFile(files, "static/favicon.svg")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err != nil {
			http.Error(w, "no favicon", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.Write(b)
	})
}
