package study

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/lessons"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// The site's side of studies and classes for coaches (/study, /study/{id},
// /classes, /class/{id}). A study's chapters are analysis boards whose
// trees the server keeps: the page edits them by ops over the study's
// websocket, the hub applies each to the stored tree and sends the
// chapter to every follower. The members' roles are read when a
// connection opens: a role changed later takes effect at the next one.

// Studies keeps the studies and classes (internal/store).
type Studies interface {
	Store
	CreateStudy(ctx context.Context, ownerID int64, name, visibility string, max int, chapterName, record string) (store.Study, error)
	GetStudy(ctx context.Context, id string) (store.Study, error)
	StudiesOf(ctx context.Context, userID int64, public bool, limit int) (mine, others []store.Study, err error)
	StudyRole(ctx context.Context, study string, userID int64) (string, error)
	SetStudyMember(ctx context.Context, study string, userID int64, role string, max int) error
	StudyMembers(ctx context.Context, study string) ([]store.Member, error)
	CreateClass(ctx context.Context, coachID int64, name string, max int) (store.Class, error)
	GetClass(ctx context.Context, id string) (store.Class, error)
	ClassesOf(ctx context.Context, userID int64) (coached, joined []store.Class, accepted []bool, err error)
	InviteStudent(ctx context.Context, class string, userID int64, max int) error
	AnswerClass(ctx context.Context, class string, userID int64, yes bool) error
	ClassStudents(ctx context.Context, class string) ([]store.Member, error)
	UserByName(ctx context.Context, name string) (store.User, error)
}

// Progress is an account's lessons done (internal/store).
type Progress interface {
	Exercises(ctx context.Context, userID int64) ([]string, error)
}

// PuzzleRatings is an account's puzzle rating with the puzzles he tried
// and solved (internal/store).
type PuzzleRatings interface {
	PuzzleRating(ctx context.Context, userID int64) (r rating.Rating, attempts, solved int, err error)
}

// Game is a student's game as his class's page lists it.
type Game struct {
	ID, White, Black, Result string
}

// Config is what the studies' pages are built from.
type Config struct {
	// Studies keeps the studies and classes; nil: the pages answer 404.
	Studies Studies
	// Progress, Puzzles and Games give a class's page its students'
	// lessons, puzzles and recent games (Games: newest first, a
	// live.ErrNotFound for an unknown name); each nil: none shown.
	Progress Progress
	Puzzles  PuzzleRatings
	Games    func(ctx context.Context, name string, limit int) ([]Game, error)
	// MessageRate and MessageBurst limit the messages of one websocket
	// connection (per second, and at once).
	MessageRate  float64
	MessageBurst int
	// Notify tells an account invited to a study or a class
	// (internal/notifications; nil: nobody is told).
	Notify notify.Sender
}

// tell sends n when the site has a Sender; a refused notice is the
// caller's bug, logged.
func (s *Site) tell(ctx context.Context, n notify.Notice) {
	if s.cfg.Notify == nil {
		return
	}
	if err := s.cfg.Notify.Send(ctx, n); err != nil {
		s.kit.Logger().Warn("study notice", "err", err)
	}
}

// Site is the studies' and classes' pages and the study's websocket.
type Site struct {
	kit site.Kit
	cfg Config
	hub *Hub // the studies being followed; nil without cfg.Studies
}

// NewSite returns the studies' side of the site kit.
func NewSite(kit site.Kit, cfg Config) *Site {
	s := &Site{kit: kit, cfg: cfg}
	if cfg.Studies != nil {
		s.hub = NewHub(cfg.Studies)
	}
	return s
}

// Routes registers the studies' and classes' routes on r.
func (s *Site) Routes(r site.Router) {
	r.Handle("GET /api/studies/{id}/ws", http.HandlerFunc(s.socket))
	r.Page("GET /study", s.pageStudies)
	r.Page("POST /study", s.pageCreateStudy)
	r.Page("GET /study/{id}", s.pageStudy)
	r.Page("POST /study/{id}/members", s.pageStudyMember)
	r.Page("GET /classes", s.pageClasses)
	r.Page("POST /classes", s.pageCreateClass)
	r.Page("GET /class/{id}", s.pageClass)
	r.Page("POST /class/{id}/invite", s.pageClassInvite)
	r.Page("POST /class/{id}/answer", s.pageClassAnswer)
}

// Bounds of classes.
const (
	maxClasses       = 20  // classes one coach keeps
	maxClassStudents = 100 // students (invited or accepted) of a class
	studiesListed    = 50  // studies of each kind /study lists
	classGames       = 5   // recent games /class/{id} shows per student
)

