package botapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
)

// ndjson writes the lines of a stream, each flushed, and an empty line
// when nothing was written for a while.
type ndjson struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// startNDJSON starts the stream on w and sends its headers.
func startNDJSON(w http.ResponseWriter) *ndjson {
	n := newNDJSON(w)
	n.rc.Flush()
	return n
}

// newNDJSON starts the stream on w; its headers go with the first line or
// flush.
func newNDJSON(w http.ResponseWriter) *ndjson {
	site.ClearDeadlines(w)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	return &ndjson{w: w, rc: http.NewResponseController(w)}
}

// line writes b and a newline; false when the client has gone.
func (n *ndjson) line(b []byte) bool {
	// b is shared by every stream it is queued on: append to a copy.
	if _, err := n.w.Write(append(b[:len(b):len(b)], '\n')); err != nil {
		return false
	}
	return n.rc.Flush() == nil
}

func (n *ndjson) json(v any) bool {
	b, err := json.Marshal(v)
	return err == nil && n.line(b)
}

// apiEventStream is GET /api/stream/event: the games being played and the
// open challenges at once, then each challenge, its cancel or decline, and
// each game started or finished, one JSON object a line.
func (a *API) apiEventStream(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r, ScopeChallengeRead, ScopeBotPlay, ScopeBoardPlay)
	if err != nil {
		return err
	}
	if !a.openStream(c.tok.ID) {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.streams", a.limits.StreamsPerToken)
	}
	defer a.closeStream(c.tok.ID)
	sub := a.events.subscribe(c.tok.UserID)
	defer a.events.unsubscribe(c.tok.UserID, sub)
	// The headers go after the current state (or with its first line): a
	// client that has them is subscribed and has been told what is open.
	out := newNDJSON(w)
	told, ok := a.writeCurrent(r.Context(), out, c)
	if !ok || out.rc.Flush() != nil {
		return nil
	}
	a.relay(r.Context(), out, sub, told)
	return nil
}

// toldKey names what writeCurrent told: a game's gameStart or a
// challenge's challenge.
type toldKey struct{ typ, id string }

// told is what writeCurrent told, and the number of the last challenge
// that had ended when it listed the open ones (challenges.endedBy).
type told struct {
	keys  map[toldKey]bool
	ended uint64
}

// writeCurrent writes c's open challenges and games being played to the
// event stream out and returns what it wrote; false when the client has
// gone. The stream is subscribed before: a game or challenge that began
// meanwhile is both written here and queued, and relay leaves its queued
// event out (a client is told each once); a challenge that ended
// meanwhile is not listed, and relay leaves out its queued "challenge"
// (a client is not told an accepted challenge is open, after its game).
func (a *API) writeCurrent(ctx context.Context, out *ndjson, c caller) (told, bool) {
	tl := told{keys: map[toldKey]bool{}}
	// The challenges first: one accepted between the two lists is then
	// told before its game starts, as it happened, not after.
	chs, ended := a.chals.ofNow(c.tok.UserID)
	tl.ended = ended
	for _, ch := range chs {
		if !out.json(challengeEvent{Type: "challenge", Challenge: ch.json()}) {
			return tl, false
		}
		tl.keys[toldKey{"challenge", ch.ID}] = true
	}
	for _, spec := range a.hub.GamesOfAll(ctx, c.seat().ID) {
		if !out.json(a.gameEvent(ctx, "gameStart", spec, c.tok.UserID, nil)) {
			return tl, false
		}
		tl.keys[toldKey{"gameStart", spec.ID}] = true
	}
	return tl, true
}

// toldAlready reports whether the queued event b is one of told (and
// forgets it: each is queued once).
func toldAlready(told map[toldKey]bool, b []byte) bool {
	if len(told) == 0 {
		return false
	}
	var ev struct {
		Type      string `json:"type"`
		Challenge struct {
			ID string `json:"id"`
		} `json:"challenge"`
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
	}
	if json.Unmarshal(b, &ev) != nil {
		return false
	}
	k := toldKey{ev.Type, ev.Game.ID}
	if ev.Type == "challenge" {
		k.id = ev.Challenge.ID
	}
	if !told[k] {
		return false
	}
	delete(told, k)
	return true
}

// staleChallenge reports whether the queued event b tells of a
// challenge that had ended when writeCurrent listed the open ones (the
// number of the last ended then): a client must not see it as open.
func (a *API) staleChallenge(b []byte, ended uint64) bool {
	if !bytes.HasPrefix(b, []byte(`{"type":"challenge",`)) {
		return false
	}
	var ev struct {
		Challenge struct {
			ID string `json:"id"`
		} `json:"challenge"`
	}
	return json.Unmarshal(b, &ev) == nil && a.chals.endedBy(ev.Challenge.ID, ended)
}

