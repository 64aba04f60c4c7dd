package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/account"
	"github.com/toguz/toguz/internal/store"
)

// TestAccountResetLink: the operator's link is a live, single-use reset
// link of the account, at the site's URL.
func TestAccountResetLink(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(context.Background(), "Abai", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	code, out, errs := runRecordCmd(t, "account", "reset-link", "-db", db, "-site-url", "https://toguz.example.org/", "abai")
	link := strings.TrimSpace(out)
	token, ok := strings.CutPrefix(link, "https://toguz.example.org/password/reset/")
	if code != 0 || !ok || token == "" {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	st, err = store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := sha256.Sum256([]byte(token))
	l, err := st.AccountLinkByHash(context.Background(), hex.EncodeToString(h[:]), account.PurposeReset, time.Now())
	if err != nil || l.UserID != u.ID || l.Expires.Sub(l.Created) != account.ResetTTL {
		t.Errorf("the stored link: %+v, %v", l, err)
	}
	if code, _, errs := runRecordCmd(t, "account", "reset-link", "-db", db, "nobody"); code != 1 || !strings.Contains(errs, `no account "nobody"`) {
		t.Errorf("a missing account: exit %d, %q", code, errs)
	}
	if code, _, _ := runRecordCmd(t, "account", "reset-link", "-db", db); code != 2 {
		t.Errorf("no name: exit %d", code)
	}
	if code, _, _ := runRecordCmd(t, "account"); code != 2 {
		t.Errorf("no subcommand: exit %d", code)
	}
}

// TestServeMail: serve says at start whether mail is on, and refuses a bad
// mail setting naming the option.
func TestServeMail(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 0, "mail off"},
		{[]string{"-smtp-host", "127.0.0.1", "-smtp-from", "Toguz <noreply@toguz.test>", "-smtp-tls", "none", "-smtp-user", "toguz", "-smtp-password-file", pw,
			"-site-url", "https://toguz.example.org"}, 0, "links=https://toguz.example.org"},
		{[]string{"-smtp-host", "127.0.0.1"}, 1, "smtp-from"},
		{[]string{"-smtp-host", "127.0.0.1", "-smtp-from", "a@b.c", "-smtp-tls", "ssl"}, 1, `smtp-tls "ssl"`},
		{[]string{"-smtp-host", "127.0.0.1", "-smtp-from", "a@b.c", "-smtp-password-file", pw + ".missing"}, 1, "smtp-password-file"},
	}
	for _, tt := range tests {
		code, out := serveStart(t, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.want) {
			t.Errorf("%q: exit %d (want %d), output lacks %q:\n%s", tt.args, code, tt.code, tt.want, out)
		}
	}
}
