package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTablebaseGenerateAndProbe(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	e := env{args: []string{"tablebase", "-dir", dir, "-dtm", "3", "3"}, stdout: &out, stderr: &errs}
	if code := run(context.Background(), e); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	path := filepath.Join(dir, "standard-3.tgtb")
	if _, err := os.Stat(path); err != nil || !strings.Contains(out.String(), path) {
		t.Fatalf("output %q, file: %v", out.String(), err)
	}
	if errs.Len() != 0 {
		t.Errorf("stderr is not a terminal, yet got %q", errs.String())
	}

	tests := []struct {
		fen, want string
	}{
		// White moves his one stone onto Black's hole 1: 2 there, captured, 82.
		{"8,1S/8,1S 80 80 S 1", "win for white to move in 1 plies"},
		// Black to move has no stone: White collects his 2 and has 82.
		{"9/2S,8 80 80 N 1", "loss for black to move in 0 plies"},
	}
	for _, tt := range tests {
		out.Reset()
		errs.Reset()
		e := env{args: []string{"tablebase", "-probe", tt.fen, path}, stdout: &out, stderr: &errs}
		if code := run(context.Background(), e); code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.fen, code, errs.String())
		}
		if !strings.HasPrefix(out.String(), tt.want) {
			t.Errorf("%s: %q, want %q…", tt.fen, out.String(), tt.want)
		}
	}

	out.Reset()
	e = env{args: []string{"tablebase", "-verify", "-roots", "4", path}, stdout: &out, stderr: &errs}
	if code := run(context.Background(), e); code != 0 || !strings.Contains(out.String(), "results all agree") {
		t.Errorf("-verify: exit %d, %q, %q", code, out.String(), errs.String())
	}

	e = env{args: []string{"tablebase", "-probe", "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", path},
		stdout: &out, stderr: &errs}
	if code := run(context.Background(), e); code != 1 {
		t.Errorf("probing the start position: exit %d, want 1", code)
	}
}

// TestTablebaseGenerateRuleset generates a Bestemshe table with
// `tablebase generate` and verifies it against the reference.
func TestTablebaseGenerateRuleset(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	e := env{args: []string{"tablebase", "generate", "-ruleset", "bestemshe", "-stones", "6", "-dtm", "5", "-dir", dir},
		stdout: &out, stderr: &errs}
	if code := run(context.Background(), e); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	path := filepath.Join(dir, "bestemshe-6.tgtb")
	// The generation checked its table: 4 roots of the 6 stones it has
	// (-check-stones 8 is cut to -stones).
	if _, err := os.Stat(path); err != nil || !strings.Contains(out.String(), "distances up to 5") ||
		!strings.Contains(out.String(), "from 4 roots of 6 stones: results all agree") {
		t.Fatalf("output %q, file: %v", out.String(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bestemshe.partial")); !os.IsNotExist(err) {
		t.Errorf("checkpoints left behind: %v", err)
	}
	out.Reset()
	e = env{args: []string{"tablebase", "-verify", "-roots", "6", path}, stdout: &out, stderr: &errs}
	if code := run(context.Background(), e); code != 0 || !strings.Contains(out.String(), "agree") {
		t.Fatalf("verify: exit %d, %q %s", code, out.String(), errs.String())
	}
	for _, args := range [][]string{
		{"-ruleset", "pre1949", "-stones", "4"},
		{"-ruleset", "standard", "-stones", "13"},
		{"-ruleset", "bestemshe"},
		{"-ruleset", "bestemshe", "-stones", "4", "-check-stones", "0"},
		{"-ruleset", "bestemshe", "-stones", "4", "-check", "-1"},
	} {
		e := env{args: append([]string{"tablebase", "generate", "-dir", dir}, args...), stdout: &out, stderr: &errs}
		if code := run(context.Background(), e); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}
