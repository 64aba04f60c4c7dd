// Package botclient connects an engine to a toguz server as a bot, as
// lichess-bot does for lichess: it listens to the account's event stream
// (GET /api/stream/event), accepts or declines challenges by a Policy,
// plays each game on its own goroutine over the game's stream (GET
// /api/bot/game/stream/{id}, moves by POST /api/bot/game/{id}/move/{move})
// and reconnects with back-off when a stream breaks. `toguz bot` is its
// command; the engine is the built-in one (Builtin) or any program that
// speaks the engine protocol (Process, internal/protocol).
package botclient

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
)

// MoveRequest is what an engine is asked: the position of a game (the side
// to move is the bot's) and the clocks, White's first (zero: no clock).
type MoveRequest struct {
	GameID   string
	Position toguz.Position
	Time     [2]time.Duration
	Inc      time.Duration
}

// Engine plays the bot's moves in one game.
type Engine interface {
	Move(ctx context.Context, r MoveRequest) (toguz.Move, error)
	Close() error
}

// Policy says which challenges the bot accepts; the others it declines
// with lichess's reasons.
type Policy struct {
	Rated, Casual bool          // accept rated games, casual games
	Bots, People  bool          // accept challenges from bots, from people
	MinBase       time.Duration // the shortest base time accepted (0: any)
	MaxBase       time.Duration // the longest (0: any)
	Unlimited     bool          // accept games without a clock
	Rulesets      []string      // the rulesets accepted (empty: standard only)
}

// DefaultPolicy accepts every challenge of the standard ruleset with a
// clock, rated or casual, from bots and people.
func DefaultPolicy() Policy {
	return Policy{Rated: true, Casual: true, Bots: true, People: true}
}

func (p Policy) rulesets() []string {
	if len(p.Rulesets) == 0 {
		return []string{"standard"}
	}
	return p.Rulesets
}

// decide returns "" to accept the challenge c, else the reason to decline.
func (p Policy) decide(c challengeJSON) string {
	switch {
	case c.Rated && !p.Rated:
		return "casual"
	case !c.Rated && !p.Casual:
		return "rated"
	case c.Challenger.Title == "BOT" && !p.Bots:
		return "noBot"
	case c.Challenger.Title != "BOT" && !p.People:
		return "onlyBot"
	case !slices.Contains(p.rulesets(), cmp.Or(c.Ruleset, c.Variant.Key, "standard")):
		return "variant"
	}
	switch c.TimeControl.Type {
	case "clock":
		base := time.Duration(c.TimeControl.Limit) * time.Second
		if p.MinBase > 0 && base < p.MinBase {
			return "tooFast"
		}
		if p.MaxBase > 0 && base > p.MaxBase {
			return "tooSlow"
		}
	case "unlimited":
		if !p.Unlimited {
			return "timeControl"
		}
	case "correspondence":
		if p.MaxBase > 0 {
			return "tooSlow"
		}
	}
	return ""
}

// Config is what a bot runs with.
type Config struct {
	URL   string // the server, http(s)://host[:port]
	Token string // a personal access token with bot:play
	// NewEngine starts the engine of one game.
	NewEngine func(ctx context.Context) (Engine, error)
	Policy    Policy
	// MaxGames is the most games played at once (default 1); a challenge
	// beyond it is declined ("later").
	MaxGames int
	// MinBackoff and MaxBackoff bound the wait before reconnecting a
	// stream (defaults 1 s and 1 min; it doubles at each failure).
	MinBackoff, MaxBackoff time.Duration
	HTTP                   *http.Client // default: one without a timeout (the streams are long)
	Logger                 *slog.Logger
	// OnGameOver, if set, is called with each game's id and its last
	// gameState's status once the bot stops playing it.
	OnGameOver func(id, status string)
	// Upgrade makes the account a bot when it is not one yet (New; the
	// server refuses an account that has played).
	Upgrade bool
}

// Bot is a running bot.
type Bot struct {
	cfg  Config
	log  *slog.Logger
	name string // the account's, from GET /api/account

	mu    sync.Mutex
	games map[string]bool // the games being played, guarded by mu
	wg    sync.WaitGroup
}

