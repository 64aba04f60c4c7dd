package events

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html/template"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/web"
)

// ErrorKeys are the catalog keys of the events' refusals, for the test
// that finds each in every language.
func ErrorKeys() []string {
	return []string{"apierr.event_forbidden", "apierr.no_event", "apierr.event_tc", "apierr.event_rounds",
		"apierr.event_minutes", "apierr.event_kind", "apierr.event_repetition", "apierr.event_limits", "apierr.event_name",
		"apierr.event_no_swiss", "apierr.event_start", "apierr.event_too_many", "apierr.event_joined", "apierr.event_closed",
		"apierr.event_full", "apierr.event_rating", "apierr.event_section", "apierr.event_not_joined", "apierr.event_started",
		"apierr.event_unchanged", "apierr.event_berserk", "apierr.event_arbiters", "apierr.event_result",
		"apierr.event_acceleration", "apierr.event_no_pairing", "apierr.event_no_player", "apierr.event_clock", "apierr.event_repair", "apierr.event_pairs",
		"apierr.event_no_round", "apierr.event_account", "apierr.event_no_user", "apierr.events_off", "apierr.event_no_trf"}
}

// APIError turns a refusal of the events (an *Error) into the API's
// error; other errors are returned as they are.
func APIError(err error) error {
	var ee *Error
	if !errors.As(err, &ee) {
		return err
	}
	switch ee.Code {
	case "forbidden":
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, ee.Key, ee.Args...)
	case "not_found":
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, ee.Key, ee.Args...)
	case "conflict":
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, ee.Key, ee.Args...)
	}
	return apierr.BadRequest(apierr.CodeBadRequest, ee.Key, ee.Args...)
}

// WebConfig is what a Web is built from.
type WebConfig struct {
	Kit site.Kit
	// Manager runs the events (nil: none; every route answers 404
	// events_off).
	Manager *Manager
	// Pages renders the event page's live part alone.
	Pages *web.Pages
	// User finds an account by name (the arbiters an event's creator
	// names).
	User func(ctx context.Context, name string) (int64, error)
	// FairPlay is the moderators' side of the events (internal/moderation;
	// zero: none).
	FairPlay FairPlay
}

// FairPlay is what the moderation gives the events' pages: whether the
// moderators marked a player (the standings say he was removed; the mark
// itself withdrew him), whether a viewer is a moderator, and the fair-play
// evidence of a game's sides, which the arbiters' console shows (to the
// event's arbiters and the moderators only, never to the players).
type FairPlay struct {
	Removed     func(userID int64) bool
	IsModerator func(userID int64) bool
	Evidence    func(ctx context.Context, gameID string) ([]game.FairPlay, error)
}

// MaxEvidenceGames bounds the games whose evidence one console page reads.
const MaxEvidenceGames = 500

// EvidenceRow is one player's evidence over the event's judged games.
type EvidenceRow struct {
	Name     string
	Games    int     // the player's games with a game id in the event
	Judged   int     // those the model has judged
	Flagged  int     // those it flagged
	Combined float64 // the Stouffer combination of their z-scores, Σz/√n
	Strength float64 // the same of their strength tests (internal/fairplay)
	IPR      int     // the mean of their intrinsic performance ratings
}

// Web is the site's side of the events: /events, /event/{id} with its
// live part and its TRF, the players' and the arbiter's forms, and GET
// /api/events.
type Web struct {
	kit   site.Kit
	m     *Manager
	pages *web.Pages
	user  func(ctx context.Context, name string) (int64, error)
	fp    FairPlay
}

// NewWeb returns the events' site side.
func NewWeb(cfg WebConfig) *Web {
	return &Web{kit: cfg.Kit, m: cfg.Manager, pages: cfg.Pages, user: cfg.User, fp: cfg.FairPlay}
}

// Routes registers the events' pages and API on rt.
func (wb *Web) Routes(rt site.Router) {
	rt.API("GET /api/events", wb.apiEvents)
	rt.API("GET /api/events/{id}", wb.apiEvent)
	rt.Page("GET /events", wb.pageEvents)
	rt.Page("POST /events", wb.pageCreateEvent)
	rt.Page("GET /event/{id}", wb.pageEvent)
	rt.Page("GET /event/{id}/live", wb.pageEventLive)
	rt.Page("GET /event/{id}/trf", wb.pageEventTRF)
	rt.Page("POST /event/{id}/join", wb.pageJoinEvent)
	rt.Page("POST /event/{id}/withdraw", wb.pageWithdrawEvent)
	rt.Page("POST /event/{id}/berserk", wb.pageBerserk)
	rt.Page("POST /event/{id}/arbiter/{action}", wb.pageArbiter)
}

