package main

import (
	"strings"
	"testing"
)

func TestAttack(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		output []string
	}{
		{[]string{}, 2, []string{"Usage: toguz attack"}},
		{[]string{"-url", "http://example.com:8080"}, 1, []string{"want a loopback address"}},
		{[]string{"-url", "http://[::1]:1", "-duration", "1s"}, 1, []string{"need the server on an IPv4 loopback address"}},
		{[]string{"-url", "http://127.0.0.1:1", "-duration", "1h"}, 1, []string{"want a duration up to 30m"}},
		{[]string{"-url", "http://127.0.0.1:1", "-idle", "250", "-slow", "20"}, 1, []string{"together at most 250"}},
		{[]string{"-url", "http://127.0.0.1:1", "-level", "11"}, 1, []string{"-level 11: want 1..10"}},
		{[]string{"-url", "http://127.0.0.1:1", "-duration", "1s", "-only", "seeks,dos"}, 1, []string{`no attack "dos" (want one of logins, bodies,`}},
		// No server there: every attack's setup or requests fail, counted.
		{[]string{"-url", "http://127.0.0.1:1", "-duration", "1s", "-idle", "2", "-slow", "1", "-spectators", "1"}, 0,
			[]string{"attacking http://127.0.0.1:1 from 127.0.2.x for 1s", "attacks for ", "connections ", "dial error"}},
		{[]string{"-url", "http://127.0.0.1:1", "-duration", "1s", "-only", "connections", "-idle", "1", "-slow", "1"}, 0,
			[]string{"connections ", "dial error"}},
	}
	for _, tt := range tests {
		code, out, errs := runWithInput(append([]string{"attack"}, tt.args...), "")
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
