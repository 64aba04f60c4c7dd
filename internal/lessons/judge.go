package lessons

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
)

// Line is one sentence of feedback: a catalog key (locales/*/learn.json)
// and its arguments, all numbers or notation, so that the caller writes it
// in the learner's language.
type Line struct {
	Key  string
	Args []any
}

// Verdict is the judgement of an answer: right or not, and why, in
// sentences that say what the rules did with the learner's move.
type Verdict struct {
	Right bool
	Lines []Line
}

func (v *Verdict) say(key string, args ...any) { v.Lines = append(v.Lines, Line{key, args}) }

// Effect is what the last stone of a move did, by the rules (the federation's rules: the capture and the tuzdik).
type Effect uint8

// The effects of a move's last stone.
const (
	EffectOwn        Effect = iota + 1 // it fell on the mover's own side: nothing
	EffectIntoTuzdik                   // it fell in a tuzdik: it goes to the owner's kazan
	EffectCapture                      // an even count on the opponent's side: captured
	EffectOdd                          // an odd count (not 3, or 3 that may not be a tuzdik): nothing
	EffectTuzdik                       // 3 on the opponent's side: a new tuzdik
	EffectNine                         // 3 in the opponent's hole 9: no tuzdik there
	EffectSame                         // 3 in the hole numbered as the opponent's tuzdik
	EffectHave                         // 3, but the mover has his tuzdik already
)

// Answer names a choice exercise's options (AskEffect).
func (e Effect) Answer() string {
	switch e {
	case EffectCapture:
		return "capture"
	case EffectTuzdik:
		return "tuzdik"
	}
	return "nothing"
}

// MoveEffect plays m (legal in p) and says what its last stone did, the
// side and hole it fell in, the count there after it fell, and the
// position after the move.
func MoveEffect(p toguz.Position, m toguz.Move) (e Effect, side toguz.Player, hole, count int, next toguz.Position) {
	me := p.Turn()
	side, hole = p.Landing(m)
	y, next := p.Ply(m)
	// The count the last stone made, read before a capture empties it.
	count = p.Stones(side, hole) + stonesDropped(p, m, side, hole)
	switch {
	case p.IsTuzdik(side, hole):
		return EffectIntoTuzdik, side, hole, count, next
	case side == me:
		return EffectOwn, side, hole, count, next
	case y.Tuzdik:
		return EffectTuzdik, side, hole, count, next
	case count%2 == 0:
		return EffectCapture, side, hole, count, next
	case count != 3:
		return EffectOdd, side, hole, count, next
	case p.Tuzdik(me) != 0:
		return EffectHave, side, hole, count, next
	case hole == p.Holes():
		return EffectNine, side, hole, count, next
	case p.Tuzdik(side) == hole:
		return EffectSame, side, hole, count, next
	}
	return EffectOdd, side, hole, count, next
}

// stonesDropped counts the stones m sows into the hole (side, hole), the
// emptied hole's own first stone included: Trail is the rules library's
// sowing, stone by stone.
func stonesDropped(p toguz.Position, m toguz.Move, side toguz.Player, hole int) int {
	n := 0
	for s, h := range p.Trail(m) {
		if s == side && h == hole {
			n++
		}
	}
	if side == p.Turn() && hole == int(m) {
		n -= p.Stones(side, hole) // the hole was emptied first
	}
	return n
}

// describe adds the sentence of what m's last stone did.
func (v *Verdict) describe(p toguz.Position, m toguz.Move) (Effect, toguz.Position) {
	e, _, hole, count, next := MoveEffect(p, m)
	switch e {
	case EffectOwn:
		v.say("learn.fb.own", hole, count)
	case EffectIntoTuzdik:
		v.say("learn.fb.into_tuzdik", hole)
	case EffectCapture:
		v.say("learn.fb.capture", hole, count)
	case EffectOdd:
		v.say("learn.fb.odd", hole, count)
	case EffectTuzdik:
		v.say("learn.fb.tuzdik", hole)
	case EffectNine:
		v.say("learn.fb.nine", hole)
	case EffectSame:
		v.say("learn.fb.same", hole)
	case EffectHave:
		v.say("learn.fb.have", hole)
	}
	return e, next
}

