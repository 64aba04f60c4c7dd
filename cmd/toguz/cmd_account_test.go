package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
