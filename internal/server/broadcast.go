package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/svg"
)

// Broadcasts: an over-the-board event relayed live by its broadcaster (an
// account). Round by round he either enters each game's score sheet, a
// form per game whose plies the rules library checks one by one, or
// uploads the round's TRF (players, pairings, results; internal/tournament
// reads it) with its records (any format the rules library reads).
// Viewers of /broadcast/{id} get a server-sent event at each change
// (GET /api/broadcasts/{id}/events) and the page fetches itself again.
//
// Broadcasts keeps them (internal/store, migration 00006; nil: the pages
// answer 404).
type Broadcasts interface {
	CreateBroadcast(ctx context.Context, b store.Broadcast, max int) (int64, error)
	Broadcasts(ctx context.Context, limit int) ([]store.Broadcast, error)
	LoadBroadcast(ctx context.Context, id int64) (*store.Broadcast, error)
	AddBroadcastGame(ctx context.Context, bid int64, g store.BroadcastGame) (int64, error)
	AppendBroadcastPlies(ctx context.Context, bid, id int64, from int, plies []string, result string) error
	SaveBroadcastRound(ctx context.Context, bid int64, r int, trf string, games []store.BroadcastGame) error
}

// The bounds of broadcasts: what one account may make the server keep and
// what one broadcast may make it send. An upload takes the import's body
// limit (maxImportBody) and its bound on games (maxImportGames).
const (
	maxBroadcastsPerAccount = 20
	maxBroadcastRounds      = 30
	maxBroadcastGames       = 200 // games of one round
	maxBroadcastPlies       = 600 // plies of one game
	maxBroadcastName        = 80  // bytes of a broadcast's name
	maxBroadcastPlayer      = 64  // bytes of a player's name
	maxBroadcastsListed     = 50
	// maxBroadcastViewers bounds the event streams of one broadcast and
	// maxBroadcastViewersPerAddr those of one client address over all.
	maxBroadcastViewers        = 2000
	maxBroadcastViewersPerAddr = 20
	// broadcastPing keeps the streams' proxies from closing them.
	broadcastPing = 25 * time.Second
)