// ErrorKeys are the messages of studies' and classes' errors (for the
// catalog's completeness test).
func ErrorKeys() []string {
	return []string{"apierr.study_off", "apierr.no_study", "apierr.study_forbidden", "apierr.study_edit",
		"apierr.study_bad", "apierr.study_illegal", "apierr.study_no_move", "apierr.study_limit", "apierr.study_rate",
		"apierr.study_login", "apierr.no_class", "apierr.class_forbidden", "apierr.no_user", "apierr.study_name"}
}

func (s *Site) studies() (Studies, error) {
	if s.cfg.Studies == nil {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.study_off")
	}
	return s.cfg.Studies, nil
}

// access returns study id with the caller's role in it (owner,
// editor, viewer, or "" for a visitor), 404 when there is none and 403
// when the study is private and the caller no member.
func (s *Site) access(ctx context.Context, r *http.Request, id string) (store.Study, string, error) {
	st, err := s.studies()
	if err != nil {
		return store.Study{}, "", err
	}
	head, err := st.GetStudy(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return head, "", apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_study", site.Excerpt(id))
	}
	if err != nil {
		return head, "", err
	}
	role := ""
	if me := s.kit.Identity(r); me.Account.ID != 0 {
		if role, err = st.StudyRole(ctx, id, me.Account.ID); err != nil {
			return head, "", err
		}
	}
	if head.Visibility == "private" && role == "" {
		return head, "", apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.study_forbidden")
	}
	return head, role, nil
}

func canEdit(role string) bool { return role == "owner" || role == "editor" }

// studyError turns an op's error into the API's.
func studyError(err error) error {
	switch {
	case errors.Is(err, ErrTooMany) || errors.Is(err, store.ErrLimit):
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_limit").WithDetail(err)
	case errors.Is(err, ErrIllegal):
		return apierr.BadRequest(apierr.CodeIllegalMove, "apierr.study_illegal").WithDetail(err)
	case errors.Is(err, ErrNoNode) || errors.Is(err, ErrNoChapter):
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_no_move").WithDetail(err)
	case errors.Is(err, ErrBadOp):
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_bad").WithDetail(err)
	}
	return err
}

// studyRow is a study as /study lists it.
type studyRow struct {
	ID, Name, Owner, Visibility string
	Chapters                    int
}

type studyListData struct {
	site.FormChoices
	LoggedIn     bool
	Mine, Public []studyRow
	Max          int
	MaxName      int
	Visibilities []string
}

func rows(ss []store.Study) []studyRow {
	out := make([]studyRow, 0, len(ss))
	for _, x := range ss {
		out = append(out, studyRow{ID: x.ID, Name: x.Name, Owner: x.Owner, Visibility: x.Visibility, Chapters: x.Chapters})
	}
	return out
}

// pageStudies is GET /study: the caller's studies, the public ones, and
// the form of a new one.
func (s *Site) pageStudies(w http.ResponseWriter, r *http.Request) error {
	st, err := s.studies()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	me := s.kit.Identity(r)
	mine, public, err := st.StudiesOf(ctx, me.Account.ID, true, studiesListed)
	if err != nil {
		return err
	}
	d := studyListData{FormChoices: s.kit.Choices(s.kit.Lang(r), "", false), LoggedIn: me.Account.ID != 0, Mine: rows(mine), Public: rows(public),
		Max: MaxStudies, MaxName: MaxName, Visibilities: []string{"public", "unlisted", "private"}}
	return s.kit.Render(w, http.StatusOK, "studies", s.kit.Page(r, "study.title", d))
}

// pageCreateStudy is POST /study: a new study with its first chapter.
func (s *Site) pageCreateStudy(w http.ResponseWriter, r *http.Request) error {
	st, me, err := s.accountForm(r)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	vis := r.PostFormValue("visibility")
	if name == "" || len(name) > MaxName {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_name", MaxName)
	}
	if vis != "public" && vis != "unlisted" && vis != "private" {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_bad")
	}
	rules, err := site.ParseRuleset(r.PostFormValue("ruleset"))
	if err != nil {
		return err
	}
	c, err := NewChapter(name, rules, strings.TrimSpace(r.PostFormValue("fen")))
	if err != nil {
		return studyError(err)
	}
	rec, err := c.Record()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	head, err := st.CreateStudy(ctx, me.Account.ID, name, vis, MaxStudies, name, rec)
	if err != nil {
		return studyError(err)
	}
	http.Redirect(w, r, "/study/"+head.ID, http.StatusSeeOther)
	return nil
}

