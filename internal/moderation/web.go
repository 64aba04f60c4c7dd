package moderation

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Web answers the reports' and the moderators' pages.
type Web struct {
	kit site.Kit
	svc *Service
}

// NewWeb returns the pages of svc.
func NewWeb(kit site.Kit, svc *Service) *Web { return &Web{kit: kit, svc: svc} }

// Routes registers the report form and API, the warning and appeal pages
// of a player, and the moderators' pages (/mod…) on r.
func (w *Web) Routes(r site.Router) {
	r.Page("GET /report", w.pageReportForm)
	r.Page("POST /report", w.pageReport)
	r.API("POST /api/mod/reports", w.apiReport)
	r.Page("GET /warning", w.pageWarning)
	r.Page("POST /warning", w.pageSeeWarning)
	r.Page("GET /appeal", w.pageAppealForm)
	r.Page("POST /appeal", w.pageAppeal)
	r.Page("GET /mod", modPage(w, "mod_queue", "mod.queue.title", w.queue))
	r.Page("GET /mod/log", modPage(w, "mod_log", "mod.log.title", func(ctx context.Context, _ *http.Request) ([]store.ModAction, error) {
		return w.svc.cfg.Store.ModActions(ctx, 0, 200)
	}))
	r.Page("GET /mod/appeals", modPage(w, "mod_appeals", "mod.appeals.title", func(ctx context.Context, _ *http.Request) ([]store.ModAppeal, error) {
		return w.svc.cfg.Store.Appeals(ctx, 0, 100)
	}))
	r.Page("POST /mod/appeals/{id}", w.pageDecide)
	r.Page("GET /mod/@/{name}", w.pageAccount)
	r.Page("POST /mod/@/{name}", w.pageAct)
}

func storeCtx(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), site.StoreTimeout)
}

// account returns the signed-in account of r, or a 401.
func (w *Web) account(r *http.Request) (site.Identity, error) {
	id := w.kit.Identity(r)
	if id.Account.ID == 0 {
		return id, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "mod.err.login")
	}
	return id, nil
}

// moderator returns the moderator making r, or a 403 (401 for nobody).
func (w *Web) moderator(r *http.Request) (site.Identity, error) {
	id, err := w.account(r)
	if err != nil {
		return id, err
	}
	if !w.svc.IsModerator(id.Account.ID) {
		return id, apierr.Forbidden("mod.err.forbidden")
	}
	return id, nil
}

func (w *Web) user(ctx context.Context, name string) (store.User, error) {
	u, err := w.svc.cfg.Store.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return u, apierr.NotFound("mod.err.no_user", site.Excerpt(name))
	}
	return u, err
}

// ---- reports ----

type reportForm struct {
	User, Game, Reason, Note string
	Players                  []string // the accounts of the game the reporter may report
	Reasons                  []string
	Error                    string
	Received                 bool
}

// pageReportForm is GET /report?user=NAME or ?game=ID: the report form.
func (w *Web) pageReportForm(rw http.ResponseWriter, r *http.Request) error {
	id, err := w.account(r)
	if err != nil {
		return err
	}
	f := reportForm{User: r.URL.Query().Get("user"), Game: r.URL.Query().Get("game"), Reasons: Reasons, Reason: "cheating"}
	if err := w.fillPlayers(r, id, &f); err != nil {
		return err
	}
	return w.kit.Render(rw, http.StatusOK, "mod_report", w.kit.Page(r, "mod.report.title", f))
}

func (w *Web) fillPlayers(r *http.Request, id site.Identity, f *reportForm) error {
	if f.Game == "" {
		return nil
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	g, err := w.svc.cfg.Store.Game(ctx, f.Game)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound("mod.err.no_game", site.Excerpt(f.Game))
	}
	if err != nil {
		return err
	}
	for _, p := range g.Players {
		if p.UserID != 0 && p.UserID != id.Account.ID {
			f.Players = append(f.Players, p.Name)
		}
	}
	if f.User == "" && len(f.Players) > 0 {
		f.User = f.Players[0]
	}
	return nil
}

