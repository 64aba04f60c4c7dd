package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/levels"
)

// TestLevels runs a small calibration that writes the table and replaces
// a Markdown file's level table, and checks the flags' bounds.
func TestLevels(t *testing.T) {
	games := "../../internal/levels/testdata/two-games.pgn"
	dir := t.TempDir()
	out, readme := filepath.Join(dir, "table.json"), filepath.Join(dir, "README.md")
	if err := os.WriteFile(readme, []byte("# x\n"+levels.BeginMarker+"\nold\n"+levels.EndMarker+"\nafter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runRecordCmd(t, "levels", "-per-band", "2", "-depth", "3", "-max-nodes", "2000", "-o", out, "-doc", readme,
		"-reference", games, "-reference-name", "the same games", games)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var tb levels.Table
	if err := json.Unmarshal(data, &tb); err != nil {
		t.Fatal(err)
	}
	if len(tb.Levels) != 10 || tb.RefDepth != 3 || !strings.HasPrefix(tb.Command, "toguz levels -per-band 2") {
		t.Errorf("table: %d levels, depth %d, command %q", len(tb.Levels), tb.RefDepth, tb.Command)
	}
	if want := `-reference-name "the same games"`; !strings.Contains(tb.Command, want) {
		t.Errorf("command %q: want %s, quoted for the shell", tb.Command, want)
	}
	if tb.Reference == nil || tb.ReferenceName != "the same games" || tb.Reference.Positions != 2 || tb.Positions != 4 {
		t.Errorf("reference %+v named %q, %d rated positions; want the 2 positions of the group and 4 rated", tb.Reference, tb.ReferenceName, tb.Positions)
	}
	text, _ := os.ReadFile(readme)
	if body, ok := levels.Section(string(text)); !ok || body != tb.Markdown() || body != stdout || !strings.HasSuffix(string(text), "after\n") {
		t.Errorf("README not replaced by the table:\n%s", text)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"levels"}, 2, "Usage"},
		{[]string{"levels", "-per-band", "0", games}, 1, "-per-band"},
		{[]string{"levels", "-depth", "0", games}, 1, "-depth"},
		{[]string{"levels", "-j", "0", games}, 1, "-j"},
		{[]string{"levels", "no-such.pgn"}, 1, "no-such.pgn"},
		{[]string{"levels", "-reference", "no-such-ref.pgn", games}, 1, "no-such-ref.pgn"},
		{[]string{"levels", "-per-band", "1", "-depth", "2", "-max-nodes", "500", "-doc", filepath.Join(dir, "none.md"), games}, 1, "none.md"},
	} {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}
