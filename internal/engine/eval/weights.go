package eval

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
)

//go:embed weights.txt
var weightsText string

// learned holds the embedded weights, parsed once.
var learned = func() *Weights {
	w, err := ParseWeights(strings.NewReader(weightsText))
	if err != nil {
		panic("eval: embedded weights.txt: " + err.Error())
	}
	return w
}()

// Learned returns the embedded trained weights. The caller must not modify
// them.
func Learned() *Weights { return learned }

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