// report files a player's report; a collapsed duplicate is "received" too.
func (w *Web) report(r *http.Request, id site.Identity, user, gameID, reason, note string) error {
	switch {
	case !slices.Contains(Reasons, reason):
		return apierr.BadRequest(apierr.CodeBadRequest, "mod.err.reason", site.Excerpt(reason))
	case utf8.RuneCountInString(note) > MaxNote:
		return apierr.BadRequest(apierr.CodeBadRequest, "mod.err.note", MaxNote)
	case len(gameID) > 32:
		return apierr.BadRequest(apierr.CodeBadRequest, "mod.err.no_game", site.Excerpt(gameID))
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	u, err := w.user(ctx, user)
	if err != nil {
		return err
	}
	if u.ID == id.Account.ID {
		return apierr.BadRequest(apierr.CodeBadRequest, "mod.err.self")
	}
	_, _, err = w.svc.cfg.Store.AddModReport(ctx, store.ModReport{TargetID: u.ID, ReporterID: id.Account.ID, Reason: reason,
		Note: strings.TrimSpace(note), GameID: gameID, Addr: auth.AddrKey(auth.ClientIP(r)), Weight: 1},
		store.ModReportLimits{PerUser: ReportsPerUser, PerAddr: ReportsPerAddr})
	if errors.Is(err, store.ErrReportLimit) {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "mod.err.too_many")
	}
	return err
}

// pageReport is POST /report.
func (w *Web) pageReport(rw http.ResponseWriter, r *http.Request) error {
	id, err := w.account(r)
	if err != nil {
		return err
	}
	f := reportForm{User: r.FormValue("user"), Game: r.FormValue("game"), Reason: r.FormValue("reason"), Note: r.FormValue("note"), Reasons: Reasons}
	if err := w.report(r, id, f.User, f.Game, f.Reason, f.Note); err != nil {
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Status >= 500 {
			return err
		}
		f.Error = w.kit.Message(r, ae)
		_ = w.fillPlayers(r, id, &f)
		return w.kit.Render(rw, ae.Status, "mod_report", w.kit.Page(r, "mod.report.title", f))
	}
	f.Received = true
	return w.kit.Render(rw, http.StatusOK, "mod_report", w.kit.Page(r, "mod.report.title", f))
}

type reportRequest struct {
	User   string `json:"user"`
	Game   string `json:"game"`
	Reason string `json:"reason"`
	Note   string `json:"note"`
}

// apiReport is POST /api/mod/reports: {"status": "received"}, whatever
// becomes of it.
func (w *Web) apiReport(rw http.ResponseWriter, r *http.Request) error {
	id, err := w.account(r)
	if err != nil {
		return err
	}
	var q reportRequest
	if err := site.ReadJSON(rw, r, &q); err != nil {
		return err
	}
	if err := w.report(r, id, q.User, q.Game, q.Reason, q.Note); err != nil {
		return err
	}
	return site.WriteJSON(rw, http.StatusCreated, map[string]string{"status": "received"})
}

// ---- the player's warning and appeal ----

