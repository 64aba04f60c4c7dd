package site

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// pair returns the server's and the client's ends of a websocket; the
// client's end never reads unless the test does.
func pair(t *testing.T) (srv, cli *websocket.Conn) {
	t.Helper()
	got := make(chan *websocket.Conn, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := AcceptWS(w, r)
		if err != nil {
			t.Error(err)
			return
		}
		got <- c
		<-r.Context().Done()
	}))
	t.Cleanup(hs.Close)
	cli, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.CloseNow() })
	srv = <-got
	t.Cleanup(func() { srv.CloseNow() })
	return srv, cli
}

// TestWriterAndReadWS: a Writer's messages arrive in order and ReadWS
// reads each whole into the one buffer; a write that a peer never reads
// ends in ErrWriteTimeout with the connection closed.
func TestWriterAndReadWS(t *testing.T) {
	srv, cli := pair(t)
	w := NewWriter(srv)
	defer w.Stop()
	var buf bytes.Buffer
	for _, msg := range []string{`{"type":"move","ply":1}`, `{}`, strings.Repeat("x", 3000)} {
		if err := w.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		typ, b, err := ReadWS(cli, &buf)
		if err != nil || typ != websocket.MessageText || string(b) != msg {
			t.Fatalf("read %v %.20q %v, want text %.20q", typ, b, err, msg)
		}
	}

	srv, _ = pair(t) // this client never reads
	w = NewWriter(srv)
	defer w.Stop()
	w.timeout = 200 * time.Millisecond
	big := bytes.Repeat([]byte("x"), 1<<20)
	deadline := time.Now().Add(30 * time.Second)
	var err error
	for err == nil && time.Now().Before(deadline) {
		err = w.Write(big)
	}
	if !errors.Is(err, ErrWriteTimeout) {
		t.Fatalf("writing to a peer that does not read: %v, want ErrWriteTimeout", err)
	}
	if err := srv.Ping(context.Background()); err == nil {
		t.Error("the connection is still open after the timeout")
	}
}