// relay writes sub's events to the event stream out, and an empty line
// when idle, until the client goes or the stream is too slow; the events
// writeCurrent told already (told) are left out.
func (a *API) relay(ctx context.Context, out *ndjson, sub *botSub, tl told) {
	ping := time.NewTicker(a.limits.Ping)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.gone:
			return // too slow: the client reconnects and gets the state again
		case b := <-sub.ch:
			if toldAlready(tl.keys, b) || a.staleChallenge(b, tl.ended) {
				continue
			}
			if !out.line(b) {
				return
			}
		case <-ping.C:
			if !out.line(nil) {
				return
			}
		}
	}
}

// gameEventJSON is the game of a gameStart or gameFinish event.
type gameEventJSON struct {
	GameID   string       `json:"gameId"`
	FullID   string       `json:"fullId"`
	ID       string       `json:"id"`
	Color    string       `json:"color"`
	FEN      string       `json:"fen,omitempty"`
	IsMyTurn bool         `json:"isMyTurn"`
	Opponent opponentJSON `json:"opponent"`
	Rated    bool         `json:"rated"`
	Speed    string       `json:"speed"`
	Perf     string       `json:"perf"`
	Ruleset  string       `json:"ruleset"`
	Variant  keyJSON      `json:"variant"`
	Source   string       `json:"source"`
	Status   keyJSON      `json:"status"`
	Winner   string       `json:"winner,omitempty"`
}

type opponentJSON struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Rating   int    `json:"rating"`
}

type keyJSON struct {
	Key  string `json:"key,omitempty"`
	Name string `json:"name,omitempty"`
}

type gameEvent struct {
	Type string        `json:"type"`
	Game gameEventJSON `json:"game"`
}

// gameEvent returns the event typ of game spec for user uid; end is the
// ending of a finished game. A started game's position is asked of the
// hub.
func (a *API) gameEvent(ctx context.Context, typ string, spec game.Spec, uid int64, end *game.Ending) gameEvent {
	ev := gameEventOf(typ, spec, uid, end, a.events.isBot)
	if end == nil {
		if st, err := a.hub.State(ctx, spec.ID); err == nil {
			ev.Game.FEN, ev.Game.IsMyTurn = st.FEN, st.Status == "playing" && st.Turn == ev.Game.Color
		}
	}
	return ev
}

// gameEventOf is gameEvent without the position; isBot tells a bot
// account (the game's perf is then the bots').
func gameEventOf(typ string, spec game.Spec, uid int64, end *game.Ending, isBot func(int64) bool) gameEvent {
	me, opp := toguz.White, toguz.Black
	if spec.Black.UserID == uid {
		me, opp = toguz.Black, toguz.White
	}
	o := spec.Seat(opp)
	g := gameEventJSON{GameID: spec.ID, FullID: spec.ID, ID: spec.ID, Color: me.String(), Rated: spec.Rated,
		Opponent: opponentJSON{ID: strings.ToLower(o.Name), Username: o.Name, Rating: o.Rating},
		Ruleset:  spec.Rules.String(), Variant: keyJSON{Key: spec.Rules.String()}, Source: "friend",
		Status: keyJSON{Name: "started"}}
	if cat, ok := live.Category(spec.TC); ok {
		g.Speed, g.Perf = cat.String(), cat.String()
		if spec.White.UserID != 0 && spec.Black.UserID != 0 && isBot != nil && (isBot(spec.White.UserID) || isBot(spec.Black.UserID)) {
			g.Perf = cat.Bot().String()
		}
	}
	if end != nil {
		g.Status = keyJSON{Name: endStatus(end.Status.String(), end.Termination.String())}
		g.Winner = winnerOf(end.Result.String())
	}
	return gameEvent{Type: typ, Game: g}
}

// endStatus is a game's status as the streams write it: "started" while
// it is played, "aborted", else how it ended (toguz.Termination: kazan,
// atsyrau, resignation, time, agreement, adjudication, draw).
func endStatus(status, termination string) string {
	switch status {
	case "playing":
		return "started"
	case "aborted":
		return "aborted"
	}
	return termination
}

