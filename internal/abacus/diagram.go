package abacus

import (
	"fmt"
	"strings"
)

// Diagram returns the boards as text in the style of the seeds' diagrams
// (docs/rules.md §5, toguz.Position.Diagram): the second row on top from its
// last hole to hole 1, the first below from hole 1, each followed by its
// kazan in parentheses, "–" for an empty hole (a zero) and "X" for the
// tuzdik (the fraction mark), hole numbers framing the rows. Joined boards
// continue the rows, a "|" between two boards.
func (l Layout) Diagram() string {
	L := l.Len()
	var b strings.Builder
	cell := func(k int, s string) {
		if k > 0 && k%BoardHoles == 0 {
			b.WriteString(" |")
		}
		fmt.Fprintf(&b, "%4s", s)
	}
	numbers := func(r Row) {
		for k := range L {
			h := k + 1
			if r == Second {
				h = L - k
			}
			cell(k, fmt.Sprint(h))
		}
		b.WriteByte('\n')
	}
	row := func(r Row) {
		for k := range L {
			h := k + 1
			if r == Second {
				h = L - k
			}
			switch s := l.Stones(r, h); {
			case l.Mark[r] == h:
				cell(k, "X")
			case s == 0:
				cell(k, "–")
			default:
				cell(k, fmt.Sprint(s))
			}
		}
		fmt.Fprintf(&b, "  (%d)\n", l.Kazan[r])
	}
	numbers(Second)
	row(Second)
	row(First)
	numbers(First)
	return b.String()
}

// Sentence returns the calculation as the CLI's last line writes it, in
// the base: "347 + 56 = 425", a division's remainder as the fraction the
// tuzdik marks, "17 / 5 = 3 2/5".
func (c *Calc) Sentence() string {
	s := fmt.Sprintf("%s %s %s = %s", c.A.Format(), c.Op, c.B.Format(), c.Result.Format())
	if len(c.Remainder) > 0 {
		s += fmt.Sprintf(" %s/%s", c.Remainder.Format(), c.B.Format())
	}
	return s
}

var kindNames = [...]string{"place", "move", "carry", "borrow", "cancel", "times", "divide", "mark"}

// String names the kind as the golden files write it.
func (k StepKind) String() string { return kindNames[k] }

// String writes a place as the golden files do: F3 (first row, hole 3),
// S18, K1 and K2 (the kazans), spare.
func (r Ref) String() string {
	switch {
	case r.Spare:
		return "spare"
	case r.Hole == 0:
		return fmt.Sprintf("K%d", r.Row+1)
	case r.Row == First:
		return fmt.Sprintf("F%d", r.Hole)
	}
	return fmt.Sprintf("S%d", r.Hole)
}

// String writes the step in one line, "carry 1: F2→F3 1, F2→K1 7", and
// its boards below.
func (s Step) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d:", s.Kind, s.Place)
	for i, m := range s.Moves {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s→%s %d", m.From, m.To, m.Stones)
	}
	b.WriteByte('\n')
	b.WriteString(s.Layout.Diagram())
	return b.String()
}
