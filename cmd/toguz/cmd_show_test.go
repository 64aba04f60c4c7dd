package main

import (
	"strings"
	"testing"
)

func TestShow(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"show", "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1"}, 0,
			"   9   8   7   6   5   4   3   2   1\n   9   9   9   9   –  10  10  10  10  (0)\n" +
				"   9   9   9   9   9   1  10  10  10  (10)\n   1   2   3   4   5   6   7   8   9\nBlack to move\n"},
		{[]string{"show", "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S", "10", "0", "N", "1"}, 0, "Black to move"},
		{[]string{"show", "--ruleset", "bestemshe", "5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1"}, 0, "   5   4   3   2   1\n"},
		{[]string{"show", "9S 0 0 S 1"}, 1, "must be two rows"},
		{[]string{"show", "--ruleset", "chess", "x"}, 1, "unknown ruleset"},
		{[]string{"show"}, 2, "Usage"},
	}
	for _, tt := range tests {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}
