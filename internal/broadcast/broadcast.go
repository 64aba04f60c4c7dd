// Package broadcast is the broadcasts: over-the-board events relayed live
// by their broadcaster (an account). Round by round he either enters each
// game's score sheet, a form per game whose plies the rules library checks
// one by one, or uploads the round's TRF (players, pairings, results;
// internal/tournament reads it) with its records (any format the rules
// library reads). Viewers of /broadcast/{id} get a server-sent event at
// each change (GET /api/broadcasts/{id}/events) and the page fetches
// itself again.
//
// The package owns the feed, the standings, the entry and the upload, its
// store port (Store) and its routes (Routes). Its invariants: every ply
// stored was played by the rules library from the start of the
// broadcast's ruleset, and only the broadcaster writes; no viewer can make
// the server queue more than one change for him (feed).
package broadcast

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// Store keeps the broadcasts (internal/store, migration 00006;
// *store.Store satisfies it).
type Store interface {
	CreateBroadcast(ctx context.Context, b store.Broadcast, max int) (int64, error)
	Broadcasts(ctx context.Context, limit int) ([]store.Broadcast, error)
	LoadBroadcast(ctx context.Context, id int64) (*store.Broadcast, error)
	AddBroadcastGame(ctx context.Context, bid int64, g store.BroadcastGame) (int64, error)
	AppendBroadcastPlies(ctx context.Context, bid, id int64, from int, plies []string, result string) error
	SaveBroadcastRound(ctx context.Context, bid int64, r int, trf string, games []store.BroadcastGame) error
}

// Config is what the broadcasts are given by the site.
type Config struct {
	// Store keeps them (nil: the pages answer 404).
	Store Store
	// MaxRecords bounds the games of the records of an upload: the
	// import's bound.
	MaxRecords int
	// RulesError is the site's error of an error of the rules library,
	// pointing at the place (line, game, ply) it names.
	RulesError func(status int, code apierr.Code, err error) *apierr.Error
}

// Service is the broadcasts of a site: its handlers and the viewers'
// feed.
type Service struct {
	kit        site.Kit
	st         Store
	maxRecords int
	rulesError func(status int, code apierr.Code, err error) *apierr.Error
	feed       feed
}

// New returns the broadcasts of the site kit with cfg.
func New(kit site.Kit, cfg Config) *Service {
	return &Service{kit: kit, st: cfg.Store, maxRecords: cfg.MaxRecords, rulesError: cfg.RulesError}
}

// The bounds of broadcasts: what one account may make the server keep and
// what one broadcast may make it send. An upload takes the import's body
// limit (the site gives it to IsUpload's paths) and its bound on games
// (Config.MaxRecords).
const (
	// MaxPerAccount bounds the broadcasts of one account and MaxRounds
	// the rounds of one.
	MaxPerAccount       = 20
	MaxRounds           = 30
	maxBroadcastGames   = 200 // games of one round
	maxBroadcastPlies   = 600 // plies of one game
	maxBroadcastName    = 80  // bytes of a broadcast's name
	maxBroadcastPlayer  = 64  // bytes of a player's name
	maxBroadcastsListed = 50
	// maxBroadcastViewers bounds the event streams of one broadcast and
	// maxBroadcastViewersPerAddr those of one client address over all.
	maxBroadcastViewers        = 2000
	maxBroadcastViewersPerAddr = 20
	// broadcastPing keeps the streams' proxies from closing them.
	broadcastPing = 25 * time.Second
)

// feed is the fan-out of the broadcasts' changes: each viewer
// has a channel of one slot, so a change while he has not read the last
// is folded into it; no viewer can make the server queue more. The
// changes of one broadcast are told at most once every broadcastGap (the
// first at once, the last never lost), since each makes every viewer's
// page fetch the round again. It also keeps the last loaded state of the
// broadcasts being watched, which every write through this server
// forgets, so that those fetches do not each read the database.
type feed struct {
	mu     sync.Mutex
	subs   map[int64]map[chan struct{}]struct{}
	byAddr map[string]int
	state  map[int64]*feedState
}

// feedState is a watched broadcast: when it was last told, the telling
// waiting for its gap, and its state as last loaded (nil: to load).
type feedState struct {
	last   time.Time
	timer  *time.Timer
	cached *store.Broadcast
	gen    uint64 // counts the writes, so a load older than one is not kept
}

// broadcastGap is the least time between two changes told to a
// broadcast's viewers.
const broadcastGap = 300 * time.Millisecond

