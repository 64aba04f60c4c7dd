package main

import (
	"strings"
	"testing"
)

func TestKey(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string // in the output; for code 0 its last line
	}{
		{[]string{"key", "--base", "8", "347", "+", "56"}, 0, "347 + 56 = 425"},
		{[]string{"key", "347", "/", "5"}, 0, "347 / 5 = 69 2/5"},
		{[]string{"key", "-base", "2", "1011", "x", "11"}, 0, "1011 * 11 = 100001"},
		{[]string{"key", "-base", "10", "9999999999", "-", "1"}, 0, "9999999999 - 1 = 9999999998"},
		{[]string{"key", "--base", "8", "348", "+", "56"}, 1, `has the digit '8'`},
		{[]string{"key", "--base", "11", "1", "+", "1"}, 1, "base out of range"},
		{[]string{"key", "3", "-", "4"}, 1, "subtrahend larger"},
		{[]string{"key", "3", "/", "0"}, 1, "division by zero"},
		{[]string{"key", "-lang", "de", "3", "+", "0"}, 1, "-lang"},
		{[]string{"key", "3", "+"}, 2, "Usage"},
		{[]string{"key", "10"}, 0, "10"},
		{[]string{"key", "-base", "2", "102"}, 1, "has the digit '2'"},
	}
	for _, tt := range tests {
		code, out, errs := runRecordCmd(t, tt.args...)
		got := out + errs
		if code == 0 {
			lines := strings.Split(strings.TrimSpace(out), "\n")
			got = lines[len(lines)-1]
		}
		if code != tt.code || !strings.Contains(got, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, got, errs, tt.code, tt.want)
		}
	}
}

// TestKeyDrawsEverySteps: the brief's example prints each step's boards in
// the diagram style and what moved, in the language asked for.
func TestKeyDrawsEveryStep(t *testing.T) {
	_, out, _ := runRecordCmd(t, "key", "--base", "8", "347", "+", "56")
	for _, want := range []string{
		"Step 1 of 5. The numbers laid out",
		"   9   8   7   6   5   4   3   2   1\n   6   5   –   –   –   –   –   –   –  (0)\n   7   4   3   –   –   –   –   –   –  (0)\n",
		"Step 3 of 5. Digit 1: the hole is full; stones going on to the next hole: 1",
		"  first row, hole 1 → first row, hole 2: 1\n  first row, hole 1 → the first row's kazan: 7\n",
		"   5   2   4   –   –   –   –   –   –  (14)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("toguz key: no %q in\n%s", want, out)
		}
	}
	_, out, _ = runRecordCmd(t, "key", "-lang", "kk", "--base", "8", "347", "+", "56")
	if !strings.Contains(out, "1-цифр: отау толды") {
		t.Errorf("-lang kk: %s", out)
	}
}

// TestKeyShowsANumber: with one operand, the number on the board (seed
// 000 line 9: ten is one stone and an empty hole).
func TestKeyShowsANumber(t *testing.T) {
	_, out, _ := runRecordCmd(t, "key", "10")
	want := "   –   1   –   –   –   –   –   –   –  (0)\n   1   2   3   4   5   6   7   8   9\n10\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("toguz key 10:\n%s", out)
	}
}
