package abacus

import (
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func mustParse(t testing.TB, s string, base int) Number {
	t.Helper()
	n, err := Parse(s, base)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// number draws a number of up to max digits in base; the larger ones need
// a second board.
func number(base, maxDigits int) *rapid.Generator[Number] {
	return rapid.Custom(func(t *rapid.T) Number {
		n := rapid.IntRange(0, maxDigits).Draw(t, "digits")
		d := rapid.SliceOfN(rapid.IntRange(0, base-1), n, n).Draw(t, "d")
		return trim(Number(d))
	})
}

// checkInvariants: every step keeps the stones (seed 000 line 46: the
// kazan's and the result's stones are those laid out) and the end leaves
// no hole over the base's capacity (lines 30–40).
func checkInvariants(t *rapid.T, c *Calc) {
	first := c.Steps[0].Layout
	laid := first.Total()
	for i, s := range c.Steps {
		if got := s.Layout.Total() - s.Layout.Spare; got != laid {
			t.Fatalf("step %d (%s): %d stones less the spare, %d laid out", i, s.Kind, got, laid)
		}
	}
	end := c.Final()
	for r, row := range end.Holes {
		for h, s := range row {
			if s < 0 || s >= c.Base {
				t.Fatalf("row %d hole %d holds %d stones at the end, base %d", r, h+1, s, c.Base)
			}
		}
	}
}

// TestOperationsAgainstIntegers: each operation in every base 2–10 gives
// what integer arithmetic gives, on operands up to 20 digits (three
// boards' worth in a product).
func TestOperationsAgainstIntegers(t *testing.T) {
	for base := MinBase; base <= MaxBase; base++ {
		t.Run(fmt.Sprint("base", base), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				a := number(base, 20).Draw(t, "a")
				b := number(base, 20).Draw(t, "b")
				op := rapid.SampledFrom([]Op{Add, Sub, Mul, Div}).Draw(t, "op")
				av, bv := a.Big(base), b.Big(base)
				var want, rem *big.Int
				switch op {
				case Add:
					want = new(big.Int).Add(av, bv)
				case Sub:
					if av.Cmp(bv) < 0 {
						a, b, av, bv = b, a, bv, av
					}
					want = new(big.Int).Sub(av, bv)
				case Mul:
					want = new(big.Int).Mul(av, bv)
				case Div:
					if bv.Sign() == 0 {
						b, bv = Number{1}, big.NewInt(1)
					}
					want, rem = new(big.Int).QuoRem(av, bv, new(big.Int))
				}
				c, err := Compute(base, a, op, b)
				if err != nil {
					t.Fatal(err)
				}
				if got := c.Result.Big(base); got.Cmp(want) != 0 {
					t.Fatalf("%s in base %d: got %s, want %s", c.Sentence(), base, got, want)
				}
				if rem != nil && c.Remainder.Big(base).Cmp(rem) != 0 {
					t.Fatalf("%s: remainder %s, want %s", c.Sentence(), c.Remainder.Big(base), rem)
				}
				checkInvariants(t, c)
			})
		})
	}
}

