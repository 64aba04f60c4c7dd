package notifications

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/notify"
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

// sendAll sends ns and waits until the service has delivered them (Close
// drains the queue).
func sendAll(t *testing.T, s *Service, ns ...notify.Notice) {
	t.Helper()
	for _, n := range ns {
		if err := s.Send(t.Context(), n); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
}

// TestSend: a notice is stored in its reader's list and counted unread;
// one of a kind turned off, one from a blocked actor and one of the
// reader's own deed are dropped; marking read clears the count; the text
// is the catalog's in each language with its arguments.
func TestSend(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	abai, bolat, dana := user(t, st, "abai"), user(t, st, "bolat"), user(t, st, "dana")
	if err := st.SetNotifyPrefs(ctx, abai, map[string]store.NotifyPref{string(notify.Message): {}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Block(ctx, abai, dana); err != nil {
		t.Fatal(err)
	}
	s := New(Config{Store: st, Blocked: st.BlockedEither, Workers: 1}) // one worker: the notices are stored in order
	sendAll(t, s,
		notify.Notice{To: abai, Actor: bolat, Kind: notify.YourMove, Key: "notify.your_move", Args: []any{"bolat"}, URL: "/game/abc"},
		notify.Notice{To: abai, Actor: bolat, Kind: notify.Message, Key: "notify.your_move", Args: []any{"off"}},
		notify.Notice{To: abai, Actor: dana, Kind: notify.Challenge, Key: "notify.challenge", Args: []any{"dana"}},
		notify.Notice{To: abai, Actor: abai, Kind: notify.Challenge, Key: "notify.challenge", Args: []any{"abai"}},
		notify.Notice{To: abai, Kind: notify.EventSoon, Key: "notify.event_soon", Args: []any{"Nauryz open", 5}, URL: "/events/1"},
	)
	if got := s.Unread(ctx, abai); got != 2 {
		t.Fatalf("unread %d, want 2", got)
	}
	ns, err := st.Notifications(ctx, abai, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 2 {
		t.Fatalf("%d notices: %+v", len(ns), ns)
	}
	for lang, want := range map[string]string{"en": "Nauryz open starts in 5 minutes.", "ru": "Nauryz open начнётся через 5 мин."} {
		if v := s.view(lang, ns[0]); v.Text != want || v.URL != "/events/1" || v.Read {
			t.Errorf("%s: %+v, want %q", lang, v, want)
		}
	}
	if v := s.view("kk", ns[1]); v.Text != "bolat ойыншысына қарсы ойында сіздің жүрісіңіз." {
		t.Errorf("kk: %q", v.Text)
	}
	if n, err := st.MarkNotificationsRead(ctx, abai, ns[1].ID); err != nil || n != 1 {
		t.Fatalf("mark one: %d %v", n, err)
	}
	if got := s.Unread(ctx, abai); got != 1 {
		t.Errorf("unread after one read %d", got)
	}
	if n, _ := st.MarkNotificationsRead(ctx, abai, 0); n != 1 {
		t.Errorf("mark all marked %d", n)
	}
	if got := s.Unread(ctx, abai); got != 0 {
		t.Errorf("unread after all read %d", got)
	}
	// Another account cannot mark them.
	if n, _ := st.MarkNotificationsRead(ctx, bolat, ns[0].ID); n != 0 {
		t.Errorf("bolat marked abai's notice")
	}
}

// TestSendRefuses: malformed notices are refused with ErrBadNotice.
func TestSendRefuses(t *testing.T) {
	s := New(Config{Store: openStore(t)})
	defer s.Close()
	for _, n := range []notify.Notice{
		{Kind: notify.Message, Key: "k"},
		{To: 1, Kind: "gossip", Key: "k"},
		{To: 1, Kind: notify.Message},
		{To: 1, Kind: notify.Message, Key: "k", URL: "https://evil.example/"},
		{To: 1, Kind: notify.Message, Key: "k", URL: "//evil.example/"},
		{To: 1, Kind: notify.Message, Key: "k", Args: make([]any, maxArgs+1)},
	} {
		if err := s.Send(t.Context(), n); err == nil {
			t.Errorf("%+v was taken", n)
		}
	}
}

// blockingStore holds every write until release closes: the queue's bound
// is reached while the workers wait.
type blockingStore struct {
	*store.Store
	release chan struct{}
}

func (b blockingStore) NotifyPrefs(ctx context.Context, id int64) (map[string]store.NotifyPref, error) {
	<-b.release
	return b.Store.NotifyPrefs(ctx, id)
}

// TestSendNeverBlocks: with the store stuck, Send still returns at once
// and drops what is past the queue's bound.
func TestSendNeverBlocks(t *testing.T) {
	st := openStore(t)
	to := user(t, st, "abai")
	bs := blockingStore{st, make(chan struct{})}
	s := New(Config{Store: bs, Queue: 4, Workers: 1})
	start := time.Now()
	for range 100 {
		if err := s.Send(t.Context(), notify.Notice{To: to, Kind: notify.Message, Key: "notify.challenge", Args: []any{"x"}}); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("100 sends took %v", d)
	}
	if s.Dropped() < 100-4-1 {
		t.Errorf("dropped %d, want at least %d", s.Dropped(), 100-4-1)
	}
	close(bs.release)
	s.Close()
	if n := s.Unread(t.Context(), to); n < 4 || n > 5 {
		t.Errorf("stored %d, want the queue's 4 and the one being handled", n)
	}
}

// TestPrune: an account keeps its newest store.MaxNotifications notices.
func TestPrune(t *testing.T) {
	st := openStore(t)
	to := user(t, st, "abai")
	for i := range store.MaxNotifications + 7 {
		if _, err := st.AddNotification(t.Context(), store.Notification{UserID: to, Kind: "message", Key: "k", Args: "[" + string(rune('0'+i%10)) + "]"}); err != nil {
			t.Fatal(err)
		}
	}
	ns, err := st.Notifications(t.Context(), to, store.MaxNotifications+10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != store.MaxNotifications {
		t.Errorf("kept %d", len(ns))
	}
}

// TestWebPush: a notice reaches a subscription's endpoint, a real HTTP
// server in the test, encrypted so that the receiver's keys open it, with
// a VAPID authorization; an endpoint that answers 410 is dropped.
func TestWebPush(t *testing.T) {
	st := openStore(t)
	to := user(t, st, "abai")
	ua, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 16)
	rand.Read(secret)
	type got struct {
		body []byte
		h    http.Header
	}
	recv := make(chan got, 4)
	status := http.StatusCreated
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		recv <- got{b, r.Header.Clone()}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	if err := st.AddPushSubscription(t.Context(), store.PushSubscription{UserID: to, Endpoint: srv.URL + "/push/1",
		P256DH: b64.EncodeToString(ua.PublicKey().Bytes()), Auth: b64.EncodeToString(secret)}); err != nil {
		t.Fatal(err)
	}
	scalar := make([]byte, 32)
	rand.Read(scalar)
	v, err := NewVAPID(scalar, "mailto:ops@toguz.example")
	if err != nil {
		t.Fatal(err)
	}
	push := NewPusher(PushConfig{VAPID: v, Store: st, AllowPrivate: true})
	s := New(Config{Store: st, Push: push})
	sendAll(t, s, notify.Notice{To: to, Kind: notify.Challenge, Key: "notify.challenge", Args: []any{"bolat"}, URL: "/@/bolat"})
	var g got
	select {
	case g = <-recv:
	default:
		t.Fatal("no push arrived")
	}
	if g.h.Get("Content-Encoding") != "aes128gcm" || g.h.Get("TTL") == "" || len(g.h.Get("Authorization")) < 20 {
		t.Errorf("headers %v", g.h)
	}
	p, err := decrypt(g.body, ua, secret)
	if err != nil {
		t.Fatal(err)
	}
	var m pushMsg
	if err := json.Unmarshal(p, &m); err != nil {
		t.Fatal(err)
	}
	if m.URL != "/@/bolat" || m.Kind != "challenge" || m.Body == "" || m.Title == "" {
		t.Errorf("push %+v", m)
	}

	// The push service says the subscription is gone: it is dropped.
	status = http.StatusGone
	subs, _ := st.PushSubscriptions(t.Context(), to)
	if _, err := push.Send(t.Context(), subs[0], []byte("{}")); err != nil {
		t.Fatal(err)
	}
	<-recv
	push2 := NewPusher(PushConfig{VAPID: v, Store: st, AllowPrivate: true})
	push2.send(pushJob{sub: subs[0], body: []byte("{}")})
	push2.Close()
	<-recv
	if subs, _ := st.PushSubscriptions(t.Context(), to); len(subs) != 0 {
		t.Errorf("a gone subscription stayed: %+v", subs)
	}
	// A server refuses private addresses.
	strict := NewPusher(PushConfig{VAPID: v})
	defer strict.Close()
	if _, err := strict.Send(t.Context(), store.PushSubscription{Endpoint: "https://127.0.0.1:1/x", P256DH: subs0(t, ua), Auth: b64.EncodeToString(secret)}, []byte("x")); err == nil {
		t.Error("pushed to loopback")
	}
	if _, err := strict.Send(t.Context(), store.PushSubscription{Endpoint: srv.URL, P256DH: subs0(t, ua), Auth: b64.EncodeToString(secret)}, []byte("x")); err == nil {
		t.Error("pushed over http")
	}
}

func subs0(_ *testing.T, k *ecdh.PrivateKey) string { return b64.EncodeToString(k.PublicKey().Bytes()) }

// BenchmarkSend is the cost a feature pays on its own goroutine (a live
// game's, for a correspondence move): a check and a queue's send.
func BenchmarkSend(b *testing.B) {
	st, err := store.Open(b.Context(), filepath.Join(b.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := New(Config{Store: st, Queue: 1 << 20})
	n := notify.Notice{To: 1, Actor: 2, Kind: notify.YourMove, Key: "notify.your_move", Args: []any{"bolat"}, URL: "/game/abc"}
	for b.Loop() {
		_ = s.Send(b.Context(), n)
	}
	b.StopTimer()
	s.Close()
}

// TestMail: a kind the account wants by mail is mailed in his language
// with the site's link; one he did not choose is not.
func TestMail(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	to := user(t, st, "abai")
	if err := st.SetLang(ctx, to, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetNotifyPrefs(ctx, to, map[string]store.NotifyPref{string(notify.Message): {Site: true, Mail: true}}); err != nil {
		t.Fatal(err)
	}
	type mail struct{ subject, body string }
	var got []mail
	s := New(Config{Store: st, SiteURL: "https://toguz.example/", Workers: 1, Mail: func(_ context.Context, user int64, subject, body string) error {
		if user == to {
			got = append(got, mail{subject, body})
		}
		return nil
	}})
	sendAll(t, s,
		notify.Notice{To: to, Kind: notify.Message, Key: "notify.message", Args: []any{"bolat"}, URL: "/inbox/bolat"},
		notify.Notice{To: to, Kind: notify.Challenge, Key: "notify.challenge", Args: []any{"bolat"}})
	if len(got) != 1 || got[0].subject != "Уведомление Тогыз" || got[0].body != "bolat написал(а) вам сообщение.\n\nОткрыть: https://toguz.example/inbox/bolat" {
		t.Errorf("mail %q", got)
	}
}

// memBus is the nodes' bus in one process: every subscriber hears every
// message (as NATS delivers to the publisher's own subscription too).
type memBus struct {
	mu   sync.Mutex
	subs []func(string, []byte, func([]byte))
}

func (b *memBus) Publish(subject string, data []byte) error {
	b.mu.Lock()
	subs := slices.Clone(b.subs)
	b.mu.Unlock()
	for _, f := range subs {
		f(subject, data, nil)
	}
	return nil
}

func (b *memBus) Subscribe(_ string, f func(string, []byte, func([]byte))) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, f)
	return func() {}, nil
}

// TestBusReachesOtherNodes: a notice stored by one node reaches the
// account's page open on another node, with the count.
func TestBusReachesOtherNodes(t *testing.T) {
	st := openStore(t)
	to := user(t, st, "abai")
	bus := &memBus{}
	n1, n2 := New(Config{Store: st, Bus: bus}), New(Config{Store: st, Bus: bus})
	defer n2.Close()
	sub, ok := n2.subscribe(to, "en")
	if !ok {
		t.Fatal("no subscription")
	}
	sendAll(t, n1, notify.Notice{To: to, Kind: notify.Challenge, Key: "notify.challenge", Args: []any{"bolat"}, URL: "/@/bolat"})
	select {
	case b := <-sub.out:
		var m liveMsg
		if err := json.Unmarshal(b, &m); err != nil || m.Type != "notice" || m.Unread != 1 || m.Notice.Text != "bolat challenges you to a game." {
			t.Errorf("the other node's page got %s (%v)", b, err)
		}
	default:
		t.Fatal("the other node's page got nothing")
	}
}
