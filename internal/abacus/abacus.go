// Package abacus is seed 000's "key of the toguz board" (Тоғыз-құмалақ
// тақтасының кілті, ../shared/seeds/000_a78ac2bc749ccddb.txt lines 9–46):
// the board as an abacus that writes a number in any base from 2 to 10 and
// adds, subtracts, multiplies and divides without digits.
//
// What the seed settles, and where (line numbers of seed 000):
//
//   - The signs (lines 13–22): a stone is a unit, a hole is a digit's place,
//     the stones in a hole are the digit, an empty hole is zero, the tuzdik is
//     the fraction mark, the kazan the equals sign; the operation signs are
//     kept "in mind" (ойда), so nothing on the board marks them.
//   - The capacity (lines 30–40): in base b a hole holds at most b−1 stones.
//   - The direction (line 42) and the carry (line 46): counting runs
//     counter-clockwise; when a hole holds one stone more than it may, one
//     stone goes on to the next hole counter-clockwise and the rest into the
//     kazan. At the end the stones that went into the kazan and those of the
//     result together are the stones that were laid out (Layout.Stones).
//   - The placements (line 26), named here by row: the first row
//     (бастауыш, White's, holes 1→9 left to right as White sees them) and
//     the second (қостауыш, Black's, whose hole 9 lies above the first row's
//     hole 1); see Compute for each operation's.
//   - More boards (line 28): a number that does not fit is continued on a
//     board joined to the first (or in cups). Joined boards make longer rows:
//     with k boards a row has 9k holes, numbered on from the first board's,
//     and the second row's hole 9k lies above the first row's hole 1.
//
// What the seed leaves out, the procedure of each operation, is derived
// here from the placements and the carry rule and said so at Compute.
package abacus

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// The bases of the seed's capacity table (seed 000 lines 30–40).
const (
	MinBase = 2
	MaxBase = 10
)

// BoardHoles is the holes of one row of one board (seed 000 line 68: 18
// holes, nine a side).
const BoardHoles = 9

// MaxBoards bounds the boards one calculation may join, and with it the
// work a stranger's request can cost (a product of two 27-digit numbers).
const MaxBoards = 6

// MaxDigits is the longest operand: three boards' row.
const MaxDigits = 3 * BoardHoles

// Row is one of the two rows of holes.
type Row int

const (
	First  Row = iota // бастауыш: the first player's row, the bottom one
	Second            // қостауыш: the second player's row, the top one
)

// Op is one of the four operations.
type Op byte

const (
	Add Op = '+'
	Sub Op = '-'
	Mul Op = '×'
	Div Op = '÷'
)

// ParseOp reads an operation sign: + - * x × / : ÷.
func ParseOp(s string) (Op, error) {
	switch s {
	case "+":
		return Add, nil
	case "-", "−":
		return Sub, nil
	case "*", "x", "×", "·":
		return Mul, nil
	case "/", ":", "÷":
		return Div, nil
	}
	return 0, fmt.Errorf("%w: %q, want + - * /", ErrOp, s)
}

// String returns the sign as the CLI writes it.
func (o Op) String() string {
	switch o {
	case Add:
		return "+"
	case Sub:
		return "-"
	case Mul:
		return "*"
	case Div:
		return "/"
	}
	return "?"
}

// Errors, wrapped by every error the package returns, so callers can
// answer each in the reader's language.
var (
	ErrBase     = errors.New("base out of range")
	ErrDigit    = errors.New("not a number in the base")
	ErrTooLong  = errors.New("number too long")
	ErrOp       = errors.New("unknown operation")
	ErrNegative = errors.New("subtrahend larger than minuend")
	ErrZero     = errors.New("division by zero")
)

// Number is a natural number as its digits in a base, the units first.
// The zero has no digits.
type Number []int

