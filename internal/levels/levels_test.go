package levels

import (
	"os"
	"strings"
	"testing"
)

// TestDocMatchesTable: docs/engine.md's level table is the one the embedded
// table.json writes, so that the site and the docs say the same (both come
// from one run of `toguz levels -o … -doc …`).
func TestDocMatchesTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../docs/engine.md")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := Section(string(readme))
	if !ok {
		t.Fatalf("docs/engine.md has no level table between %q and %q", BeginMarker, EndMarker)
	}
	table, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Levels) != 10 || len(table.Bands) == 0 {
		t.Fatalf("table.json has %d levels and %d bands, want 10 and some", len(table.Levels), len(table.Bands))
	}
	if want := table.Markdown(); got != want {
		t.Errorf("docs/engine.md's level table differs from table.json's; rerun the command it names.\ndocs/engine.md:\n%s\ntable.json:\n%s", got, want)
	}
	for _, l := range table.Levels {
		if l.Rating <= 0 || (l.Bound != About && l.Bound != Below && l.Bound != Above) {
			t.Errorf("level %d is placed at %d (%q)", l.Level, l.Rating, l.Bound)
		}
	}
}

func TestReplace(t *testing.T) {
	t.Parallel()
	in := "a\n" + BeginMarker + "\nold\n" + EndMarker + "\nb\n"
	out, ok := Replace(in, "new\n")
	if !ok || out != "a\n"+BeginMarker+"\nnew\n"+EndMarker+"\nb\n" {
		t.Errorf("Replace = %q, %v", out, ok)
	}
	if body, ok := Section(out); !ok || body != "new\n" {
		t.Errorf("Section = %q, %v", body, ok)
	}
	if _, ok := Replace("no markers", "x"); ok {
		t.Error("Replace found markers in a text without them")
	}
	if strings.Contains(BeginMarker, "\n") {
		t.Error("the marker is one line")
	}
}