type studyPageData struct {
	site.FormChoices
	ID, Name, Owner, Visibility string
	Role                        string
	CanEdit, IsOwner            bool
	Members                     []store.Member
	Texts                       map[string]string
	MaxName, MaxComment         int
}

// studyTexts are the study page's texts for study.js.
var studyTexts = []string{"study.start", "study.connecting", "study.connected", "study.disconnected",
	"study.edited", "study.mode.play", "study.mode.hole", "study.mode.arrow", "study.arrow.from",
	"study.chapter.moves"}

// pageStudy is GET /study/{id}.
func (s *Site) pageStudy(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	head, role, err := s.access(ctx, r, r.PathValue("id"))
	if err != nil {
		return err
	}
	members, err := s.cfg.Studies.StudyMembers(ctx, head.ID)
	if err != nil {
		return err
	}
	lang := s.kit.Lang(r)
	d := studyPageData{FormChoices: s.kit.Choices(lang, "", false), ID: head.ID, Name: head.Name, Owner: head.Owner, Visibility: head.Visibility,
		Role: role, CanEdit: canEdit(role), IsOwner: role == "owner", Members: members, Texts: map[string]string{},
		MaxName: MaxName, MaxComment: MaxComment}
	for _, k := range studyTexts {
		d.Texts[k] = s.kit.Catalog().T(lang, k)
	}
	return s.kit.Render(w, http.StatusOK, "study", s.kit.Page(r, "study.title.one", d, head.Name))
}

// pageStudyMember is POST /study/{id}/members: the owner gives an account
// a role (editor, viewer) or removes it (role "").
func (s *Site) pageStudyMember(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	head, role, err := s.access(ctx, r, r.PathValue("id"))
	if err != nil {
		return err
	}
	if role != "owner" {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.study_edit")
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	newRole := r.PostFormValue("role")
	if newRole != "" && newRole != "editor" && newRole != "viewer" {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_bad")
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	u, err := s.cfg.Studies.UserByName(ctx, name)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_user", site.Excerpt(name))
		}
		return err
	}
	if u.ID == head.OwnerID {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_bad")
	}
	if err := s.cfg.Studies.SetStudyMember(ctx, head.ID, u.ID, newRole, MaxMembers); err != nil {
		return studyError(err)
	}
	if newRole != "" {
		me := s.kit.Identity(r).Account
		s.tell(ctx, notify.Notice{To: u.ID, Actor: me.ID, Kind: notify.Invitation, Key: "notify.invite_study", Args: []any{me.Name, head.Name}, URL: "/study/" + head.ID})
	}
	http.Redirect(w, r, "/study/"+head.ID, http.StatusSeeOther)
	return nil
}

// clientMsg is a message the study's websocket reads: an op, a goto
// (an editor's board moved) or a ping.
type clientMsg struct {
	Type string `json:"type"`
	At   At     `json:"at"`
	Op
}

// socket is GET /api/studies/{id}/ws: the study as it is, then every
// edit and the editors' position; editors send ops and gotos.
func (s *Site) socket(w http.ResponseWriter, r *http.Request) {
	if err := s.kit.CheckGuest(r); err != nil {
		s.kit.WriteError(w, r, err)
		return
	}
	ctx0, cancel0 := context.WithTimeout(r.Context(), site.StoreTimeout)
	head, role, err := s.access(ctx0, r, r.PathValue("id"))
	cancel0()
	if err != nil {
		s.kit.WriteError(w, r, err)
		return
	}
	c, err := site.AcceptWS(w, r)
	if err != nil {
		return
	}
	f := &follower{s: s, r: r, c: c, study: head.ID, role: role, by: s.kit.Identity(r).Name(), lang: s.kit.Lang(r),
		replies: make(chan []byte, 8)}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	jctx, jcancel := context.WithTimeout(ctx, site.StoreTimeout)
	sub, err := s.hub.Join(jctx, head.ID)
	jcancel()
	if err != nil {
		site.WriteWS(ctx, c, f.errorMsg(studyError(err)))
		c.Close(websocket.StatusTryAgainLater, site.CloseResync)
		return
	}
	defer s.hub.Leave(head.ID, sub)
	go f.write(ctx, cancel, sub)
	defer site.KeepAlive(ctx, c)()
	f.read(ctx)
}

// follower is one connection to a study: the handler reads its
// messages, one writer sends the study's and the answers.
type follower struct {
	s              *Site
	r              *http.Request // the upgrade, whose language the errors speak
	c              *websocket.Conn
	study          string
	role, by, lang string
	replies        chan []byte // the answers to this client, for the writer
}

