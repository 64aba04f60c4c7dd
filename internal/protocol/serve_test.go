package protocol

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	opts := engine.DefaultOptions()
	opts.HashMB = 8
	eng, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestServeInProcess runs a session through Serve directly: the end of the
// input lets a search with a limit finish, and nothing is left running.
func TestServeInProcess(t *testing.T) {
	defer goleak.VerifyNone(t)
	in := strings.NewReader("uci\nisready\nposition startpos moves 7\ngo depth 3\n")
	var out bytes.Buffer
	if err := Serve(context.Background(), in, &out, newEngine(t), Config{Name: "toguz", Author: "test"}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"id name toguz\n", "id author test\n", "uciok\n", "readyok\n", "info depth 3 ", "bestmove "} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}

// TestServeCancel: cancelling the context ends Serve during an infinite
// search, with the search stopped.
func TestServeCancel(t *testing.T) {
	defer goleak.VerifyNone(t)
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, pr, &out, newEngine(t), Config{Name: "toguz"}) }()
	if _, err := io.WriteString(pw, "go infinite\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	pw.Close() // ends the reading goroutine, blocked in Read
	time.Sleep(50 * time.Millisecond)
	// Serve waited for the search: its bestmove is written.
	if !strings.HasSuffix(out.String(), "\n") || !strings.Contains(out.String(), "info depth 1 ") {
		t.Errorf("output %q", out.String())
	}
}

// TestFormat checks the reply lines.
func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{FormatScore(125), "cp 125"},
		{FormatScore(-40), "cp -40"},
		{FormatScore(engine.MateScore - 5), "mate 5"},
		{FormatScore(-engine.MateScore + 4), "mate -4"},
		{FormatBestMove(engine.Result{Best: 7}), "bestmove 7"},
		{FormatBestMove(engine.Result{Best: 7, Ponder: 3}), "bestmove 7 ponder 3"},
		{FormatBestMove(engine.Result{}), "bestmove (none)"},
		{FormatInfo(engine.Info{Depth: 5, SelDepth: 9, MultiPV: 1, Score: 300, Nodes: 5000, Time: 20 * time.Millisecond, PV: []toguz.Move{4, 2}}),
			"info depth 5 seldepth 9 multipv 1 score cp 300 nodes 5000 nps 250000 time 20 pv 4 2"},
		{FormatInfo(engine.Info{Depth: 1, Score: 0, Nodes: 3}), "info depth 1 seldepth 0 multipv 1 score cp 0 nodes 3 time 0"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestKeepBack(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	tests := []struct {
		in, want engine.Limits
	}{
		{engine.Limits{Time: [2]time.Duration{ms(5000), ms(3000)}, Inc: [2]time.Duration{ms(100), ms(100)}},
			engine.Limits{Time: [2]time.Duration{ms(4900), ms(2900)}, Inc: [2]time.Duration{ms(100), ms(100)}}},
		{engine.Limits{Time: [2]time.Duration{ms(50), 0}}, engine.Limits{Time: [2]time.Duration{ms(1), 0}}},
		{engine.Limits{MoveTime: ms(1000)}, engine.Limits{MoveTime: ms(900)}},
		{engine.Limits{MoveTime: ms(100)}, engine.Limits{MoveTime: ms(50)}},
		{engine.Limits{Depth: 5}, engine.Limits{Depth: 5}},
	}
	for _, tt := range tests {
		// Limits holds a func (Yield), so it is compared by its printing.
		if got := keepBack(tt.in, ms(100)); fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.want) {
			t.Errorf("keepBack(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", maxLine+10)
	r := bufio.NewReaderSize(strings.NewReader("uci\r\n\n"+long+"\nisready"), maxLine)
	var got []string
	for {
		l, err := readLine(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l)
	}
	if len(got) != 4 || got[0] != "uci" || got[1] != "" || len(got[2]) != maxLine || got[3] != "isready" {
		t.Errorf("lines %d: %.20q", len(got), got)
	}
}
