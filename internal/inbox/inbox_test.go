package inbox

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/toguz/toguz/internal/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func user(t *testing.T, st *store.Store, name string) int64 {
	t.Helper()
	u, err := st.CreateUser(t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// TestMessageBounds: the store's bounds a day, per address and on new
// peers; a peer who wrote first does not count; conversations list the
// latest first with their unread counts; reading marks them read.
func TestMessageBounds(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	a, b, c, d, e := user(t, st, "a"), user(t, st, "b"), user(t, st, "c"), user(t, st, "d"), user(t, st, "e")
	send := func(from, to int64, addr string, lim store.MessageLimits) error {
		_, err := st.AddMessage(ctx, store.Message{SenderID: from, RecipientID: to, Body: "hi", Addr: addr}, lim)
		return err
	}
	which := func(err error) string {
		var le *store.ErrMessageLimit
		if errors.As(err, &le) {
			return le.Which
		}
		if err != nil {
			return err.Error()
		}
		return ""
	}
	newAcct := store.MessageLimits{PerDay: 5, NewPeers: 2}
	if err := send(e, a, "x", store.MessageLimits{}); err != nil { // e wrote to a first
		t.Fatal(err)
	}
	for _, to := range []int64{b, c} {
		if err := send(a, to, "", newAcct); err != nil {
			t.Fatal(err)
		}
	}
	if got := which(send(a, d, "", newAcct)); got != "peers" {
		t.Errorf("a third new peer: %q, want peers", got)
	}
	if err := send(a, e, "", newAcct); err != nil {
		t.Errorf("answering one who wrote first: %v", err)
	}
	if err := send(a, b, "", newAcct); err != nil {
		t.Errorf("a known peer again: %v", err)
	}
	if err := send(a, c, "", newAcct); err != nil {
		t.Fatal(err)
	}
	if got := which(send(a, b, "", newAcct)); got != "day" {
		t.Errorf("the sixth message: %q, want day", got)
	}
	if got := which(send(b, c, "x", store.MessageLimits{PerAddr: 1})); got != "addr" {
		t.Errorf("a second message from one address: %q, want addr", got)
	}
	cs, err := st.Conversations(ctx, a, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3 || cs[0].OtherName != "c" || cs[2].OtherName != "e" || cs[2].Unread != 1 || cs[0].Unread != 0 {
		t.Errorf("conversations %+v", cs)
	}
	if err := st.MarkThreadRead(ctx, a, e); err != nil {
		t.Fatal(err)
	}
	if cs, _ := st.Conversations(ctx, a, 10, 0); cs[2].Unread != 0 {
		t.Errorf("after reading: %+v", cs[2])
	}
	if ms, _ := st.Thread(ctx, a, b, 10, 0); len(ms) != 2 {
		t.Errorf("thread a-b %d", len(ms))
	}
	if ok, _ := st.ConversationReported(ctx, b, a); ok {
		t.Error("reported before any report")
	}
	if err := st.ReportConversation(ctx, a, b); err != nil {
		t.Fatal(err)
	}
	if ok, _ := st.ConversationReported(ctx, b, a); !ok {
		t.Error("the report is not seen from the other side")
	}
}
