package server

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/lessons"
	"github.com/toguz/toguz/internal/site"
)

// Progress keeps the exercises of /learn an account has solved
// (internal/store); a guest's progress stays in his browser, with the answers,
// which learn.js sends again once he has an account, to be judged and stored.
type Progress interface {
	MarkExercise(ctx context.Context, userID int64, exercise string) error
	Exercises(ctx context.Context, userID int64) ([]string, error)
}

// learnErrorKeys are the messages of the lessons' errors (errorKeys).
var learnErrorKeys = []string{"learn.err.no_lesson", "learn.err.no_exercise"}

// ---- the boards of the lessons ----

// learnCell is one hole of a lesson's board.
type learnCell struct {
	Side     string // white or black
	Hole     int
	Stones   int
	Dots     []struct{} // the stones drawn, at most maxDots
	More     int        // the stones not drawn
	Tuzdik   bool
	Label    string // what a screen reader says of it
	Name     string // the hole's traditional name, when the board shows them
	Playable bool   // a hole of the side to move, in an exercise: a button
	Mark     string // from or to: the demo's emptied and landing holes
}

// learnBoard is a lesson's board, drawn by the server as the seeds'
// diagrams lay it out: Black's row on top from hole 9 down to 1, White's
// below from 1 up (docs/rules.md §5).
type learnBoard struct {
	Top, Bottom   []learnCell
	KazanW        int
	KazanB        int
	KazanLabelW   string
	KazanLabelB   string
	ToMove        string
	RowTop, RowBt string // the rows' labels
}

// maxDots is the most stones a hole draws; its count is written anyway.
const maxDots = 24

func (s *Server) learnBoard(lang string, p toguz.Position, names, playable bool, from, to *[2]int) *learnBoard {
	holes := i18n.Holes(lang)
	side := func(pl toguz.Player) string { return s.cat.T(lang, "game."+pl.String()) }
	cell := func(pl toguz.Player, h int) learnCell {
		c := learnCell{Side: pl.String(), Hole: h, Stones: p.Stones(pl, h), Tuzdik: p.IsTuzdik(pl, h)}
		name := holes[h-1].Name // as the game's board says it
		if names {
			c.Name = name
		}
		if c.Tuzdik {
			c.Label = s.cat.T(lang, "game.tuzdiklabel", h, name, side(pl.Other()))
		} else {
			c.Label = s.cat.N(lang, "game.holelabel", c.Stones, h, name, c.Stones)
			c.Dots = make([]struct{}, min(c.Stones, maxDots))
			c.More = c.Stones - len(c.Dots)
		}
		c.Playable = playable && pl == p.Turn() && p.LegalMoves().Has(toguz.Move(h))
		if from != nil && from[0] == int(pl) && from[1] == h {
			c.Mark = "from"
		}
		if to != nil && to[0] == int(pl) && to[1] == h {
			c.Mark = "to"
		}
		return c
	}
	b := &learnBoard{KazanW: p.Kazan(toguz.White), KazanB: p.Kazan(toguz.Black),
		ToMove: s.cat.T(lang, "game.tomove", side(p.Turn())), RowTop: side(toguz.Black), RowBt: side(toguz.White)}
	b.KazanLabelW = s.cat.N(lang, "game.kazanlabel", b.KazanW, side(toguz.White), b.KazanW)
	b.KazanLabelB = s.cat.N(lang, "game.kazanlabel", b.KazanB, side(toguz.Black), b.KazanB)
	for h := p.Holes(); h >= 1; h-- {
		b.Top = append(b.Top, cell(toguz.Black, h))
	}
	for h := 1; h <= p.Holes(); h++ {
		b.Bottom = append(b.Bottom, cell(toguz.White, h))
	}
	return b
}

// diagram is the seeds' text diagram of p (Position.Diagram), its last
// line, the side to move, in the page's language.
func (s *Server) diagram(lang string, p toguz.Position) string {
	d := strings.TrimRight(p.Diagram(), "\n")
	if i := strings.LastIndexByte(d, '\n'); i >= 0 {
		d = d[:i+1]
	}
	return d + s.cat.T(lang, "game.tomove", s.cat.T(lang, "game."+p.Turn().String()))
}