// broadcastFeed is the fan-out of the broadcasts' changes: each viewer
// has a channel of one slot, so a change while he has not read the last
// is folded into it; no viewer can make the server queue more. The
// changes of one broadcast are told at most once every broadcastGap (the
// first at once, the last never lost), since each makes every viewer's
// page fetch the round again. It also keeps the last loaded state of the
// broadcasts being watched, which every write through this server
// forgets, so that those fetches do not each read the database.
type broadcastFeed struct {
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
func (f *broadcastFeed) subscribe(id int64, addr string) (chan struct{}, error) {
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

func (f *broadcastFeed) unsubscribe(id int64, addr string, ch chan struct{}) {
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
func (f *broadcastFeed) publish(id int64) {
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

func (f *broadcastFeed) tellLocked(id int64, st *feedState) {
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
func (f *broadcastFeed) cached(id int64) (*store.Broadcast, uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st := f.state[id]; st != nil {
		return st.cached, st.gen
	}
	return nil, 0
}

// keep keeps b, loaded at generation gen, as the state of a watched
// broadcast, unless a write came since.
func (f *broadcastFeed) keep(b *store.Broadcast, gen uint64) {
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

func (s *Server) broadcasts() (Broadcasts, error) {
	if s.cfg.Broadcasts == nil {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcasts")
	}
	return s.cfg.Broadcasts, nil
}

// loadBroadcast reads broadcast {id} of r.
func (s *Server) loadBroadcast(r *http.Request) (*store.Broadcast, error) {
	bs, err := s.broadcasts()
	if err != nil {
		return nil, err
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcast")
	}
	b, gen := s.bcFeed.cached(id)
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
		s.bcFeed.keep(b, gen)
	}
	return b, err
}

// view builds the view of round (0: the last round with games) of b.
func (s *Server) broadcastView(b *store.Broadcast, round int, who site.Identity) (bcView, error) {
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
func appendSheet(rules toguz.Rules, g store.BroadcastGame, text string, whole bool) ([]string, error) {
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
		return nil, plyError(len(g.Plies)+i+1, w, err)
	}
	return out, nil
}

// plyError is the error of ply n of a game, written w: the rules
// library's error, pointing at the ply.
func plyError(n int, w string, err error) error {
	var ne *toguz.NotationError
	msg := w
	cause := err
	switch {
	case errors.As(err, &ne):
		msg, cause = ne.Error(), toguz.ErrNotation
	case errors.Is(err, toguz.ErrSyntax):
		msg, cause = strings.TrimPrefix(err.Error(), toguz.ErrSyntax.Error()+": "), toguz.ErrSyntax
	}
	return rulesError(http.StatusBadRequest, apierr.CodeIllegalMove, &toguz.ParseError{Ply: n, Msg: msg, Err: cause})
}

// gameResult reads a result the broadcaster chose: "", 1-0, 0-1 or
// 1/2-1/2.
func gameResult(s string) (string, error) {
	switch s {
	case "", "1-0", "0-1", "1/2-1/2":
		return s, nil
	}
	return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_result", excerpt(s))
}

// enterPlies appends the plies of text (and the result) to game gid of b.
func (s *Server) enterPlies(ctx context.Context, b *store.Broadcast, gid int64, text string, whole bool, result string) error {
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
	plies, err := appendSheet(rules, g, text, whole)
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
	err = s.cfg.Broadcasts.AppendBroadcastPlies(ctx, b.ID, gid, len(g.Plies), plies, res)
	if errors.Is(err, store.ErrConflict) {
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.broadcast_stale")
	}
	if err == nil {
		s.bcFeed.publish(b.ID)
	}
	return err
}

// addBroadcastGame adds a board of round to b.
func (s *Server) addBroadcastGame(ctx context.Context, b *store.Broadcast, round, board int, white, black string) error {
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
	_, err := s.cfg.Broadcasts.AddBroadcastGame(ctx, b.ID, store.BroadcastGame{Round: round, Board: board, White: white, Black: black})
	if errors.Is(err, store.ErrConflict) {
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.broadcast_board_taken", board)
	}
	if err == nil {
		s.bcFeed.publish(b.ID)
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
func (s *Server) uploadRound(ctx context.Context, b *store.Broadcast, r int, trf, records string) error {
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
	pairs := e.Pairs(r)
	var games []store.BroadcastGame
	for _, pr := range pairs {
		if pr.White == 0 || pr.Black == 0 {
			continue // a bye is not a game
		}
		w, bl := e.Player(pr.White), e.Player(pr.Black)
		g := store.BroadcastGame{Round: r, Board: len(games) + 1, White: w.Name, Black: bl.Name, Result: trfResult(w.Entry(r).Code)}
		games = append(games, g)
	}
	if len(games) == 0 {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_trf_round", r)
	}
	if len(games) > maxBroadcastGames {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_games", maxBroadcastGames)
	}
	if strings.TrimSpace(records) != "" {
		recs, err := toguz.ParseGames("records", []byte(records), 0)
		if err != nil {
			return rulesError(http.StatusBadRequest, apierr.CodeBadRequest, err)
		}
		if len(recs) > maxImportGames {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_games", maxImportGames)
		}
		for i, rec := range recs {
			k := slices.IndexFunc(games, func(g store.BroadcastGame) bool {
				return strings.EqualFold(g.White, rec.Tag("White")) && strings.EqualFold(g.Black, rec.Tag("Black"))
			})
			if k < 0 && i < len(games) && rec.Tag("White") == "" {
				k = i
			}
			if k < 0 {
				return apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_record_board", i+1, excerpt(rec.Tag("White")), excerpt(rec.Tag("Black")))
			}
			plies, err := sheetOf(rules, rec)
			if err != nil {
				return rulesError(http.StatusBadRequest, apierr.CodeBadRequest, fmt.Errorf("game %d: %w", i+1, err))
			}
			games[k].Plies = plies
			if games[k].Result == "" && rec.Result != toguz.NoResult {
				games[k].Result = rec.Result.String()
			}
		}
	}
	if err := s.cfg.Broadcasts.SaveBroadcastRound(ctx, b.ID, r, trf, games); err != nil {
		return err
	}
	s.bcFeed.publish(b.ID)
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

// ---- handlers ----

type broadcastsData struct {
	site.FormChoices
	List      []store.Broadcast
	CanCreate bool
	MaxRounds int
	Error     string
}

func (s *Server) pageBroadcasts(w http.ResponseWriter, r *http.Request) error {
	bs, err := s.broadcasts()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	list, err := bs.Broadcasts(ctx, maxBroadcastsListed)
	if err != nil {
		return err
	}
	id := s.Identity(r)
	d := broadcastsData{FormChoices: s.Choices(s.Lang(r), "", false), List: list, CanCreate: id.Account.ID != 0, MaxRounds: maxBroadcastRounds}
	return s.Render(w, http.StatusOK, "broadcasts", s.Page(r, "broadcast.list_title", d))
}

// createBroadcast makes a broadcast of account who.
func (s *Server) createBroadcast(ctx context.Context, who site.Identity, name, ruleset string, rounds int) (int64, error) {
	bs, err := s.broadcasts()
	if err != nil {
		return 0, err
	}
	if who.Account.ID == 0 {
		return 0, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.broadcast_account")
	}
	name = strings.TrimSpace(name)
	if name == "" || len(name) > maxBroadcastName || !utf8.ValidString(name) {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_name", maxBroadcastName)
	}
	rules, err := parseRuleset(ruleset)
	if err != nil {
		return 0, err
	}
	if rounds < 1 || rounds > maxBroadcastRounds {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_rounds", maxBroadcastRounds)
	}
	id, err := bs.CreateBroadcast(ctx, store.Broadcast{OwnerID: who.Account.ID, Name: name, Ruleset: rules.String(), Rounds: rounds}, maxBroadcastsPerAccount)
	if errors.Is(err, store.ErrLimit) {
		return 0, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.broadcast_many", maxBroadcastsPerAccount)
	}
	return id, err
}

func (s *Server) pageCreateBroadcast(w http.ResponseWriter, r *http.Request) error {
	rounds, _ := strconv.Atoi(r.FormValue("rounds"))
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id, err := s.createBroadcast(ctx, s.Identity(r), r.FormValue("name"), r.FormValue("ruleset"), rounds)
	if err != nil {
		return err
	}
	return redirect(w, r, "/broadcast/"+strconv.FormatInt(id, 10)+"/enter")
}

type createBroadcastRequest struct {
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	Rounds  int    `json:"rounds"`
}

func (s *Server) apiCreateBroadcast(w http.ResponseWriter, r *http.Request) error {
	var req createBroadcastRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id, err := s.createBroadcast(ctx, s.Identity(r), req.Name, req.Ruleset, req.Rounds)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"id": id})
}

// roundOf reads ?round= (0 when absent or wrong: the last round).
func roundOf(r *http.Request) int {
	n, _ := strconv.Atoi(r.URL.Query().Get("round"))
	return max(n, 0)
}

func (s *Server) pageBroadcast(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	v, err := s.broadcastView(b, roundOf(r), s.Identity(r))
	if err != nil {
		return err
	}
	return s.Render(w, http.StatusOK, "broadcast", s.Page(r, "broadcast.title", v, b.Name))
}

func (s *Server) apiBroadcast(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	v, err := s.broadcastView(b, roundOf(r), s.Identity(r))
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, v)
}

// ownBroadcast loads broadcast {id} for its broadcaster, 403 for others.
func (s *Server) ownBroadcast(r *http.Request) (*store.Broadcast, error) {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return nil, err
	}
	if id := s.Identity(r); id.Account.ID == 0 || id.Account.ID != b.OwnerID {
		return nil, apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.broadcast_not_yours")
	}
	return b, nil
}

// pageBroadcastEntry is the broadcaster's form: a board to add, the plies
// of each game of the round, a round to upload.
func (s *Server) pageBroadcastEntry(w http.ResponseWriter, r *http.Request) error {
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	return s.renderEntry(w, r, b, roundOf(r), http.StatusOK, nil, 0, "")
}

func (s *Server) renderEntry(w http.ResponseWriter, r *http.Request, b *store.Broadcast, round, status int, fail error, game int64, paste string) error {
	v, err := s.broadcastView(b, round, s.Identity(r))
	if err != nil {
		return err
	}
	if fail != nil {
		e := s.AsError(r, fail)
		status, v.Error, v.ErrorGame, v.Paste = e.Status, s.Message(r, e), game, paste
		if e.Detail != "" {
			v.Error += " — " + e.Detail
		}
	}
	return s.Render(w, status, "broadcast_entry", s.Page(r, "broadcast.entry_title", v, b.Name))
}

// entryForm runs a change of the entry form and shows the form again,
// with the error of the change if it failed (a live.Error or apierr.Error;
// anything else is the server's).
func (s *Server) entryForm(w http.ResponseWriter, r *http.Request, change func(ctx context.Context, b *store.Broadcast, round int) (game int64, paste string, err error)) error {
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	round, _ := strconv.Atoi(r.FormValue("round"))
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	game, paste, err := change(ctx, b, round)
	var ae *apierr.Error
	if err != nil && !errors.As(err, &ae) {
		return err
	}
	if err == nil {
		return redirect(w, r, fmt.Sprintf("/broadcast/%d/enter?round=%d", b.ID, max(round, 1)))
	}
	return s.renderEntry(w, r, b, round, 0, err, game, paste)
}

func (s *Server) pageBroadcastAddGame(w http.ResponseWriter, r *http.Request) error {
	return s.entryForm(w, r, func(ctx context.Context, b *store.Broadcast, round int) (int64, string, error) {
		board, _ := strconv.Atoi(r.FormValue("board"))
		return 0, "", s.addBroadcastGame(ctx, b, round, board, r.FormValue("white"), r.FormValue("black"))
	})
}

func (s *Server) pageBroadcastPlies(w http.ResponseWriter, r *http.Request) error {
	return s.entryForm(w, r, func(ctx context.Context, b *store.Broadcast, round int) (int64, string, error) {
		gid, _ := strconv.ParseInt(r.PathValue("game"), 10, 64)
		text := r.FormValue("plies")
		return gid, text, s.enterPlies(ctx, b, gid, text, r.FormValue("whole") != "", r.FormValue("result"))
	})
}

func (s *Server) pageBroadcastUpload(w http.ResponseWriter, r *http.Request) error {
	return s.entryForm(w, r, func(ctx context.Context, b *store.Broadcast, round int) (int64, string, error) {
		trf, err := formText(r, "trf")
		if err != nil {
			return 0, "", err
		}
		recs, err := formText(r, "records")
		if err != nil {
			return 0, "", err
		}
		return 0, "", s.uploadRound(ctx, b, round, trf, recs)
	})
}

// formText is the text of a form field or of the file uploaded under the
// same name with the suffix "_file" (the body's limit bounds both).
func formText(r *http.Request, name string) (string, error) {
	if f, _, err := r.FormFile(name + "_file"); err == nil {
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return "", err
		}
		if len(b) > 0 {
			return string(b), nil
		}
	}
	return r.FormValue(name), nil
}

type pliesRequest struct {
	Plies  string `json:"plies"`
	Whole  bool   `json:"whole"` // Plies is the whole sheet
	Result string `json:"result"`
}

// apiBroadcastPlies appends plies to a game: POST
// /api/broadcasts/{id}/games/{game}/plies.
func (s *Server) apiBroadcastPlies(w http.ResponseWriter, r *http.Request) error {
	var req pliesRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	gid, _ := strconv.ParseInt(r.PathValue("game"), 10, 64)
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	if err := s.enterPlies(ctx, b, gid, req.Plies, req.Whole, req.Result); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"ok": true})
}

type addGameRequest struct {
	Round int    `json:"round"`
	Board int    `json:"board"`
	White string `json:"white"`
	Black string `json:"black"`
}

func (s *Server) apiBroadcastAddGame(w http.ResponseWriter, r *http.Request) error {
	var req addGameRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	if err := s.addBroadcastGame(ctx, b, req.Round, req.Board, req.White, req.Black); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"ok": true})
}

