package server

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDatabasePage lists the open database's month files and its puzzle
// file and sends them; any other name of the folder is not served.
func TestDatabasePage(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "toguz-rated-2026-10.pgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Comment = "games=7"
	io.WriteString(zw, "[Event \"x\"]\n")
	zw.Close()
	f.Close()
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("no"), 0o644)
	os.WriteFile(filepath.Join(dir, "toguz-puzzles.csv"), []byte("no"), 0o644)
	pf, err := os.Create(filepath.Join(dir, "toguz-puzzles.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw = gzip.NewWriter(pf)
	zw.Comment = "puzzles=21"
	io.WriteString(zw, "id,fen\n")
	zw.Close()
	pf.Close()
	srv, err := New(Config{Settings: Settings{DatabaseDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Language", "ky")
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	code, body := get("/database")
	if code != 200 || !strings.Contains(body, `href="/database/toguz-rated-2026-10.pgn.gz"`) || !strings.Contains(body, "<td>7</td>") ||
		!strings.Contains(body, "Ачык маалымат базасы") || !strings.Contains(body, `href="/database/toguz-puzzles.csv.gz"`) ||
		!strings.Contains(body, "21 табышмак") || !strings.Contains(body, "WhiteAccuracy") {
		t.Errorf("the list: %d %s", code, body)
	}
	for _, p := range []string{"/database/toguz-rated-2026-10.pgn.gz", "/database/toguz-puzzles.csv.gz"} {
		if code, body := get(p); code != http.StatusOK || len(body) == 0 {
			t.Errorf("%s: %d", p, code)
		}
	}
	for _, p := range []string{"/database/secret.txt", "/database/toguz-puzzles.csv", "/database/..%2Fsecret.txt", "/database/toguz-rated-2026-11.pgn.gz"} {
		if code, _ := get(p); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
}
