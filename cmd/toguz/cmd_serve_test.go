package main

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a strings.Builder safe for a server's log and a test
// reading it at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestServeSync starts `toguz serve` in this process with each -sync and
// reads, from its start-up log, the PRAGMA synchronous its store's writer
// connection really has: the flag reaches the store.
func TestServeSync(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 0, "synchronous=NORMAL"},
		{[]string{"-sync", "normal"}, 0, "synchronous=NORMAL"},
		{[]string{"-sync", "full"}, 0, "synchronous=FULL"},
		{[]string{"-sync", "off"}, 1, `-sync "off": want normal or full`},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errs syncBuffer
		args := append([]string{"serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "toguz.db")}, tt.args...)
		done := make(chan int, 1)
		go func() { done <- run(ctx, env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errs}) }()
		var code int
		deadline := time.After(30 * time.Second)
	wait:
		for {
			select {
			case code = <-done:
				break wait
			case <-deadline:
				t.Fatalf("%q: the server did not start:\n%s", tt.args, errs.String())
			case <-time.After(20 * time.Millisecond):
				if strings.Contains(errs.String(), "listening on") {
					cancel()
					code = <-done
					break wait
				}
			}
		}
		cancel()
		if code != tt.code || !strings.Contains(out.String()+errs.String(), tt.want) {
			t.Errorf("%q: exit %d (want %d), output lacks %q:\n%s%s", tt.args, code, tt.code, tt.want, out.String(), errs.String())
		}
	}
}
