package main

import (
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/store"
)

// TestUpgradeFromPrevious: a database written by an earlier build
// (testdata/upgrade: schema version 17, an account, finished games with
// their moves and reviews) is migrated by this build's serve at its start
// and served: the account's page, every game's moves as they were, and
// the guest key beside it.
func TestUpgradeFromPrevious(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "toguz.db")
	gz, err := os.Open("testdata/upgrade/previous.db.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, zr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	key, err := os.ReadFile("testdata/upgrade/previous.db.guestkey")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db+".guestkey", key, 0o600); err != nil {
		t.Fatal(err)
	}

	// What the earlier build wrote, read as it left it.
	old, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var version int64
	if err := old.QueryRow(`SELECT MAX(version_id) FROM goose_db_version`).Scan(&version); err != nil || version != 17 {
		t.Fatalf("the earlier database's schema: %d, %v; want 17", version, err)
	}
	plies := map[string]int{}
	rows, err := old.Query(`SELECT g.id, COUNT(m.ply) FROM games g LEFT JOIN moves m ON m.game_id = g.id GROUP BY g.id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			t.Fatal(err)
		}
		plies[id] = n
	}
	rows.Close()
	old.Close()
	if len(plies) < 10 {
		t.Fatalf("the earlier database has %d games", len(plies))
	}

	sv := startServe(t, []string{"-db", db}, nil)
	if sv.exited {
		t.Fatalf("serve on the earlier database exited %d:\n%s", sv.code, sv.errs.String())
	}
	site := sv.url("listening on ")
	if code, body := get(t, site+"/readyz"); code != 200 {
		t.Fatalf("/readyz: %d %s", code, body)
	}
	if code, _ := get(t, site+"/@/abai"); code != 200 {
		t.Errorf("the earlier account's page: %d", code)
	}
	login, err := http.Post(site+"/api/login", "application/json", strings.NewReader(`{"name":"abai","password":"kunanbai-1845"}`))
	if err != nil {
		t.Fatal(err)
	}
	login.Body.Close()
	if login.StatusCode != 200 {
		t.Errorf("the earlier account's login: %d", login.StatusCode)
	}
	for id, n := range plies {
		resp, err := http.Get(site + "/api/games/" + id)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Ply    int    `json:"ply"`
			Status string `json:"status"`
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || st.Ply != n || st.Status == "" {
			t.Errorf("game %s: %d %+v %v; want its %d plies", id, resp.StatusCode, st, err, n)
		}
	}
	if code := sv.stop(); code != 0 {
		t.Errorf("serve exited %d:\n%s", code, sv.errs.String())
	}
	st, err := store.Open(context.Background(), db, store.Options{SessionSweep: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if v, err := st.SchemaVersion(context.Background()); err != nil || v <= 17 {
		t.Errorf("the schema after serve: %d, %v", v, err)
	}
	if u, err := st.UserByName(context.Background(), "abai"); err != nil || !strings.EqualFold(u.Name, "abai") {
		t.Errorf("the account after the upgrade: %+v, %v", u, err)
	}
}