func (wb *Web) eventsOn() error {
	if wb.m == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.events_off")
	}
	return nil
}

// eventAccount is the account of a request that changes an event: events
// are for accounts, not guests (their entries carry a rating).
func (wb *Web) eventAccount(r *http.Request) (site.Account, error) {
	if err := wb.eventsOn(); err != nil {
		return site.Account{}, err
	}
	id := wb.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Account{}, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.event_account")
	}
	return id.Account, nil
}

// ---- /events ----

type eventsData struct {
	Upcoming, Running, Finished []*Event
	// Newer and Older are the pages of the finished events either side
	// of this one (0: none).
	Newer, Older int
	CanCreate    bool
	Swiss        bool
	Kinds        []string
	TCs          []string
	Rulesets     []string
}

// FinishedListed is the finished events a page of /events lists (and of
// GET /api/events): the older ones are on the next pages, ?page=2, ….
const FinishedListed = 50

func (wb *Web) pageEvents(w http.ResponseWriter, r *http.Request) error {
	if err := wb.eventsOn(); err != nil {
		return err
	}
	d := eventsData{CanCreate: wb.kit.Identity(r).Account.ID != 0, Swiss: wb.m.SwissAvailable(),
		TCs: []string{"3+2", "5+3", "10+5", "15+10", "30+0"}, Rulesets: toguz.RulesetNames()}
	d.Kinds = []string{string(RoundRobin), string(DoubleRoundRobin), string(Arena)}
	if d.Swiss {
		d.Kinds = append([]string{string(Swiss)}, d.Kinds...)
	}
	var fin []*Event
	for _, e := range wb.m.List() {
		switch e.Status {
		case Upcoming:
			d.Upcoming = append(d.Upcoming, e)
		case Running:
			d.Running = append(d.Running, e)
		default:
			fin = append(fin, e)
		}
	}
	d.Finished, d.Newer, d.Older = site.PageOf(fin, site.PageParam(r), FinishedListed)
	return wb.kit.Render(w, http.StatusOK, "events", wb.kit.Page(r, "events.title", d))
}

func eventInt(r *http.Request, name string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(r.FormValue(name)))
	return n
}

func (wb *Web) pageCreateEvent(w http.ResponseWriter, r *http.Request) error {
	acc, err := wb.eventAccount(r)
	if err != nil {
		return err
	}
	st := Settings{Kind: Kind(r.FormValue("kind")), Rules: r.FormValue("ruleset"), TC: r.FormValue("tc"),
		Rounds: eventInt(r, "rounds"), Minutes: eventInt(r, "minutes"), MinRating: eventInt(r, "min_rating"),
		MaxRating: eventInt(r, "max_rating"), MinAge: eventInt(r, "min_age"), MaxAge: eventInt(r, "max_age"),
		Sex: r.FormValue("sex"), Repetition: eventInt(r, "repetition"), Rated: r.FormValue("rated") != "",
		Berserk: r.FormValue("berserk") != "", Publish: r.FormValue("publish") != "", MaxPlayers: eventInt(r, "max_players")}
	if r.FormValue("baku") != "" {
		st.Acceleration = "baku"
	}
	st.Pairing = r.FormValue("pairing")
	if st.Rules == "" {
		st.Rules = "standard"
	}
	var start time.Time
	if m := eventInt(r, "start_in"); m > 0 {
		start = time.Now().Add(time.Duration(m) * time.Minute)
	}
	e, err := wb.m.Create(r.Context(), acc.ID, r.FormValue("name"), start, st)
	if err != nil {
		return APIError(err)
	}
	return site.Redirect(w, r, "/event/"+e.ID)
}

// ---- /event/{id} ----