// broadcastEvents is the viewers' stream of a broadcast: an event "change"
// each time it changes (the page then fetches itself), a comment every
// broadcastPing.
func (s *Server) broadcastEvents(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	addr := auth.AddrKey(auth.ClientIP(r))
	ch, err := s.bcFeed.subscribe(b.ID, addr)
	if err != nil {
		return err
	}
	defer s.bcFeed.unsubscribe(b.ID, addr, ch)
	clearDeadlines(w)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	send := func(s string) bool {
		if _, err := io.WriteString(w, s); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send(": open\n\n") {
		return nil
	}
	ping := time.NewTicker(broadcastPing)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return nil
		case <-ping.C:
			if !send(": ping\n\n") {
				return nil
			}
		case <-ch:
			msg, _ := json.Marshal(map[string]any{"id": b.ID})
			if !send("event: change\ndata: " + string(msg) + "\n\n") {
				return nil
			}
		}
	}
}

// broadcastBoard draws a game's position: /broadcast/{id}/board/{game}.svg.
func (s *Server) broadcastBoard(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	name, _ := strings.CutSuffix(r.PathValue("game"), ".svg")
	gid, _ := strconv.ParseInt(name, 10, 64)
	i := slices.IndexFunc(b.Games, func(g store.BroadcastGame) bool { return g.ID == gid })
	if i < 0 {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcast_game")
	}
	rules, err := toguz.ParseRules(b.Ruleset)
	if err != nil {
		return err
	}
	return s.drawBoard(w, r, rules, b.Games[i].Plies, b.Games[i].White, b.Games[i].Black)
}

