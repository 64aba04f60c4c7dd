package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestBenchCommand(t *testing.T) {
	line := `threads %s: to depth 5 [0-9.]+s \([0-9.]+× the first\), [0-9.]+ CPU-s, [0-9]+ nodes; in 20ms depth [0-9.]+ on average, [0-9]+ nodes/s`
	tests := []struct {
		args []string
		code int
		want string // a regular expression
	}{
		{[]string{"bench", "-threads", "1,2", "-depth", "5", "-movetime", "20ms", "-positions", "2"}, 0,
			"^" + strings.ReplaceAll(line, "%s", "1") + "\n" + strings.ReplaceAll(line, "%s", "2") + "\n$"},
		{[]string{"bench", "-threads", "2", "-depth", "0", "-movetime", "20ms", "-positions", "1", "-off", "smpdefer,SMPVote"}, 0,
			`^threads 2: in 20ms depth [0-9.]+ on average, [0-9]+ nodes/s` + "\n$"},
		{[]string{"bench", "-threads", "1", "-depth", "4", "-movetime", "0", "-positions", "1"}, 0,
			`^threads 1: to depth 4 [0-9.]+s \(1.00× the first\), [0-9.]+ CPU-s, [0-9]+ nodes` + "\n$"},
		{[]string{"bench", "-threads", "0"}, 1, `-threads "0": want thread counts 1 to 256`},
		{[]string{"bench", "-threads", "1,x"}, 1, `-threads "1,x"`},
		{[]string{"bench", "-positions", "0"}, 1, `-positions 0: want 1 to`},
		{[]string{"bench", "-depth", "0", "-movetime", "0"}, 1, `nothing to measure`},
		{[]string{"bench", "-off", "Nothing"}, 1, `-off "Nothing": no such feature`},
		{[]string{"bench", "extra"}, 2, `Usage`},
	}
	for _, tt := range tests {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !regexp.MustCompile(tt.want).MatchString(out+errs) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}