func lessonPosition(fen string) (toguz.Position, error) {
	p, _, err := toguz.ParseFEN(fen, toguz.Standard())
	return p, err
}

// ---- /learn ----

type learnRow struct {
	ID, Title, Summary string
	Club               bool
	Exercises          []string // progress ids
	Done               int
}

type learnIndex struct {
	Lessons        []learnRow
	Done           []string // an account's solved exercises; nil for a guest
	Account        bool
	DoneN, Total   int
	Progress       string // "Exercises done: 3 of 24"
	CountFormat    string // learn.count, for the script
	ProgressFormat string
}

// progress returns the exercises the account of r has solved; nil for a
// guest, whose browser keeps his.
func (s *Server) progress(r *http.Request, id site.Identity) ([]string, error) {
	if id.Account.ID == 0 || s.cfg.Progress == nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	done, err := s.cfg.Progress.Exercises(ctx, id.Account.ID)
	if done == nil && err == nil {
		done = []string{}
	}
	return done, err
}

func (s *Server) pageLearn(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	done, err := s.progress(r, id)
	if err != nil {
		return err
	}
	lang := s.Lang(r)
	d := learnIndex{Done: done, Account: id.Account.ID != 0, Total: lessons.Count(),
		CountFormat: s.cat.T(lang, "learn.count"), ProgressFormat: s.cat.T(lang, "learn.progress")}
	for _, l := range lessons.All() {
		row := learnRow{ID: l.ID, Title: s.cat.T(lang, l.TitleKey()), Summary: s.cat.T(lang, l.SummaryKey()), Club: l.Club}
		for _, x := range l.Exercises {
			pid := lessons.ProgressID(l, x)
			row.Exercises = append(row.Exercises, pid)
			if slices.Contains(done, pid) {
				row.Done++
			}
		}
		d.DoneN += row.Done
		d.Lessons = append(d.Lessons, row)
	}
	d.Progress = s.cat.T(lang, "learn.progress", d.DoneN, d.Total)
	return s.Render(w, http.StatusOK, "learn", s.Page(r, "learn.title", d))
}

// ---- /learn/{lesson} ----

type learnStep struct {
	Text          string
	Board, After  *learnBoard
	Diagram       string
	DemoAfterText string
}

type learnOption struct{ Value, Label string }

type learnExercise struct {
	ID, PID  string // the exercise's id in its lesson and in the progress
	N        int
	Question string
	Seed     string
	Kind     lessons.Kind
	Board    *learnBoard
	Diagram  string
	Options  []learnOption
	Done     bool
}

type lessonData struct {
	ID, Title string
	Steps     []learnStep
	Exercises []learnExercise
	Next      *learnRow
	Done      []string // an account's solved exercises; nil for a guest
	Account   bool
}

