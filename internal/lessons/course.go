package lessons

import "github.com/toguz/toguz"

// The course's own positions (FEN), each made for one point;
// the tests check what every move of them does.
const (
	single  = "5S,5S,5S,5S,5S,5S,5S,5S,5S/2,2S,1S,1,5S,1,3S,1 50 56 S 1"  // a single stone in White's hole 4
	lap     = "6S,6S,6S,6S,6S,6S,6S,6S,6S/3S,22S,2,1S,4S,2,2S 40 36 S 1"  // 22 stones go round the board
	even    = "7S,7S,7S,7S,7S,7S,7S,3S,4S/2S,1,5S,1,6S,2,4S,1S 44 44 S 1" // one move of five captures
	three   = "8S,8S,8S,8S,8S,2S,6S,5S,4S/1S,1,2S,2,8S,2,3S 46 45 S 1"    // a tuzdik, or a capture
	nine    = "2S,6S,6S,6S,6S,6S,6S,2S,5S/1S,2,8S,3,11S,1 48 49 S 1"      // 3 in Black's hole 9, or in his 2
	same    = "7S,7S,7S,7S,2S,6S,2S,4S,4S/2S,1,t,2,9S,2,4S 45 56 S 1"     // Black owns White's 3
	one     = "6S,6S,6S,6S,6S,2S,4S,t,5S/3S,2,2S,2,7S,2 60 49 S 1"        // White owns Black's 2
	extra   = "2S,1,1S,1,6S,3,3S/9 75 75 N 1"                             // White has emptied his row
	win82   = "7S,7S,7S,7S,7S,7S,7S,6S,5S/4S,1,9S,1,2S,2,3S,1 78 6 S 1"   // one capture reaches 84
	drawn   = "8,3S/9 81 78 S 1"                                          // atsyrau, 81–81
	counted = "9/2S,7,5S 76 79 N 1"                                       // atsyrau: White collects 7
)

// Citations of the seed examples: the catalog's learn.seed.<name> says
// which of the rules' worked examples it is in the learner's language.
const (
	seedEx1 = "ex1"   // the rules' first example: White plays 7
	seedEx2 = "ex2"   // the rules' second example: Black's tuzdik
	seedEx3 = "ex3"   // the rules' third example: atsyrau, 76–86
	seedSix = "sheet" // the score sheet: 1. 76 98
)

// All returns the course, lesson by lesson: a new slice each time, so that
// no caller can change it for another.
func All() []Lesson {
	return []Lesson{
		{ID: "board",
			Steps: []Step{{FEN: Start, Names: true}, {FEN: Start, Names: true}},
			Exercises: []Exercise{
				{ID: "hole9", Goal: GoalHole, FEN: Start, Hole: 9, Answer: "9", Wrong: [2]string{"1", "8"}},
				{ID: "hole7", Goal: GoalHole, FEN: Start, Hole: 7, Answer: "7", Wrong: [2]string{"3", "6"}},
				{ID: "hole1", Goal: GoalHole, FEN: Start, Hole: 1, Answer: "1", Wrong: [2]string{"9", "2"}},
			}},
		{ID: "sowing",
			Steps: []Step{{FEN: Start, Demo: 1}, {FEN: single, Demo: 4}, {FEN: lap, Demo: 2}},
			Exercises: []Exercise{
				{ID: "first", Goal: GoalLand, FEN: Start, Side: toguz.White, Land: 9, Answer: "1", Wrong: [2]string{"2", "5"}},
				{ID: "single", Goal: GoalLand, FEN: single, Side: toguz.White, Land: 5, Answer: "4", Wrong: [2]string{"3", "6"}},
				{ID: "lap", Goal: GoalLand, FEN: lap, Side: toguz.White, Land: 5, Answer: "2", Wrong: [2]string{"1", "5"}},
			}},
		{ID: "capture",
			Steps: []Step{{FEN: Start, Demo: 7}, {FEN: after76, Demo: 9}},
			Exercises: []Exercise{
				{ID: "seed1", Goal: GoalLand, FEN: Start, Side: toguz.Black, Land: 6, Answer: "7", Wrong: [2]string{"3", "1"}, Seed: seedEx1},
				{ID: "even", Goal: GoalCapture, FEN: even, Answer: "8", Wrong: [2]string{"5", "9"}},
				{ID: "odd", Goal: AskEffect, FEN: after76, Hole: 9, Answer: "nothing", Wrong: [2]string{"capture", "tuzdik"}, Seed: seedSix},
			}},
		{ID: "tuzdik",
			Steps: []Step{{FEN: seed2, Demo: 7}, {FEN: three}},
			Exercises: []Exercise{
				{ID: "seed2", Goal: GoalTuzdik, FEN: seed2, Answer: "7", Wrong: [2]string{"8", "1"}, Seed: seedEx2},
				{ID: "find", Goal: GoalTuzdik, FEN: three, Answer: "6", Wrong: [2]string{"9", "1"}},
			}},
		{ID: "limits", Club: true,
			Steps: []Step{{FEN: nine, Demo: 8}, {FEN: same, Demo: 9}, {FEN: one, Demo: 7}},
			Exercises: []Exercise{
				{ID: "nine", Goal: GoalTuzdik, FEN: nine, Answer: "4", Wrong: [2]string{"8", "1"}},
				{ID: "same", Goal: GoalTuzdik, FEN: same, Answer: "6", Wrong: [2]string{"9", "1"}},
				{ID: "one", Goal: AskEffect, FEN: one, Hole: 7, Answer: "nothing", Wrong: [2]string{"tuzdik", "capture"}},
			}},
		{ID: "atsyrau", Club: true,
			Steps: []Step{{FEN: seed3, Diagram: true}, {FEN: extra}},
			Exercises: []Exercise{
				{ID: "seed3", Goal: AskWinner, FEN: seed3, Line: []toguz.Move{9, 1, 9, 1}, Answer: "black", Wrong: [2]string{"white", "draw"}, Seed: seedEx3},
				{ID: "extra", Goal: GoalWin, FEN: extra, Answer: "1", Wrong: [2]string{"5", "9"}},
			}},
		{ID: "end", Club: true,
			Steps: []Step{{FEN: win82}, {FEN: drawn}},
			Exercises: []Exercise{
				{ID: "win82", Goal: GoalWin, FEN: win82, Answer: "8", Wrong: [2]string{"3", "1"}},
				{ID: "draw", Goal: AskWinner, FEN: drawn, Answer: "draw", Wrong: [2]string{"black", "white"}},
				{ID: "score", Goal: AskScore, FEN: counted, Answer: "83-79", Wrong: [2]string{"79-83", "76-79"}},
			}},
		{ID: "notation", Club: true,
			Steps: []Step{{FEN: Start, Demo: 7}, {FEN: seed2, Demo: 7}, {FEN: after76, Diagram: true}},
			Exercises: []Exercise{
				{ID: "write76", Goal: AskNotation, FEN: Start, Hole: 7, Answer: "76", Wrong: [2]string{"67", "7"}, Seed: seedSix},
				{ID: "play98", Goal: GoalPly, FEN: after76, Ply: "98", Answer: "9", Wrong: [2]string{"8", "7"}, Seed: seedSix},
				{ID: "writex", Goal: AskNotation, FEN: seed2, Hole: 7, Answer: "77x", Wrong: [2]string{"77", "71x"}, Seed: seedEx2},
				{ID: "diagram", Goal: AskNotation, FEN: after76, Hole: 5, Diagram: true, Answer: "55", Wrong: [2]string{"54", "56"}, Seed: seedEx1},
			}},
	}
}
