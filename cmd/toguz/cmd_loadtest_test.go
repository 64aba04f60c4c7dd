package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadtest(t *testing.T) {
	acks := filepath.Join(t.TempDir(), "acks.jsonl")
	tests := []struct {
		args   []string
		code   int
		output []string
	}{
		{[]string{"-url", "http://example.com:8080"}, 1, []string{"want a loopback address"}},
		{[]string{"-url", "https://127.0.0.1:8080"}, 1, []string{"want http://"}},
		{[]string{"-games", "0"}, 1, []string{"-games 0: want 1..20000"}},
		{[]string{"-duration", "1h"}, 1, []string{"want a duration up to 30m"}},
		{[]string{"-url", "http://127.0.0.1:1", "-idle", "5"}, 1, []string{"-idle: needs the server in this process"}},
		{[]string{"-sources", "1001"}, 1, []string{"-sources 1001: want 0..1000"}},
		{[]string{"-spectators", "3"}, 1, []string{"-spectators 3: want 0, or a count with -idle"}},
		{[]string{"-url", "http://[::1]:1", "-sources", "2"}, 1, []string{"2 source addresses 127.0.0.x need the server on an IPv4 loopback address"}},
		// No server there: the guest's requests are retried until the run ends.
		{[]string{"-url", "http://127.0.0.1:1", "-games", "1", "-duration", "1s"}, 0, []string{"from 127.0.0.2, a move", "started 0, finished 0", "retries         "}},
		// The server in this process, two games, a move every 60 ms.
		{[]string{"-games", "2", "-interval", "60ms", "-duration", "2s", "-idle", "5", "-spectators", "7", "-acklog", acks}, 0,
			[]string{"memory: 5 idle games: ", "; 7 spectators: ", "games at once   2 (started ", "move round trip p50 ", "errors          0\n", "collections     ", " mark assists by the goroutines\n"}},
	}
	for _, tt := range tests {
		code, out, errs := runWithInput(append([]string{"loadtest"}, tt.args...), "")
		if code != tt.code {
			t.Errorf("%q: exit %d, want %d\n%s\n%s", tt.args, code, tt.code, out, errs)
		}
		for _, s := range tt.output {
			if !strings.Contains(out+errs, s) {
				t.Errorf("%q: output lacks %q:\n%s\n%s", tt.args, s, out, errs)
			}
		}
	}
	// The run above logged its acknowledged moves, one JSON line each.
	b, err := os.ReadFile(acks)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) < 2 || !strings.HasPrefix(lines[0], `{"game":"`) || !strings.Contains(lines[0], `"ply":1,`) || !strings.Contains(lines[0], `"clock_ms":`) {
		t.Errorf("ack log:\n%s", b)
	}
}