func (w *Web) pageWarning(rw http.ResponseWriter, r *http.Request) error {
	id, err := w.account(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	wr, ok, err := w.svc.cfg.Store.PendingWarning(ctx, id.Account.ID)
	if err != nil {
		return err
	}
	return w.kit.Render(rw, http.StatusOK, "mod_warning", w.kit.Page(r, "mod.warning.title", struct {
		Warning store.ModWarning
		Any     bool
	}{wr, ok}))
}

func (w *Web) pageSeeWarning(rw http.ResponseWriter, r *http.Request) error {
	id, err := w.account(r)
	if err != nil {
		return err
	}
	wid, _ := strconv.ParseInt(r.FormValue("id"), 10, 64)
	ctx, cancel := storeCtx(r)
	defer cancel()
	if err := w.svc.cfg.Store.SeeWarning(ctx, id.Account.ID, wid); err != nil {
		return err
	}
	if err := w.svc.Refresh(ctx); err != nil {
		return err
	}
	return site.Redirect(rw, r, "/")
}

// markActions are the actions an account may appeal against.
var markActions = []string{"engine", "booster", "close", "mute"}

type appealView struct {
	Marks    []store.ModAction // the marks not yet appealed
	Appeals  []store.ModAppeal
	Error    string
	Received bool
}

func (w *Web) appealView(ctx context.Context, userID int64) (appealView, error) {
	var v appealView
	actions, err := w.svc.cfg.Store.ModActions(ctx, userID, 100)
	if err != nil {
		return v, err
	}
	if v.Appeals, err = w.svc.cfg.Store.Appeals(ctx, userID, 100); err != nil {
		return v, err
	}
	flags, err := w.svc.cfg.Store.ModFlagsOf(ctx, userID)
	if err != nil {
		return v, err
	}
	current := map[string]bool{"engine": flags.Engine, "booster": flags.Booster, "close": flags.Closed, "mute": flags.Muted}
	for _, a := range actions {
		if !slices.Contains(markActions, a.Action) || !current[a.Action] || a.ModID == a.UserID {
			continue
		}
		current[a.Action] = false // the latest action of each mark
		if !slices.ContainsFunc(v.Appeals, func(p store.ModAppeal) bool { return p.ActionID == a.ID }) {
			a.Reason = "" // the moderators' reason is theirs
			v.Marks = append(v.Marks, a)
		}
	}
	return v, nil
}

func (w *Web) pageAppealForm(rw http.ResponseWriter, r *http.Request) error {
	id, err := w.account(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	v, err := w.appealView(ctx, id.Account.ID)
	if err != nil {
		return err
	}
	return w.kit.Render(rw, http.StatusOK, "mod_appeal", w.kit.Page(r, "mod.appeal.title", v))
}

func (w *Web) pageAppeal(rw http.ResponseWriter, r *http.Request) error {
	id, err := w.account(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	action, _ := strconv.ParseInt(r.FormValue("action"), 10, 64)
	text := strings.TrimSpace(r.FormValue("text"))
	status := http.StatusOK
	var failure *apierr.Error
	switch n := utf8.RuneCountInString(text); {
	case n == 0 || n > MaxNote:
		failure = apierr.BadRequest(apierr.CodeBadRequest, "mod.err.appeal_text", MaxNote)
	default:
		_, err := w.svc.cfg.Store.AddAppeal(ctx, store.ModAppeal{UserID: id.Account.ID, ActionID: action, Text: text})
		switch {
		case errors.Is(err, store.ErrConflict):
			failure = apierr.New(http.StatusConflict, apierr.CodeBadRequest, "mod.err.appealed")
		case errors.Is(err, store.ErrNotFound):
			failure = apierr.NotFound("mod.err.no_mark")
		case err != nil:
			return err
		}
	}
	v, err := w.appealView(ctx, id.Account.ID)
	if err != nil {
		return err
	}
	if failure != nil {
		status, v.Error = failure.Status, w.kit.Message(r, failure)
	} else {
		v.Received = true
	}
	return w.kit.Render(rw, status, "mod_appeal", w.kit.Page(r, "mod.appeal.title", v))
}

// ---- the moderators' pages ----

// QueueRow is a line of the moderators' queue.
type QueueRow struct {
	store.ModQueueEntry
	Evidence  float64 // the model's combined evidence of its judged games (fairplay.Account)
	Judged    int
	Flagged   int
	Priority  float64
	Marked    bool
	Moderator bool
}

// Queue returns the accounts with reports not dealt with, the strongest
// evidence first (Priority).
func (s *Service) Queue(ctx context.Context) ([]QueueRow, error) {
	entries, err := s.cfg.Store.ModQueue(ctx, QueueSize)
	if err != nil {
		return nil, err
	}
	rows := make([]QueueRow, 0, len(entries))
	for _, e := range entries {
		fp, err := s.cfg.Store.FairPlayByUser(ctx, e.UserID, EvidenceGames)
		if err != nil {
			return nil, err
		}
		row := QueueRow{ModQueueEntry: e, Judged: len(fp), Marked: s.Marked(e.UserID)}
		for _, f := range fp {
			if f.Flag {
				row.Flagged++
			}
		}
		row.Evidence = Priority(fp, 0)
		row.Priority = row.Evidence + e.Weight
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b QueueRow) int {
		switch {
		case a.Priority > b.Priority:
			return -1
		case a.Priority < b.Priority:
			return 1
		}
		return b.Latest.Compare(a.Latest)
	})
	return rows, nil
}

// queueView is the queue's page: its rows and the appeals waiting.
type queueView struct {
	Rows    []QueueRow
	Appeals int
}

func (w *Web) queue(ctx context.Context, _ *http.Request) (queueView, error) {
	rows, err := w.svc.Queue(ctx)
	if err != nil {
		return queueView{}, err
	}
	appeals, err := w.svc.cfg.Store.Appeals(ctx, 0, 100)
	return queueView{rows, len(appeals)}, err
}

// modPage serves template name, titled by its key title, to a moderator
// with what load reads in the store's time.
func modPage[T any](w *Web, name, title string, load func(context.Context, *http.Request) (T, error)) site.Handler {
	return func(rw http.ResponseWriter, r *http.Request) error {
		if _, err := w.moderator(r); err != nil {
			return err
		}
		ctx, cancel := storeCtx(r)
		defer cancel()
		v, err := load(ctx, r)
		if err != nil {
			return err
		}
		return w.kit.Render(rw, http.StatusOK, name, w.kit.Page(r, title, v))
	}
}

// GameRow is one of an account's rated games with its evidence.
type GameRow struct {
	store.Game
	Side     string
	Opponent string
	Result   string // won, lost, drawn
	Diff     int
	Voided   bool
	Evidence *game.FairPlay
}

type accountView struct {
	User     store.User
	Flags    store.ModFlags
	Evidence float64
	Judged   int
	// Account is the model's reading of the account's games beyond the
	// combined score: runs, jumps, rated against casual, time use.
	Account fairplay.AccountEvidence
	Flagged int
	Games   []GameRow
	Reports []store.ModReport
	Chat    []store.Report
	Notes   []store.ModNote
	Log     []store.ModAction
	Appeals []store.ModAppeal
	Refunds []store.ModRefund
	Done    string // the action just taken
	Result  store.ModResult
	Error   string
	Actions []string
}

// Actions are what a moderator may do on an account's page.
var Actions = []string{"warn", "engine", "booster", "close", "mute", "unmute", "clear", "dismiss", "note"}

func (w *Web) accountView(ctx context.Context, u store.User) (accountView, error) {
	v := accountView{User: u, Actions: Actions}
	st := w.svc.cfg.Store
	var err error
	if v.Flags, err = st.ModFlagsOf(ctx, u.ID); err != nil {
		return v, err
	}
	fp, err := st.FairPlayByUser(ctx, u.ID, EvidenceGames)
	if err != nil {
		return v, err
	}
	byGame := map[string]*game.FairPlay{}
	for i := range fp {
		byGame[fp[i].GameID] = &fp[i]
		if fp[i].Flag {
			v.Flagged++
		}
	}
	v.Account = fairplay.Account(fp, fairplay.Default().Threshold)
	v.Evidence, v.Judged = v.Account.Evidence(), len(fp) // Priority(fp, 0), computed once
	voided, err := st.VoidedGames(ctx, u.ID)
	if err != nil {
		return v, err
	}
	gs, err := st.RatedGamesOf(ctx, u.ID, EvidenceGames)
	if err != nil {
		return v, err
	}
	for i, p := range PlayedOf(u.ID, gs) {
		g := gs[i]
		row := GameRow{Game: g, Side: "white", Opponent: g.Players[1].Name, Diff: p.Diff, Voided: voided[g.ID], Evidence: byGame[g.ID]}
		if g.Players[1].UserID == u.ID {
			row.Side, row.Opponent = "black", g.Players[0].Name
		}
		row.Result = map[float64]string{1: "won", 0.5: "drawn", 0: "lost"}[p.Result]
		v.Games = append(v.Games, row)
	}
	if v.Reports, err = st.ModReportsOf(ctx, u.ID, 100); err != nil {
		return v, err
	}
	if v.Chat, err = st.ChatReportsOf(ctx, u.Name, 50); err != nil {
		return v, err
	}
	if v.Notes, err = st.ModNotes(ctx, u.ID, 100); err != nil {
		return v, err
	}
	if v.Log, err = st.ModActions(ctx, u.ID, 100); err != nil {
		return v, err
	}
	if v.Appeals, err = st.Appeals(ctx, u.ID, 20); err != nil {
		return v, err
	}
	if v.Refunds, err = st.ModRefundsAgainst(ctx, u.ID, 100); err != nil {
		return v, err
	}
	return v, nil
}

func (w *Web) pageAccount(rw http.ResponseWriter, r *http.Request) error {
	if _, err := w.moderator(r); err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	u, err := w.user(ctx, r.PathValue("name"))
	if err != nil {
		return err
	}
	v, err := w.accountView(ctx, u)
	if err != nil {
		return err
	}
	v.Done = r.URL.Query().Get("done")
	return w.kit.Render(rw, http.StatusOK, "mod_account", w.kit.Page(r, "mod.account.title", v, u.Name))
}

// Act applies a moderator's action to an account: the store's change (with
// its audit row), then the events' withdrawal of a marked account, then a
// new snapshot.
func (s *Service) Act(ctx context.Context, modID int64, u store.User, action, reason string) (store.ModResult, error) {
	c := store.ModChange{UserID: u.ID, ModID: modID, Action: action, Reason: reason}
	mark := false
	switch action {
	case "warn":
		c.Warning = reason
	case "engine":
		c.Set, c.Resolve, mark = func(f *store.ModFlags) { f.Engine = true }, true, true
	case "booster":
		c.Set, c.Resolve, mark = func(f *store.ModFlags) { f.Booster = true }, true, true
	case "close":
		c.Set, c.Resolve = func(f *store.ModFlags) { f.Closed = true }, true
	case "mute":
		c.Set = func(f *store.ModFlags) { f.Muted = true }
	case "unmute":
		c.Set = func(f *store.ModFlags) { f.Muted = false }
	case "clear":
		// The marks go; the refunds given stay given (docs/moderation.md).
		c.Set, c.Resolve = func(f *store.ModFlags) { f.Engine, f.Booster, f.Closed, f.Muted = false, false, false, false }, true
	case "dismiss":
		c.Resolve = true
	default:
		return store.ModResult{}, fmt.Errorf("moderation: unknown action %q", action)
	}
	if mark {
		c.Void, c.VoidSince, c.VoidMax = true, s.cfg.Now().Add(-RefundWindow), RefundGames
	}
	res, err := s.cfg.Store.ApplyModChange(ctx, c)
	if err != nil {
		return res, err
	}
	var errs []error
	if mark && s.cfg.Events != nil {
		errs = append(errs, s.cfg.Events(ctx, u.ID))
	}
	errs = append(errs, s.Refresh(ctx))
	return res, errors.Join(errs...)
}

func (w *Web) pageAct(rw http.ResponseWriter, r *http.Request) error {
	mod, err := w.moderator(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	u, err := w.user(ctx, r.PathValue("name"))
	if err != nil {
		return err
	}
	action, reason := r.FormValue("action"), strings.TrimSpace(r.FormValue("reason"))
	var failure *apierr.Error
	switch n := utf8.RuneCountInString(reason); {
	case !slices.Contains(Actions, action):
		failure = apierr.BadRequest(apierr.CodeBadRequest, "mod.err.action", site.Excerpt(action))
	case n > MaxNote:
		failure = apierr.BadRequest(apierr.CodeBadRequest, "mod.err.note", MaxNote)
	case n == 0 && action != "dismiss" && action != "unmute":
		failure = apierr.BadRequest(apierr.CodeBadRequest, "mod.err.reason_needed")
	}
	var res store.ModResult
	if failure == nil {
		if action == "note" {
			err = w.svc.cfg.Store.AddModNote(ctx, store.ModNote{UserID: u.ID, ModID: mod.Account.ID, Text: reason})
		} else {
			res, err = w.svc.Act(ctx, mod.Account.ID, u, action, reason)
		}
		if err != nil {
			return err
		}
		w.kit.Logger().Info("moderator action", "mod", mod.Name(), "user", u.Name, "action", action,
			"voided", res.Voided, "refunded", res.Refunded)
	}
	v, err := w.accountView(ctx, u)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if failure != nil {
		status, v.Error = failure.Status, w.kit.Message(r, failure)
	} else {
		v.Done, v.Result = action, res
	}
	return w.kit.Render(rw, status, "mod_account", w.kit.Page(r, "mod.account.title", v, u.Name))
}

func (w *Web) pageDecide(rw http.ResponseWriter, r *http.Request) error {
	mod, err := w.moderator(r)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	decision := r.FormValue("decision")
	if err != nil || (decision != "upheld" && decision != "lifted") {
		return apierr.BadRequest(apierr.CodeBadRequest, "mod.err.decision")
	}
	reason := strings.TrimSpace(r.FormValue("reason"))
	if utf8.RuneCountInString(reason) > MaxNote {
		return apierr.BadRequest(apierr.CodeBadRequest, "mod.err.note", MaxNote)
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	switch err := w.svc.cfg.Store.DecideAppeal(ctx, id, mod.Account.ID, decision, reason); {
	case errors.Is(err, store.ErrNotFound):
		return apierr.NotFound("mod.err.no_appeal")
	case errors.Is(err, store.ErrConflict):
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "mod.err.decided")
	case err != nil:
		return err
	}
	if err := w.svc.Refresh(ctx); err != nil {
		return err
	}
	return site.Redirect(rw, r, "/mod/appeals")
}

// ErrorKeys are the catalog keys of the errors this package answers
// (the server's TestErrorKeys holds them to the code).
func ErrorKeys() []string {
	return []string{"mod.err.login", "mod.err.forbidden", "mod.err.no_user", "mod.err.no_game", "mod.err.reason",
		"mod.err.note", "mod.err.self", "mod.err.too_many", "mod.err.appeal_text", "mod.err.appealed", "mod.err.no_mark",
		"mod.err.action", "mod.err.reason_needed", "mod.err.decision", "mod.err.no_appeal", "mod.err.decided"}
}