// subscribe adds a viewer of broadcast id from addr, or refuses him past
// the bounds.
func (f *feed) subscribe(id int64, addr string) (chan struct{}, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.subs == nil {
		f.subs, f.byAddr, f.state = map[int64]map[chan struct{}]struct{}{}, map[string]int{}, map[int64]*feedState{}
	}
	if len(f.subs[id]) >= maxBroadcastViewers || f.byAddr[addr] >= maxBroadcastViewersPerAddr {
		return nil, apierr.New(http.StatusTooManyRequests, apierr.CodeTooManySpectators, "apierr.broadcast_viewers")
	}
	if f.subs[id] == nil {
		f.subs[id] = map[chan struct{}]struct{}{}
		f.state[id] = &feedState{}
	}
	ch := make(chan struct{}, 1)
	f.subs[id][ch] = struct{}{}
	f.byAddr[addr]++
	return ch, nil
}

func (f *feed) unsubscribe(id int64, addr string, ch chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.subs[id], ch)
	if len(f.subs[id]) == 0 {
		delete(f.subs, id)
		if st := f.state[id]; st != nil && st.timer != nil {
			st.timer.Stop()
		}
		delete(f.state, id)
	}
	if f.byAddr[addr]--; f.byAddr[addr] <= 0 {
		delete(f.byAddr, addr)
	}
}

// publish tells the viewers of broadcast id that it changed.
func (f *feed) publish(id int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.state[id]
	if st == nil {
		return // nobody watches
	}
	st.cached = nil
	st.gen++
	if st.timer != nil {
		return // told at the end of the gap
	}
	if wait := broadcastGap - time.Since(st.last); wait > 0 {
		st.timer = time.AfterFunc(wait, func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.state[id] == st {
				st.timer = nil
				f.tellLocked(id, st)
			}
		})
		return
	}
	f.tellLocked(id, st)
}

func (f *feed) tellLocked(id int64, st *feedState) {
	st.last = time.Now()
	for ch := range f.subs[id] {
		select {
		case ch <- struct{}{}:
		default: // he has one waiting already
		}
	}
}

// cached returns the kept state of broadcast id (nil: none) and the
// generation to give keep after loading it.
func (f *feed) cached(id int64) (*store.Broadcast, uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st := f.state[id]; st != nil {
		return st.cached, st.gen
	}
	return nil, 0
}

// keep keeps b, loaded at generation gen, as the state of a watched
// broadcast, unless a write came since.
func (f *feed) keep(b *store.Broadcast, gen uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st := f.state[b.ID]; st != nil && st.gen == gen {
		st.cached = b
	}
}

// ---- the view of a broadcast ----

// bcGame is a game as the pages and the API show it.
type bcGame struct {
	ID     int64    `json:"id"`
	Round  int      `json:"round"`
	Board  int      `json:"board"`
	White  string   `json:"white"`
	Black  string   `json:"black"`
	Result string   `json:"result"`
	Plies  []string `json:"plies"`
	FEN    string   `json:"fen"`
	// Analysis opens the game's current position on the analysis board.
	Analysis string `json:"analysis"`
	// Moves is the score sheet, numbered: "1. 76 98 2. 48".
	Moves string `json:"-"`
}

// bcStanding is a line of the standings of an uploaded round's TRF.
type bcStanding struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	Points float64 `json:"points"`
}

// bcView is a broadcast as its page and GET /api/broadcasts/{id} show it.
type bcView struct {
	ID        int64        `json:"id"`
	Name      string       `json:"name"`
	Owner     string       `json:"owner"`
	Ruleset   string       `json:"ruleset"`
	Rounds    int          `json:"rounds"`
	Round     int          `json:"round"` // the round shown
	Games     []bcGame     `json:"games"`
	Standings []bcStanding `json:"standings"`
	// RoundList is 1..Rounds for the round links.
	RoundList []int  `json:"-"`
	Mine      bool   `json:"-"`
	Error     string `json:"-"`
	// ErrorGame is the game whose entry failed and Paste its text, shown
	// back in its form.
	ErrorGame int64  `json:"-"`
	Paste     string `json:"-"`
}

func (s *Service) broadcasts() (Store, error) {
	if s.st == nil {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcasts")
	}
	return s.st, nil
}

