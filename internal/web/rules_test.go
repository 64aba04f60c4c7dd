package web

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// ruleShape is a shape a rule of the game takes in the browser's code, and
// why it does not belong there.
type ruleShape struct {
	re  *regexp.Regexp
	why string
}

// ruleShapes are the shapes TestNoRulesInThePages looks for. Every rule
// lives in the rules library: the server sends the legal moves, each move's
// landing, capture and trail, and the ruleset's board size and stone total.
// The patterns are the shapes a rule takes in this code, not a proof.
func ruleShapes() []ruleShape {
	return []ruleShape{
		{regexp.MustCompile(`\blanding\s*\(`), "computes where a move lands: use the move's landing from the server"},
		{regexp.MustCompile(`(?i)\bsow`), "sows stones: the rules library does"},
		{regexp.MustCompile(`%\s*\(?\s*2\s*\*`), "walks the ring of holes: the rules library does"},
		{regexp.MustCompile(`%\s*\(?\s*(\w+\s*\*\s*2\b|ring\b)`), "walks the ring of holes: the rules library does"},
		{regexp.MustCompile(`(?i)\bring\s*=[^=]|\bholes\s*\*\s*2\b|\b2\s*\*\s*[\w.]*holes\b`), "counts the ring of holes: take the move's trail and landing from the server"},
		{regexp.MustCompile(`(?i)origin_?sowing`), "decides where a sowing starts: the ruleset's business, in the rules library"},
		{regexp.MustCompile(`\.n\s*(>|>=|===|!==|==|!=|<|<=|%)\s*[0-9]`), "decides from a hole's stones (legality, captures, tuzdiks): use the server's legal moves"},
		{regexp.MustCompile(`\b162\b`), "hard-codes the standard stone total: take it from the ruleset"},
		{regexp.MustCompile(`\b81\b|\b82\b`), "hard-codes the standard winning score: take it from the ruleset"},
	}
}

// ruleViolations returns the lines of src that take a rule's shape, with
// why; comment lines are not searched.
func ruleViolations(src string) []string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "//") {
			continue
		}
		for _, f := range ruleShapes() {
			if f.re.MatchString(line) {
				out = append(out, strings.TrimSpace(line)+": "+f.why)
			}
		}
	}
	return out
}

// TestNoRulesInThePages fails when the browser's code or the page templates
// compute a rule of the game.
func TestNoRulesInThePages(t *testing.T) {
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
		for _, v := range ruleViolations(string(b)) {
			t.Errorf("%s: %s", path, v)
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

// TestRuleShapes: TestNoRulesInThePages catches the landing function
// board.js once had, under any name, and the ways a sowing's trail would
// be rebuilt in JavaScript; and it lets the board's display code pass.
func TestRuleShapes(t *testing.T) {
	for _, tc := range []struct {
		src    string
		caught bool
	}{
		// The landing of the first board.js (wrong for pre1949), renamed.
		{"function lastHole(p, c, h) {\n const n = p.rows[c][h - 1].n;\n const H = p.holes;\n" +
			" const ring = (c === 'white' ? 0 : H) + h - 1;\n const last = n === 1 ? (ring + 1) % (2 * H) : (ring + n - 1) % (2 * H);\n}", true},
		{"const last = (from + n - 1) % (2 * H);", true},
		{"const size = p.holes * 2; let i = (from + k) % size;", true},
		{"for (let k = 0; k < n; k++) next = (next + 1) % ring;", true},
		{"if (rules.originSowing) start = from;", true},
		{"if (cell.n % 2 === 0) captured = cell.n;", true},
		{"if (p.rows[c][h - 1].n === 3) tuzdik = true;", true},
		{"const total = 162;", true},
		// The board's own display code.
		{"if (!cell.t) cell.n += 1;", false},
		{"f.rows[a.by][a.hole - 1].n = 0;", false},
		{"for (let i = 0; i < shown; i++) box.appendChild(el('span', 'stone'));", false},
		{"if (n > max) box.appendChild(el('span', 'more', '+' + (n - max)));", false},
		{"// The sowing is animated along the server's trail.", false},
	} {
		if got := len(ruleViolations(tc.src)) > 0; got != tc.caught {
			t.Errorf("caught %v, want %v: %s\n%v", got, tc.caught, tc.src, ruleViolations(tc.src))
		}
	}
}