// Run runs a bot until ctx ends: it reads its account, then listens to its
// event stream, reconnecting with back-off, and plays its games. It
// returns ctx's error, or the error of a token the server refuses.
func Run(ctx context.Context, cfg Config) error {
	b, err := New(ctx, cfg)
	if err != nil {
		return err
	}
	return b.Run(ctx)
}

// New checks the token (GET /api/account) and returns the bot.
func New(ctx context.Context, cfg Config) (*Bot, error) {
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.MaxGames = cmp.Or(cfg.MaxGames, 1)
	cfg.MinBackoff = cmp.Or(cfg.MinBackoff, time.Second)
	cfg.MaxBackoff = cmp.Or(cfg.MaxBackoff, time.Minute)
	cfg.URL = strings.TrimRight(cfg.URL, "/")
	if cfg.NewEngine == nil {
		return nil, errors.New("botclient: no engine")
	}
	b := &Bot{cfg: cfg, log: cfg.Logger, games: map[string]bool{}}
	var acct struct {
		Username string `json:"username"`
		Title    string `json:"title"`
	}
	if err := b.call(ctx, http.MethodGet, "/api/account", nil, &acct); err != nil {
		return nil, fmt.Errorf("botclient: account: %w", err)
	}
	b.name = acct.Username
	switch {
	case acct.Title == "BOT":
	case cfg.Upgrade:
		if err := b.Upgrade(ctx); err != nil {
			return nil, fmt.Errorf("botclient: upgrade %s to a bot: %w", b.name, err)
		}
		b.log.Info("the account is a bot now", "account", b.name)
	default:
		b.log.Warn("the account is not a bot: upgrade it with `toguz bot -upgrade`", "account", b.name)
	}
	return b, nil
}

// Name returns the bot's account name.
func (b *Bot) Name() string { return b.name }

// Upgrade makes the bot's account a bot (POST /api/bot/account/upgrade).
func (b *Bot) Upgrade(ctx context.Context) error {
	return b.call(ctx, http.MethodPost, "/api/bot/account/upgrade", nil, nil)
}

// SetLadder joins or leaves the computer ladder.
func (b *Bot) SetLadder(ctx context.Context, on bool) error {
	return b.call(ctx, http.MethodPost, "/api/bot/account/ladder?on="+strconv.FormatBool(on), nil, nil)
}

// Challenge challenges user with the form fields of POST
// /api/challenge/{username} (tc, rated, color, ruleset) and returns the
// challenge's id.
func (b *Bot) Challenge(ctx context.Context, user string, form url.Values) (string, error) {
	var c challengeJSON
	err := b.call(ctx, http.MethodPost, "/api/challenge/"+url.PathEscape(user), form, &c)
	return c.ID, err
}

// Run listens to the event stream until ctx ends, then waits for the
// games' goroutines.
func (b *Bot) Run(ctx context.Context) error {
	defer b.wg.Wait()
	wait := b.cfg.MinBackoff
	for {
		start := time.Now()
		err := b.events(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var he *HTTPError
		if errors.As(err, &he) && (he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden) {
			return err // the token is refused: waiting changes nothing
		}
		if time.Since(start) > b.cfg.MaxBackoff {
			wait = b.cfg.MinBackoff // it had been connected a while
		}
		b.log.Warn("event stream lost; reconnecting", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, b.cfg.MaxBackoff)
	}
}

// HTTPError is a refusal of the server, with lichess's {"error": "…"}.
type HTTPError struct {
	Status  int
	Message string
	Code    string
}

func (e *HTTPError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message) }

// request sends a request with the token; form is the body, if any.
func (b *Bot) request(ctx context.Context, method, path string, form url.Values) (*http.Response, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, b.cfg.URL+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+b.cfg.Token)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := b.cfg.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		var e struct {
			Error string `json:"error"`
			Code  string `json:"code"`
		}
		json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&e)
		return nil, &HTTPError{Status: resp.StatusCode, Message: e.Error, Code: e.Code}
	}
	return resp, nil
}

