// Package lessons is the course of /learn: lessons for someone who has
// never played, then for club players, as data. Each lesson explains on
// boards (positions as FEN) and then asks for exercises whose
// answers the rules library judges (Exercise.Judge): the learner plays a
// hole, picks an option or writes a ply or a score, and the judge says
// what the rules did with it. The tests play every exercise's right answer
// and two wrong ones.
//
// The texts are not here: each lesson, step and exercise has catalog keys
// (Lesson.TitleKey, Step.Key, Exercise.Key) in internal/i18n's learn.json,
// and a Verdict's lines are keys with arguments.
//
// Exercises taken from the seed documents say so (Exercise.Seed), naming
// the rules' worked example or score sheet they reproduce.
//
// Site (site.go) is the course on the web site: /learn, the lessons'
// pages with their boards (DrawBoard, the puzzles' boards too), the judge
// at POST /api/learn/{lesson}/{exercise}. Only an account's progress is
// kept, through the Progress port (internal/store), and only after the
// judge here found the answer right; a guest's stays in his browser, whose
// answers are judged again when he signs up.
package lessons

import "github.com/toguz/toguz"

// Goal is what an exercise asks.
type Goal uint8

// The goals. Board goals are answered by playing a hole of the side to
// move; choices by an option (Exercise.Options); the others in writing.
const (
	GoalHole    Goal = iota + 1 // play hole Hole (the board and its names)
	GoalLand                    // play the move whose last stone falls in Side's hole Land
	GoalCapture                 // play a move that captures (an even count)
	GoalTuzdik                  // play the move that makes a tuzdik
	GoalWin                     // play the move that wins the game
	GoalPly                     // play the move the score sheet writes Ply
	AskWinner                   // after Line: who wins, white, black or draw
	AskEffect                   // what move Hole does: capture, tuzdik or nothing
	AskNotation                 // write the ply of move Hole
	AskScore                    // write the final score after Line, White's first
)

// Kind is how an exercise is answered.
type Kind string

// The kinds of answer.
const (
	KindBoard  Kind = "board"
	KindChoice Kind = "choice"
	KindText   Kind = "text"
)

// Kind returns how the goal is answered.
func (g Goal) Kind() Kind {
	switch g {
	case AskWinner, AskEffect:
		return KindChoice
	case AskNotation, AskScore:
		return KindText
	}
	return KindBoard
}

// Step is one explanation of a lesson, on a board.
type Step struct {
	// FEN is the board shown, "" for none.
	FEN string
	// Demo is a move the learner may watch played on it (0: none); the
	// page shows the position after it too, from the rules library.
	Demo toguz.Move
	// Diagram shows the position as the seeds' text diagram too.
	Diagram bool
	// Names writes the holes' traditional names by the board.
	Names bool
}

// Exercise is one task.
type Exercise struct {
	ID   string
	Goal Goal
	FEN  string // the position, the side to move is the learner's
	// Hole is GoalHole's hole, and the move of AskEffect and AskNotation.
	Hole int
	// Side and Land are GoalLand's hole.
	Side toguz.Player
	Land int
	// Ply is GoalPly's move as written ("98").
	Ply string
	// Line is played from FEN before AskWinner and AskScore judge.
	Line []toguz.Move
	// Diagram shows the position only as the seeds' text diagram.
	Diagram bool
	// Answer is a right answer, as the learner gives it; the tests check
	// that the judge takes it.
	Answer string
	// Wrong are two wrong answers the tests check the judge refuses.
	Wrong [2]string
	// Seed names the example of the seed documents the exercise is
	// (the rules' worked examples; SeedKey is its citation), "" for the course's own.
	Seed string
}

// Lesson is one lesson: explanations, then exercises.
type Lesson struct {
	ID        string
	Club      bool // for club players (the second part of the course)
	Steps     []Step
	Exercises []Exercise
}

// TitleKey, SummaryKey: the lesson's catalog keys.
func (l Lesson) TitleKey() string   { return "learn." + l.ID + ".title" }
func (l Lesson) SummaryKey() string { return "learn." + l.ID + ".summary" }

// StepKey is the catalog key of step i (from 0).
func (l Lesson) StepKey(i int) string { return "learn." + l.ID + ".step" + string(rune('1'+i)) }

// Key is the catalog key of the exercise's question in lesson l.
func (x Exercise) Key(l Lesson) string { return "learn." + l.ID + "." + x.ID }

// SeedKey is the catalog key of the exercise's citation of the seeds, ""
// for the course's own exercises.
func (x Exercise) SeedKey() string {
	if x.Seed == "" {
		return ""
	}
	return "learn.seed." + x.Seed
}

// ProgressID names an exercise in the learner's progress: lesson/exercise.
func ProgressID(l Lesson, x Exercise) string { return l.ID + "/" + x.ID }

// Exercise returns the lesson's exercise id.
func (l Lesson) Exercise(id string) (Exercise, bool) {
	for _, x := range l.Exercises {
		if x.ID == id {
			return x, true
		}
	}
	return Exercise{}, false
}

// Find returns the lesson id.
func Find(id string) (Lesson, bool) {
	for _, l := range All() {
		if l.ID == id {
			return l, true
		}
	}
	return Lesson{}, false
}

// Valid reports whether id (lesson/exercise) names an exercise.
func Valid(id string) bool {
	for _, l := range All() {
		for _, x := range l.Exercises {
			if ProgressID(l, x) == id {
				return true
			}
		}
	}
	return false
}

// Count is the number of exercises of the whole course.
func Count() int {
	n := 0
	for _, l := range All() {
		n += len(l.Exercises)
	}
	return n
}

// Start is the starting position's FEN.
const Start = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"

// The positions of the rules' worked examples.
const (
	// seed2 is example 2's position, Black to move.
	seed2 = "1,10S,10S,1S,11S,11S,11S,11S,11S/10S,10S,10S,10S,10S,10S,2S,11S,1S 12 0 N 1"
	// seed3 is example 3's atsyrau, White to move.
	seed3 = "1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1"
	// after76 is the start after White's 7 (example 1), Black to move.
	after76 = "9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1"
)