// eventView is what the event page and its live part show to one viewer.
type eventView struct {
	E         *Event
	Me        int64
	Mine      *game.EventEntry
	Arbiter   bool
	CanJoin   bool
	Rounds    int // planned
	Shown     int // the rounds whose results this viewer sees
	Standings []standingRow
	TieBreaks []string // the names of the standings' tie-breaks, in order
	Arena     []ArenaLine
	Cross     [][]string // a round robin's cross table: Cross[i][j], player i against j
	Pairings  []roundView
	Log       []LogLine
	Ends      string
	// Removed: the players (by starting rank) the moderators marked, who
	// left the event by that mark.
	Removed map[int]bool
	// Evidence is the fair-play console: for the arbiters and the
	// moderators only.
	Evidence []EvidenceRow
	// Progress and Ratings are the pictures (charts.go): the leaders'
	// points after each round and the players' ratings.
	Progress, Ratings template.HTML
}

type standingRow struct {
	Rank    int
	Start   int
	Name    string
	Rating  int
	Points  string
	Values  []string
	Exact   []float64 // the tie-breaks' values unrounded, for the API (a DE that does not apply: 0)
	History []string  // each round: the opponent and the result
	Out     bool
}

type roundView struct {
	Round int
	Games []pairView
}

type pairView struct {
	Board        int
	White, Black string
	WStart       int
	BStart       int
	GameID       string
	Result       string // "" while played or not shown
	Playing      bool
	Bye          bool
}

