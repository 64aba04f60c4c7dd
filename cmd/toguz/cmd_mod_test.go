package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/store"
)

// TestMod grants and revokes the moderator role through the command, which
// refuses an unknown account and a bad usage.
func TestMod(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUser(context.Background(), "Aigul", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"list"}, 0, "no moderators"},
		{[]string{"grant", "aigul"}, 0, "Aigul is a moderator"},
		{[]string{"list"}, 0, "Aigul"},
		{[]string{"grant", "nobody"}, 1, ""},
		{[]string{"revoke", "Aigul"}, 0, "no longer"},
		{[]string{"list"}, 0, "no moderators"},
		{[]string{"promote", "Aigul"}, 2, ""},
	} {
		code, out, errs := runRecordCmd(t, append([]string{"mod", "-db", db}, tt.args...)...)
		if code != tt.code || !strings.Contains(out, tt.out) {
			t.Errorf("mod %v: exit %d, %q %q; want exit %d with %q", tt.args, code, out, errs, tt.code, tt.out)
		}
	}
}