// drawBoard answers the SVG board after plies, the last move marked.
func (s *Server) drawBoard(w http.ResponseWriter, r *http.Request, rules toguz.Rules, plies []string, white, black string) error {
	p, moves, err := replaySheet(rules, plies)
	if err != nil {
		return err
	}
	lang := s.Lang(r)
	opt := svg.Options{White: white, Black: black, Labels: &svg.Labels{White: s.cat.T(lang, "game.white"), Black: s.cat.T(lang, "game.black"),
		Kazan: s.cat.T(lang, "learn.diagram.kazan"), ToMove: s.cat.T(lang, "learn.diagram.tomove")}}
	if n := len(moves); n > 0 {
		before, _, _ := replaySheet(rules, plies[:n-1])
		opt.From, opt.To = svg.LastMove(before, moves[n-1])
	}
	out, err := svg.Render(p, opt)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(out)
	return err
}

// isBroadcastUpload reports whether path is a round's upload, whose body
// may be as large as an import's.
func isBroadcastUpload(path string) bool {
	return strings.HasPrefix(path, "/broadcast/") && strings.HasSuffix(path, "/upload")
}

// broadcastRoutes adds the routes of broadcasts and simuls.
func (s *Server) broadcastRoutes(api, page func(string, func(http.ResponseWriter, *http.Request) error), mux *http.ServeMux) {
	api("POST /api/broadcasts", s.apiCreateBroadcast)
	api("GET /api/broadcasts/{id}", s.apiBroadcast)
	api("POST /api/broadcasts/{id}/games", s.apiBroadcastAddGame)
	api("POST /api/broadcasts/{id}/games/{game}/plies", s.apiBroadcastPlies)
	api("GET /api/broadcasts/{id}/events", s.broadcastEvents)
	page("GET /broadcasts", s.pageBroadcasts)
	page("POST /broadcasts", s.pageCreateBroadcast)
	page("GET /broadcast/{id}", s.pageBroadcast)
	page("GET /broadcast/{id}/enter", s.pageBroadcastEntry)
	page("POST /broadcast/{id}/games", s.pageBroadcastAddGame)
	page("POST /broadcast/{id}/game/{game}/plies", s.pageBroadcastPlies)
	page("POST /broadcast/{id}/upload", s.pageBroadcastUpload)
	page("GET /broadcast/{id}/board/{game}", s.broadcastBoard)
}

// broadcastErrorKeys are the messages of the errors of broadcasts and
// simuls (errorKeys).
var broadcastErrorKeys = []string{
	"apierr.broadcast_account", "apierr.broadcast_board", "apierr.broadcast_board_taken", "apierr.broadcast_games",
	"apierr.broadcast_many", "apierr.broadcast_name", "apierr.broadcast_not_yours", "apierr.broadcast_player",
	"apierr.broadcast_plies", "apierr.broadcast_record_board", "apierr.broadcast_result", "apierr.broadcast_round",
	"apierr.broadcast_rounds", "apierr.broadcast_sheet_differs", "apierr.broadcast_stale", "apierr.broadcast_trf", "apierr.broadcast_trf_round",
	"apierr.broadcast_viewers", "apierr.no_broadcast", "apierr.no_broadcast_game", "apierr.no_broadcasts",
	"apierr.no_simul", "apierr.simul_color", "apierr.simul_empty", "apierr.simul_full", "apierr.simul_full_site",
	"apierr.simul_many", "apierr.simul_max", "apierr.simul_not_host", "apierr.simul_own", "apierr.simul_started",
}
