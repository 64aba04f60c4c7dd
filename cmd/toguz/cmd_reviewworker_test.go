package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestReviewWorker: `toguz review-worker` answers each job line with a
// review line, and a bad job with an error line, until its input ends.
// In this process, so not at the lowest priority (the other tests would
// run there too); review's TestProcess checks the priority in a child.
func TestReviewWorker(t *testing.T) {
	in := `{"rules":"standard","fen":"9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1","moves":[5,1,3,5,8,3,7,4,6,5,4],"depth":3}
{"rules":"standard","fen":"nonsense","moves":[],"depth":3}
`
	var out, errs strings.Builder
	if code := run(context.Background(), env{args: []string{"review-worker", "-lowest-priority=false"}, stdin: strings.NewReader(in), stdout: &out, stderr: &errs}); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d answers, want 2:\n%s", len(lines), out.String())
	}
	var a struct {
		Review *struct {
			Depth int
			Plies []json.RawMessage
		}
		Error string
	}
	if err := json.Unmarshal([]byte(lines[0]), &a); err != nil || a.Review == nil || len(a.Review.Plies) != 11 || a.Review.Depth != 3 {
		t.Errorf("first answer %s: %v", lines[0], err)
	}
	a.Review, a.Error = nil, ""
	if err := json.Unmarshal([]byte(lines[1]), &a); err != nil || a.Error == "" || a.Review != nil {
		t.Errorf("second answer %s: %v", lines[1], err)
	}
}