// points writes a score or a tie-break's value exactly: a
// Sonneborn-Berger with draws has quarters (½ × ½), which one decimal
// would round.
func points(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (wb *Web) eventView(ctx context.Context, e *Event, me int64) eventView {
	v := eventView{E: e, Me: me, Mine: e.EntryOf(me), Arbiter: e.IsArbiter(me)}
	v.CanJoin = canJoin(e, me, v.Mine)
	v.Shown = shownRounds(e, me)
	if t := e.Ends(); !t.IsZero() && e.Status != Upcoming {
		v.Ends = t.UTC().Format("2006-01-02 15:04 UTC")
	}
	v.Pairings = wb.pairings(e, v.Shown)
	if e.Settings.Kind == Arena {
		v.Arena = ArenaScore(e, v.Shown)
		if v.Shown == 0 && len(e.Rounds) > 0 {
			v.Arena = ArenaScore(e, -1)
		}
	} else {
		v.standings(e)
	}
	if wb.fp.Removed != nil {
		for _, en := range e.Entries {
			if en.Withdrawn && wb.fp.Removed(en.UserID) {
				if v.Removed == nil {
					v.Removed = map[int]bool{}
				}
				v.Removed[en.Start] = true
			}
		}
	}
	return v
}

// evidence returns the console's evidence of every player of e, from the
// evidence of its games (at most MaxEvidenceGames).
func (wb *Web) evidence(ctx context.Context, e *Event) ([]EvidenceRow, error) {
	rows := make([]EvidenceRow, len(e.Entries))
	at := map[int64]int{}
	for i, en := range e.Entries {
		rows[i].Name, at[en.UserID] = en.Name, i
	}
	sums, strengths := make([]float64, len(rows)), make([]float64, len(rows))
	iprs := make([]int, len(rows))
	n := 0
	for _, r := range e.Rounds {
		for _, p := range r.Pairings {
			if p.GameID == "" || n >= MaxEvidenceGames {
				continue
			}
			n++
			for _, start := range []int{p.White, p.Black} {
				if pl := e.Player(start); pl != nil {
					rows[at[pl.UserID]].Games++
				}
			}
			fps, err := wb.fp.Evidence(ctx, p.GameID)
			if err != nil {
				return nil, err
			}
			for _, f := range fps {
				i, ok := at[f.UserID]
				if !ok || f.UserID == 0 {
					continue
				}
				rows[i].Judged++
				sums[i] += f.Score
				strengths[i] += f.Strength
				iprs[i] += f.IPR
				if f.Flag {
					rows[i].Flagged++
				}
			}
		}
	}
	for i := range rows {
		if rows[i].Judged > 0 {
			rows[i].Combined = sums[i] / math.Sqrt(float64(rows[i].Judged))
			rows[i].Strength = strengths[i] / math.Sqrt(float64(rows[i].Judged))
			rows[i].IPR = iprs[i] / rows[i].Judged
		}
	}
	return rows, nil
}

// canJoin reports whether viewer me (0: nobody) may join e, or come back
// to it: not once it is over, nor a round robin once it runs, nor a
// withdrawn player but to an arena.
func canJoin(e *Event, me int64, mine *game.EventEntry) bool {
	can := me != 0 && e.Status != Finished && (mine == nil || mine.Withdrawn || mine.Paused) &&
		!(e.Status == Running && (e.Settings.Kind == RoundRobin || e.Settings.Kind == DoubleRoundRobin))
	if mine != nil && (e.Settings.Kind != Arena) && mine.Withdrawn {
		can = false
	}
	return can
}

// playerName is the name of e's player of starting rank start ("": none).
func playerName(e *Event, start int) string {
	if p := e.Player(start); p != nil {
		return p.Name
	}
	return ""
}

// pairings are e's rounds, their results those of the shown rounds.
func (wb *Web) pairings(e *Event, shown int) []roundView {
	var out []roundView
	for _, r := range e.Rounds {
		rv := roundView{Round: r.Round}
		for _, p := range r.Pairings {
			pv := pairView{Board: p.Board, White: playerName(e, p.White), Black: playerName(e, p.Black), WStart: p.White, BStart: p.Black,
				GameID: p.GameID, Playing: p.Result == "" && p.GameID != "", Bye: p.Black == 0}
			if p.GameID != "" && wb.m.Starting(p.GameID) {
				// Not yet on the hub: no link to a game that is not there.
				pv.GameID, pv.Playing = "", false
			}
			if r.Round <= shown && !pv.Bye {
				pv.Result = p.Result
			}
			rv.Games = append(rv.Games, pv)
		}
		out = append(out, rv)
	}
	return out
}

// standings fills in the standings, the tie-breaks and (but for a Swiss)
// the cross table of an event that is not an arena, with the results of
// the shown rounds.
func (v *eventView) standings(e *Event) {
	te := e.Tournament(resultsUpto(v.Shown))
	v.Rounds = te.Rounds
	for _, tb := range te.TieBreaks {
		v.TieBreaks = append(v.TieBreaks, tb.String())
	}
	for _, st := range te.Standings(0) {
		v.Standings = append(v.Standings, newStandingRow(e, te, st, v.Shown))
	}
	if e.Settings.Kind != Swiss {
		v.Cross = crossTable(te, v.Shown)
	}
}

// newStandingRow is standing st's line, its history the shown rounds'.
func newStandingRow(e *Event, te *tournament.Event, st tournament.Standing, shown int) standingRow {
	row := standingRow{Rank: st.Rank, Start: st.Player.Start, Name: st.Player.Name, Rating: st.Player.Rating,
		Points: points(st.Points), Out: e.Player(st.Player.Start).Withdrawn}
	for j, val := range st.Values {
		row.Values = append(row.Values, tournament.ValueText(te.TieBreaks[j], val))
	}
	row.Exact = st.Values
	for ri, en := range st.Player.Rounds {
		if ri >= shown {
			break
		}
		row.History = append(row.History, history(en))
	}
	return row
}

// crossTable is a round robin's cross table of the shown rounds.
func crossTable(te *tournament.Event, shown int) [][]string {
	n := len(te.Players)
	cross := make([][]string, n)
	for i := range te.Players {
		cross[i] = make([]string, n)
		for ri, en := range te.Players[i].Rounds {
			if ri < shown && en.Opponent > 0 && en.Code != tournament.Pending {
				cross[i][en.Opponent-1] += cell(en.Code)
			}
		}
	}
	return cross
}

// cell is a result in a cross table: 1, ½, 0, +, −.
func cell(c tournament.Code) string {
	switch c {
	case tournament.Win, tournament.WinUnrated:
		return "1"
	case tournament.Draw, tournament.DrawUnrated:
		return "½"
	case tournament.Loss, tournament.LossUnrated:
		return "0"
	case tournament.ForfeitWin:
		return "+"
	case tournament.ForfeitLoss:
		return "−"
	}
	return ""
}

// history is one round of a player's line: opponent, colour, result.
func history(en tournament.Entry) string {
	if en.Opponent == 0 {
		return string(rune(en.Code))
	}
	return strconv.Itoa(en.Opponent) + string(rune(en.Colour)) + cell(en.Code)
}

func (wb *Web) event(r *http.Request) (*Event, error) {
	if err := wb.eventsOn(); err != nil {
		return nil, err
	}
	e, ok := wb.m.Get(r.PathValue("id"))
	if !ok {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_event")
	}
	return e, nil
}

func (wb *Web) pageEvent(w http.ResponseWriter, r *http.Request) error {
	e, err := wb.event(r)
	if err != nil {
		return err
	}
	me := wb.kit.Identity(r).Account.ID
	v := wb.eventView(r.Context(), e, me)
	v.pictures(wb.kit.Catalog(), wb.kit.Lang(r), e)
	if v.Arbiter {
		log, _ := wb.m.Log(r.Context(), e.ID)
		v.Log = logLines(wb.kit.Catalog(), wb.kit.Lang(r), log)
	}
	if wb.fp.Evidence != nil && me != 0 && (v.Arbiter || (wb.fp.IsModerator != nil && wb.fp.IsModerator(me))) {
		if v.Evidence, err = wb.evidence(r.Context(), e); err != nil {
			return err
		}
	}
	return wb.kit.Render(w, http.StatusOK, "event", wb.kit.Page(r, "event.title", v, e.Name))
}

// pageEventLive is the event page's live part (standings, cross table,
// rounds), which events.js fetches every few seconds with the ETag of the
// last one: 304 while nothing changed.
func (wb *Web) pageEventLive(w http.ResponseWriter, r *http.Request) error {
	e, err := wb.event(r)
	if err != nil {
		return err
	}
	v := wb.eventView(r.Context(), e, wb.kit.Identity(r).Account.ID)
	v.pictures(wb.kit.Catalog(), wb.kit.Lang(r), e)
	var b bytes.Buffer
	if err := wb.pages.RenderPart(&b, "event", "eventlive", wb.kit.Page(r, "event.title", v, e.Name)); err != nil {
		return err
	}
	sum := sha256.Sum256(b.Bytes())
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, err = w.Write(b.Bytes())
	return err
}

// shownRounds is the number of e's rounds whose results viewer sees: all
// of them, unless the event publishes its rounds and viewer is not one of
// its arbiters.
func shownRounds(e *Event, viewer int64) int {
	if e.Settings.Publish && !e.IsArbiter(viewer) {
		return min(e.Published, len(e.Rounds))
	}
	return len(e.Rounds)
}

// resultsUpto is Event.Tournament's argument for shown rounds: -1 when
// none is shown, so that no result is counted.
func resultsUpto(shown int) int {
	if shown == 0 {
		return -1
	}
	return shown
}

// pageEventTRF is the event as a TRF-16 file (internal/tournament's
// WriteTRF: players, rounds, results, the tie-breaks' order), for the
// federations' software and `toguz tournament`; with the Publish rule it
// holds the results this viewer may see.
func (wb *Web) pageEventTRF(w http.ResponseWriter, r *http.Request) error {
	e, err := wb.event(r)
	if err != nil {
		return err
	}
	if e.Settings.Kind == Arena {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.event_no_trf")
	}
	var b bytes.Buffer
	if err := e.Tournament(resultsUpto(shownRounds(e, wb.kit.Identity(r).Account.ID))).WriteTRF(&b); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+e.ID+`.trf"`)
	_, err = w.Write(b.Bytes())
	return err
}