// TestSecondBoard: numbers that do not fit on one board are continued on
// joined boards (seed 000 line 28), in every base.
func TestSecondBoard(t *testing.T) {
	for base := MinBase; base <= MaxBase; base++ {
		top := string(rune('0' + base - 1))
		tests := []struct {
			a    string
			op   Op
			b    string
			want int
		}{
			{strings.Repeat(top, 9), Add, "1", 2},       // the sum has ten digits
			{strings.Repeat(top, 9), Add, "0", 1},       // nine fit
			{"1" + strings.Repeat("0", 9), Sub, "1", 2}, // the minuend has ten
			{strings.Repeat(top, 5), Mul, strings.Repeat(top, 5), 2},
			{strings.Repeat(top, 4), Mul, strings.Repeat(top, 5), 1},
			{strings.Repeat(top, 4), Div, strings.Repeat(top, 4), 1}, // 4 + 4 + the mark
			{strings.Repeat(top, 5), Div, strings.Repeat(top, 4), 2},
		}
		for _, tt := range tests {
			c, err := Compute(base, mustParse(t, tt.a, base), tt.op, mustParse(t, tt.b, base))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Final().Boards(); got != tt.want {
				t.Errorf("base %d %s: %d boards, want %d", base, c.Sentence(), got, tt.want)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		base int
		a    string
		op   string
		b    string
		want error
	}{
		{1, "1", "+", "1", ErrBase},
		{11, "1", "+", "1", ErrBase},
		{8, "8", "+", "1", ErrDigit},
		{2, "12", "+", "1", ErrDigit},
		{10, "-3", "+", "1", ErrDigit},
		{10, strings.Repeat("9", MaxDigits+1), "+", "1", ErrTooLong},
		{10, "3", "-", "4", ErrNegative},
		{10, "3", "/", "0", ErrZero},
		{10, "3", "^", "4", ErrOp},
	}
	for _, tt := range tests {
		err := func() error {
			op, err := ParseOp(tt.op)
			if err != nil {
				return err
			}
			a, err := Parse(tt.a, tt.base)
			if err != nil {
				return err
			}
			b, err := Parse(tt.b, tt.base)
			if err != nil {
				return err
			}
			_, err = Compute(tt.base, a, op, b)
			return err
		}()
		if !errorsIs(err, tt.want) {
			t.Errorf("%d %s %s %s: %v, want %v", tt.base, tt.a, tt.op, tt.b, err, tt.want)
		}
	}
}

// golden is a calculation whose steps are kept in testdata, with the rule
// of seed 000 line 26 its first layout follows, checked hole by hole.
type golden struct {
	name, rule string
	base       int
	a, op, b   string
	// place lists, for the first layout, row (F or S), hole and stones
	// that the rule puts there.
	place []string
}

var goldens = []golden{
	{"seed-ten", "seed 000 line 9: ten is one stone and an empty hole (base 10); A1 9 in first-row hole 1, A2 1 in second-row hole 9",
		10, "9", "+", "1", []string{"F1 9", "S9 1"}},
	{"add-base8", "A1: 347 from first-row hole 1 toward 9, units first; A2: 56 from second-row hole 9 toward 1, units first",
		8, "347", "+", "56", []string{"F1 7", "F2 4", "F3 3", "S9 6", "S8 5"}},
	{"add-base2", "A1, A2 in base 2: one stone a hole at most (line 40)",
		2, "1011", "+", "111", []string{"F1 1", "F2 1", "F3 0", "F4 1", "S9 1", "S8 1", "S7 1"}},
	{"sub-base10", "S1: 503 from first-row hole 9 toward 1, first digit first; S2: 27 from the second-row hole across from the minuend's last digit (hole 3) toward 1, units first; S3: the difference from second-row hole 9",
		10, "503", "-", "27", []string{"F9 5", "F8 0", "F7 3", "S3 7", "S2 2"}},
	{"sub-base3", "S1, S2, S3 in base 3, a borrow through two empty holes",
		3, "1000", "-", "1", []string{"F9 1", "F8 0", "F7 0", "F6 0", "S4 1"}},
	{"mul-base10", "M1: the multiplier 23 from first-row hole 1, units first; M2: the multiplicand 47 from first-row hole 9, first digit first; M3: the product from second-row hole 9",
		10, "47", "*", "23", []string{"F1 3", "F2 2", "F9 4", "F8 7"}},
	{"mul-base6", "M1, M2, M3 in base 6, carries on the product's row",
		6, "55", "*", "55", []string{"F1 5", "F2 5", "F9 5", "F8 5"}},
	{"div-base10", "D1: the dividend 347 from first-row hole 9, first digit first; D2: the divisor 5 from first-row hole 1, units first; D3: the quotient from second-row hole 9; the tuzdik marks 2/5",
		10, "347", "/", "5", []string{"F9 3", "F8 4", "F7 7", "F1 5"}},
	{"div-base8", "D1, D2, D3 in base 8, exact",
		8, "1750", "/", "12", []string{"F9 1", "F8 7", "F7 5", "F6 0", "F1 2", "F2 1"}},
	{"add-two-boards", "line 28: the sum 10000000000 takes a second board; A1 and A2 continue on it (second-row hole 18 above first-row hole 1)",
		10, "9999999999", "+", "1", []string{"F1 9", "F10 9", "S18 1"}},
}

func TestGoldenLayouts(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			op, err := ParseOp(g.op)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Compute(g.base, mustParse(t, g.a, g.base), op, mustParse(t, g.b, g.base))
			if err != nil {
				t.Fatal(err)
			}
			start := c.Steps[0].Layout
			for _, p := range g.place {
				var row byte
				var h, s int
				fmt.Sscanf(p, "%c%d %d", &row, &h, &s)
				r := First
				if row == 'S' {
					r = Second
				}
				if got := start.Stones(r, h); got != s {
					t.Errorf("rule %q: %s holds %d, want %d", g.rule, p[:strings.IndexByte(p, ' ')], got, s)
				}
			}
			var b strings.Builder
			fmt.Fprintf(&b, "base %d: %s\nrule: %s\n\n", g.base, c.Sentence(), g.rule)
			for i, s := range c.Steps {
				fmt.Fprintf(&b, "%d. %s\n", i+1, s)
			}
			path := filepath.Join("testdata", g.name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("%s differs from %s:\n%s", g.name, path, b.String())
			}
		})
	}
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }

// TestShow: a number alone, units in the first row's hole 1 (line 42's
// direction); seed 000 line 9: ten is one stone and an empty hole; in base
// 2 a hole holds one stone at most (line 40); a tenth digit takes a second
// board (line 28).
func TestShow(t *testing.T) {
	tests := []struct {
		base   int
		n      string
		holes  []int // the first row from hole 1
		boards int
	}{
		{10, "10", []int{0, 1, 0}, 1},
		{2, "1011", []int{1, 1, 0, 1, 0}, 1},
		{8, "347", []int{7, 4, 3}, 1},
		{10, "1000000000", []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 2},
	}
	for _, tt := range tests {
		l, err := Show(tt.base, mustParse(t, tt.n, tt.base))
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Holes[First][:len(tt.holes)]; fmt.Sprint(got) != fmt.Sprint(tt.holes) || l.Boards() != tt.boards {
			t.Errorf("%s in base %d: first row %v on %d boards, want %v on %d", tt.n, tt.base, got, l.Boards(), tt.holes, tt.boards)
		}
	}
	if _, err := Show(8, Number{8}); !errors.Is(err, ErrDigit) {
		t.Errorf("8 in base 8: %v", err)
	}
}
