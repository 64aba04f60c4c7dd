package toguz

import "fmt"

// Result is the result of a game as a record states it.
type Result uint8

const (
	NoResult  Result = iota // "*": not finished, or unknown
	WhiteWins               // "1-0"
	BlackWins               // "0-1"
	Draw                    // "1/2-1/2"
)

var resultStrings = [...]string{"*", "1-0", "0-1", "1/2-1/2"}

func (r Result) String() string {
	if int(r) < len(resultStrings) {
		return resultStrings[r]
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}

// ParseResult reads "1-0", "0-1", "1/2-1/2" (also "½-½") or "*".
func ParseResult(s string) (Result, error) {
	switch s {
	case "1-0":
		return WhiteWins, nil
	case "0-1":
		return BlackWins, nil
	case "1/2-1/2", "½-½", "0.5-0.5":
		return Draw, nil
	case "*":
		return NoResult, nil
	}
	return NoResult, fmt.Errorf("unknown result %q: want 1-0, 0-1, 1/2-1/2 or *", s)
}

// WinFor returns the result of a win by pl.
func WinFor(pl Player) Result {
	if pl == White {
		return WhiteWins
	}
	return BlackWins
}

// Termination says how a game ended.
type Termination uint8

const (
	Unterminated   Termination = iota // "none": the game goes on, or its record stops before the end
	ByKazan                           // "kazan": a kazan holds more than half of the stones
	ByDraw                            // "draw": the kazans hold half of the stones each
	ByAtsyrau                         // "atsyrau": the player to move had no stone to move
	ByResignation                     // "resignation"
	ByTime                            // "time": a player lost on time
	ByAgreement                       // "agreement": a draw agreed by the players
	ByAdjudication                    // "adjudication": decided by an arbiter or a referee program
)

var terminationStrings = [...]string{"none", "kazan", "draw", "atsyrau", "resignation", "time", "agreement", "adjudication"}

func (t Termination) String() string {
	if int(t) < len(terminationStrings) {
		return terminationStrings[t]
	}
	return fmt.Sprintf("Termination(%d)", uint8(t))
}

// ParseTermination reads the names Termination.String writes.
func ParseTermination(s string) (Termination, error) {
	for i, name := range terminationStrings {
		if s == name {
			return Termination(i), nil
		}
	}
	return Unterminated, fmt.Errorf("unknown termination %q", s)
}

// Outcome is how the rules end a position.
type Outcome struct {
	Termination Termination // Unterminated, ByKazan, ByDraw or ByAtsyrau
	Result      Result
	// Score is the final count of each player, White first: the kazans, plus,
	// after an atsyrau, the stones the player not to move collects from his
	// own side.
	Score [2]int
}

// Outcome returns how the game stands by the rules alone. A game over by
// atsyrau is scored as docs/rules.md §3 says: the player not to move adds every
// stone left on his side to his kazan, and the kazans decide.
func (p Position) Outcome() Outcome {
	o := Outcome{Score: [2]int{p.Kazan(White), p.Kazan(Black)}}
	switch {
	case p.kazanWon():
		o.Termination = ByKazan
	case p.sideMoves(p.Turn()) == 0:
		o.Termination = ByAtsyrau
		other := p.Turn().Other()
		o.Score[other] += p.OnBoard(other)
	default:
		return o
	}
	half := p.Rules().Total() / 2
	switch {
	case o.Score[0] > half:
		o.Result = WhiteWins
	case o.Score[1] > half:
		o.Result = BlackWins
	default:
		o.Result = Draw
		if o.Termination == ByAtsyrau && o.Score[0] == half && p.OnBoard(White)+p.OnBoard(Black) == 0 {
			// Every stone is in a kazan, half each: the 81–81 draw.
			o.Termination = ByDraw
		}
	}
	return o
}
