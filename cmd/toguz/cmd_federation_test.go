package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/store"
)

// TestFederation creates the known federations, grants an officer,
// imports a list, publishes the next month's and exports it in the three
// formats through the command.
func TestFederation(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "toguz.db")
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUser(context.Background(), "Aigul", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	list := filepath.Join(dir, "list.csv")
	if err := os.WriteFile(list, []byte("id,name_cyrl,name_latn,birth_year,sex,rating\nKAZ-1,Әлихан,Alikhan,1980,m,2000\nKAZ-2,Айгүл,Aigul,1990,f,1900\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("id,name_latn,rating\nKAZ-9,X,abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"officers", "KAZ"}, 1, ""},
		{[]string{"seed"}, 0, "created: WORLD KAZ KGZ"},
		{[]string{"seed"}, 0, "already"},
		{[]string{"list"}, 0, "KAZ      national  WORLD    2004  Togyz Kumalak Federation of Kazakhstan"},
		{[]string{"-level", "regional", "-parent", "KAZ", "-name-en", "Kyzylorda region", "add", "KAZ-KZO"}, 0, "KAZ-KZO: Kyzylorda region"},
		{[]string{"grant", "KAZ", "aigul"}, 0, "Aigul is an officer of KAZ"},
		{[]string{"officers", "KAZ"}, 0, "Aigul"},
		{[]string{"grant", "KAZ", "nobody"}, 1, ""},
		{[]string{"import", "KAZ", "classic", "2026-02-01", bad}, 1, ""},
		{[]string{"import", "KAZ", "classic", "2026-02-01", list}, 0, "2 players imported"},
		{[]string{"publish", "KAZ", "classic", "2026-03-01"}, 0, "published: 2 players"},
		{[]string{"publish", "KAZ", "classic", "2026-03-01"}, 1, ""},
		{[]string{"export", "KAZ", "classic", "2026-03-01"}, 0, "KAZ-1,KAZ,Әлихан,Alikhan,1980,m,,,,,2000,30,0,0,20"},
		{[]string{"-format", "trf", "export", "KAZ", "classic", "2026-03-01"}, 0, "001    1 m    Alikhan"},
		{[]string{"-format", "pdf", "export", "KAZ", "classic", "2026-03-01"}, 0, "%PDF-"},
		{[]string{"export", "KAZ", "classic", "2026-04-01"}, 1, ""},
		{[]string{"revoke", "KAZ", "Aigul"}, 0, "no longer"},
		{[]string{"promote"}, 2, ""},
	} {
		code, out, errs := runRecordCmd(t, append([]string{"federation", "-db", db}, tt.args...)...)
		if code != tt.code || !strings.Contains(out, tt.out) {
			t.Errorf("federation %v: exit %d, %.200q %q; want exit %d with %q", tt.args, code, out, errs, tt.code, tt.out)
		}
	}
	_, _, errs := runRecordCmd(t, "federation", "-db", db, "import", "KAZ", "classic", "2026-02-01", bad)
	if !strings.Contains(errs, "line 2, field rating") {
		t.Errorf("a wrong line's error: %q", errs)
	}
}
