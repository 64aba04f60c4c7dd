package server

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
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/study"
)

// Studies and classes for coaches (/study, /study/{id}, /classes,
// /class/{id}). A study's chapters are analysis boards whose trees the
// server keeps (internal/study): the page edits them by ops over the
// study's websocket, the hub applies each to the stored tree and sends
// the chapter to every follower. The members' roles are read when a
// connection opens: a role changed later takes effect at the next one.

// Studies keeps the studies and classes (internal/store).
type Studies interface {
	study.Store
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

// Bounds of classes.
const (
	maxClasses       = 20  // classes one coach keeps
	maxClassStudents = 100 // students (invited or accepted) of a class
	studiesListed    = 50  // studies of each kind /study lists
	classGames       = 5   // recent games /class/{id} shows per student
)

// studyErrorKeys are the messages of studies' and classes' errors.
var studyErrorKeys = []string{"apierr.study_off", "apierr.no_study", "apierr.study_forbidden", "apierr.study_edit",
	"apierr.study_bad", "apierr.study_illegal", "apierr.study_no_move", "apierr.study_limit", "apierr.study_rate",
	"apierr.study_login", "apierr.no_class", "apierr.class_forbidden", "apierr.no_user", "apierr.study_name"}

func (s *Server) studies() (Studies, error) {
	if s.cfg.Studies == nil {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.study_off")
	}
	return s.cfg.Studies, nil
}

// studyAccess returns study id with the caller's role in it (owner,
// editor, viewer, or "" for a visitor), 404 when there is none and 403
// when the study is private and the caller no member.
func (s *Server) studyAccess(ctx context.Context, r *http.Request, id string) (store.Study, string, error) {
	st, err := s.studies()
	if err != nil {
		return store.Study{}, "", err
	}
	head, err := st.GetStudy(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return head, "", apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_study", excerpt(id))
	}
	if err != nil {
		return head, "", err
	}
	role := ""
	if me := s.Identity(r); me.Account.ID != 0 {
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
	case errors.Is(err, study.ErrTooMany) || errors.Is(err, store.ErrLimit):
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_limit").WithDetail(err)
	case errors.Is(err, study.ErrIllegal):
		return apierr.BadRequest(apierr.CodeIllegalMove, "apierr.study_illegal").WithDetail(err)
	case errors.Is(err, study.ErrNoNode) || errors.Is(err, study.ErrNoChapter):
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_no_move").WithDetail(err)
	case errors.Is(err, study.ErrBadOp):
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
func (s *Server) pageStudies(w http.ResponseWriter, r *http.Request) error {
	st, err := s.studies()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	me := s.Identity(r)
	mine, public, err := st.StudiesOf(ctx, me.Account.ID, true, studiesListed)
	if err != nil {
		return err
	}
	d := studyListData{FormChoices: s.Choices(s.Lang(r), "", false), LoggedIn: me.Account.ID != 0, Mine: rows(mine), Public: rows(public),
		Max: study.MaxStudies, MaxName: study.MaxName, Visibilities: []string{"public", "unlisted", "private"}}
	return s.Render(w, http.StatusOK, "studies", s.Page(r, "study.title", d))
}

// pageCreateStudy is POST /study: a new study with its first chapter.
func (s *Server) pageCreateStudy(w http.ResponseWriter, r *http.Request) error {
	st, err := s.studies()
	if err != nil {
		return err
	}
	me := s.Identity(r)
	if me.Account.ID == 0 {
		return apierr.New(http.StatusUnauthorized, apierr.CodeForbidden, "apierr.study_login")
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	vis := r.PostFormValue("visibility")
	if name == "" || len(name) > study.MaxName {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_name", study.MaxName)
	}
	if vis != "public" && vis != "unlisted" && vis != "private" {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_bad")
	}
	rules, err := parseRuleset(r.PostFormValue("ruleset"))
	if err != nil {
		return err
	}
	c, err := study.NewChapter(name, rules, strings.TrimSpace(r.PostFormValue("fen")))
	if err != nil {
		return studyError(err)
	}
	rec, err := c.Record()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	head, err := st.CreateStudy(ctx, me.Account.ID, name, vis, study.MaxStudies, name, rec)
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
func (s *Server) pageStudy(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	head, role, err := s.studyAccess(ctx, r, r.PathValue("id"))
	if err != nil {
		return err
	}
	members, err := s.cfg.Studies.StudyMembers(ctx, head.ID)
	if err != nil {
		return err
	}
	lang := s.Lang(r)
	d := studyPageData{FormChoices: s.Choices(lang, "", false), ID: head.ID, Name: head.Name, Owner: head.Owner, Visibility: head.Visibility,
		Role: role, CanEdit: canEdit(role), IsOwner: role == "owner", Members: members, Texts: map[string]string{},
		MaxName: study.MaxName, MaxComment: study.MaxComment}
	for _, k := range studyTexts {
		d.Texts[k] = s.cat.T(lang, k)
	}
	return s.Render(w, http.StatusOK, "study", s.Page(r, "study.title.one", d, head.Name))
}

// pageStudyMember is POST /study/{id}/members: the owner gives an account
// a role (editor, viewer) or removes it (role "").
func (s *Server) pageStudyMember(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	head, role, err := s.studyAccess(ctx, r, r.PathValue("id"))
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
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_user", excerpt(name))
		}
		return err
	}
	if u.ID == head.OwnerID {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_bad")
	}
	if err := s.cfg.Studies.SetStudyMember(ctx, head.ID, u.ID, newRole, study.MaxMembers); err != nil {
		return studyError(err)
	}
	http.Redirect(w, r, "/study/"+head.ID, http.StatusSeeOther)
	return nil
}

// studyClientMsg is a message the study's websocket reads: an op, a goto
// (an editor's board moved) or a ping.
type studyClientMsg struct {
	Type string   `json:"type"`
	At   study.At `json:"at"`
	study.Op
}

// studyWS is GET /api/studies/{id}/ws: the study as it is, then every
// edit and the editors' position; editors send ops and gotos.
func (s *Server) studyWS(w http.ResponseWriter, r *http.Request) {
	if err := s.forgedGuest(r); err != nil {
		s.writeJSONError(w, r, s.AsError(r, err))
		return
	}
	ctx0, cancel0 := context.WithTimeout(r.Context(), site.StoreTimeout)
	head, role, err := s.studyAccess(ctx0, r, r.PathValue("id"))
	cancel0()
	if err != nil {
		s.writeJSONError(w, r, s.AsError(r, err))
		return
	}
	lang, by := s.Lang(r), s.Identity(r).Name()
	c, err := site.AcceptWS(w, r)
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	jctx, jcancel := context.WithTimeout(ctx, site.StoreTimeout)
	sub, err := s.studyHub.Join(jctx, head.ID)
	jcancel()
	if err != nil {
		site.WriteWS(ctx, c, site.WSError(s.cat, lang, s.AsError(r, studyError(err))))
		c.Close(websocket.StatusTryAgainLater, site.CloseResync)
		return
	}
	defer s.studyHub.Leave(head.ID, sub)
	replies := make(chan []byte, 8)
	go func() { // the one writer: the study's messages and this client's answers, in order
		defer cancel()
		for {
			var b []byte
			select {
			case m, ok := <-sub.Out():
				if !ok {
					if s.studyHub.Dropped(head.ID, sub) {
						c.Close(websocket.StatusTryAgainLater, site.CloseSlowGame)
					}
					return
				}
				b = m
			case b = <-replies:
			case <-ctx.Done():
				return
			}
			if err := site.WriteWS(ctx, c, b); err != nil {
				return
			}
		}
	}()
	defer site.KeepAlive(ctx, c)()
	reply := func(e error) {
		select {
		case replies <- site.WSError(s.cat, lang, s.AsError(r, e)):
		default:
		}
	}
	lim := rate.NewLimiter(rate.Limit(s.cfg.MessageRate), s.cfg.MessageBurst)
	edits := rate.NewLimiter(study.MaxOpsPerSec, study.MaxOpsBurst)
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if !lim.Allow() {
			c.Close(websocket.StatusPolicyViolation, site.CloseTooMany)
			return
		}
		var m studyClientMsg
		if err := json.Unmarshal(data, &m); err != nil {
			reply(wsBad("apierr.ws_not_json").WithDetail(err))
			continue
		}
		switch m.Type {
		case "ping":
			select {
			case replies <- []byte(site.Pong):
			default:
			}
			continue
		case "op", "goto":
		default:
			reply(apierr.BadRequest(apierr.CodeBadMessage, "apierr.study_bad"))
			continue
		}
		if !canEdit(role) {
			reply(apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.study_edit"))
			continue
		}
		if !edits.Allow() {
			reply(apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.study_rate", study.MaxOpsPerSec))
			continue
		}
		if m.Type == "goto" {
			if err := s.studyHub.Goto(head.ID, by, m.At); err != nil {
				reply(studyError(err))
			}
			continue
		}
		octx, ocancel := context.WithTimeout(ctx, site.StoreTimeout)
		err = s.studyHub.Edit(octx, head.ID, by, m.Op)
		ocancel()
		if err != nil {
			reply(studyError(err))
		}
	}
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
func (s *Server) pageClasses(w http.ResponseWriter, r *http.Request) error {
	st, err := s.studies()
	if err != nil {
		return err
	}
	me := s.Identity(r)
	d := classesData{LoggedIn: me.Account.ID != 0, MaxName: study.MaxName}
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
	return s.Render(w, http.StatusOK, "classes", s.Page(r, "class.title", d))
}

// pageCreateClass is POST /classes.
func (s *Server) pageCreateClass(w http.ResponseWriter, r *http.Request) error {
	st, err := s.studies()
	if err != nil {
		return err
	}
	me := s.Identity(r)
	if me.Account.ID == 0 {
		return apierr.New(http.StatusUnauthorized, apierr.CodeForbidden, "apierr.study_login")
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if name == "" || len(name) > study.MaxName {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.study_name", study.MaxName)
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
	Games         []GameSummary
}

type classData struct {
	ID, Name, Coach string
	Students        []classStudent
	Max             int
}

// classAccess returns class id for its coach (403 for anyone else).
func (s *Server) classAccess(ctx context.Context, r *http.Request, id string) (store.Class, error) {
	st, err := s.studies()
	if err != nil {
		return store.Class{}, err
	}
	c, err := st.GetClass(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return c, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_class", excerpt(id))
	}
	if err != nil {
		return c, err
	}
	if me := s.Identity(r); me.Account.ID == 0 || me.Account.ID != c.CoachID {
		return c, apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.class_forbidden")
	}
	return c, nil
}

// pageClass is GET /class/{id}: the coach's view of his students, their
// progress in the lessons and their recent games (the students who have
// not accepted show only their names).
func (s *Server) pageClass(w http.ResponseWriter, r *http.Request) error {
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
			if s.cfg.Archive != nil {
				if cs.Games, err = s.cfg.Archive.UserGames(ctx, m.Name, classGames); err != nil && !errors.Is(err, live.ErrNotFound) {
					return err
				}
			}
		}
		d.Students = append(d.Students, cs)
	}
	return s.Render(w, http.StatusOK, "class", s.Page(r, "class.title.one", d, c.Name))
}

// pageClassInvite is POST /class/{id}/invite: the coach invites an account.
func (s *Server) pageClassInvite(w http.ResponseWriter, r *http.Request) error {
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
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_user", excerpt(name))
	}
	if err != nil {
		return err
	}
	if err := s.cfg.Studies.InviteStudent(ctx, c.ID, u.ID, maxClassStudents); err != nil {
		return studyError(err)
	}
	http.Redirect(w, r, "/class/"+c.ID, http.StatusSeeOther)
	return nil
}

// pageClassAnswer is POST /class/{id}/answer: the invited student accepts
// (answer=yes) or leaves.
func (s *Server) pageClassAnswer(w http.ResponseWriter, r *http.Request) error {
	st, err := s.studies()
	if err != nil {
		return err
	}
	me := s.Identity(r)
	if me.Account.ID == 0 {
		return apierr.New(http.StatusUnauthorized, apierr.CodeForbidden, "apierr.study_login")
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	if err := st.AnswerClass(ctx, r.PathValue("id"), me.Account.ID, r.PostFormValue("answer") == "yes"); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_class", excerpt(r.PathValue("id")))
		}
		return err
	}
	http.Redirect(w, r, "/classes", http.StatusSeeOther)
	return nil
}
