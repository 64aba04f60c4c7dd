package protocol

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBench runs bench with an ordering feature on and off: the same
// positions, the same depth, different node counts; and its bad arguments.
func TestBench(t *testing.T) {
	in := strings.NewReader("bench depth 4 positions 3\nsetoption name CaptureSort value false\nbench depth 4 positions 3\n" +
		"bench depth 0\nbench positions 100000\nbench fast 1\nbench depth\nposition startpos\nsetoption name Ruleset value bestemshe\nbench\n")
	var out bytes.Buffer
	if err := Serve(context.Background(), in, &out, newEngine(t), Config{Name: "toguz"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	position := regexp.MustCompile(`^info string bench position (\d) depth 4 score (cp|mate) -?\d+ nodes (\d+) time \d+ bestmove [1-9]$`)
	total := regexp.MustCompile(`^info string bench positions 3 depth 4 nodes (\d+) time \d+ nps \d+$`)
	if len(lines) < 8 {
		t.Fatalf("output:\n%s", out.String())
	}
	var totals [2]string
	for run := range 2 {
		var sum uint64
		for i := range 3 {
			m := position.FindStringSubmatch(lines[4*run+i])
			if m == nil || m[1] != strconv.Itoa(i+1) {
				t.Fatalf("line %q", lines[4*run+i])
			}
			n, _ := strconv.ParseUint(m[3], 10, 64)
			sum += n
		}
		m := total.FindStringSubmatch(lines[4*run+3])
		if m == nil || m[1] != strconv.FormatUint(sum, 10) {
			t.Fatalf("total line %q; the positions add up to %d nodes", lines[4*run+3], sum)
		}
		totals[run] = m[1]
	}
	if totals[0] == totals[1] {
		t.Errorf("CaptureSort on and off searched the same %s nodes", totals[0])
	}
	for _, want := range []string{`bench: depth "0": want 1 to 100`, `bench: positions "100000": want 1 to 147`,
		`bench: unknown argument "fast"`, `bench: "depth" needs a value`, "bench: the positions are of the standard ruleset"} {
		if !strings.Contains(out.String(), "info string error "+want) {
			t.Errorf("no error %q in\n%s", want, out.String())
		}
	}
}