// write is the one writer: the study's messages and this client's
// answers, in order, until ctx ends or the hub drops sub.
func (f *follower) write(ctx context.Context, cancel context.CancelFunc, sub *Sub) {
	defer cancel()
	wr := site.NewWriter(f.c)
	defer wr.Stop()
	for {
		var b []byte
		select {
		case m, ok := <-sub.Out():
			if !ok {
				if f.s.hub.Dropped(f.study, sub) {
					f.c.Close(websocket.StatusTryAgainLater, site.CloseSlowGame)
				}
				return
			}
			b = m
		case b = <-f.replies:
		case <-ctx.Done():
			return
		}
		if err := wr.Write(b); err != nil {
			return
		}
	}
}

func (f *follower) errorMsg(err error) []byte {
	return site.WSError(f.s.kit.Catalog(), f.lang, f.s.kit.AsError(f.r, err))
}

// answer queues b for the writer; a client that does not read its
// answers loses them.
func (f *follower) answer(b []byte) {
	select {
	case f.replies <- b:
	default:
	}
}

// read reads the client's messages until the connection ends, or closes
// it when they come too fast.
func (f *follower) read(ctx context.Context) {
	lim := rate.NewLimiter(rate.Limit(f.s.cfg.MessageRate), f.s.cfg.MessageBurst)
	edits := rate.NewLimiter(MaxOpsPerSec, MaxOpsBurst)
	for {
		_, data, err := f.c.Read(ctx)
		if err != nil {
			return
		}
		if !lim.Allow() {
			f.c.Close(websocket.StatusPolicyViolation, site.CloseTooMany)
			return
		}
		if err := f.handle(ctx, data, edits); err != nil {
			f.answer(f.errorMsg(err))
		}
	}
}

// handle applies one message of the client; an error is his answer.
func (f *follower) handle(ctx context.Context, data []byte, edits *rate.Limiter) error {
	var m clientMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return apierr.BadRequest(apierr.CodeBadMessage, "apierr.ws_not_json").WithDetail(err)
	}
	switch m.Type {
	case "ping":
		f.answer([]byte(site.Pong))
		return nil
	case "op", "goto":
	default:
		return apierr.BadRequest(apierr.CodeBadMessage, "apierr.study_bad")
	}
	if !canEdit(f.role) {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.study_edit")
	}
	if !edits.Allow() {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.study_rate", MaxOpsPerSec)
	}
	if m.Type == "goto" {
		return studyError(f.s.hub.Goto(f.study, f.by, m.At))
	}
	octx, ocancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer ocancel()
	return studyError(f.s.hub.Edit(octx, f.study, f.by, m.Op))
}

// ---- classes ----

type classRow struct {
	ID, Name, Coach string
	Accepted        bool
}

type classesData struct {
	LoggedIn bool
	Coached  []classRow
	Joined   []classRow
	MaxName  int
}

// pageClasses is GET /classes: the classes the caller coaches, and those
// he was invited to (to accept) or is in.
func (s *Site) pageClasses(w http.ResponseWriter, r *http.Request) error {
	st, err := s.studies()
	if err != nil {
		return err
	}
	me := s.kit.Identity(r)
	d := classesData{LoggedIn: me.Account.ID != 0, MaxName: MaxName}
	if d.LoggedIn {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		coached, joined, accepted, err := st.ClassesOf(ctx, me.Account.ID)
		if err != nil {
			return err
		}
		for _, c := range coached {
			d.Coached = append(d.Coached, classRow{ID: c.ID, Name: c.Name, Coach: c.Coach})
		}
		for i, c := range joined {
			d.Joined = append(d.Joined, classRow{ID: c.ID, Name: c.Name, Coach: c.Coach, Accepted: accepted[i]})
		}
	}
	return s.kit.Render(w, http.StatusOK, "classes", s.kit.Page(r, "class.title", d))
}

