package events

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// byeResult marks the pairing-allocated bye (Black 0).
const byeResult = "U"

// Run starts the events whose time has come and pairs the arenas' waiting
// players every Config.Tick, until ctx ends.
func (m *Manager) Run(ctx context.Context) {
	t := time.NewTicker(m.cfg.Tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.Tick(ctx)
		}
	}
}

// Tick does one round of Run's work.
func (m *Manager) Tick(ctx context.Context) {
	now := m.cfg.Now()
	var start, arenas []string
	m.mu.Lock()
	for _, e := range m.events {
		switch {
		case e.Status == Upcoming && !e.Start.IsZero() && !now.Before(e.Start):
			start = append(start, e.ID)
		case e.Status == Running && e.Settings.Kind == Arena:
			arenas = append(arenas, e.ID)
		}
	}
	m.mu.Unlock()
	for _, id := range start {
		if err := m.start(ctx, id); err != nil {
			m.log.Error("event: start", "event", id, "err", err)
		}
	}
	for _, id := range arenas {
		if err := m.arenaWave(ctx, id); err != nil {
			m.log.Error("event: arena", "event", id, "err", err)
		}
	}
}

// Start starts event id now, at an arbiter's word.
func (m *Manager) Start(ctx context.Context, id string, by int64) error {
	if err := m.arbiter(id, by); err != nil {
		return err
	}
	if err := m.start(ctx, id); err != nil {
		return err
	}
	m.logAction(ctx, id, by, "start")
	return nil
}

func (m *Manager) start(ctx context.Context, id string) error {
	e, err := m.update(ctx, id, func(e *Event) error {
		if e.Status != Upcoming {
			return conflict("apierr.event_started")
		}
		now := m.cfg.Now()
		e.Start = now.Truncate(time.Second)
		if len(e.Entries) < 2 {
			// Nobody to play: the event ends as it stands.
			e.Status, e.Ended = Finished, now
			return nil
		}
		sortEntries(e)
		e.Status = Running
		return nil
	})
	if err != nil || e.Status != Running {
		return err
	}
	if e.Settings.Kind == Arena {
		return m.arenaWave(ctx, id)
	}
	return m.pairNext(ctx, id)
}

// rounds returns the number of rounds of a round-based event.
func rounds(e *Event) int {
	switch e.Settings.Kind {
	case RoundRobin:
		return tournament.BergerRounds(len(e.Entries))
	case DoubleRoundRobin:
		return 2 * tournament.BergerRounds(len(e.Entries))
	}
	if systemOf(e.Settings) == tournament.DoubleSwiss {
		return 2 * e.Settings.Rounds // two games a match
	}
	return e.Settings.Rounds
}

// systemOf is the pairing system of an event's settings.
func systemOf(s Settings) tournament.System {
	if s.Kind == Swiss && s.Acceleration == "baku" {
		return tournament.DutchBaku
	}
	if s.Kind == Swiss && s.Pairing == string(tournament.DoubleSwiss) {
		return tournament.DoubleSwiss
	}
	if s.Kind == Swiss && s.Pairing == string(tournament.Dubov) {
		return tournament.Dubov
	}
	if s.Kind == Swiss && s.Pairing == string(tournament.Burstein) {
		return tournament.Burstein
	}
	switch s.Kind {
	case RoundRobin:
		return tournament.RoundRobin
	case DoubleRoundRobin:
		return tournament.DoubleRoundRobin
	}
	return tournament.Dutch
}

