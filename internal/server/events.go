package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// eventErrorKeys are the catalog keys of package events' refusals.
var eventErrorKeys = []string{"apierr.event_forbidden", "apierr.no_event", "apierr.event_tc", "apierr.event_rounds",
	"apierr.event_minutes", "apierr.event_kind", "apierr.event_repetition", "apierr.event_limits", "apierr.event_name",
	"apierr.event_no_swiss", "apierr.event_start", "apierr.event_too_many", "apierr.event_joined", "apierr.event_closed",
	"apierr.event_full", "apierr.event_rating", "apierr.event_section", "apierr.event_not_joined", "apierr.event_started",
	"apierr.event_unchanged", "apierr.event_berserk", "apierr.event_arbiters", "apierr.event_result",
	"apierr.event_no_pairing", "apierr.event_no_player", "apierr.event_clock", "apierr.event_repair", "apierr.event_pairs",
	"apierr.event_no_round", "apierr.event_account", "apierr.event_no_user", "apierr.events_off", "apierr.event_no_trf"}

// eventError turns a refusal of package events into the API's error.
func eventError(err error) error {
	var ee *events.Error
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

func (s *Server) eventsOn() error {
	if s.cfg.Events == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.events_off")
	}
	return nil
}

// eventAccount is the account of a request that changes an event: events
// are for accounts, not guests (their entries carry a rating).
func (s *Server) eventAccount(r *http.Request) (site.Account, error) {
	if err := s.eventsOn(); err != nil {
		return site.Account{}, err
	}
	id := s.Identity(r)
	if id.Account.ID == 0 {
		return site.Account{}, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.event_account")
	}
	return id.Account, nil
}

// ---- /events ----

type eventsData struct {
	Upcoming, Running, Finished []*events.Event
	// Newer and Older are the pages of the finished events either side
	// of this one (0: none).
	Newer, Older int
	CanCreate    bool
	Swiss        bool
	Kinds        []string
	TCs          []string
	Rulesets     []string
}

// finishedListed is the finished events a page of /events lists (and of
// GET /api/events): the older ones are on the next pages, ?page=2, ….
const finishedListed = 50

// pageOf returns page (1, 2, …; anything else is 1) of list, size a
// page, and the numbers of the newer and older pages (0 where there is
// none): the lists it pages are newest first. A page past the last is
// empty, its newer page the last.
func pageOf[T any](list []T, page, size int) (shown []T, newer, older int) {
	pages := (len(list) + size - 1) / size
	if page < 1 {
		page = 1
	}
	if page > 1 {
		newer = min(page-1, max(pages, 1))
	}
	if page > pages {
		return nil, newer, 0
	}
	from := (page - 1) * size
	to := min(from+size, len(list))
	if to < len(list) {
		older = page + 1
	}
	return list[from:to], newer, older
}

// pageParam reads ?page=: 1 when it is absent or not a number.
func pageParam(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

func (s *Server) pageEvents(w http.ResponseWriter, r *http.Request) error {
	if err := s.eventsOn(); err != nil {
		return err
	}
	d := eventsData{CanCreate: s.Identity(r).Account.ID != 0, Swiss: s.cfg.Events.SwissAvailable(),
		TCs: []string{"3+2", "5+3", "10+5", "15+10", "30+0"}, Rulesets: toguz.RulesetNames()}
	d.Kinds = []string{string(events.RoundRobin), string(events.DoubleRoundRobin), string(events.Arena)}
	if d.Swiss {
		d.Kinds = append([]string{string(events.Swiss)}, d.Kinds...)
	}
	var fin []*events.Event
	for _, e := range s.cfg.Events.List() {
		switch e.Status {
		case events.Upcoming:
			d.Upcoming = append(d.Upcoming, e)
		case events.Running:
			d.Running = append(d.Running, e)
		default:
			fin = append(fin, e)
		}
	}
	d.Finished, d.Newer, d.Older = pageOf(fin, pageParam(r), finishedListed)
	return s.Render(w, http.StatusOK, "events", s.Page(r, "events.title", d))
}

func eventInt(r *http.Request, name string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(r.FormValue(name)))
	return n
}

