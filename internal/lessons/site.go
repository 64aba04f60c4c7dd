package lessons

import (
	"context"
	"net/http"
	"slices"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/site"
)

// Progress keeps the exercises of /learn an account has solved
// (internal/store); a guest's progress stays in his browser, with the answers,
// which learn.js sends again once he has an account, to be judged and stored.
type Progress interface {
	MarkExercise(ctx context.Context, userID int64, exercise string) error
	Exercises(ctx context.Context, userID int64) ([]string, error)
}

// ErrorKeys are the messages of the lessons' errors, for the catalog's
// completeness test.
func ErrorKeys() []string { return []string{"learn.err.no_lesson", "learn.err.no_exercise"} }

// Site is the lessons on the site: /learn, /learn/{lesson}, the judge
// POST /api/learn/{lesson}/{exercise} and GET /api/learn/progress.
type Site struct {
	kit      site.Kit
	progress Progress // nil: no account's progress is kept
}

// NewSite returns the lessons' pages and API; progress keeps the
// accounts' solved exercises (nil: none is kept).
func NewSite(kit site.Kit, progress Progress) *Site {
	return &Site{kit: kit, progress: progress}
}

// Routes registers the lessons' routes on r.
func (s *Site) Routes(r site.Router) {
	r.API("POST /api/learn/{lesson}/{exercise}", s.apiCheck)
	r.API("GET /api/learn/progress", s.apiProgress)
	r.Page("GET /learn", s.pageLearn)
	r.Page("GET /learn/{lesson}", s.pageLesson)
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

// solved returns the exercises the account of r has solved; nil for a
// guest, whose browser keeps his.
func (s *Site) solved(r *http.Request, id site.Identity) ([]string, error) {
	if id.Account.ID == 0 || s.progress == nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	done, err := s.progress.Exercises(ctx, id.Account.ID)
	if done == nil && err == nil {
		done = []string{}
	}
	return done, err
}

func (s *Site) pageLearn(w http.ResponseWriter, r *http.Request) error {
	id := s.kit.Identity(r)
	done, err := s.solved(r, id)
	if err != nil {
		return err
	}
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	d := learnIndex{Done: done, Account: id.Account.ID != 0, Total: Count(),
		CountFormat: cat.T(lang, "learn.count"), ProgressFormat: cat.T(lang, "learn.progress")}
	for _, l := range All() {
		row := learnRow{ID: l.ID, Title: cat.T(lang, l.TitleKey()), Summary: cat.T(lang, l.SummaryKey()), Club: l.Club}
		for _, x := range l.Exercises {
			pid := ProgressID(l, x)
			row.Exercises = append(row.Exercises, pid)
			if slices.Contains(done, pid) {
				row.Done++
			}
		}
		d.DoneN += row.Done
		d.Lessons = append(d.Lessons, row)
	}
	d.Progress = cat.T(lang, "learn.progress", d.DoneN, d.Total)
	return s.kit.Render(w, http.StatusOK, "learn", s.kit.Page(r, "learn.title", d))
}

// ---- /learn/{lesson} ----

type learnStep struct {
	Text          string
	Board, After  *Board
	Diagram       string
	DemoAfterText string
}

type learnOption struct{ Value, Label string }

type learnExercise struct {
	ID, PID  string // the exercise's id in its lesson and in the progress
	N        int
	Question string
	Seed     string
	Kind     Kind
	Board    *Board
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

func (s *Site) pageLesson(w http.ResponseWriter, r *http.Request) error {
	l, ok := Find(r.PathValue("lesson"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "learn.err.no_lesson", site.Excerpt(r.PathValue("lesson")))
	}
	id := s.kit.Identity(r)
	done, err := s.solved(r, id)
	if err != nil {
		return err
	}
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	d := lessonData{ID: l.ID, Title: cat.T(lang, l.TitleKey()), Done: done, Account: id.Account.ID != 0}
	for i, st := range l.Steps {
		step, err := drawStep(cat, lang, st)
		if err != nil {
			return err
		}
		step.Text = cat.T(lang, l.StepKey(i))
		d.Steps = append(d.Steps, step)
	}
	for i, x := range l.Exercises {
		ex, err := drawExercise(cat, lang, l, x, done)
		if err != nil {
			return err
		}
		ex.N = i + 1
		d.Exercises = append(d.Exercises, ex)
	}
	all := All()
	for i := range all {
		if all[i].ID == l.ID && i+1 < len(all) {
			n := all[i+1]
			d.Next = &learnRow{ID: n.ID, Title: cat.T(lang, "learn.next", cat.T(lang, n.TitleKey()))}
		}
	}
	return s.kit.Render(w, http.StatusOK, "lesson", s.kit.Page(r, "learn.title", d))
}

// drawStep returns a step's board, its diagram and its demonstration's
// board after the move, in lang (its text is the caller's).
func drawStep(cat *i18n.Catalog, lang string, st Step) (learnStep, error) {
	var step learnStep
	if st.FEN == "" {
		return step, nil
	}
	p, err := lessonPosition(st.FEN)
	if err != nil {
		return step, err
	}
	step.Board = DrawBoard(cat, lang, p, st.Names, false, nil, nil)
	if st.Diagram {
		step.Diagram = diagram(cat, lang, p)
	}
	if st.Demo != 0 {
		next, err := p.Play(st.Demo)
		if err != nil {
			return step, err
		}
		side, land := p.Landing(st.Demo)
		from, to := [2]int{int(p.Turn()), int(st.Demo)}, [2]int{int(side), land}
		step.After = DrawBoard(cat, lang, next, st.Names, false, &from, &to)
		n, _ := p.Notation(st.Demo)
		step.DemoAfterText = cat.T(lang, "learn.demo.after") + ": " + n
	}
	return step, nil
}

// drawExercise returns exercise x of l as the page asks it in lang (its
// number is the caller's), done when the learner solved it.
func drawExercise(cat *i18n.Catalog, lang string, l Lesson, x Exercise, done []string) (learnExercise, error) {
	p, err := lessonPosition(x.FEN)
	if err != nil {
		return learnExercise{}, err
	}
	pid := ProgressID(l, x)
	ex := learnExercise{ID: x.ID, PID: pid, Question: cat.T(lang, x.Key(l)), Kind: x.Goal.Kind(),
		Done: slices.Contains(done, pid)}
	if k := x.SeedKey(); k != "" {
		ex.Seed = cat.T(lang, k)
	}
	if x.Diagram {
		ex.Diagram = diagram(cat, lang, p)
	} else {
		ex.Board = DrawBoard(cat, lang, p, false, ex.Kind == KindBoard, nil, nil)
	}
	for _, o := range x.Options() {
		ex.Options = append(ex.Options, learnOption{o, cat.T(lang, "learn.option."+o)})
	}
	return ex, nil
}

// ---- the judge ----

// Answer is what POST /api/learn/{lesson}/{exercise} reads.
type Answer struct {
	Answer string `json:"answer"`
}

// Reply is the judge's verdict as POST /api/learn/{lesson}/{exercise}
// answers it, in the learner's language.
type Reply struct {
	Exercise string   `json:"exercise"`
	Right    bool     `json:"right"`
	Headline string   `json:"headline"`
	Feedback []string `json:"feedback"`
	// Saved: the exercise is recorded in the account's progress (a guest's
	// browser records its own).
	Saved bool `json:"saved"`
}

// apiCheck is POST /api/learn/{lesson}/{exercise}: the rules library
// judges the answer (Exercise.Judge), the verdict comes back in the
// learner's language, and a right answer of an account is recorded.
func (s *Site) apiCheck(w http.ResponseWriter, r *http.Request) error {
	l, ok := Find(r.PathValue("lesson"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "learn.err.no_lesson", site.Excerpt(r.PathValue("lesson")))
	}
	x, ok := l.Exercise(r.PathValue("exercise"))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "learn.err.no_exercise", site.Excerpt(r.PathValue("exercise")))
	}
	var req Answer
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	v, err := x.Judge(req.Answer)
	if err != nil {
		return err
	}
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	out := Reply{Exercise: ProgressID(l, x), Right: v.Right, Headline: cat.T(lang, "learn.wrong"), Feedback: []string{}}
	if v.Right {
		out.Headline = cat.T(lang, "learn.right")
	}
	for _, ln := range v.Lines {
		out.Feedback = append(out.Feedback, cat.T(lang, ln.Key, ln.Args...))
	}
	if id := s.kit.Identity(r); v.Right && id.Account.ID != 0 && s.progress != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		if err := s.progress.MarkExercise(ctx, id.Account.ID, out.Exercise); err != nil {
			return err
		}
		out.Saved = true
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

// apiProgress is GET /api/learn/progress: the exercises the account has
// solved (an empty list for a guest or nobody, whose browser keeps them).
func (s *Site) apiProgress(w http.ResponseWriter, r *http.Request) error {
	done, err := s.solved(r, s.kit.Identity(r))
	if err != nil {
		return err
	}
	if done == nil {
		done = []string{}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"done": done, "total": Count()})
}
