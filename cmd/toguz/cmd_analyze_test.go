package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAnalyzeDepth: -depth 0 (or less) without -movetime is refused with an
// error naming the flag, rather than searching without end; a positive depth
// annotates the game.
func TestAnalyzeDepth(t *testing.T) {
	file := filepath.Join(t.TempDir(), "short.toguz")
	if err := os.WriteFile(file, []byte("[Result \"*\"]\n\n1. 76 98\n2. 66 87\n*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	analyze := func(args ...string) (int, string, string) {
		// The deadline turns the old endless search into a failure
		// instead of a hung test.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out, errs bytes.Buffer
		code := run(ctx, env{args: append([]string{"analyze"}, args...), stdin: strings.NewReader(""), stdout: &out, stderr: &errs})
		return code, out.String(), errs.String()
	}
	for _, depth := range []string{"0", "-1"} {
		code, _, errs := analyze("-depth", depth, file)
		if want := "-depth " + depth + ": want at least 1"; code != 1 || !strings.Contains(errs, want) {
			t.Errorf("-depth %s: exit %d, stderr %q; want 1 and %q", depth, code, errs, want)
		}
	}
	if code, _, errs := analyze("-movetime", "-1s", file); code != 1 || !strings.Contains(errs, "-movetime") {
		t.Errorf("-movetime -1s: exit %d, stderr %q", code, errs)
	}
	code, out, errs := analyze("-depth", "2", file)
	if code != 0 || !strings.Contains(out, "toguz analyze depth=2") {
		t.Errorf("-depth 2: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	if code, _, errs := analyze("-depth", "0", "-movetime", "20ms", file); code != 0 {
		t.Errorf("-depth 0 -movetime 20ms: exit %d, stderr %q", code, errs)
	}
}