func backToEvent(w http.ResponseWriter, r *http.Request) error {
	return site.Redirect(w, r, "/event/"+r.PathValue("id"))
}

func (wb *Web) pageJoinEvent(w http.ResponseWriter, r *http.Request) error {
	acc, err := wb.eventAccount(r)
	if err != nil {
		return err
	}
	e, err := wb.event(r)
	if err != nil {
		return err
	}
	rating := 0
	if tc, err := clock.ParseTimeControl(e.Settings.TC); err == nil {
		// A rating the archive cannot tell is 0, as for a new player.
		seat, _ := wb.kit.SeatWithRating(r.Context(), site.Identity{Account: acc}, tc)
		rating = seat.Rating
	}
	if _, err := wb.m.Join(r.Context(), e.ID, Player{UserID: acc.ID, Name: acc.Name, Rating: rating,
		BirthYear: eventInt(r, "birth_year"), Sex: r.FormValue("sex")}); err != nil {
		return APIError(err)
	}
	return backToEvent(w, r)
}

func (wb *Web) pageWithdrawEvent(w http.ResponseWriter, r *http.Request) error {
	acc, err := wb.eventAccount(r)
	if err != nil {
		return err
	}
	if _, err := wb.m.Withdraw(r.Context(), r.PathValue("id"), acc.ID); err != nil {
		return APIError(err)
	}
	return backToEvent(w, r)
}