// streamMsg is what the bot API reads of the hub's messages to a player.
type streamMsg struct {
	Type string `json:"type"`
	live.State
	Hole        int            `json:"hole"`
	Notation    string         `json:"notation"`
	Clock       live.ClockJSON `json:"clock"`
	Status      string         `json:"status"`
	Result      string         `json:"result"`
	Termination string         `json:"termination"`
	By          string         `json:"by"`
	Text        string         `json:"text"`
	Ply         int            `json:"ply"`
}

// gameStateJSON is the gameState line of a game stream.
type gameStateJSON struct {
	Type   string `json:"type"`
	Moves  string `json:"moves"` // the plies in score-sheet notation, space-separated
	FEN    string `json:"fen"`
	WTime  int64  `json:"wtime"`
	BTime  int64  `json:"btime"`
	WInc   int64  `json:"winc"`
	BInc   int64  `json:"binc"`
	Status string `json:"status"`
	Winner string `json:"winner,omitempty"`
	WDraw  bool   `json:"wdraw"`
	BDraw  bool   `json:"bdraw"`
}

type botPlayerJSON struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Rating int    `json:"rating"`
	AI     int    `json:"aiLevel,omitempty"`
}

type clockSpecJSON struct {
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}

// gameFullJSON is the first line of a game stream.
type gameFullJSON struct {
	Type       string         `json:"type"`
	ID         string         `json:"id"`
	Rated      bool           `json:"rated"`
	Variant    keyJSON        `json:"variant"`
	Ruleset    string         `json:"ruleset"`
	Clock      *clockSpecJSON `json:"clock"`
	Days       int            `json:"daysPerTurn,omitempty"`
	Speed      string         `json:"speed"`
	CreatedAt  int64          `json:"createdAt"`
	White      botPlayerJSON  `json:"white"`
	Black      botPlayerJSON  `json:"black"`
	InitialFEN string         `json:"initialFen"`
	State      gameStateJSON  `json:"state"`
}

// gameTracker turns the hub's messages to a player into the stream's
// lines.
type gameTracker struct {
	st    gameStateJSON
	moves []string
	over  bool
}

func (t *gameTracker) reset(st live.State) {
	t.moves = t.moves[:0]
	for _, m := range st.Moves {
		t.moves = append(t.moves, m.Notation)
	}
	tc, _ := clock.ParseTimeControl(st.TC)
	t.st = gameStateJSON{Type: "gameState", Moves: strings.Join(t.moves, " "), FEN: st.FEN,
		WTime: st.Clock.WhiteMS, BTime: st.Clock.BlackMS, WInc: tc.Increment.Milliseconds(), BInc: tc.Increment.Milliseconds(),
		Status: endStatus(st.Status, st.Termination), WDraw: st.DrawOffer == "white", BDraw: st.DrawOffer == "black"}
	t.st.Winner = winnerOf(st.Result)
	t.over = st.Status != "playing"
}

func winnerOf(result string) string {
	switch result {
	case toguz.WhiteWins.String():
		return "white"
	case toguz.BlackWins.String():
		return "black"
	}
	return ""
}

// chatLineJSON is a chat message of a game stream.
type chatLineJSON struct {
	Type     string `json:"type"`
	Username string `json:"username"`
	Text     string `json:"text"`
	Room     string `json:"room"`
}

// apiGameStream is GET /api/{bot,board}/game/stream/{id}: gameFull, then a
// gameState for each move (with the clocks), offer and ending, and a
// chatLine for each message of the players' room; it ends with the game.
func (a *API) apiGameStream(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		id := r.PathValue("id")
		ctx := r.Context()
		if err := a.ownGame(ctx, c, id); err != nil {
			return err
		}
		if !a.openStream(c.tok.ID) {
			return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.streams", a.limits.StreamsPerToken)
		}
		defer a.closeStream(c.tok.ID)
		var out *ndjson
		var t gameTracker
		ping := time.NewTicker(a.limits.Ping)
		defer ping.Stop()
		// A connection the hub drops (too slow, or the game's actor
		// stopping) is joined again, a few times: the state it starts
		// with is written as a gameState.
		for range 5 {
			conn, err := a.hub.JoinWith(ctx, id, c.chatter(r))
			if err != nil {
				if out == nil {
					return site.NotFoundAs(err, "apierr.no_game", id)
				}
				return nil
			}
			done := a.followGame(ctx, conn, &out, w, &t, ping.C)
			conn.Leave()
			if done || t.over || ctx.Err() != nil {
				return nil
			}
		}
		return nil
	}
}