func (s *Server) pageCreateEvent(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.eventAccount(r)
	if err != nil {
		return err
	}
	st := events.Settings{Kind: events.Kind(r.FormValue("kind")), Rules: r.FormValue("ruleset"), TC: r.FormValue("tc"),
		Rounds: eventInt(r, "rounds"), Minutes: eventInt(r, "minutes"), MinRating: eventInt(r, "min_rating"),
		MaxRating: eventInt(r, "max_rating"), MinAge: eventInt(r, "min_age"), MaxAge: eventInt(r, "max_age"),
		Sex: r.FormValue("sex"), Repetition: eventInt(r, "repetition"), Rated: r.FormValue("rated") != "",
		Berserk: r.FormValue("berserk") != "", Publish: r.FormValue("publish") != "", MaxPlayers: eventInt(r, "max_players")}
	if st.Rules == "" {
		st.Rules = "standard"
	}
	var start time.Time
	if m := eventInt(r, "start_in"); m > 0 {
		start = time.Now().Add(time.Duration(m) * time.Minute)
	}
	e, err := s.cfg.Events.Create(r.Context(), acc.ID, r.FormValue("name"), start, st)
	if err != nil {
		return eventError(err)
	}
	return redirect(w, r, "/event/"+e.ID)
}

// ---- /event/{id} ----