// Tournament returns the event as package tournament sees it (players,
// rounds, results), for the pairings, standings with tie-breaks and cross
// tables; upto limits the results counted to the rounds up to it (the
// published ones), all when ≤ 0.
func (e *Event) Tournament(upto int) *tournament.Event {
	te := tournament.New(e.Name, systemOf(e.Settings), rounds(e))
	if e.Settings.Repetition > 0 {
		te.Repetition = e.Settings.Repetition
	}
	tbs := "BH/C1 BH SB WIN"
	if e.Settings.Kind != Swiss {
		tbs = "DE SB WIN KS"
		// An odd round robin's bye is the round against the Berger
		// tables' dummy: everyone has one, a rest that scores nothing.
		te.Scoring.PairingBye = 0
	}
	te.TieBreaks, _ = tournament.ParseTieBreaks(tbs)
	for _, en := range e.Entries {
		p := tournament.Player{Start: en.Start, Name: en.Name, Rating: en.Rating}
		if en.Sex != "" {
			p.Sex = en.Sex[0]
		}
		te.Players = append(te.Players, p)
		if en.Withdrawn {
			te.Withdrawn = append(te.Withdrawn, en.Start)
		}
	}
	n := len(e.Rounds)
	for i := range te.Players {
		te.Players[i].Rounds = make([]tournament.Entry, n)
	}
	for ri, r := range e.Rounds {
		for _, p := range r.Pairings {
			w := te.Player(p.White)
			if w == nil {
				continue
			}
			if p.Black == 0 {
				w.Rounds[ri] = tournament.Entry{Colour: tournament.NoColor, Code: tournament.PairingBye}
				continue
			}
			b := te.Player(p.Black)
			if b == nil {
				continue
			}
			w.Rounds[ri] = tournament.Entry{Opponent: p.Black, Colour: tournament.White, Code: tournament.Pending}
			b.Rounds[ri] = tournament.Entry{Opponent: p.White, Colour: tournament.Black, Code: tournament.Pending}
			if p.Result != "" && (upto <= 0 || r.Round <= upto) {
				if res, err := tournament.ParseResult(p.Result); err == nil {
					_ = te.SetResult(r.Round, p.White, res)
				}
			}
		}
		for i := range te.Players {
			if te.Players[i].Rounds[ri].None() {
				// Not paired: withdrawn or absent (a forfeit), or not yet
				// entered (a late entry's zero-point bye).
				code := tournament.ZeroBye
				if slices.Contains(te.Withdrawn, te.Players[i].Start) {
					code = tournament.ForfeitLoss
				}
				te.Players[i].Rounds[ri] = tournament.Entry{Colour: tournament.NoColor, Code: code}
			}
		}
	}
	return te
}

// pairNext pairs the next round of a round-based event, or ends the event
// after its last round, and creates the round's games.
func (m *Manager) pairNext(ctx context.Context, id string) error {
	var games []game.EventPairing
	paired := false
	e, err := m.update(ctx, id, func(e *Event) error {
		if e.Status != Running || e.Settings.Kind == Arena {
			return errUnchanged
		}
		if n := len(e.Rounds); n > 0 && !roundDone(e.Rounds[n-1]) {
			return errUnchanged
		}
		r := len(e.Rounds) + 1
		if r > rounds(e) {
			e.Status, e.Ended = Finished, m.cfg.Now()
			return nil
		}
		pairer, err := tournament.PairerFor(systemOf(e.Settings), m.cfg.Swiss)
		if err != nil {
			return err
		}
		pairs, err := pairer.Pair(e.Tournament(0))
		if err != nil {
			return fmt.Errorf("event %s: round %d: %w", e.ID, r, err)
		}
		round := game.EventRound{Round: r, Paired: m.cfg.Now()}
		for i, pr := range pairs {
			p := game.EventPairing{Board: i + 1, White: pr.White, Black: pr.Black}
			games = appendGame(e, &p, games)
			round.Pairings = append(round.Pairings, p)
		}
		e.Rounds = append(e.Rounds, round)
		paired = true
		m.markStarting(games)
		return nil
	})
	if err == errUnchanged {
		return nil
	}
	if err != nil {
		return err
	}
	for _, p := range games {
		if err := m.createGame(ctx, e, p); err != nil {
			return err
		}
	}
	if paired && e.Status == Running && len(games) == 0 {
		// A round of byes and forfeits only: the next one at once.
		return m.pairNext(ctx, id)
	}
	return nil
}

