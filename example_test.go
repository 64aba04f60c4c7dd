package toguz_test

import (
	"errors"
	"fmt"

	"github.com/toguz/toguz"
)

// A game from the start: White empties hole 7, and the last stone makes
// Black's hole 6 hold 10, which White captures.
func Example() {
	p := toguz.StartPosition()
	p, err := p.Play(7)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Turn(), "to move; kazans", p.Kazan(toguz.White), p.Kazan(toguz.Black))
	fmt.Println(p.FEN())
	// Output:
	// black to move; kazans 10 0
	// 9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1
}

func ExampleStartPosition() {
	p := toguz.StartPosition()
	fmt.Println(p.Rules(), p.Holes(), "holes,", p.Stones(toguz.White, 1), "stones in each,", p.Turn(), "first")
	// Output: standard 9 holes, 9 stones in each, white first
}

// The methods that read a position take it by value, so they work on any
// Position, even one that is not in a variable.
func ExampleStartPosition_legalMoves() {
	fmt.Println(toguz.StartPosition().LegalMoves().Slice())
	fmt.Println(toguz.StartPosition().After(7).Kazan(toguz.White))
	// Output:
	// [1 2 3 4 5 6 7 8 9]
	// 10
}

func ExampleNewPosition() {
	p, err := toguz.NewPosition(toguz.Bestemshe())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.FEN(), "- wins with", p.Rules().WinningScore())
	// Output: 5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1 - wins with 26
}

func ExamplePosition_Play() {
	p := toguz.StartPosition()
	for _, m := range []toguz.Move{6, 4, 9, 8} {
		var err error
		if p, err = p.Play(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(p.Kazan(toguz.White), p.Kazan(toguz.Black))

	// An illegal move leaves the position as it was and says why.
	_, err := p.Play(10)
	fmt.Println(err, errors.Is(err, toguz.ErrIllegalMove))
	// Output:
	// 10 12
	// illegal move 10: there is no such hole true
}

func ExamplePosition_LegalMoves() {
	p, _, err := toguz.ParseFEN("2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1", toguz.Standard())
	if err != nil {
		fmt.Println(err)
		return
	}
	moves := p.LegalMoves()
	fmt.Println(moves.Len(), "moves:")
	for m := range moves.All() {
		fmt.Println(m, "->", p.After(m).FEN())
	}
	// Output:
	// 3 moves:
	// 2 -> 2S,1,3S,1,1S,t,4S,1,2S/1,1S,1S,6S,1,t,1,1S,1 71 70 N 1
	// 4 -> 2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,1S,1S,t,1S,2S,1 71 71 N 1
	// 8 -> 2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,2,1S 71 70 N 1
}

// The atsyrau example of docs/rules.md §5: White runs out of stones, and Black
// adds the stones left on his side to his kazan.
func ExamplePosition_Outcome() {
	p, _, err := toguz.ParseFEN("1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1", toguz.Standard())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range []toguz.Move{9, 1, 9, 1} {
		p, _ = p.Play(m)
	}
	o := p.Outcome()
	fmt.Println(o.Termination, o.Result, o.Score)
	// Output: atsyrau 0-1 [76 86]
}

func ExampleParseFEN() {
	p, fullmove, err := toguz.ParseFEN("13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4", toguz.Standard())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("move", fullmove, p.Turn(), "to move; Black owns White's hole", p.Tuzdik(toguz.Black))

	_, _, err = toguz.ParseFEN("9S,9S/9S 0 0 S 1", toguz.Standard())
	fmt.Println(err)
	// Output:
	// move 4 white to move; Black owns White's hole 5
	// column 1: black row "9S,9S" has 2 holes, want 9
}

func ExampleFormatFEN() {
	p := toguz.StartPosition()
	p, _ = p.Play(6)
	fmt.Println(toguz.FormatFEN(p, 1))
	// Output: 9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1
}

func ExamplePerft() {
	p := toguz.StartPosition()
	for depth := 1; depth <= 4; depth++ {
		fmt.Println(depth, toguz.Perft(p, depth))
	}
	// Output:
	// 1 9
	// 2 73
	// 3 613
	// 4 5199
}