// eventView is what the event page and its live part show to one viewer.
type eventView struct {
	E         *events.Event
	Me        int64
	Mine      *events.Entry
	Arbiter   bool
	CanJoin   bool
	Rounds    int // planned
	Shown     int // the rounds whose results this viewer sees
	Standings []standingRow
	TieBreaks []string // the names of the standings' tie-breaks, in order
	Arena     []events.ArenaLine
	Cross     [][]string // a round robin's cross table: Cross[i][j], player i against j
	Pairings  []roundView
	Log       []store.EventAction
	Ends      string
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

func (s *Server) eventView(ctx context.Context, e *events.Event, me int64) eventView {
	v := eventView{E: e, Me: me, Mine: e.EntryOf(me), Arbiter: e.IsArbiter(me)}
	v.CanJoin = me != 0 && e.Status != events.Finished && (v.Mine == nil || v.Mine.Withdrawn || v.Mine.Paused) &&
		!(e.Status == events.Running && (e.Settings.Kind == events.RoundRobin || e.Settings.Kind == events.DoubleRoundRobin))
	if v.Mine != nil && (e.Settings.Kind != events.Arena) && v.Mine.Withdrawn {
		v.CanJoin = false
	}
	v.Shown = shownRounds(e, me)
	if t := e.Ends(); !t.IsZero() && e.Status != events.Upcoming {
		v.Ends = t.UTC().Format("2006-01-02 15:04 UTC")
	}
	name := func(start int) string {
		if p := e.Player(start); p != nil {
			return p.Name
		}
		return ""
	}
	for _, r := range e.Rounds {
		rv := roundView{Round: r.Round}
		for _, p := range r.Pairings {
			pv := pairView{Board: p.Board, White: name(p.White), Black: name(p.Black), WStart: p.White, BStart: p.Black,
				GameID: p.GameID, Playing: p.Result == "" && p.GameID != "", Bye: p.Black == 0}
			if p.GameID != "" && s.cfg.Events.Starting(p.GameID) {
				// Not yet on the hub: no link to a game that is not there.
				pv.GameID, pv.Playing = "", false
			}
			if r.Round <= v.Shown && !pv.Bye {
				pv.Result = p.Result
			}
			rv.Games = append(rv.Games, pv)
		}
		v.Pairings = append(v.Pairings, rv)
	}
	if e.Settings.Kind == events.Arena {
		v.Arena = events.ArenaScore(e, v.Shown)
		if v.Shown == 0 && len(e.Rounds) > 0 {
			v.Arena = events.ArenaScore(e, -1)
		}
	} else {
		te := e.Tournament(resultsUpto(v.Shown))
		v.Rounds = te.Rounds
		for _, tb := range te.TieBreaks {
			v.TieBreaks = append(v.TieBreaks, tb.String())
		}
		for _, st := range te.Standings(0) {
			row := standingRow{Rank: st.Rank, Start: st.Player.Start, Name: st.Player.Name, Rating: st.Player.Rating,
				Points: points(st.Points), Out: e.Player(st.Player.Start).Withdrawn}
			for j, val := range st.Values {
				row.Values = append(row.Values, tournament.ValueText(te.TieBreaks[j], val))
			}
			row.Exact = st.Values
			for ri, en := range st.Player.Rounds {
				if ri >= v.Shown {
					break
				}
				row.History = append(row.History, history(en))
			}
			v.Standings = append(v.Standings, row)
		}
		if e.Settings.Kind != events.Swiss {
			n := len(te.Players)
			v.Cross = make([][]string, n)
			for i := range te.Players {
				v.Cross[i] = make([]string, n)
				for ri, en := range te.Players[i].Rounds {
					if ri < v.Shown && en.Opponent > 0 && en.Code != tournament.Pending {
						v.Cross[i][en.Opponent-1] += cell(en.Code)
					}
				}
			}
		}
	}
	if v.Arbiter {
		v.Log, _ = s.cfg.Events.Log(ctx, e.ID)
	}
	return v
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

func (s *Server) event(r *http.Request) (*events.Event, error) {
	if err := s.eventsOn(); err != nil {
		return nil, err
	}
	e, ok := s.cfg.Events.Get(r.PathValue("id"))
	if !ok {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_event")
	}
	return e, nil
}

func (s *Server) pageEvent(w http.ResponseWriter, r *http.Request) error {
	e, err := s.event(r)
	if err != nil {
		return err
	}
	v := s.eventView(r.Context(), e, s.Identity(r).Account.ID)
	return s.Render(w, http.StatusOK, "event", s.Page(r, "event.title", v, e.Name))
}

// pageEventLive is the event page's live part (standings, cross table,
// rounds), which events.js fetches every few seconds with the ETag of the
// last one: 304 while nothing changed.
func (s *Server) pageEventLive(w http.ResponseWriter, r *http.Request) error {
	e, err := s.event(r)
	if err != nil {
		return err
	}
	v := s.eventView(r.Context(), e, s.Identity(r).Account.ID)
	var b bytes.Buffer
	if err := s.pages.RenderPart(&b, "event", "eventlive", s.Page(r, "event.title", v, e.Name)); err != nil {
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

// pageEventTRF is the event as a TRF-16 file (internal/tournament's
// WriteTRF: players, rounds, results, the tie-breaks' order), for the
// federations' software and `toguz tournament`; with the Publish rule it
// holds the results this viewer may see.
// shownRounds is the number of e's rounds whose results viewer sees: all
// of them, unless the event publishes its rounds and viewer is not one of
// its arbiters.
func shownRounds(e *events.Event, viewer int64) int {
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

func (s *Server) pageEventTRF(w http.ResponseWriter, r *http.Request) error {
	e, err := s.event(r)
	if err != nil {
		return err
	}
	if e.Settings.Kind == events.Arena {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.event_no_trf")
	}
	var b bytes.Buffer
	if err := e.Tournament(resultsUpto(shownRounds(e, s.Identity(r).Account.ID))).WriteTRF(&b); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+e.ID+`.trf"`)
	_, err = w.Write(b.Bytes())
	return err
}

func (s *Server) backToEvent(w http.ResponseWriter, r *http.Request) error {
	return redirect(w, r, "/event/"+r.PathValue("id"))
}

func (s *Server) pageJoinEvent(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.eventAccount(r)
	if err != nil {
		return err
	}
	e, err := s.event(r)
	if err != nil {
		return err
	}
	rating := 0
	if tc, err := clock.ParseTimeControl(e.Settings.TC); err == nil {
		rating = SeatRating(s.cfg.Archive)(r.Context(), live.UserSeat(acc.ID, acc.Name), tc)
	}
	if _, err := s.cfg.Events.Join(r.Context(), e.ID, events.Player{UserID: acc.ID, Name: acc.Name, Rating: rating,
		BirthYear: eventInt(r, "birth_year"), Sex: r.FormValue("sex")}); err != nil {
		return eventError(err)
	}
	return s.backToEvent(w, r)
}

func (s *Server) pageWithdrawEvent(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.eventAccount(r)
	if err != nil {
		return err
	}
	if _, err := s.cfg.Events.Withdraw(r.Context(), r.PathValue("id"), acc.ID); err != nil {
		return eventError(err)
	}
	return s.backToEvent(w, r)
}

func (s *Server) pageBerserk(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.eventAccount(r)
	if err != nil {
		return err
	}
	if err := s.cfg.Events.Berserk(r.Context(), r.PathValue("id"), acc.ID); err != nil {
		return eventError(err)
	}
	return s.backToEvent(w, r)
}

// pageArbiter runs one action of the arbiter's console.
func (s *Server) pageArbiter(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.eventAccount(r)
	if err != nil {
		return err
	}
	ctx, id, m := r.Context(), r.PathValue("id"), s.cfg.Events
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
		var ids []int64
		for _, name := range strings.Fields(strings.ReplaceAll(r.FormValue("names"), ",", " ")) {
			if len(ids) > events.MaxArbiters {
				break
			}
			uid, uerr := s.cfg.EventUser(ctx, name)
			if uerr != nil {
				return apierr.BadRequest(apierr.CodeBadRequest, "apierr.event_no_user", name)
			}
			ids = append(ids, uid)
		}
		err = m.SetArbiters(ctx, id, acc.ID, ids)
	default:
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_page", excerpt(r.URL.Path))
	}
	if err != nil {
		return eventError(err)
	}
	return s.backToEvent(w, r)
}

// ---- the API ----

type eventJSON struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Status   string          `json:"status"`
	Settings events.Settings `json:"settings"`
	Start    int64           `json:"start_ms,omitempty"`
	// TieBreaks names the players' tie-breaks, in the order they rank.
	TieBreaks []string     `json:"tiebreaks,omitempty"`
	Players   []playerJSON `json:"players"`
	Rounds    []roundJSON  `json:"rounds,omitempty"`
}

type playerJSON struct {
	Start     int    `json:"start"`
	Name      string `json:"name"`
	Rating    int    `json:"rating"`
	Points    string `json:"points"`
	Rank      int    `json:"rank"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
	// TieBreaks are the values of eventJSON.TieBreaks, in its order.
	TieBreaks []float64 `json:"tiebreaks,omitempty"`
}

type roundJSON struct {
	Round int        `json:"round"`
	Games []gameJSON `json:"games"`
}

type gameJSON struct {
	Board  int    `json:"board"`
	White  int    `json:"white"`
	Black  int    `json:"black"`
	GameID string `json:"game_id,omitempty"`
	Result string `json:"result,omitempty"`
}

func (s *Server) eventJSON(ctx context.Context, e *events.Event, me int64) eventJSON {
	v := s.eventView(ctx, e, me)
	out := eventJSON{ID: e.ID, Name: e.Name, Status: string(e.Status), Settings: e.Settings, TieBreaks: v.TieBreaks, Players: []playerJSON{}}
	if !e.Start.IsZero() {
		out.Start = e.Start.UnixMilli()
	}
	for _, st := range v.Standings {
		out.Players = append(out.Players, playerJSON{Start: st.Start, Name: st.Name, Rating: st.Rating, Points: st.Points, Rank: st.Rank, Withdrawn: st.Out,
			TieBreaks: st.Exact})
	}
	for _, a := range v.Arena {
		out.Players = append(out.Players, playerJSON{Start: a.Entry.Start, Name: a.Entry.Name, Rating: a.Entry.Rating,
			Points: strconv.Itoa(a.Score), Rank: a.Rank, Withdrawn: a.Entry.Withdrawn})
	}
	for _, r := range v.Pairings {
		rj := roundJSON{Round: r.Round}
		for _, g := range r.Games {
			rj.Games = append(rj.Games, gameJSON{Board: g.Board, White: g.WStart, Black: g.BStart, GameID: g.GameID, Result: g.Result})
		}
		out.Rounds = append(out.Rounds, rj)
	}
	return out
}

func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) error {
	if err := s.eventsOn(); err != nil {
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
	var fin []*events.Event
	list := []*events.Event{}
	for _, e := range s.cfg.Events.List() {
		if e.Status == events.Upcoming || e.Status == events.Running {
			list = append(list, e)
		} else {
			fin = append(fin, e)
		}
	}
	shown, _, older := pageOf(fin, pageParam(r), finishedListed)
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

func (s *Server) apiEvent(w http.ResponseWriter, r *http.Request) error {
	e, err := s.event(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, s.eventJSON(r.Context(), e, s.Identity(r).Account.ID))
}