// appendGame gives pairing p its result when it needs no game (the bye, a
// withdrawn player's forfeit) or a game id, and adds it to games.
func appendGame(e *Event, p *game.EventPairing, games []game.EventPairing) []game.EventPairing {
	if p.Black == 0 {
		p.Result = byeResult
		return games
	}
	aw, ab := e.Player(p.White).Withdrawn, e.Player(p.Black).Withdrawn
	switch {
	case aw && ab:
		p.Result = string(tournament.DoubleForfeit)
	case aw:
		p.Result = string(tournament.BlackForfeit)
	case ab:
		p.Result = string(tournament.WhiteForfeit)
	default:
		p.GameID = live.NewID()
		return append(games, *p)
	}
	return games
}

func roundDone(r game.EventRound) bool {
	for _, p := range r.Pairings {
		if p.Result == "" {
			return false
		}
	}
	return true
}

// markStarting marks games as not yet created (Starting), under mu, in
// the update that stores them, so that they are marked before anyone sees
// them; createGame unmarks each.
func (m *Manager) markStarting(games []game.EventPairing) {
	for _, p := range games {
		m.starting[p.GameID] = struct{}{}
	}
}

// createGame starts pairing p's game on the hub with the event's rules
// and clocks.
func (m *Manager) createGame(ctx context.Context, e *Event, p game.EventPairing) error {
	rules, err := toguz.ParseRules(e.Settings.Rules)
	if err != nil {
		return err
	}
	tc, err := clock.ParseTimeControl(e.Settings.TC)
	if err != nil {
		return err
	}
	defer func() {
		m.mu.Lock()
		delete(m.starting, p.GameID)
		m.mu.Unlock()
	}()
	w, b := e.Player(p.White), e.Player(p.Black)
	spec := game.Spec{ID: p.GameID, Rules: rules, TC: tc, Rated: e.Settings.Rated, Repetition: e.Settings.Repetition,
		White: game.UserSeat(w.UserID, w.Name), Black: game.UserSeat(b.UserID, b.Name)}
	if spec.Rated {
		spec.White.Rating, spec.Black.Rating = w.Rating, b.Rating
	}
	if m.games == nil {
		return fmt.Errorf("event %s: no hub connected", e.ID)
	}
	if _, err := m.games.Create(ctx, spec); err != nil {
		return fmt.Errorf("event %s: game %s: %w", e.ID, p.GameID, err)
	}
	return nil
}

// resultOf turns a game's ending into an event result: an abort before a
// side moved is that side's forfeit.
func resultOf(s game.Saved) string {
	if s.End == nil {
		return ""
	}
	if s.End.Status == game.Aborted {
		switch len(s.Moves) {
		case 0:
			return string(tournament.BlackForfeit)
		case 1:
			return string(tournament.WhiteForfeit)
		}
		return string(tournament.DoubleForfeit)
	}
	switch s.End.Result {
	case toguz.WhiteWins:
		return string(tournament.WhiteWins)
	case toguz.BlackWins:
		return string(tournament.BlackWins)
	case toguz.Draw:
		return string(tournament.Drawn)
	}
	return string(tournament.DoubleForfeit)
}