// call makes a request and decodes its JSON answer into out (nil: none).
// A 429 is waited out (a minute, or the Retry-After) and tried again,
// three times.
func (b *Bot) call(ctx context.Context, method, path string, form url.Values, out any) error {
	for try := 0; ; try++ {
		resp, err := b.request(ctx, method, path, form)
		var he *HTTPError
		if errors.As(err, &he) && he.Status == http.StatusTooManyRequests && try < 3 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(b.cfg.MinBackoff << try):
			}
			continue
		}
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if out == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			return nil
		}
		return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out)
	}
}

// lines calls f with each non-empty line of the stream at path until it
// ends or f returns false.
func (b *Bot) lines(ctx context.Context, path string, f func([]byte) bool) error {
	resp, err := b.request(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue // a keep-alive
		}
		if !f(sc.Bytes()) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF
}

type userJSON struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Title string `json:"title"`
}

type challengeJSON struct {
	ID          string               `json:"id"`
	Status      string               `json:"status"`
	Challenger  userJSON             `json:"challenger"`
	DestUser    userJSON             `json:"destUser"`
	Rated       bool                 `json:"rated"`
	Ruleset     string               `json:"ruleset"`
	Variant     struct{ Key string } `json:"variant"`
	TimeControl struct {
		Type  string `json:"type"`
		Limit int    `json:"limit"`
	} `json:"timeControl"`
}

type eventJSON struct {
	Type      string        `json:"type"`
	Challenge challengeJSON `json:"challenge"`
	Game      struct {
		GameID string `json:"gameId"`
	} `json:"game"`
}

// events reads the event stream until it breaks.
func (b *Bot) events(ctx context.Context) error {
	return b.lines(ctx, "/api/stream/event", func(line []byte) bool {
		var ev eventJSON
		if err := json.Unmarshal(line, &ev); err != nil {
			b.log.Warn("bad event", "err", err)
			return true
		}
		switch ev.Type {
		case "challenge":
			if strings.EqualFold(ev.Challenge.DestUser.Name, b.name) && ev.Challenge.Status == "created" {
				b.answer(ctx, ev.Challenge)
			}
		case "gameStart":
			b.startGame(ctx, ev.Game.GameID)
		}
		return true
	})
}

// answer accepts or declines challenge c by the policy and the games
// being played.
func (b *Bot) answer(ctx context.Context, c challengeJSON) {
	reason := b.cfg.Policy.decide(c)
	b.mu.Lock()
	if reason == "" && len(b.games) >= b.cfg.MaxGames {
		reason = "later"
	}
	b.mu.Unlock()
	if reason != "" {
		b.log.Info("declining a challenge", "challenge", c.ID, "from", c.Challenger.Name, "reason", reason)
		if err := b.call(ctx, http.MethodPost, "/api/challenge/"+c.ID+"/decline", url.Values{"reason": {reason}}, nil); err != nil {
			b.log.Warn("decline", "challenge", c.ID, "err", err)
		}
		return
	}
	b.log.Info("accepting a challenge", "challenge", c.ID, "from", c.Challenger.Name)
	if err := b.call(ctx, http.MethodPost, "/api/challenge/"+c.ID+"/accept", nil, nil); err != nil {
		b.log.Warn("accept", "challenge", c.ID, "err", err)
	}
}

// startGame plays game id on its own goroutine, unless it is played
// already.
func (b *Bot) startGame(ctx context.Context, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.games[id] || id == "" {
		return
	}
	b.games[id] = true
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		status := b.play(ctx, id)
		b.mu.Lock()
		delete(b.games, id)
		b.mu.Unlock()
		if f := b.cfg.OnGameOver; f != nil {
			f(id, status)
		}
	}()
}

type gameStateJSON struct {
	Type   string `json:"type"`
	Moves  string `json:"moves"`
	FEN    string `json:"fen"`
	WTime  int64  `json:"wtime"`
	BTime  int64  `json:"btime"`
	WInc   int64  `json:"winc"`
	Status string `json:"status"`
	Winner string `json:"winner"`
}

