package main

import (
	"strings"
	"testing"
)

func TestDuel(t *testing.T) {
	code, out, errs := runRecordCmd(t, "duel", "-off", "lmr", "-openings", "1", "-depth", "1", "-hash", "1")
	if code != 0 || !strings.Contains(out, `off "lmr"`) || !strings.Contains(out, "Elo") {
		t.Errorf("duel -off lmr: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-off", "Threads", "-depth", "1"}, 1, `-off "Threads": no such feature`},
		{[]string{"-off", "LMR"}, 1, "no limit per move"},
		{[]string{"-levels", "1,11", "-depth", "1"}, 1, "Level 11"},
		{[]string{"-levels", "3", "-depth", "1"}, 1, "-levels"},
		{[]string{"-weights", "no-such-weights.txt", "-depth", "1"}, 1, "no-such-weights.txt"},
		{[]string{"-depth", "1"}, 2, "Usage: toguz duel"},
		{[]string{"-off", "LMR", "-levels", "1,2", "-depth", "1"}, 2, "Usage: toguz duel"},
	} {
		code, _, errs := runRecordCmd(t, append([]string{"duel"}, tt.args...)...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("duel %q: exit %d, stderr %q; want %d and %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}