// pageCreateClass is POST /classes.
func (s *Site) pageCreateClass(w http.ResponseWriter, r *http.Request) error {
	st, me, err := s.accountForm(r)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if name == "" || len(name) > MaxName {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_name", MaxName)
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	c, err := st.CreateClass(ctx, me.Account.ID, name, maxClasses)
	if err != nil {
		return studyError(err)
	}
	http.Redirect(w, r, "/class/"+c.ID, http.StatusSeeOther)
	return nil
}

// classStudent is a student of /class/{id}: his lessons done, his recent
// games.
type classStudent struct {
	Name        string
	Accepted    bool
	Done, Total int
	// Puzzles: the student's puzzle rating (rounded), the puzzles tried and
	// solved; Tried 0 when none (or no puzzle store).
	PuzzleRating  int
	Tried, Solved int
	Games         []Game
}

type classData struct {
	ID, Name, Coach string
	Students        []classStudent
	Max             int
}

// classAccess returns class id for its coach (403 for anyone else).
func (s *Site) classAccess(ctx context.Context, r *http.Request, id string) (store.Class, error) {
	st, err := s.studies()
	if err != nil {
		return store.Class{}, err
	}
	c, err := st.GetClass(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return c, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_class", site.Excerpt(id))
	}
	if err != nil {
		return c, err
	}
	if me := s.kit.Identity(r); me.Account.ID == 0 || me.Account.ID != c.CoachID {
		return c, apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.class_forbidden")
	}
	return c, nil
}

// pageClass is GET /class/{id}: the coach's view of his students, their
// progress in the lessons and their recent games (the students who have
// not accepted show only their names).
func (s *Site) pageClass(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*site.StoreTimeout)
	defer cancel()
	c, err := s.classAccess(ctx, r, r.PathValue("id"))
	if err != nil {
		return err
	}
	members, err := s.cfg.Studies.ClassStudents(ctx, c.ID)
	if err != nil {
		return err
	}
	d := classData{ID: c.ID, Name: c.Name, Coach: c.Coach, Max: maxClassStudents}
	total := lessons.Count()
	for _, m := range members {
		cs := classStudent{Name: m.Name, Accepted: m.Accepted, Total: total}
		if m.Accepted {
			if s.cfg.Progress != nil {
				done, err := s.cfg.Progress.Exercises(ctx, m.UserID)
				if err != nil {
					return err
				}
				cs.Done = len(done)
			}
			if s.cfg.Puzzles != nil {
				r, tried, solved, err := s.cfg.Puzzles.PuzzleRating(ctx, m.UserID)
				if err != nil {
					return err
				}
				cs.PuzzleRating, cs.Tried, cs.Solved = int(math.Round(r.Rating)), tried, solved
			}
			if s.cfg.Games != nil {
				if cs.Games, err = s.cfg.Games(ctx, m.Name, classGames); err != nil && !errors.Is(err, live.ErrNotFound) {
					return err
				}
			}
		}
		d.Students = append(d.Students, cs)
	}
	return s.kit.Render(w, http.StatusOK, "class", s.kit.Page(r, "class.title.one", d, c.Name))
}

// pageClassInvite is POST /class/{id}/invite: the coach invites an account.
func (s *Site) pageClassInvite(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	c, err := s.classAccess(ctx, r, r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	u, err := s.cfg.Studies.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_user", site.Excerpt(name))
	}
	if err != nil {
		return err
	}
	if err := s.cfg.Studies.InviteStudent(ctx, c.ID, u.ID, maxClassStudents); err != nil {
		return studyError(err)
	}
	me := s.kit.Identity(r).Account
	s.tell(ctx, notify.Notice{To: u.ID, Actor: me.ID, Kind: notify.Invitation, Key: "notify.invite_class", Args: []any{me.Name, c.Name}, URL: "/classes"})
	http.Redirect(w, r, "/class/"+c.ID, http.StatusSeeOther)
	return nil
}

// pageClassAnswer is POST /class/{id}/answer: the invited student accepts
// (answer=yes) or leaves.
func (s *Site) pageClassAnswer(w http.ResponseWriter, r *http.Request) error {
	st, me, err := s.accountForm(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	if err := st.AnswerClass(ctx, r.PathValue("id"), me.Account.ID, r.PostFormValue("answer") == "yes"); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_class", site.Excerpt(r.PathValue("id")))
		}
		return err
	}
	http.Redirect(w, r, "/classes", http.StatusSeeOther)
	return nil
}

// accountForm is the start of a form an account posts (a study, a class,
// an answer): the store, who posts it (401 for a guest or nobody), and the
// form read.
func (s *Site) accountForm(r *http.Request) (Studies, site.Identity, error) {
	st, err := s.studies()
	if err != nil {
		return nil, site.Identity{}, err
	}
	me := s.kit.Identity(r)
	if me.Account.ID == 0 {
		return nil, me, apierr.New(http.StatusUnauthorized, apierr.CodeForbidden, "apierr.study_login")
	}
	if err := r.ParseForm(); err != nil {
		return nil, me, apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	return st, me, nil
}