// Judge judges an answer to x: a hole number for the board's exercises,
// an option's name for the choices, a ply or a score for the written ones.
// The rules library decides: the expected Answer of the data is what the
// tests check the judge against, not what the judge compares with. The
// error is for an exercise whose data is wrong, never for an answer.
func (x Exercise) Judge(answer string) (Verdict, error) {
	p, _, err := toguz.ParseFEN(x.FEN, toguz.Standard())
	if err != nil {
		return Verdict{}, fmt.Errorf("lessons: exercise %s: %w", x.ID, err)
	}
	answer = strings.TrimSpace(answer)
	var v Verdict
	switch x.Goal.Kind() {
	case KindBoard:
		h, err := strconv.Atoi(answer)
		if err != nil || h < 1 || h > p.Holes() {
			v.say("learn.fb.no_hole", p.Holes())
			return v, nil
		}
		m := toguz.Move(h)
		switch {
		case p.IsTuzdik(p.Turn(), h):
			v.say("learn.fb.hole_tuzdik", h)
			return v, nil
		case p.Stones(p.Turn(), h) == 0:
			v.say("learn.fb.hole_empty", h)
			return v, nil
		case p.CheckMove(m) != nil:
			v.say("learn.fb.game_over")
			return v, nil
		}
		return x.judgeMove(p, m, v)
	case KindChoice:
		return x.judgeChoice(p, answer, v)
	default:
		return x.judgeText(p, answer, v)
	}
}

func (x Exercise) judgeMove(p toguz.Position, m toguz.Move, v Verdict) (Verdict, error) {
	switch x.Goal {
	case GoalHole:
		v.Right = int(m) == x.Hole
		v.say("learn.fb.hole_is", int(m))
		return v, nil
	case GoalPly:
		want, err := toguz.ParsePly(x.Ply)
		if err != nil {
			return v, fmt.Errorf("lessons: exercise %s: %w", x.ID, err)
		}
		got, _ := p.Ply(m)
		v.Right = got == want
		v.say("learn.fb.written", got.String())
		return v, nil
	}
	e, next := v.describe(p, m)
	switch x.Goal {
	case GoalLand:
		side, hole := p.Landing(m)
		v.Right = side == x.Side && hole == x.Land
	case GoalCapture:
		v.Right = e == EffectCapture
	case GoalTuzdik:
		v.Right = e == EffectTuzdik
	case GoalWin:
		o := next.Outcome()
		v.Right = o.Result == toguz.WinFor(p.Turn())
		v.score(next, o)
	default:
		return v, fmt.Errorf("lessons: exercise %s: goal %d is not a board goal", x.ID, x.Goal)
	}
	return v, nil
}

// score adds the sentences of how the game stands after a move or a line.
func (v *Verdict) score(p toguz.Position, o toguz.Outcome) {
	switch o.Termination {
	case toguz.Unterminated:
		v.say("learn.fb.goes_on", p.Kazan(toguz.White), p.Kazan(toguz.Black))
		return
	case toguz.ByAtsyrau, toguz.ByDraw:
		if c := p.OnBoard(p.Turn().Other()); o.Termination == toguz.ByAtsyrau || c > 0 {
			v.say("learn.fb.atsyrau."+p.Turn().String(), c)
		}
	}
	switch o.Result {
	case toguz.WhiteWins:
		v.say("learn.fb.won.white", o.Score[0], o.Score[1])
	case toguz.BlackWins:
		v.say("learn.fb.won.black", o.Score[0], o.Score[1])
	default:
		v.say("learn.fb.drawn", o.Score[0], o.Score[1])
	}
}

// afterLine plays the exercise's line from p, to the position it asks
// about.
func (x Exercise) afterLine(p toguz.Position) (toguz.Position, error) {
	for i, m := range x.Line {
		var err error
		if p, err = p.Play(m); err != nil {
			return p, fmt.Errorf("lessons: exercise %s: line move %d: %w", x.ID, i+1, err)
		}
	}
	return p, nil
}