type gameLineJSON struct {
	gameStateJSON
	Ruleset string `json:"ruleset"`
	Clock   *struct {
		Initial int64 `json:"initial"`
	} `json:"clock"`
	White struct {
		Name string `json:"name"`
	} `json:"white"`
	Black struct {
		Name string `json:"name"`
	} `json:"black"`
	State gameStateJSON `json:"state"`
}

// play plays game id until it is over, reconnecting its stream with
// back-off; it returns the game's last status.
func (b *Bot) play(ctx context.Context, id string) string {
	eng, err := b.cfg.NewEngine(ctx)
	if err != nil {
		b.log.Error("engine", "game", id, "err", err)
		return ""
	}
	defer eng.Close()
	g := &botGame{bot: b, id: id, eng: eng, moved: -1}
	wait := b.cfg.MinBackoff
	for tries := 0; tries < 10; tries++ {
		err := b.lines(ctx, "/api/bot/game/stream/"+url.PathEscape(id), g.line)
		if g.over || ctx.Err() != nil {
			return g.status
		}
		var he *HTTPError
		if errors.As(err, &he) && he.Status != http.StatusTooManyRequests && he.Status < 500 {
			b.log.Error("game stream refused", "game", id, "err", err)
			return g.status
		}
		b.log.Warn("game stream lost; reconnecting", "game", id, "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return g.status
		case <-time.After(wait):
		}
		wait = min(2*wait, b.cfg.MaxBackoff)
	}
	return g.status
}

// botGame is one game being played.
type botGame struct {
	bot    *Bot
	id     string
	eng    Engine
	rules  toguz.Rules
	me     toguz.Player
	moved  int // the ply count the bot last moved at
	over   bool
	status string
}

// line handles one line of the game's stream; false once the game is over.
func (g *botGame) line(b []byte) bool {
	var m gameLineJSON
	if err := json.Unmarshal(b, &m); err != nil {
		return true
	}
	st := m.gameStateJSON
	switch m.Type {
	case "gameFull":
		rules, err := toguz.ParseRules(cmp.Or(m.Ruleset, "standard"))
		if err != nil {
			g.bot.log.Error("game ruleset", "game", g.id, "err", err)
			g.over = true
			return false
		}
		g.rules = rules
		g.me = toguz.White
		if strings.EqualFold(m.Black.Name, g.bot.name) {
			g.me = toguz.Black
		}
		st = m.State
	case "gameState":
	default:
		return true // chatLine, opponentGone
	}
	g.status = st.Status
	if st.Status != "started" {
		g.over = true
		return false
	}
	g.maybeMove(st)
	return true
}

// maybeMove asks the engine for a move and plays it when it is the bot's
// turn at a ply it has not moved at yet.
func (g *botGame) maybeMove(st gameStateJSON) {
	ply := len(strings.Fields(st.Moves))
	pos, _, err := toguz.ParseFEN(st.FEN, g.rules)
	if err != nil || pos.Turn() != g.me || ply == g.moved || pos.IsOver() {
		return
	}
	g.moved = ply
	ctx := context.Background()
	r := MoveRequest{GameID: g.id, Position: pos, Inc: time.Duration(st.WInc) * time.Millisecond}
	if st.WTime > 0 || st.BTime > 0 {
		r.Time = [2]time.Duration{time.Duration(st.WTime) * time.Millisecond, time.Duration(st.BTime) * time.Millisecond}
	}
	mv, err := g.eng.Move(ctx, r)
	if err != nil || !pos.LegalMoves().Has(mv) {
		g.bot.log.Error("engine failed: playing the first legal move", "game", g.id, "move", mv, "err", err)
		mv = pos.LegalMoves().First()
	}
	if err := g.bot.call(ctx, http.MethodPost, "/api/bot/game/"+url.PathEscape(g.id)+"/move/"+strconv.Itoa(int(mv)), nil, nil); err != nil {
		g.bot.log.Warn("move refused", "game", g.id, "ply", ply+1, "move", mv, "err", err)
		g.moved = -1 // a later state asks again
	}
}