// Parse reads s, written in base with the digits 0..base−1, most
// significant first (as `toguz key --base 8 347 + 56` writes it).
func Parse(s string, base int) (Number, error) {
	if err := checkBase(base); err != nil {
		return nil, err
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > MaxDigits {
		return nil, fmt.Errorf("%w: %d digits, at most %d", ErrTooLong, len(s), MaxDigits)
	}
	n := make(Number, len(s))
	for i := range len(s) {
		c := s[len(s)-1-i]
		d := int(c) - '0'
		if c < '0' || d >= base {
			return nil, fmt.Errorf("%w: %q has the digit %q, base %d has 0..%d", ErrDigit, s, c, base, base-1)
		}
		n[i] = d
	}
	return n, nil
}

func checkBase(base int) error {
	if base < MinBase || base > MaxBase {
		return fmt.Errorf("%w: %d, want %d..%d", ErrBase, base, MinBase, MaxBase)
	}
	return nil
}

// Format writes n most significant digit first, "0" for zero.
func (n Number) Format() string {
	if len(n) == 0 {
		return "0"
	}
	var b strings.Builder
	for i := len(n) - 1; i >= 0; i-- {
		b.WriteByte(byte('0' + n[i]))
	}
	return b.String()
}

// Big returns the value of n in base.
func (n Number) Big(base int) *big.Int {
	v, b := new(big.Int), big.NewInt(int64(base))
	for i := len(n) - 1; i >= 0; i-- {
		v.Mul(v, b).Add(v, big.NewInt(int64(n[i])))
	}
	return v
}

// FromBig returns the digits of v ≥ 0 in base.
func FromBig(v *big.Int, base int) Number {
	var n Number
	v, b, d := new(big.Int).Set(v), big.NewInt(int64(base)), new(big.Int)
	for v.Sign() > 0 {
		v.QuoRem(v, b, d)
		n = append(n, int(d.Int64()))
	}
	return n
}

// trim drops leading zeros.
func trim(n Number) Number {
	for len(n) > 0 && n[len(n)-1] == 0 {
		n = n[:len(n)-1]
	}
	return n
}

// Layout is the joined boards at one moment: the stones of each hole of
// both rows, the two kazans, and the holes bearing the tuzdik (the
// fraction mark), 0 for none.
type Layout struct {
	Base  int
	Holes [2][]int // Holes[row][h-1]: the stones of hole h
	Kazan [2]int
	Mark  [2]int
	// Spare counts the stones brought from outside the holes (the box of
	// the game's stones): a borrow breaks one stone into base stones, and
	// a product's digits are sown from there. Total() − Spare is always
	// the stones first laid out (seed 000 line 46's check).
	Spare int
}

func newLayout(base, boards int) Layout {
	l := Layout{Base: base}
	for r := range l.Holes {
		l.Holes[r] = make([]int, boards*BoardHoles)
	}
	return l
}

// Len returns the holes of a row: 9 per board.
func (l Layout) Len() int { return len(l.Holes[First]) }

// Boards returns how many boards are joined.
func (l Layout) Boards() int { return l.Len() / BoardHoles }

// Stones returns the stones of hole h of row r.
func (l Layout) Stones(r Row, h int) int { return l.Holes[r][h-1] }

// Opposite returns the hole of the other row that lies across from hole
// h: hole 1 of a row faces the other row's last.
func (l Layout) Opposite(h int) int { return l.Len() + 1 - h }

// Total returns the stones in the holes and the kazans.
func (l Layout) Total() int {
	t := l.Kazan[First] + l.Kazan[Second]
	for _, row := range l.Holes {
		for _, s := range row {
			t += s
		}
	}
	return t
}

func (l Layout) clone() Layout {
	c := l
	for r := range c.Holes {
		c.Holes[r] = append([]int(nil), l.Holes[r]...)
	}
	return c
}

// read returns the number written in row r from hole lo (its units)
// toward hole hi (inclusive), hole by hole in the direction of dir (+1 or
// −1).
func (l Layout) read(r Row, units, count, dir int) Number {
	n := make(Number, 0, count)
	for i := range count {
		n = append(n, l.Holes[r][units+dir*i-1])
	}
	return trim(n)
}

// Ref names a hole, a row's kazan (Hole 0) or, with Spare, the stones
// outside the board.
type Ref struct {
	Row   Row
	Hole  int
	Spare bool
}

// Kazan reports whether r is a kazan.
func (r Ref) Kazan() bool { return !r.Spare && r.Hole == 0 }

// Move is stones going from one place to another.
type Move struct {
	From, To Ref
	Stones   int
}

// StepKind says what a step did.
type StepKind int

const (
	StepPlace  StepKind = iota // the operands laid out (the first step)
	StepMove                   // an operand's digit moved onto the result's hole
	StepCarry                  // a full hole: one stone on per base stones, the rest into the kazan
	StepBorrow                 // an empty-handed hole: one stone of the next hole broken into base
	StepCancel                 // subtraction: the subtrahend's digit and as many of the minuend's into the kazans
	StepTimes                  // multiplication: a multiplicand digit times a multiplier digit sown on the product's hole
	StepDivide                 // division: the divisor taken once out of the dividend, one stone on the quotient
	StepMark                   // division: the tuzdik set between remainder and divisor
)

// Step is one step of a calculation: what it did, the moves (the carry's
// stones among them), the place of the digit it worked on and the boards
// after it.
type Step struct {
	Kind   StepKind
	Place  int // the digit's place (0 = units)
	Moves  []Move
	Carry  int // stones carried to the next hole (StepCarry)
	Layout Layout
}

// Calc is a whole calculation.
type Calc struct {
	Op        Op
	Base      int
	A, B      Number
	Result    Number
	Remainder Number // division only
	Steps     []Step
}

// Final returns the boards after the last step.
func (c *Calc) Final() Layout { return c.Steps[len(c.Steps)-1].Layout }

// calc is a calculation being done: the current layout and the steps so far.
type calc struct {
	*Calc
	l Layout
}

func (c *calc) step(k StepKind, place int, moves ...Move) {
	for _, m := range moves {
		c.apply(m.From, -m.Stones)
		c.apply(m.To, m.Stones)
	}
	c.Steps = append(c.Steps, Step{Kind: k, Place: place, Moves: moves, Layout: c.l.clone()})
}

func (c *calc) apply(r Ref, n int) {
	switch {
	case r.Spare:
		c.l.Spare -= n // taking from the spare stones counts them brought
	case r.Hole == 0:
		c.l.Kazan[r.Row] += n
	default:
		c.l.Holes[r.Row][r.Hole-1] += n
	}
}

// place writes n into row r, its units in hole units and each next digit
// one hole further in direction dir, as part of the first step.
func (c *calc) place(r Row, n Number, units, dir int) {
	for i, d := range n {
		c.l.Holes[r][units+dir*i-1] = d
	}
}

// carry makes hole h of row r hold less than base stones: per base stones
// one goes on to the next hole (next: h+1 on the first row, h−1 on the
// second) and base−1 into the row's kazan (seed 000 line 46).
func (c *calc) carry(r Row, h, next, place int) {
	b := c.Base
	s := c.l.Holes[r][h-1]
	if s < b {
		return
	}
	q := s / b
	c.step(StepCarry, place,
		Move{From: Ref{Row: r, Hole: h}, To: Ref{Row: r, Hole: next}, Stones: q},
		Move{From: Ref{Row: r, Hole: h}, To: Ref{Row: r}, Stones: q * (b - 1)})
	c.Steps[len(c.Steps)-1].Carry = q
}

// borrow puts base more stones into first-row hole h by taking one stone
// from hole h+1 (counter-clockwise, the next place), borrowing for that
// one first if it is empty. The taken stone goes into the kazan and the
// base stones come from the spare ones: the carry of line 46 run
// backwards.
func (c *calc) borrow(h, place int) {
	if c.l.Holes[First][h] == 0 {
		c.borrow(h+1, place+1)
	}
	c.step(StepBorrow, place,
		Move{From: Ref{Row: First, Hole: h + 1}, To: Ref{Row: First}, Stones: 1},
		Move{From: Ref{Spare: true}, To: Ref{Row: First, Hole: h}, Stones: c.Base})
}

// Show lays n out alone, as a number is written on the board: its units in
// the first row's hole 1 and each next digit in the next hole
// counter-clockwise (the direction of line 42, and where rule A1 writes a
// sum), on as many boards as it needs (line 28). Seed 000's own example
// (line 9): ten is one stone and an empty hole.
func Show(base int, n Number) (Layout, error) {
	if err := checkBase(base); err != nil {
		return Layout{}, err
	}
	n = trim(append(Number(nil), n...))
	for _, d := range n {
		if d < 0 || d >= base {
			return Layout{}, fmt.Errorf("%w: digit %d in base %d", ErrDigit, d, base)
		}
	}
	k := boards(len(n))
	if k > MaxBoards {
		return Layout{}, fmt.Errorf("%w: %d boards, at most %d", ErrTooLong, k, MaxBoards)
	}
	l := newLayout(base, k)
	copy(l.Holes[First], n)
	return l, nil
}

// boards returns how many boards a row of need holes takes.
func boards(need int) int { return max(1, (need+BoardHoles-1)/BoardHoles) }

// Compute lays a op b out on as many boards as they need and performs it
// step by step. The placements are seed 000's (line 26); n is the number
// of a's digits, m of b's, L the holes of a row.
//
// Addition a + b. Rule A1: the addend that becomes the sum (a) fills the
// first row from its first hole toward its last, from the number's end
// (units in hole 1). Rule A2: the other addend (b) fills the second row
// from its last hole toward its first, from the number's end (units in
// hole L, above the first row's hole 1). Derived procedure: place by
// place from the units, b's stones go down into the hole below them and a
// full hole carries (line 46) counter-clockwise, into the next first-row
// hole: the sum is left in the first row, where A1 puts it.
//
// Subtraction a − b. Rule S1: the minuend (a) fills the first row from
// its last hole toward its first, from the number's beginning (its first
// digit in hole L, units in hole L−n+1). Rule S2: the subtrahend (b) fills
// the second row from the hole across from the minuend's last digit toward
// hole 1, from the number's end (units in hole n, each digit above the
// minuend's of the same place). Rule S3: the difference fills the second
// row from its last hole toward the first, from the number's end (units in
// hole L). Derived procedure: place by place from the units, a minuend
// hole with fewer stones than the subtrahend's borrows (one stone of the
// next hole counter-clockwise becomes base stones), the subtrahend's
// stones and as many of the minuend's go into the kazans, and what is left
// goes up into the difference's hole.
//
// Multiplication a × b. Rule M1: the multiplier (көбейткіш, b) fills the
// first row from its first hole toward its last, from the number's end
// (units in hole 1). Rule M2: the multiplicand (көбейгіш, a) fills the
// first row from its last hole toward its first, from the number's
// beginning (first digit in hole L). Rule M3: the product fills the second
// row from its last hole toward the first, from the number's end (units in
// hole L). Derived procedure: for each multiplier digit, each multiplicand
// digit times it is sown (from the spare stones) on the product's hole of
// the place of the two digits' places together, then the product's full
// holes carry toward the next place.
//
// Division a ÷ b. Rule D1: the dividend (a) fills the first row from its
// last hole toward its first, from the number's beginning. Rule D2: the
// divisor (b) fills the first row from its first hole toward its last,
// from the number's end. Rule D3: the quotient fills the second row from
// its last hole toward the first, from the number's end. Derived
// procedure: from the highest place the divisor fits, the divisor is taken
// out of the dividend's holes of that place and up (stones into the
// kazan, borrowing as in subtraction) as often as it goes, a stone on the
// quotient's hole of that place each time; what stays of the dividend is
// the remainder, and when there is one the tuzdik, the fraction mark
// (line 17), goes on the hole between it and the divisor: the first row
// then reads remainder/divisor.
//
// The seed says the carry goes counter-clockwise (line 46), which is the
// direction in which numbers grow on the first row (A1, S1, M1, D1). On
// the second row S3, M3 and D3 make numbers grow from hole L toward hole 1,
// clockwise; only the product ever carries there, and it carries toward
// its next place, hole h−1, as the written numbers require.
func Compute(base int, a Number, op Op, b Number) (*Calc, error) {
	if err := checkBase(base); err != nil {
		return nil, err
	}
	for _, x := range []Number{a, b} {
		for _, d := range x {
			if d < 0 || d >= base {
				return nil, fmt.Errorf("%w: digit %d in base %d", ErrDigit, d, base)
			}
		}
	}
	a, b = trim(append(Number(nil), a...)), trim(append(Number(nil), b...))
	if len(a) > MaxDigits || len(b) > MaxDigits {
		return nil, fmt.Errorf("%w: at most %d digits", ErrTooLong, MaxDigits)
	}
	n, m := len(a), len(b)
	av, bv := a.Big(base), b.Big(base)
	c := &calc{Calc: &Calc{Op: op, Base: base, A: a, B: b}}
	var need int
	switch op {
	case Add:
		need = max(n, m, len(FromBig(new(big.Int).Add(av, bv), base)))
	case Sub:
		if av.Cmp(bv) < 0 {
			return nil, fmt.Errorf("%w: %s − %s", ErrNegative, a.Format(), b.Format())
		}
		need = n
	case Mul:
		need = n + m
	case Div:
		if m == 0 {
			return nil, ErrZero
		}
		need = n + m + 1
	default:
		return nil, fmt.Errorf("%w: %q", ErrOp, byte(op))
	}
	k := boards(need)
	if k > MaxBoards {
		return nil, fmt.Errorf("%w: %d boards, at most %d", ErrTooLong, k, MaxBoards)
	}
	c.l = newLayout(base, k)
	switch op {
	case Add:
		c.add()
	case Sub:
		c.sub()
	case Mul:
		c.mul()
	case Div:
		c.div()
	}
	return c.Calc, nil
}

func (c *calc) add() {
	L := c.l.Len()
	c.place(First, c.A, 1, 1)   // A1
	c.place(Second, c.B, L, -1) // A2
	c.step(StepPlace, 0)
	for i := range L {
		h := i + 1
		if s := c.l.Holes[Second][c.l.Opposite(h)-1]; s > 0 {
			c.step(StepMove, i, Move{From: Ref{Row: Second, Hole: c.l.Opposite(h)}, To: Ref{Row: First, Hole: h}, Stones: s})
		}
		if h < L {
			c.carry(First, h, h+1, i)
		}
	}
	c.Result = c.l.read(First, 1, L, 1)
}

func (c *calc) sub() {
	L, n := c.l.Len(), len(c.A)
	u := L - n + 1                            // the minuend's units
	c.place(First, c.A, u, 1)                 // S1
	c.place(Second, c.B, c.l.Opposite(u), -1) // S2
	c.step(StepPlace, 0)
	for i := range n {
		h := u + i
		sh := c.l.Opposite(h)
		s := c.l.Holes[Second][sh-1]
		if c.l.Holes[First][h-1] < s {
			c.borrow(h, i)
		}
		if s > 0 {
			c.step(StepCancel, i,
				Move{From: Ref{Row: Second, Hole: sh}, To: Ref{Row: Second}, Stones: s},
				Move{From: Ref{Row: First, Hole: h}, To: Ref{Row: First}, Stones: s})
		}
		if left := c.l.Holes[First][h-1]; left > 0 {
			c.step(StepMove, i, Move{From: Ref{Row: First, Hole: h}, To: Ref{Row: Second, Hole: L - i}, Stones: left}) // S3
		}
	}
	c.Result = c.l.read(Second, L, L, -1)
}

func (c *calc) mul() {
	L, n := c.l.Len(), len(c.A)
	u := L - n + 1
	c.place(First, c.B, 1, 1) // M1
	c.place(First, c.A, u, 1) // M2
	c.step(StepPlace, 0)
	for j, bj := range c.B {
		if bj == 0 {
			continue
		}
		var moves []Move
		for i, ai := range c.A {
			if ai*bj > 0 {
				moves = append(moves, Move{From: Ref{Spare: true}, To: Ref{Row: Second, Hole: L - i - j}, Stones: ai * bj}) // M3
			}
		}
		c.step(StepTimes, j, moves...)
		for p := j; p < L-1; p++ {
			c.carry(Second, L-p, L-p-1, p)
		}
	}
	c.Result = c.l.read(Second, L, L, -1)
}

func (c *calc) div() {
	L, n, m := c.l.Len(), len(c.A), len(c.B)
	u := L - n + 1
	c.place(First, c.A, u, 1) // D1
	c.place(First, c.B, 1, 1) // D2
	c.step(StepPlace, 0)
	for k := n - m; k >= 0; k-- {
		for c.fits(u, k) {
			var moves []Move
			for i, d := range c.B {
				h := u + k + i
				if c.l.Holes[First][h-1] < d {
					c.borrow(h, k+i)
				}
				if d > 0 {
					moves = append(moves, Move{From: Ref{Row: First, Hole: h}, To: Ref{Row: First}, Stones: d})
				}
			}
			moves = append(moves, Move{From: Ref{Spare: true}, To: Ref{Row: Second, Hole: L - k}, Stones: 1}) // D3
			c.step(StepDivide, k, moves...)
		}
	}
	c.Result = c.l.read(Second, L, L, -1)
	c.Remainder = c.l.read(First, u, n, 1)
	if len(c.Remainder) > 0 {
		c.l.Mark[First] = u - 1
		c.step(StepMark, 0)
	}
}

// fits reports whether the divisor, its units at place k of the dividend
// (hole u+k), is at most what the dividend's holes from there up hold.
func (c *calc) fits(u, k int) bool {
	row := c.l.Holes[First]
	top := len(row) // the dividend's first digit is in the last hole
	for h := top; h >= u+k; h-- {
		var d int
		if i := h - u - k; i < len(c.B) {
			d = c.B[i]
		}
		if row[h-1] != d {
			return row[h-1] > d
		}
	}
	return true
}