func (wb *Web) pageBerserk(w http.ResponseWriter, r *http.Request) error {
	acc, err := wb.eventAccount(r)
	if err != nil {
		return err
	}
	if err := wb.m.Berserk(r.Context(), r.PathValue("id"), acc.ID); err != nil {
		return APIError(err)
	}
	return backToEvent(w, r)
}

// pageArbiter runs one action of the arbiter's console.
func (wb *Web) pageArbiter(w http.ResponseWriter, r *http.Request) error {
	acc, err := wb.eventAccount(r)
	if err != nil {
		return err
	}
	ctx, id, m := r.Context(), r.PathValue("id"), wb.m
	round, board := eventInt(r, "round"), eventInt(r, "board")
	switch r.PathValue("action") {
	case "start":
		err = m.Start(ctx, id, acc.ID)
	case "result":
		err = m.SetResult(ctx, id, acc.ID, round, board, r.FormValue("result"))
	case "forfeit":
		err = m.Forfeit(ctx, id, acc.ID, eventInt(r, "player"))
	case "clock":
		side := toguz.White
		if r.FormValue("side") == "black" {
			side = toguz.Black
		}
		err = m.AdjustClock(ctx, id, acc.ID, round, board, side, time.Duration(eventInt(r, "seconds"))*time.Second)
	case "publish":
		err = m.Publish(ctx, id, acc.ID, round)
	case "repair":
		pairs, perr := tournament.ReadPairs(strings.NewReader(r.FormValue("pairs")))
		if perr != nil {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.event_pairs", perr.Error())
		}
		err = m.Repair(ctx, id, acc.ID, pairs)
	case "arbiters":
		ids, aerr := wb.arbiters(ctx, r.FormValue("names"))
		if aerr != nil {
			return aerr
		}
		err = m.SetArbiters(ctx, id, acc.ID, ids)
	default:
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_page", site.Excerpt(r.URL.Path))
	}
	if err != nil {
		return APIError(err)
	}
	return backToEvent(w, r)
}

// arbiters finds the accounts of the names the arbiter's form lists
// (separated by spaces or commas), one more than MaxArbiters at most, so
// that SetArbiters refuses too many.
func (wb *Web) arbiters(ctx context.Context, names string) ([]int64, error) {
	var ids []int64
	for _, name := range strings.Fields(strings.ReplaceAll(names, ",", " ")) {
		if len(ids) > MaxArbiters {
			break
		}
		uid, err := wb.user(ctx, name)
		if err != nil {
			return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.event_no_user", name)
		}
		ids = append(ids, uid)
	}
	return ids, nil
}

// ---- the API ----

// EventJSON is GET /api/events/{id}.
type EventJSON struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Status   string   `json:"status"`
	Settings Settings `json:"settings"`
	Start    int64    `json:"start_ms,omitempty"`
	// TieBreaks names the players' tie-breaks, in the order they rank.
	TieBreaks []string     `json:"tiebreaks,omitempty"`
	Players   []PlayerJSON `json:"players"`
	Rounds    []RoundJSON  `json:"rounds,omitempty"`
}

