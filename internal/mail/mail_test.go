package mail_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/mail/smtptest"
	"github.com/toguz/toguz/internal/store"
)

func smtpConfig(s *smtptest.Server) mail.SMTPConfig {
	return mail.SMTPConfig{Host: s.Host, Port: s.Port, From: "Toguz <noreply@toguz.test>", TLS: mail.TLSNone, Timeout: 10 * time.Second}
}

func TestSMTPDelivers(t *testing.T) {
	srv := smtptest.Start(t)
	srv.RequireLogin("site", "secret")
	cfg := smtpConfig(srv)
	cfg.User, cfg.Password = "site", "secret"
	s, err := mail.NewSMTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := mail.Message{To: "abai@example.org", Subject: "Құпиясөзді қалпына келтіру", Body: "Сілтеме: https://toguz.test/password/reset/x\n"}
	if err := s.Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, "abai@example.org", 5*time.Second)
	if got.Subject != m.Subject || got.Body != m.Body || got.From != "noreply@toguz.test" {
		t.Errorf("delivered %+v, want %+v", got, m)
	}
	// A wrong password is an error, not a silent loss.
	cfg.Password = "wrong"
	s, _ = mail.NewSMTP(cfg)
	if err := s.Send(t.Context(), m); err == nil {
		t.Error("sent with a wrong password")
	}
}

func TestSMTPConfigCheck(t *testing.T) {
	tests := []struct {
		cfg  mail.SMTPConfig
		want string // "" valid; else a word of the error
	}{
		{mail.SMTPConfig{}, ""},
		{mail.SMTPConfig{Host: "mx", From: "a@b.c"}, ""},
		{mail.SMTPConfig{Host: "mx"}, "smtp-from"},
		{mail.SMTPConfig{Host: "mx", From: "not an address"}, "smtp-from"},
		{mail.SMTPConfig{Host: "mx", From: "a@b.c", TLS: "ssl"}, "smtp-tls"},
		{mail.SMTPConfig{Host: "mx", From: "a@b.c", Port: 70000}, "smtp-port"},
	}
	for _, tt := range tests {
		err := tt.cfg.Check()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Check(%+v) = %v, want %q", tt.cfg, err, tt.want)
		}
	}
	if _, err := mail.NewSMTP(mail.SMTPConfig{}); !errors.Is(err, mail.ErrOff) {
		t.Errorf("NewSMTP without a host = %v, want ErrOff", err)
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		attempts int
		want     time.Duration
	}{{1, time.Minute}, {2, 2 * time.Minute}, {3, 4 * time.Minute}, {9, 256 * time.Minute}, {10, 6 * time.Hour}, {100, 6 * time.Hour}}
	for _, tt := range tests {
		if got := mail.Backoff(tt.attempts); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.attempts, got, tt.want)
		}
	}
}

func openStore(t *testing.T, path string, now func() time.Time) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), path, store.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestQueueRetries: the SMTP server refuses twice; the message waits a
// minute, then two, and is delivered at the third try.
func TestQueueRetries(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Refuse(2)
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := openStore(t, filepath.Join(t.TempDir(), "q.db"), clock)
	defer st.Close()
	sender, _ := mail.NewSMTP(smtpConfig(srv))
	q := mail.NewQueue(mail.QueueConfig{Store: st, Sender: sender, Now: clock})
	ctx := t.Context()
	if err := q.Send(ctx, mail.Message{To: "abai@example.org", Subject: "s", Body: "b"}); err != nil {
		t.Fatal(err)
	}
	// Send only queued it: nothing is delivered before the sender runs.
	if len(srv.Mails()) != 0 {
		t.Fatal("Send delivered by itself")
	}
	steps := []struct {
		advance time.Duration
		tried   int
	}{{0, 1}, {59 * time.Second, 0}, {time.Second, 1}, {time.Minute, 0}, {time.Minute, 1}, {time.Hour, 0}}
	for i, s := range steps {
		now = now.Add(s.advance)
		if n := q.Flush(ctx); n != s.tried {
			t.Fatalf("step %d: Flush tried %d, want %d", i, n, s.tried)
		}
	}
	srv.Wait(t, "abai@example.org", time.Second)
	if st := q.Stats(); st.Sent != 1 || st.Failed != 2 {
		t.Errorf("Stats = %+v", st)
	}
	if n, _ := st.MailQueueLen(ctx); n != 0 {
		t.Errorf("%d messages left in the queue", n)
	}
}

