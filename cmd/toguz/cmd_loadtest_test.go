package main

import (
	"strings"
	"testing"
)

func TestLoadtest(t *testing.T) {
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
		// The server in this process, two games, a move every 60 ms.
		{[]string{"-games", "2", "-interval", "60ms", "-duration", "2s", "-idle", "5"}, 0,
			[]string{"memory: 5 idle games: ", "games at once   2 (started ", "move round trip p50 ", "errors          0\n"}},
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
}