func (s *Server) pageLesson(w http.ResponseWriter, r *http.Request) error {
	l, ok := lessons.Find(r.PathValue("lesson"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "learn.err.no_lesson", excerpt(r.PathValue("lesson")))
	}
	id := s.Identity(r)
	done, err := s.progress(r, id)
	if err != nil {
		return err
	}
	lang := s.Lang(r)
	d := lessonData{ID: l.ID, Title: s.cat.T(lang, l.TitleKey()), Done: done, Account: id.Account.ID != 0}
	for i, st := range l.Steps {
		step := learnStep{Text: s.cat.T(lang, l.StepKey(i))}
		if st.FEN != "" {
			p, err := lessonPosition(st.FEN)
			if err != nil {
				return err
			}
			step.Board = s.learnBoard(lang, p, st.Names, false, nil, nil)
			if st.Diagram {
				step.Diagram = s.diagram(lang, p)
			}
			if st.Demo != 0 {
				next, err := p.Play(st.Demo)
				if err != nil {
					return err
				}
				side, land := p.Landing(st.Demo)
				from, to := [2]int{int(p.Turn()), int(st.Demo)}, [2]int{int(side), land}
				step.After = s.learnBoard(lang, next, st.Names, false, &from, &to)
				n, _ := p.Notation(st.Demo)
				step.DemoAfterText = s.cat.T(lang, "learn.demo.after") + ": " + n
			}
		}
		d.Steps = append(d.Steps, step)
	}
	for i, x := range l.Exercises {
		p, err := lessonPosition(x.FEN)
		if err != nil {
			return err
		}
		pid := lessons.ProgressID(l, x)
		ex := learnExercise{ID: x.ID, PID: pid, N: i + 1, Question: s.cat.T(lang, x.Key(l)), Kind: x.Goal.Kind(),
			Done: slices.Contains(done, pid)}
		if k := x.SeedKey(); k != "" {
			ex.Seed = s.cat.T(lang, k)
		}
		if x.Diagram {
			ex.Diagram = s.diagram(lang, p)
		} else {
			ex.Board = s.learnBoard(lang, p, false, ex.Kind == lessons.KindBoard, nil, nil)
		}
		for _, o := range x.Options() {
			ex.Options = append(ex.Options, learnOption{o, s.cat.T(lang, "learn.option."+o)})
		}
		d.Exercises = append(d.Exercises, ex)
	}
	all := lessons.All()
	for i := range all {
		if all[i].ID == l.ID && i+1 < len(all) {
			n := all[i+1]
			d.Next = &learnRow{ID: n.ID, Title: s.cat.T(lang, "learn.next", s.cat.T(lang, n.TitleKey()))}
		}
	}
	return s.Render(w, http.StatusOK, "lesson", s.Page(r, "learn.title", d))
}

// ---- the judge ----

type learnAnswer struct {
	Answer string `json:"answer"`
}

type learnVerdict struct {
	Exercise string   `json:"exercise"`
	Right    bool     `json:"right"`
	Headline string   `json:"headline"`
	Feedback []string `json:"feedback"`
	// Saved: the exercise is recorded in the account's progress (a guest's
	// browser records its own).
	Saved bool `json:"saved"`
}

// apiLearnCheck is POST /api/learn/{lesson}/{exercise}: the rules library
// judges the answer (lessons.Exercise.Judge), the verdict comes back in
// the learner's language, and a right answer of an account is recorded.
func (s *Server) apiLearnCheck(w http.ResponseWriter, r *http.Request) error {
	l, ok := lessons.Find(r.PathValue("lesson"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "learn.err.no_lesson", excerpt(r.PathValue("lesson")))
	}
	x, ok := l.Exercise(r.PathValue("exercise"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "learn.err.no_exercise", excerpt(r.PathValue("exercise")))
	}
	var req learnAnswer
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	v, err := x.Judge(req.Answer)
	if err != nil {
		return err
	}
	lang := s.Lang(r)
	out := learnVerdict{Exercise: lessons.ProgressID(l, x), Right: v.Right, Headline: s.cat.T(lang, "learn.wrong"), Feedback: []string{}}
	if v.Right {
		out.Headline = s.cat.T(lang, "learn.right")
	}
	for _, ln := range v.Lines {
		out.Feedback = append(out.Feedback, s.cat.T(lang, ln.Key, ln.Args...))
	}
	if id := s.Identity(r); v.Right && id.Account.ID != 0 && s.cfg.Progress != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		if err := s.cfg.Progress.MarkExercise(ctx, id.Account.ID, out.Exercise); err != nil {
			return err
		}
		out.Saved = true
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

// apiLearnProgress is GET /api/learn/progress: the exercises the account
// has solved (an empty list for a guest or nobody, whose browser keeps
// them).
func (s *Server) apiLearnProgress(w http.ResponseWriter, r *http.Request) error {
	done, err := s.progress(r, s.Identity(r))
	if err != nil {
		return err
	}
	if done == nil {
		done = []string{}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"done": done, "total": lessons.Count()})
}