// ownGame returns nil if game id is c's, 404 when there is no such game,
// 403 when it is another's.
func (a *API) ownGame(ctx context.Context, c caller, id string) error {
	st, err := a.hub.State(ctx, id)
	if err != nil {
		return site.NotFoundAs(err, "apierr.no_game", id)
	}
	if !seatIs(st.White, c.tok.UserName) && !seatIs(st.Black, c.tok.UserName) {
		return apierr.New(http.StatusForbidden, apierr.CodeNotYourGame, "apierr.bot.not_your_game", site.Excerpt(id))
	}
	return nil
}

// seatIs reports whether seat is the account name's.
func seatIs(seat live.SeatJSON, name string) bool {
	return !seat.Guest && seat.EngineLevel == 0 && strings.EqualFold(seat.Name, name)
}

// followGame writes conn's messages to the stream (started with the first
// state, as gameFull) until the game ends (true), the client goes (true)
// or the hub drops conn (false).
func (a *API) followGame(ctx context.Context, conn *live.Conn, out **ndjson, w http.ResponseWriter, t *gameTracker, ping <-chan time.Time) bool {
	for {
		select {
		case <-ctx.Done():
			return true
		case <-ping:
			if *out != nil && !(*out).line(nil) {
				return true
			}
		case b, ok := <-conn.Out():
			if !ok {
				return false
			}
			if t.write(b, out, w) {
				return true
			}
		}
	}
}

// write writes the line of the hub's message b to the stream, starting it
// (*out) with gameFull at the first state; true when the stream is done:
// the game ended, the client went, or the hub spoke before the state.
func (t *gameTracker) write(b []byte, out **ndjson, w http.ResponseWriter) bool {
	var m streamMsg
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	line, ok := t.next(&m)
	if !ok {
		return false
	}
	if m.Type == "state" && *out == nil {
		*out = startNDJSON(w)
		line = gameFull(m.State, t.st)
	}
	return *out == nil || !(*out).json(line) || t.over
}

// next follows the hub's message m and returns the stream's line for it:
// the game's state after it, or a chatLine; false for a message the stream
// does not tell.
func (t *gameTracker) next(m *streamMsg) (any, bool) {
	switch m.Type {
	case "state":
		m.State.Type, m.State.Clock, m.State.Status, m.State.Result, m.State.Termination =
			m.Type, m.Clock, m.Status, m.Result, m.Termination
		t.reset(m.State)
	case "move":
		t.moves = append(t.moves, m.Notation)
		t.st.Moves, t.st.FEN = strings.Join(t.moves, " "), m.FEN
		t.st.WTime, t.st.BTime = m.Clock.WhiteMS, m.Clock.BlackMS
		t.st.WDraw, t.st.BDraw = false, false
	case "end":
		t.st.Status = endStatus(m.Status, m.Termination)
		t.st.Winner = winnerOf(m.Result)
		t.st.WTime, t.st.BTime = m.Clock.WhiteMS, m.Clock.BlackMS
		t.st.WDraw, t.st.BDraw = false, false
		t.over = true
	case "draw_offer":
		t.st.WDraw, t.st.BDraw = m.By == "white", m.By == "black"
	case "draw_declined":
		t.st.WDraw, t.st.BDraw = false, false
	case "chat":
		return chatLineJSON{Type: "chatLine", Username: m.By, Text: m.Text, Room: "player"}, true
	default:
		return nil, false
	}
	return t.st, true
}

// gameFull returns the first line of a game stream.
func gameFull(st live.State, gs gameStateJSON) gameFullJSON {
	tc, _ := clock.ParseTimeControl(st.TC)
	g := gameFullJSON{Type: "gameFull", ID: st.ID, Rated: st.Rated, Variant: keyJSON{Key: st.Ruleset}, Ruleset: st.Ruleset,
		Speed: cmp.Or(st.Category, "unlimited"), CreatedAt: st.Created.UnixMilli(), InitialFEN: st.StartFEN, State: gs,
		White: botPlayerOf(st.White), Black: botPlayerOf(st.Black)}
	switch tc.Kind() {
	case clock.Correspondence:
		g.Days = tc.Days
	case clock.SuddenDeath, clock.Fischer:
		g.Clock = &clockSpecJSON{Initial: tc.Base.Milliseconds(), Increment: tc.Increment.Milliseconds()}
	}
	return g
}

func botPlayerOf(s live.SeatJSON) botPlayerJSON {
	return botPlayerJSON{ID: strings.ToLower(s.Name), Name: s.Name, Rating: s.Rating, AI: s.EngineLevel}
}