// GameEnded takes in the result of an event's game (the hub's OnEnd, on a
// goroutine of its own) and pairs the next round when it was the last.
// A result the arbiter entered first stands.
func (m *Manager) GameEnded(s game.Saved) {
	ctx := context.Background()
	m.mu.Lock()
	ref, ok := m.byGame[s.ID]
	m.mu.Unlock()
	if !ok {
		return
	}
	res := resultOf(s)
	_, err := m.update(ctx, ref.event, func(e *Event) error {
		p := e.pairing(ref.round, ref.board)
		if p == nil || p.GameID != s.ID || p.Result != "" {
			return errUnchanged
		}
		p.Result = res
		if e.Settings.Kind == Arena && s.End != nil && s.End.Status == game.Aborted {
			// The side that did not move is not paired again until he
			// comes back (joins again).
			if pl := e.Player(p.White); len(s.Moves) == 0 && pl != nil {
				pl.Paused = true
			} else if pl := e.Player(p.Black); len(s.Moves) == 1 && pl != nil {
				pl.Paused = true
			}
		}
		return nil
	})
	if err == errUnchanged {
		return
	}
	if err != nil {
		m.log.Error("event: result", "event", ref.event, "game", s.ID, "err", err)
		return
	}
	m.afterResults(ctx, ref.event, nil)
}

var errUnchanged = &Error{Code: "conflict", Key: "apierr.event_unchanged"}

func (e *Event) pairing(round, board int) *game.EventPairing {
	for ri := range e.Rounds {
		if e.Rounds[ri].Round != round {
			continue
		}
		for pi := range e.Rounds[ri].Pairings {
			if e.Rounds[ri].Pairings[pi].Board == board {
				return &e.Rounds[ri].Pairings[pi]
			}
		}
	}
	return nil
}

// afterResults ends the running games whose result was decided off the
// board (the hub then reports an ending the event already has), then pairs
// the next round or ends the event when its games are all done.
func (m *Manager) afterResults(ctx context.Context, id string, end []string) {
	for _, g := range end {
		m.adjudicate(ctx, id, g)
	}
	e, ok := m.Get(id)
	if !ok || e.Status != Running {
		return
	}
	if e.Settings.Kind == Arena {
		if err := m.arenaWave(ctx, id); err != nil {
			m.log.Error("event: arena", "event", id, "err", err)
		}
		return
	}
	if err := m.pairNext(ctx, id); err != nil {
		m.log.Error("event: pair", "event", id, "err", err)
	}
}

// adjudicate ends game g of event id with the result the event holds.
func (m *Manager) adjudicate(ctx context.Context, id, g string) {
	e, ok := m.Get(id)
	if !ok || m.games == nil {
		return
	}
	m.mu.Lock()
	ref := m.byGame[g]
	m.mu.Unlock()
	p := e.pairing(ref.round, ref.board)
	if p == nil {
		return
	}
	res := toguz.NoResult
	switch tournament.Result(p.Result) {
	case tournament.WhiteWins, tournament.WhiteForfeit:
		res = toguz.WhiteWins
	case tournament.BlackWins, tournament.BlackForfeit:
		res = toguz.BlackWins
	case tournament.Drawn:
		res = toguz.Draw
	}
	if err := m.games.Adjudicate(ctx, g, res); err != nil {
		m.log.Info("event: adjudicate", "event", id, "game", g, "err", err)
	}
}

// Running returns the game id of user's game being played in event id.
func (e *Event) Running(start int) (game.EventPairing, int, bool) {
	for _, r := range e.Rounds {
		for _, p := range r.Pairings {
			if p.Result == "" && p.GameID != "" && (p.White == start || p.Black == start) {
				return p, r.Round, true
			}
		}
	}
	return game.EventPairing{}, 0, false
}

// logAction records an arbiter's action. Its detail is args as JSON, the
// arguments of the action's sentence (event.log.<action>, after the
// arbiter's name), so that the log reads in each page's language.
func (m *Manager) logAction(ctx context.Context, id string, by int64, action string, args ...any) {
	if args == nil {
		args = []any{}
	}
	detail, err := json.Marshal(args)
	if err != nil {
		detail = []byte("[]")
	}
	if err := m.cfg.Store.LogEventAction(ctx, id, store.EventAction{At: m.cfg.Now(), UserID: by, Action: action, Detail: string(detail)}); err != nil {
		m.log.Error("event: log", "event", id, "err", err)
	}
}
