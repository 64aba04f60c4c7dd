package neural

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// Parse reads a network in the format Write writes: '#' comment lines,
// then "hidden H inputs N", then lines "b1 …" (H values), "w2 …" (H
// values), "b2 v", and N lines "w1 …" of H values each, one per input.
func Parse(r io.Reader) (*Network, error) {
	nw := new(Network)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	nr := &netReader{sc: sc}
	if err := nr.shape(); err != nil {
		return nil, err
	}
	v := make([]int64, Hidden)
	if err := nr.ints("b1", v, 16); err != nil {
		return nil, err
	}
	for j, x := range v {
		nw.B1[j] = int16(x)
	}
	if err := nr.ints("w2", v, 32); err != nil {
		return nil, err
	}
	for j, x := range v {
		nw.W2[j] = int32(x)
	}
	b2 := make([]int64, 1)
	if err := nr.ints("b2", b2, 32); err != nil {
		return nil, err
	}
	nw.B2 = int32(b2[0])
	for i := range nw.W1 {
		if err := nr.ints("w1", v, 16); err != nil {
			return nil, err
		}
		for j, x := range v {
			nw.W1[i][j] = int16(x)
		}
	}
	if err := nw.pack(); err != nil {
		return nil, err
	}
	return nw, nil
}

// netReader reads the lines of a network file, counting them for the
// errors.
type netReader struct {
	sc   *bufio.Scanner
	line int
}

// next returns the fields of the next line that is neither blank nor a
// comment.
func (nr *netReader) next() ([]string, error) {
	for nr.sc.Scan() {
		nr.line++
		if text := strings.TrimSpace(nr.sc.Text()); text != "" && !strings.HasPrefix(text, "#") {
			return strings.Fields(text), nil
		}
	}
	if err := nr.sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("line %d: %w", nr.line, io.ErrUnexpectedEOF)
}

// shape reads the "hidden H inputs N" line, which must match this build.
func (nr *netReader) shape() error {
	shape := make([]int64, 3)
	f, err := nr.next()
	if err != nil {
		return err
	}
	if len(f) != 4 || f[0] != "hidden" || f[2] != "inputs" {
		return fmt.Errorf("line %d: want \"hidden %d inputs %d\"", nr.line, Hidden, NumInputs)
	}
	shape[0], err = strconv.ParseInt(f[1], 10, 32)
	if err == nil {
		shape[1], err = strconv.ParseInt(f[3], 10, 32)
	}
	if err != nil || shape[0] != Hidden || shape[1] != NumInputs {
		return fmt.Errorf("line %d: shape %s×%s, this build wants hidden %d inputs %d", nr.line, f[1], f[3], Hidden, NumInputs)
	}
	return nil
}

// ints parses the fields after the label into dst.
func (nr *netReader) ints(label string, dst []int64, bits int) error {
	f, err := nr.next()
	if err != nil {
		return err
	}
	if f[0] != label || len(f) != len(dst)+1 {
		return fmt.Errorf("line %d: want %q and %d values, got %q with %d", nr.line, label, len(dst), f[0], len(f)-1)
	}
	for i, s := range f[1:] {
		if dst[i], err = strconv.ParseInt(s, 10, bits); err != nil {
			return fmt.Errorf("line %d: %s value %d: %w", nr.line, label, i+1, err)
		}
	}
	return nil
}

// Write writes nw in the format Parse reads, after the comment lines in
// header.
func Write(out io.Writer, nw *Network, header []string) error {
	bw := bufio.NewWriter(out)
	for _, h := range header {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	fmt.Fprintf(bw, "hidden %d inputs %d\n", Hidden, NumInputs)
	row := func(label string, n int, at func(int) int64) {
		bw.WriteString(label)
		for j := range n {
			bw.WriteByte(' ')
			bw.WriteString(strconv.FormatInt(at(j), 10))
		}
		bw.WriteByte('\n')
	}
	row("b1", Hidden, func(j int) int64 { return int64(nw.B1[j]) })
	row("w2", Hidden, func(j int) int64 { return int64(nw.W2[j]) })
	row("b2", 1, func(int) int64 { return int64(nw.B2) })
	for i := range nw.W1 {
		row("w1", Hidden, func(j int) int64 { return int64(nw.W1[i][j]) })
	}
	return bw.Flush()
}

//go:embed network.txt
var networkText string

// embedded parses the embedded network on first use, not at every start
// of the program (it takes milliseconds and half a megabyte).
var embedded = sync.OnceValue(func() *Network {
	nw, err := Parse(strings.NewReader(networkText))
	if err != nil {
		panic("neural: embedded network.txt: " + err.Error())
	}
	return nw
})

// Embedded returns the embedded trained network. The caller must not
// modify it.
func Embedded() *Network { return embedded() }
