package tablebase

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/toguz/toguz"
)

// TestOpenSet: a directory gives each ruleset's table of the most stones
// found there; a ruleset without one, or a directory without any, is no
// error; a damaged file is.
func TestOpenSet(t *testing.T) {
	dir := t.TempDir()
	write := func(r toguz.Rules, stones int) {
		tb, err := SolveWith(context.Background(), Options{Rules: r, Stones: stones, DistanceStones: -1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		name, _ := RulesetName(r)
		if err := tb.WriteFile(filepath.Join(dir, FileName(name, stones))); err != nil {
			t.Fatal(err)
		}
	}
	empty, err := OpenSet(dir)
	if err != nil || len(empty.All()) != 0 {
		t.Fatalf("OpenSet of an empty directory: %v, %v", empty, err)
	}
	write(toguz.Standard(), 2)
	write(toguz.Standard(), 3)
	write(toguz.Bestemshe(), 6)
	// Not tables: a checkpoint directory, names Generate does not write.
	for _, name := range []string{"bestemshe.partial/values-3", "seven-x.tgtb", "seven-03.tgtb", "pre1949-2.tgtb", "notes.txt"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("not a table"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.All()); got != 2 {
		t.Errorf("%d tables, want 2", got)
	}
	for _, tc := range []struct {
		rules  toguz.Rules
		stones int
	}{{toguz.Standard(), 3}, {toguz.Bestemshe(), 6}, {toguz.Seven(), 0}, {toguz.Pre1949(), 0}} {
		if got := s.MaxStonesFor(tc.rules); got != tc.stones {
			t.Errorf("%s: %d stones, want %d", tc.rules, got, tc.stones)
		}
		if (s.For(tc.rules) != nil) != (tc.stones > 0) {
			t.Errorf("%s: table %v", tc.rules, s.For(tc.rules))
		}
	}
	one, err := OpenSet(filepath.Join(dir, FileName("bestemshe", 6)))
	if err != nil || one.MaxStonesFor(toguz.Bestemshe()) != 6 || len(one.All()) != 1 {
		t.Errorf("OpenSet of a file: %v, %v", one, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "seven-4.tgtb"), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSet(dir); !errors.Is(err, ErrCorrupt) {
		t.Errorf("OpenSet with a damaged table: %v, want ErrCorrupt", err)
	}
	if _, err := OpenSet(filepath.Join(dir, "missing")); err == nil {
		t.Error("OpenSet of a missing path: no error")
	}
}
