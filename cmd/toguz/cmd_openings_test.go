package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/openings"
	"github.com/toguz/toguz/internal/shareddata"
)

// TestOpeningsBuiltIn rebuilds the match runner's built-in suite, as its
// documentation says, and checks the filters and the errors.
func TestOpeningsBuiltIn(t *testing.T) {
	masters := shareddata.Path(t, "masters-2018.pgn")
	code, out, errs := runRecordCmd(t, "openings", masters)
	if code != 0 || out != openings.Default {
		t.Fatalf("exit %d, %d bytes, %q; want the built-in suite (%d bytes)", code, len(out), errs, len(openings.Default))
	}
	if !strings.Contains(errs, "147 openings from 742 games") {
		t.Errorf("stderr %q", errs)
	}
	code, out, _ = runRecordCmd(t, "openings", "-min", "4", "-max", "4", "-gap", "0", masters)
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if f := strings.Fields(line); code != 0 || len(f) != 5 || f[1] != f[2] {
			t.Errorf("exit %d, line %d %q: want equal kazans", code, i+1, line)
		}
	}

	// The engine's filter keeps a part of the suite, in the suite's order.
	code, out, errs = runRecordCmd(t, "openings", "-depth", "4", "-max-score", "2", masters)
	level := strings.Split(strings.TrimSpace(out), "\n")
	all := strings.Split(strings.TrimSpace(openings.Default), "\n")
	if code != 0 || len(level) == 0 || len(level) >= len(all) {
		t.Fatalf("-depth 4 -max-score 2: exit %d, %d of %d openings kept (%q)", code, len(level), len(all), errs)
	}
	for i, j := 0, 0; i < len(level); i++ {
		for j < len(all) && all[j] != level[i] {
			j++
		}
		if j == len(all) {
			t.Fatalf("kept opening %d %q is not in the suite's order", i+1, level[i])
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.tgn")
	if err := os.WriteFile(bad, []byte("[Result \"1-0\"]\n\n1. 77 98\n1-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"openings"}, 2, "Usage"},
		{[]string{"openings", "-min", "5", "-max", "4", masters}, 2, "Usage"},
		{[]string{"openings", "-depth", "-1", masters}, 2, "Usage"},
		{[]string{"openings", "nothere.pgn"}, 1, "nothere.pgn"},
		{[]string{"openings", bad}, 1, "ply 1"},
		{[]string{"openings", "-min", "1", "-max", "1", "-gap", "0", masters}, 1, "no position of 742 games"},
		{[]string{"openings", "-ruleset", "bestemshe", "-min", "5", "-max", "5", "-gap", "4"}, 0, "957 openings from the start of bestemshe"},
		{[]string{"openings", "-ruleset", "bestemshe", "-min", "1", "-max", "1"}, 0, "5S,5S,5S,5S,5S/1S,6S,6S,6S,6S 0 0 N 1\n"},
		{[]string{"openings", "-ruleset", "bestemshe", "-min", "1", "-max", "1", "-gap", "50"}, 0, "5 openings from the start of bestemshe"},
		{[]string{"openings", "-ruleset", "bestemshe", masters}, 2, "Usage"},
		{[]string{"openings", "-ruleset", "nosuch"}, 1, "-ruleset"},
		{[]string{"openings", "-ruleset", "bestemshe", "-min", "1", "-max", "1", "-gap", "-1"}, 2, "Usage"},
	}
	for _, tt := range tests {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}
