package tournament

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WritePairs writes a round's pairs the way the FIDE-endorsed pairing
// programs write them with -p: the number of pairs on the first line, then
// one pair a line, White's and Black's start numbers, 0 for the bye.
func WritePairs(w io.Writer, pairs []Pair) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "%d\n", len(pairs))
	for _, p := range pairs {
		fmt.Fprintf(b, "%d %d\n", p.White, p.Black)
	}
	return b.Flush()
}

// ReadPairs reads what WritePairs writes (a pairing program's output),
// naming the line of an error.
func ReadPairs(r io.Reader) ([]Pair, error) {
	sc := bufio.NewScanner(r)
	line := 0
	n := -1
	var pairs []Pair
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if n < 0 {
			v, err := strconv.Atoi(f[0])
			if err != nil || len(f) != 1 || v < 0 {
				return nil, fmt.Errorf("line %d: the number of pairs, not %q", line, sc.Text())
			}
			n = v
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: a pair is two start numbers, not %q", line, sc.Text())
		}
		w, err1 := strconv.Atoi(f[0])
		b, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || w < 1 || b < 0 {
			return nil, fmt.Errorf("line %d: a pair is two start numbers, not %q", line, sc.Text())
		}
		pairs = append(pairs, Pair{w, b})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("line %d: no number of pairs", line+1)
	}
	if len(pairs) != n {
		return nil, fmt.Errorf("line %d: %d pairs announced, %d given", line, n, len(pairs))
	}
	return pairs, nil
}