// loadBroadcast reads broadcast {id} of r.
func (s *Service) loadBroadcast(r *http.Request) (*store.Broadcast, error) {
	bs, err := s.broadcasts()
	if err != nil {
		return nil, err
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcast")
	}
	b, gen := s.feed.cached(id)
	if b != nil {
		return b, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	b, err = bs.LoadBroadcast(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcast")
	}
	if err == nil {
		s.feed.keep(b, gen)
	}
	return b, err
}

// view builds the view of round (0: the last round with games) of b.
func (s *Service) broadcastView(b *store.Broadcast, round int, who site.Identity) (bcView, error) {
	v := bcView{ID: b.ID, Name: b.Name, Owner: b.OwnerName, Ruleset: b.Ruleset, Rounds: b.Rounds, Round: round,
		Mine: who.Account.ID != 0 && who.Account.ID == b.OwnerID, Games: []bcGame{}, Standings: []bcStanding{}}
	for i := 1; i <= b.Rounds; i++ {
		v.RoundList = append(v.RoundList, i)
	}
	if v.Round == 0 {
		v.Round = 1
		for _, g := range b.Games {
			v.Round = max(v.Round, g.Round)
		}
	}
	rules, err := toguz.ParseRules(b.Ruleset)
	if err != nil {
		return v, err
	}
	for _, g := range b.Games {
		if g.Round != v.Round {
			continue
		}
		bg := bcGame{ID: g.ID, Round: g.Round, Board: g.Board, White: g.White, Black: g.Black, Result: g.Result, Plies: slices.Clone(g.Plies)}
		if bg.Plies == nil {
			bg.Plies = []string{}
		}
		p, _, err := replaySheet(rules, g.Plies)
		if err != nil {
			return v, fmt.Errorf("broadcast %d game %d: %w", b.ID, g.ID, err)
		}
		bg.FEN = p.FEN()
		bg.Analysis = "/analysis?" + url.Values{"ruleset": {b.Ruleset}, "fen": {bg.FEN}}.Encode()
		bg.Moves = numberedSheet(g.Plies)
		v.Games = append(v.Games, bg)
	}
	// The standings come from the TRF of the last round uploaded up to
	// the one shown, else from the results entered up to it.
	for r := v.Round; r >= 1; r-- {
		if trf := b.TRF[r]; trf != "" {
			v.Standings = trfStandings(trf, r)
			return v, nil
		}
	}
	v.Standings = resultStandings(b.Games, v.Round)
	return v, nil
}

// resultStandings is the table of the results entered in rounds 1..r: 1
// a win, ½ a draw, by the players' names as written; the players of
// games without a result are listed with what they have.
func resultStandings(games []store.BroadcastGame, r int) []bcStanding {
	points := map[string]float64{}
	var order []string
	add := func(name string, p float64) {
		if _, ok := points[name]; !ok {
			order = append(order, name)
		}
		points[name] += p
	}
	played := false
	for _, g := range games {
		if g.Round > r {
			continue
		}
		w, b := 0.0, 0.0
		switch g.Result {
		case "1-0":
			w = 1
		case "0-1":
			b = 1
		case "1/2-1/2":
			w, b = 0.5, 0.5
		}
		played = played || g.Result != ""
		add(g.White, w)
		add(g.Black, b)
	}
	out := []bcStanding{}
	if !played {
		return out
	}
	for _, n := range order {
		out = append(out, bcStanding{Name: n, Points: points[n]})
	}
	slices.SortStableFunc(out, func(a, b bcStanding) int {
		switch {
		case a.Points > b.Points:
			return -1
		case a.Points < b.Points:
			return 1
		}
		return 0
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// numberedSheet writes the plies as a score sheet, "1. 76 98 2. 48".
func numberedSheet(plies []string) string {
	var b strings.Builder
	for i, p := range plies {
		if i > 0 {
			b.WriteByte(' ')
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(p)
	}
	return b.String()
}

// replaySheet plays the stored plies from the start of rules.
func replaySheet(rules toguz.Rules, plies []string) (toguz.Position, []toguz.Move, error) {
	p, err := toguz.NewPosition(rules)
	if err != nil {
		return p, nil, err
	}
	moves, p, err := toguz.ParsePlies(p, strings.Join(plies, " "))
	return p, moves, err
}

// trfStandings is the table of the TRF after round r: points, then the
// order of the file.
func trfStandings(trf string, r int) []bcStanding {
	e, err := tournament.ReadTRF(strings.NewReader(trf))
	if err != nil {
		return []bcStanding{}
	}
	var out []bcStanding
	for i := range e.Players {
		p := &e.Players[i]
		out = append(out, bcStanding{Name: p.Name, Points: e.Score(p, r)})
	}
	slices.SortStableFunc(out, func(a, b bcStanding) int {
		switch {
		case a.Points > b.Points:
			return -1
		case a.Points < b.Points:
			return 1
		}
		return 0
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// ---- entering a score sheet ----

// appendSheet checks the plies typed or pasted for game g of b and
// returns the new ones: the text is the plies to add or, when whole, the
// whole sheet, whose first plies must be the ones entered (the same ply
// may be written by both sides, so only the arbiter can say which it
// is). Each ply is played by the rules library; the error names the ply
// (its number in the game) and why.
func (s *Service) appendSheet(rules toguz.Rules, g store.BroadcastGame, text string, whole bool) ([]string, error) {
	words := strings.Fields(text)
	if whole {
		for i, p := range g.Plies {
			if i >= len(words) || words[i] != p {
				return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_sheet_differs", i+1, p)
			}
		}
		words = words[len(g.Plies):]
	}
	if len(g.Plies)+len(words) > maxBroadcastPlies {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_plies", maxBroadcastPlies)
	}
	p, _, err := replaySheet(rules, g.Plies)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, w := range words {
		y, err := toguz.ParsePly(w)
		if err == nil {
			var next toguz.Position
			if next, err = p.PlayPly(y); err == nil {
				p = next
				out = append(out, y.String())
				continue
			}
		}
		return nil, s.plyError(len(g.Plies)+i+1, w, err)
	}
	return out, nil
}

// plyError is the error of ply n of a game, written w: the rules
// library's error, pointing at the ply.
func (s *Service) plyError(n int, w string, err error) error {
	var ne *toguz.NotationError
	msg := w
	cause := err
	switch {
	case errors.As(err, &ne):
		msg, cause = ne.Error(), toguz.ErrNotation
	case errors.Is(err, toguz.ErrSyntax):
		msg, cause = strings.TrimPrefix(err.Error(), toguz.ErrSyntax.Error()+": "), toguz.ErrSyntax
	}
	return s.rulesError(http.StatusBadRequest, apierr.CodeIllegalMove, &toguz.ParseError{Ply: n, Msg: msg, Err: cause})
}

// gameResult reads a result the broadcaster chose: "", 1-0, 0-1 or
// 1/2-1/2.
func gameResult(s string) (string, error) {
	switch s {
	case "", "1-0", "0-1", "1/2-1/2":
		return s, nil
	}
	return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_result", site.Excerpt(s))
}

// enterPlies appends the plies of text (and the result) to game gid of b.
func (s *Service) enterPlies(ctx context.Context, b *store.Broadcast, gid int64, text string, whole bool, result string) error {
	i := slices.IndexFunc(b.Games, func(g store.BroadcastGame) bool { return g.ID == gid })
	if i < 0 {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcast_game")
	}
	g := b.Games[i]
	rules, err := toguz.ParseRules(b.Ruleset)
	if err != nil {
		return err
	}
	res, err := gameResult(result)
	if err != nil {
		return err
	}
	plies, err := s.appendSheet(rules, g, text, whole)
	if err != nil {
		return err
	}
	if res == "" {
		// The rules end the game themselves: its result is theirs.
		p, _, err := replaySheet(rules, append(slices.Clone(g.Plies), plies...))
		if err != nil {
			return err
		}
		if o := p.Outcome(); o.Result != toguz.NoResult {
			res = o.Result.String()
		}
	}
	err = s.st.AppendBroadcastPlies(ctx, b.ID, gid, len(g.Plies), plies, res)
	if errors.Is(err, store.ErrConflict) {
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.broadcast_stale")
	}
	if err == nil {
		s.feed.publish(b.ID)
	}
	return err
}

// addBroadcastGame adds a board of round to b.
func (s *Service) addBroadcastGame(ctx context.Context, b *store.Broadcast, round, board int, white, black string) error {
	if round < 1 || round > b.Rounds {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_round", b.Rounds)
	}
	if board < 1 || board > maxBroadcastGames {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_board", maxBroadcastGames)
	}
	white, black = strings.TrimSpace(white), strings.TrimSpace(black)
	if err := playerName(white); err != nil {
		return err
	}
	if err := playerName(black); err != nil {
		return err
	}
	_, err := s.st.AddBroadcastGame(ctx, b.ID, store.BroadcastGame{Round: round, Board: board, White: white, Black: black})
	if errors.Is(err, store.ErrConflict) {
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.broadcast_board_taken", board)
	}
	if err == nil {
		s.feed.publish(b.ID)
	}
	return err
}

func playerName(n string) error {
	if n == "" || len(n) > maxBroadcastPlayer || !utf8.ValidString(n) {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_player", maxBroadcastPlayer)
	}
	return nil
}

// ---- uploading a round ----

// uploadRound builds round r of b from a TRF (its pairings and results)
// and records: a record's game is put on the board whose players its
// White and Black tags name, else on the boards in the order of the file.
func (s *Service) uploadRound(ctx context.Context, b *store.Broadcast, r int, trf, records string) error {
	if r < 1 || r > b.Rounds {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_round", b.Rounds)
	}
	rules, err := toguz.ParseRules(b.Ruleset)
	if err != nil {
		return err
	}
	e, err := tournament.ReadTRF(strings.NewReader(trf))
	if err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_trf").WithDetail(err)
	}
	if r > e.Rounds {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_trf_round", r)
	}
	games := trfGames(e, r)
	if len(games) == 0 {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_trf_round", r)
	}
	if len(games) > maxBroadcastGames {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_games", maxBroadcastGames)
	}
	if strings.TrimSpace(records) != "" {
		if err := s.placeRecords(rules, games, records); err != nil {
			return err
		}
	}
	if err := s.st.SaveBroadcastRound(ctx, b.ID, r, trf, games); err != nil {
		return err
	}
	s.feed.publish(b.ID)
	return nil
}

// trfGames is the games of round r of the TRF e, byes left out, on
// boards 1, 2, … in the order of its pairings.
func trfGames(e *tournament.Event, r int) []store.BroadcastGame {
	var games []store.BroadcastGame
	for _, pr := range e.Pairs(r) {
		if pr.White == 0 || pr.Black == 0 {
			continue // a bye is not a game
		}
		w, bl := e.Player(pr.White), e.Player(pr.Black)
		g := store.BroadcastGame{Round: r, Board: len(games) + 1, White: w.Name, Black: bl.Name, Result: trfResult(w.Entry(r).Code)}
		games = append(games, g)
	}
	return games
}

// placeRecords puts the moves (and the result, where the TRF has none)
// of each game of records on its board of games.
func (s *Service) placeRecords(rules toguz.Rules, games []store.BroadcastGame, records string) error {
	recs, err := toguz.ParseGames("records", []byte(records), 0)
	if err != nil {
		return s.rulesError(http.StatusBadRequest, apierr.CodeBadRequest, err)
	}
	if len(recs) > s.maxRecords {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_games", s.maxRecords)
	}
	for i, rec := range recs {
		k := slices.IndexFunc(games, func(g store.BroadcastGame) bool {
			return strings.EqualFold(g.White, rec.Tag("White")) && strings.EqualFold(g.Black, rec.Tag("Black"))
		})
		if k < 0 && i < len(games) && rec.Tag("White") == "" {
			k = i
		}
		if k < 0 {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_record_board", i+1, site.Excerpt(rec.Tag("White")), site.Excerpt(rec.Tag("Black")))
		}
		plies, err := sheetOf(rules, rec)
		if err != nil {
			return s.rulesError(http.StatusBadRequest, apierr.CodeBadRequest, fmt.Errorf("game %d: %w", i+1, err))
		}
		games[k].Plies = plies
		if games[k].Result == "" && rec.Result != toguz.NoResult {
			games[k].Result = rec.Result.String()
		}
	}
	return nil
}

// sheetOf writes the plies of a record as the score sheet does, played
// from the start of the broadcast's rules.
func sheetOf(rules toguz.Rules, g *toguz.Game) ([]string, error) {
	p, err := toguz.NewPosition(rules)
	if err != nil {
		return nil, err
	}
	moves := g.Moves()
	if len(moves) > maxBroadcastPlies {
		return nil, fmt.Errorf("%d plies: %w", len(moves), toguz.ErrTooLarge)
	}
	var out []string
	for _, m := range moves {
		if err := p.CheckMove(m); err != nil {
			return nil, err
		}
		y, next := p.Ply(m)
		out = append(out, y.String())
		p = next
	}
	return out, nil
}

// trfResult is White's TRF code of a round as a game's result.
func trfResult(c tournament.Code) string {
	switch c {
	case tournament.Win, tournament.ForfeitWin, tournament.WinUnrated:
		return "1-0"
	case tournament.Loss, tournament.ForfeitLoss, tournament.LossUnrated:
		return "0-1"
	case tournament.Draw, tournament.DrawUnrated:
		return "1/2-1/2"
	}
	return ""
}