// PlayerJSON is a player of EventJSON, in the standings' order.
type PlayerJSON struct {
	Start     int    `json:"start"`
	Name      string `json:"name"`
	Rating    int    `json:"rating"`
	Points    string `json:"points"`
	Rank      int    `json:"rank"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
	// TieBreaks are the values of EventJSON.TieBreaks, in its order.
	TieBreaks []float64 `json:"tiebreaks,omitempty"`
}

// RoundJSON is a round of EventJSON.
type RoundJSON struct {
	Round int        `json:"round"`
	Games []GameJSON `json:"games"`
}

// GameJSON is a pairing of RoundJSON: the players' starting ranks.
type GameJSON struct {
	Board  int    `json:"board"`
	White  int    `json:"white"`
	Black  int    `json:"black"`
	GameID string `json:"game_id,omitempty"`
	Result string `json:"result,omitempty"`
}

func (wb *Web) eventJSON(ctx context.Context, e *Event, me int64) EventJSON {
	v := wb.eventView(ctx, e, me)
	out := EventJSON{ID: e.ID, Name: e.Name, Status: string(e.Status), Settings: e.Settings, TieBreaks: v.TieBreaks, Players: []PlayerJSON{}}
	if !e.Start.IsZero() {
		out.Start = e.Start.UnixMilli()
	}
	for _, st := range v.Standings {
		out.Players = append(out.Players, PlayerJSON{Start: st.Start, Name: st.Name, Rating: st.Rating, Points: st.Points, Rank: st.Rank, Withdrawn: st.Out,
			TieBreaks: st.Exact})
	}
	for _, a := range v.Arena {
		out.Players = append(out.Players, PlayerJSON{Start: a.Entry.Start, Name: a.Entry.Name, Rating: a.Entry.Rating,
			Points: strconv.Itoa(a.Score), Rank: a.Rank, Withdrawn: a.Entry.Withdrawn})
	}
	for _, r := range v.Pairings {
		rj := RoundJSON{Round: r.Round}
		for _, g := range r.Games {
			rj.Games = append(rj.Games, GameJSON{Board: g.Board, White: g.WStart, Black: g.BStart, GameID: g.GameID, Result: g.Result})
		}
		out.Rounds = append(out.Rounds, rj)
	}
	return out
}

func (wb *Web) apiEvents(w http.ResponseWriter, r *http.Request) error {
	if err := wb.eventsOn(); err != nil {
		return err
	}
	type item struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Status  string `json:"status"`
		Players int    `json:"players"`
		Start   int64  `json:"start_ms,omitempty"`
	}
	// The upcoming and running events all, the finished ones a page of
	// them (?page=), as /events shows them.
	out := []item{}
	var fin []*Event
	list := []*Event{}
	for _, e := range wb.m.List() {
		if e.Status == Upcoming || e.Status == Running {
			list = append(list, e)
		} else {
			fin = append(fin, e)
		}
	}
	shown, _, older := site.PageOf(fin, site.PageParam(r), FinishedListed)
	for _, e := range append(list, shown...) {
		it := item{ID: e.ID, Name: e.Name, Kind: string(e.Settings.Kind), Status: string(e.Status), Players: len(e.Entries)}
		if !e.Start.IsZero() {
			it.Start = e.Start.UnixMilli()
		}
		out = append(out, it)
	}
	res := map[string]any{"events": out}
	if older > 0 {
		res["older_page"] = older
	}
	return site.WriteJSON(w, http.StatusOK, res)
}

func (wb *Web) apiEvent(w http.ResponseWriter, r *http.Request) error {
	e, err := wb.event(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, wb.eventJSON(r.Context(), e, wb.kit.Identity(r).Account.ID))
}

// logLines writes the arbiter's log in lang: each action's sentence
// (event.log.<action>) with the arbiter's name and the action's
// arguments; an entry written before the log kept its arguments (English
// text) as it was written.
func logLines(cat *i18n.Catalog, lang string, log []store.EventAction) []LogLine {
	out := make([]LogLine, len(log))
	for i, a := range log {
		out[i] = LogLine{At: a.At, Text: a.Name + " " + a.Action + " " + a.Detail}
		var args []any
		if json.Unmarshal([]byte(a.Detail), &args) != nil || !cat.Has("event.log."+a.Action) {
			continue
		}
		words := []any{a.Name}
		for k, v := range args {
			switch v := v.(type) {
			case float64:
				words = append(words, int(v)) // JSON's numbers: rounds, boards, counts
			case string:
				switch {
				case a.Action == "clock" && k == 0:
					words = append(words, cat.T(lang, "game."+v))
				case a.Action == "result" && v == "":
					words = append(words, cat.T(lang, "event.log.none"))
				default:
					words = append(words, v)
				}
			default:
				words = append(words, v)
			}
		}
		out[i].Text = cat.T(lang, "event.log."+a.Action, words...)
	}
	return out
}

// LogLine is an entry of the arbiter's log as the page shows it.
type LogLine struct {
	At   time.Time
	Text string
}
