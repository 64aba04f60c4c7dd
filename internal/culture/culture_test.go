package culture

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/shareddata"
)

// sourceText returns the lines of a seed ("9", "186-198") or the section
// of docs/rules.md ("§4") that a fact cites.
func sourceText(t *testing.T, s source) string {
	t.Helper()
	if !s.Seed() {
		rules := string(shareddata.Read(t, "../RULES.md"))
		n := strings.TrimPrefix(s.Where, "§")
		start := strings.Index(rules, "\n## "+n+".")
		if start < 0 {
			t.Fatalf("RULES.md has no section %s", s.Where)
		}
		rest := rules[start+1:]
		if end := strings.Index(rest, "\n## "); end >= 0 {
			rest = rest[:end]
		}
		return rest
	}
	dir, _ := shareddata.Dir()
	files, _ := filepath.Glob(filepath.Join(dir, "..", "seeds", s.Doc+"_*.txt"))
	if len(files) != 1 {
		shareddata.Path(t, "../seeds/"+s.Doc) // skips, or fails under CI
		t.Fatalf("seed %s: %d files", s.Doc, len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lo, hi, ok := strings.Cut(s.Where, "-")
	if !ok {
		hi = lo
	}
	a, err1 := strconv.Atoi(lo)
	z, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || a < 1 || z < a || z > len(lines) {
		t.Fatalf("seed %s has no lines %s", s.Doc, s.Where)
	}
	return strings.Join(lines[a-1:z], "\n")
}

// TestLearnFactsQuoteTheirSources: every fact of /history, /rules and
// /key cites a seed's lines or a section of docs/rules.md whose text holds the
// words it quotes, so no fact is without a source and none cites a place
// that does not say it; the Manas verse is the seed's, line by line.
func TestLearnFactsQuoteTheirSources(t *testing.T) {
	for page, secs := range pageSections() {
		for _, sec := range secs {
			if len(sec.Facts) == 0 {
				t.Errorf("%s: section %s has no facts", page, sec.ID)
			}
			for _, f := range sec.Facts {
				if f.Src.Doc == "" || f.Src.Where == "" || f.Src.Quote == "" {
					t.Errorf("%s: %s has no source", page, f.Msg)
					continue
				}
				if text := sourceText(t, f.Src); !strings.Contains(text, f.Src.Quote) {
					t.Errorf("%s: %s cites %s %s, which does not say %q", page, f.Msg, f.Src.Doc, f.Src.Where, f.Src.Quote)
				}
				for _, line := range f.Verse {
					if !strings.Contains(sourceText(t, f.Src), line) {
						t.Errorf("%s: the verse line %q is not in %s %s", f.Msg, line, f.Src.Doc, f.Src.Where)
					}
				}
			}
		}
	}
}

// TestLearnDiagramsAreTheSeeds: the drawings of /rules are the positions
// the seeds print, reached by playing the moves they describe.
func TestLearnDiagramsAreTheSeeds(t *testing.T) {
	tests := []struct {
		name  string
		src   source // the seed's diagram rows after the move(s)
		after toguz.Player
	}{
		{"ex1", src("000", "96-97", ""), toguz.Black},         // seed 000 lines 95–98 (docs/rules.md §5.1)
		{"ex2-after", src("000", "124-125", ""), toguz.White}, // lines 123–126 (§5.2)
		{"ex3-after", src("000", "152-153", ""), toguz.White}, // lines 151–154 (§5.3)
		{"ex2-before", src("000", "117-118", ""), toguz.Black},
		{"ex3-before", src("000", "143-144", ""), toguz.White},
	}
	for _, tt := range tests {
		text := sourceText(t, tt.src)
		if tt.after == toguz.Black {
			text += "\nBlack to move\n"
		}
		want, err := toguz.ParseDiagram(text, toguz.Standard())
		if err != nil {
			t.Fatalf("%s: the seed's diagram: %v", tt.name, err)
		}
		got, _, err := learnDiagrams[tt.name]()
		if err != nil {
			t.Fatal(err)
		}
		if tt.name == "ex3-after" {
			// The seed's last diagram (line 153) leaves out the X of
			// Black's tuzdik on White's hole 7 that its first (line 144)
			// shows: a tuzdik is never given up (line 110 of 004).
			want, err = toguz.ParseDiagram(strings.Replace(text, "–\t–\t–\t(76)", "Х\t–\t–\t(76)", 1), toguz.Standard())
			if err != nil {
				t.Fatal(err)
			}
		}
		if got.FEN() != want.FEN() {
			t.Errorf("%s:\n%s\nthe seed:\n%s", tt.name, got.Diagram(), want.Diagram())
		}
	}
	if p, _, _ := learnDiagrams["ex3-after"](); !p.IsOver() {
		t.Errorf("ex3-after: the game is not over (atsyrau)")
	}
}

// TestLearnSourcesExist: the works the pages list are the seeds, and every
// fact cites one of them or docs/rules.md.
func TestLearnSourcesExist(t *testing.T) {
	docs := map[string]bool{"RULES.md": true}
	shareddata.Path(t, "../RULES.md")
	for _, d := range learnSources {
		docs[d.Doc] = true
		shareddata.Path(t, "../seeds/"+d.File)
		if citeKey(d.Doc) != d.Name {
			t.Errorf("%s: the pages cite it as %s, the list names it %s", d.Doc, citeKey(d.Doc), d.Name)
		}
	}
	for page, secs := range pageSections() {
		for _, sec := range secs {
			for _, f := range sec.Facts {
				if !docs[f.Src.Doc] {
					t.Errorf("%s: %s cites %q, not a listed source", page, f.Msg, f.Src.Doc)
				}
			}
		}
	}
}
