package eval

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
)

// weightFiles are the embedded weights: weights.txt for the standard game
// (and every ruleset without its own), weights-NAME.txt for the named
// ruleset NAME (toguz.ParseRules), each made by `toguz tune -ruleset NAME`.
//
//go:embed weights*.txt
var weightFiles embed.FS

// learned holds the embedded standard weights, parsed once.
var learned = mustParse("weights.txt")

// own holds the embedded weights of the rulesets that have their own,
// keyed by the ruleset without PlayOut (which does not change the board).
var own = func() map[toguz.Rules]*Weights {
	m := make(map[toguz.Rules]*Weights)
	files, err := weightFiles.ReadDir(".")
	if err != nil {
		panic("eval: embedded weights: " + err.Error())
	}
	for _, f := range files {
		name, ok := strings.CutPrefix(f.Name(), "weights-")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, ".txt")
		r, err := toguz.ParseRules(name)
		if err != nil {
			panic("eval: embedded " + f.Name() + ": " + err.Error())
		}
		m[r] = mustParse(f.Name())
	}
	return m
}()

// mustParse parses the embedded weights file name.
func mustParse(name string) *Weights {
	text, err := weightFiles.ReadFile(name)
	if err == nil {
		var w *Weights
		if w, err = ParseWeights(strings.NewReader(string(text))); err == nil {
			return w
		}
	}
	panic("eval: embedded " + name + ": " + err.Error())
}

// Learned returns the embedded trained weights of the standard game. The
// caller must not modify them.
func Learned() *Weights { return learned }

// ForRules returns the embedded weights trained for r's ruleset (PlayOut
// aside), with ok false and the standard weights when r has none of its
// own. The caller must not modify them.
func ForRules(r toguz.Rules) (w *Weights, ok bool) {
	r.PlayOut = false
	if r == toguz.Standard() {
		return learned, true
	}
	if w, ok := own[r]; ok {
		return w, true
	}
	return learned, false
}

// ParseWeights reads weights in the format WriteWeights writes: one
// "name value" pair a line, value in 1/2^Shift hundredths of a stone per
// unit; '#' starts a comment. Features not named get weight 0.
func ParseWeights(r io.Reader) (*Weights, error) {
	var w Weights
	sc := bufio.NewScanner(r)
	index := make(map[string]int, NumFeatures)
	for i, n := range Names {
		index[n] = i
	}
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d: want \"name value\", got %q", line, sc.Text())
		}
		i, ok := index[fields[0]]
		if !ok {
			return nil, fmt.Errorf("line %d: unknown feature %q", line, fields[0])
		}
		v, err := strconv.ParseInt(fields[1], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("line %d: feature %s: %w", line, fields[0], err)
		}
		w[i] = int32(v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return &w, nil
}

// WriteWeights writes w in the format ParseWeights reads, after the comment
// lines in header.
func WriteWeights(out io.Writer, w *Weights, header []string) error {
	bw := bufio.NewWriter(out)
	for _, h := range header {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	for i, n := range Names {
		fmt.Fprintf(bw, "%-16s %d\n", n, w[i])
	}
	return bw.Flush()
}