// TestQueueSurvivesRestart: a message queued while the SMTP server is down
// is delivered by the next process on the same database.
func TestQueueSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	down := mail.SMTPConfig{Host: "127.0.0.1", Port: 1, From: "noreply@toguz.test", TLS: mail.TLSNone, Timeout: time.Second}
	sender, _ := mail.NewSMTP(down)
	st := openStore(t, path, nil)
	q := mail.NewQueue(mail.QueueConfig{Store: st, Sender: sender})
	ctx := t.Context()
	if err := q.Send(ctx, mail.Message{To: "abai@example.org", Subject: "s", Body: "b"}); err != nil {
		t.Fatal(err)
	}
	if q.Flush(ctx) != 1 || q.Stats().Failed != 1 {
		t.Fatalf("the try with the server down: %+v", q.Stats())
	}
	st.Close()

	srv := smtptest.Start(t)
	later := func() time.Time { return time.Now().Add(time.Hour) }
	st = openStore(t, path, later)
	defer st.Close()
	sender, _ = mail.NewSMTP(smtpConfig(srv))
	q = mail.NewQueue(mail.QueueConfig{Store: st, Sender: sender, Now: later})
	run, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { q.Run(run); close(done) }()
	srv.Wait(t, "abai@example.org", 10*time.Second)
	stop()
	<-done
}

func TestQueueBounded(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "q.db"), nil)
	defer st.Close()
	sender, _ := mail.NewSMTP(mail.SMTPConfig{Host: "127.0.0.1", Port: 1, From: "a@b.c", TLS: mail.TLSNone})
	q := mail.NewQueue(mail.QueueConfig{Store: st, Sender: sender, Max: 3})
	for i := range 3 {
		if err := q.Send(t.Context(), mail.Message{To: "a@example.org"}); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if err := q.Send(t.Context(), mail.Message{To: "a@example.org"}); !errors.Is(err, mail.ErrFull) {
		t.Errorf("a fourth message = %v, want ErrFull", err)
	}
	off := mail.NewQueue(mail.QueueConfig{Store: st})
	if err := off.Send(t.Context(), mail.Message{To: "a@example.org"}); !errors.Is(err, mail.ErrOff) || off.Enabled() {
		t.Errorf("a queue without a sender: %v", err)
	}
}

// TestQueueDrops: a message refused MaxAttempts times is dropped.
func TestQueueDrops(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Refuse(mail.MaxAttempts)
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := openStore(t, filepath.Join(t.TempDir(), "q.db"), clock)
	defer st.Close()
	sender, _ := mail.NewSMTP(smtpConfig(srv))
	q := mail.NewQueue(mail.QueueConfig{Store: st, Sender: sender, Now: clock})
	q.Send(t.Context(), mail.Message{To: "a@example.org", Subject: "s", Body: "b"})
	for range mail.MaxAttempts {
		q.Flush(t.Context())
		now = now.Add(7 * time.Hour)
	}
	if s := q.Stats(); s.Dropped != 1 || s.Failed != mail.MaxAttempts-1 {
		t.Errorf("Stats = %+v", s)
	}
	if n, _ := st.MailQueueLen(t.Context()); n != 0 {
		t.Errorf("%d left", n)
	}
}

func TestWrite(t *testing.T) {
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "kk-Latn", "ky", "ru"} {
		m := mail.Write(cat, lang, "a@example.org", "reset", "abai", "https://toguz.test/password/reset/TOKEN", 60)
		if !strings.Contains(m.Body, "https://toguz.test/password/reset/TOKEN") || !strings.Contains(m.Body, "abai") ||
			strings.HasPrefix(m.Subject, "mail.") || m.To != "a@example.org" {
			t.Errorf("%s: %+v", lang, m)
		}
	}
}

func TestReadPasswordFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(path, []byte("s3cret pass\r\nsecond line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if pw, err := mail.ReadPasswordFile(path); err != nil || pw != "s3cret pass" {
		t.Errorf("ReadPasswordFile = %q, %v", pw, err)
	}
	if _, err := mail.ReadPasswordFile(path + ".missing"); err == nil || !strings.Contains(err.Error(), "smtp-password-file") {
		t.Errorf("a missing file: %v", err)
	}
}
