package web

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// TestNoRulesInThePages fails when the browser's code or the page templates
// compute a rule of the game. Every rule lives in the rules library: the
// server sends the legal moves, each move's landing and capture, and the
// ruleset's board size and stone total. The patterns are the shapes a rule
// takes in this code, not a proof; comment lines are not searched.
func TestNoRulesInThePages(t *testing.T) {
	forbidden := []struct {
		re  *regexp.Regexp
		why string
	}{
		{regexp.MustCompile(`\blanding\s*\(`), "computes where a move lands: use the move's landing from the server"},
		{regexp.MustCompile(`(?i)\bsow`), "sows stones: the rules library does"},
		{regexp.MustCompile(`%\s*\(?\s*2\s*\*`), "walks the ring of holes: the rules library does"},
		{regexp.MustCompile(`\.n\s*(>|>=|===|!==|==|!=)\s*[0-9]`), "decides from a hole's stones (legality, captures, tuzdiks): use the server's legal moves"},
		{regexp.MustCompile(`\b162\b`), "hard-codes the standard stone total: take it from the ruleset"},
		{regexp.MustCompile(`\b81\b|\b82\b`), "hard-codes the standard winning score: take it from the ruleset"},
	}
	n := 0
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".html")) {
			return err
		}
		b, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		n++
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, f := range forbidden {
				if f.re.MatchString(line) {
					t.Errorf("%s:%d %s\n\t%s", path, i+1, f.why, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 3 {
		t.Fatalf("searched %d files; the embedded board.js, editor.js and templates are missing", n)
	}
}