// Options returns the answers a choice exercise offers.
func (x Exercise) Options() []string {
	switch x.Goal {
	case AskWinner:
		return []string{"white", "black", "draw"}
	case AskEffect:
		return []string{"capture", "tuzdik", "nothing"}
	}
	return nil
}

func (x Exercise) judgeChoice(p toguz.Position, answer string, v Verdict) (Verdict, error) {
	switch x.Goal {
	case AskWinner:
		end, err := x.afterLine(p)
		if err != nil {
			return v, err
		}
		o := end.Outcome()
		if o.Termination == toguz.Unterminated {
			return v, fmt.Errorf("lessons: exercise %s: the line does not end the game", x.ID)
		}
		want := "draw"
		switch o.Result {
		case toguz.WhiteWins:
			want = "white"
		case toguz.BlackWins:
			want = "black"
		}
		v.Right = answer == want
		v.score(end, o)
	case AskEffect:
		m := toguz.Move(x.Hole)
		if err := p.CheckMove(m); err != nil {
			return v, fmt.Errorf("lessons: exercise %s: %w", x.ID, err)
		}
		e, _ := v.describe(p, m)
		v.Right = answer == e.Answer()
	default:
		return v, fmt.Errorf("lessons: exercise %s: goal %d is not a choice", x.ID, x.Goal)
	}
	if !v.Right && !isOption(x.Options(), answer) {
		v.Lines = []Line{{Key: "learn.fb.choose"}}
	}
	return v, nil
}

func isOption(opts []string, a string) bool {
	for _, o := range opts {
		if o == a {
			return true
		}
	}
	return false
}

// maxAnswer bounds a written answer: a ply or a score is a few bytes.
const maxAnswer = 16

func (x Exercise) judgeText(p toguz.Position, answer string, v Verdict) (Verdict, error) {
	if len(answer) > maxAnswer {
		answer = answer[:maxAnswer]
	}
	switch x.Goal {
	case AskNotation:
		m := toguz.Move(x.Hole)
		if err := p.CheckMove(m); err != nil {
			return v, fmt.Errorf("lessons: exercise %s: %w", x.ID, err)
		}
		want, _ := p.Ply(m)
		got, err := toguz.ParsePly(answer)
		switch {
		case err != nil || got.Land == 0:
			v.say("learn.fb.ply_bad")
		case got == want:
			v.Right = true
			v.say("learn.fb.written", want.String())
		case got.Move != want.Move:
			v.say("learn.fb.ply_from", int(want.Move))
		case got.Land != want.Land:
			v.say("learn.fb.ply_land")
		case want.Tuzdik:
			v.say("learn.fb.ply_x_missing")
		default:
			v.say("learn.fb.ply_x_extra")
		}
	case AskScore:
		end, err := x.afterLine(p)
		if err != nil {
			return v, err
		}
		o := end.Outcome()
		w, b, ok := parseScore(answer)
		switch {
		case !ok:
			v.say("learn.fb.score_bad")
		case w == o.Score[0] && b == o.Score[1]:
			v.Right = true
			v.score(end, o)
		case w == o.Score[1] && b == o.Score[0]:
			v.say("learn.fb.score_order")
		default:
			v.say("learn.fb.score_wrong")
		}
	default:
		return v, fmt.Errorf("lessons: exercise %s: goal %d is not a written answer", x.ID, x.Goal)
	}
	return v, nil
}

// parseScore reads "76-86", "76–86", "76:86" or "76 86": White's count,
// then Black's.
func parseScore(s string) (w, b int, ok bool) {
	f := strings.FieldsFunc(s, func(r rune) bool {
		return r == '-' || r == '–' || r == '—' || r == ':' || r == ' '
	})
	if len(f) != 2 {
		return 0, 0, false
	}
	w, err1 := strconv.Atoi(f[0])
	b, err2 := strconv.Atoi(f[1])
	return w, b, err1 == nil && err2 == nil
}
