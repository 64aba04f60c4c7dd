// Package botapi is the bot and board API (docs/api.md, "Bot and board
// API"), shaped like lichess's and at its paths, so that a client written
// for lichess needs little change: personal access tokens with scopes
// (`Authorization: Bearer tgz_…`), an account upgraded to a bot, the NDJSON
// stream of a user's events (challenges, games started and finished), the
// stream of a game (gameFull, then gameState for each change, chatLine),
// and the endpoints that move, resign, abort, offer and answer draws, chat,
// challenge and answer challenges; and beside it the computer ladder with
// its page (/bots), and the tokens' part of /settings.
//
// It owns the tokens (stored only hashed, through Store: a token is shown
// once, when it is made), the challenges (in memory, as seeks are: lost at
// a restart, bounded per challenger, expiring) and the event streams'
// fan-out (Events, which the hub's OnEnd feeds). The games themselves are
// the live hub's (Hub.Act, Hub.PlayPly, Hub.JoinWith): there is no second
// implementation of games or clocks. Its errors are lichess's
// {"error": "…"} (with our code beside it) on every path IsAPIPath names,
// whoever answers them (WriteError): 401 for a bad token, 403 for a missing
// scope or a game not one's own, 404, 429 past the bounds per token.
package botapi

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Store is what the bot API keeps in the store: *store.Store.
type Store interface {
	AddToken(ctx context.Context, userID int64, hash, description string, scopes []string) (int64, error)
	TokenByHash(ctx context.Context, hash string) (store.Token, error)
	Tokens(ctx context.Context, userID int64) ([]store.Token, error)
	RevokeToken(ctx context.Context, userID, id int64) error
	UpgradeToBot(ctx context.Context, userID int64) error
	IsBot(ctx context.Context, userID int64) (bool, error)
	SetLadder(ctx context.Context, userID int64, on bool) error
	Bots(ctx context.Context, ladderOnly bool, limit int) ([]store.Bot, error)
	Perf(ctx context.Context, userID int64, cat rating.Category) (store.Perf, error)
	UserByName(ctx context.Context, name string) (store.User, error)
}

// The scopes of a token, as lichess names them.
const (
	ScopeBotPlay        = "bot:play"        // play as a bot (a bot account's games)
	ScopeBoardPlay      = "board:play"      // play one's games as a person, from another program
	ScopeChallengeRead  = "challenge:read"  // read the incoming challenges (the event stream)
	ScopeChallengeWrite = "challenge:write" // challenge, accept, decline and cancel
)

// Scopes lists every scope a token may have.
var Scopes = []string{ScopeBotPlay, ScopeBoardPlay, ScopeChallengeRead, ScopeChallengeWrite}

// tokenPrefix starts every personal access token (lichess's is lip_);
// neither sessions nor guests' tokens start with it.
const tokenPrefix = "tgz_"

// Limits bound what one token may make the server do. Zero fields take
// the defaults.
type Limits struct {
	// RequestsPerMinute bounds the requests of one token (default 300;
	// a move a second, with room for the rest).
	RequestsPerMinute int
	// StreamsPerToken bounds the streams one token holds open at once,
	// its event stream and its games' (default 8).
	StreamsPerToken int
	// Challenges is the most open challenges one user may have made
	// (default 10), and ChallengeExpiry how long one stays open (default
	// 10 min).
	Challenges      int
	ChallengeExpiry time.Duration
	// Ping is how often an idle stream writes an empty line, as lichess's
	// do (default 6 s).
	Ping time.Duration
}

func (l *Limits) defaults() {
	l.RequestsPerMinute = cmp.Or(l.RequestsPerMinute, 300)
	l.StreamsPerToken = cmp.Or(l.StreamsPerToken, 8)
	l.Challenges = cmp.Or(l.Challenges, 10)
	l.ChallengeExpiry = cmp.Or(l.ChallengeExpiry, 10*time.Minute)
	l.Ping = cmp.Or(l.Ping, 6*time.Second)
}

// ErrorKeys are the catalog keys of the bot API's messages (bots.json),
// for the catalog's completeness test.
func ErrorKeys() []string {
	return []string{
		"apierr.bot.no_token", "apierr.bot.scope", "apierr.bot.not_bot", "apierr.bot.is_bot",
		"apierr.bot.not_your_game", "apierr.bot.has_games", "apierr.bot.rate", "apierr.bot.streams",
		"apierr.bot.bad_scope", "apierr.bot.no_scope", "apierr.bot.description", "apierr.bot.too_many_tokens", "apierr.bot.bad_move",
		"apierr.bot.no_challenge", "apierr.bot.challenge_self", "apierr.bot.challenges", "apierr.bot.bad_clock",
		"apierr.bot.bad_room", "apierr.bot.no_user", "apierr.bot.off", "apierr.bot.not_yours", "apierr.bot.account",
	}
}

// IsAPIPath reports whether path is the bot API's, whose errors are
// lichess's {"error": "…"} (WriteError), whoever answers them: its
// handlers, the server's 404 for an unknown endpoint, the bounds on bodies.
func IsAPIPath(path string) bool {
	for _, p := range []string{"/api/bot/", "/api/board/", "/api/stream/", "/api/challenge", "/api/token", "/api/account"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// IsStreamPath reports whether path is one of the API's NDJSON streams,
// which are flushed line by line, never gzipped.
func IsStreamPath(path string) bool {
	return strings.HasPrefix(path, "/api/stream/") || strings.HasPrefix(path, "/api/bot/game/stream/") ||
		strings.HasPrefix(path, "/api/board/game/stream/")
}

// WriteError answers e as lichess does, {"error": msg}, with our code
// beside it; msg is e's message in the request's language. The caller
// sets the headers of the site's own bounds first (a 503's Retry-After);
// a 429 without one is told to wait a minute, as lichess's.
func WriteError(w http.ResponseWriter, e *apierr.Error, msg string) {
	if e.Status == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "60") // lichess: wait a minute after a 429
	}
	body := map[string]string{"error": msg, "code": string(e.Code)}
	if e.Detail != "" {
		body["detail"] = e.Detail
	}
	site.WriteJSON(w, e.Status, body)
}

// Config is what the bot API is made of.
type Config struct {
	// Store keeps the tokens and bot accounts (nil: the API answers 404).
	Store Store
	// Hub plays the games.
	Hub *live.Hub
	// Events delivers the event streams' events: the hub's
	// live.Config.OnEnd must call its GameEnded for the gameFinish events
	// (nil: New makes one, and no game's end is told).
	Events *Events
	// Limits bound the API per token, Ladder the computer ladder.
	Limits Limits
	Ladder LadderConfig
	// Settings renders the settings page of account with its tokens'
	// section sec (its new token or its error): the page is the site's,
	// the section this package's (TokenSection).
	Settings func(w http.ResponseWriter, r *http.Request, account site.Account, sec TokenSection) error
	// Privacy is asked before a challenge and a chat line (the site's
	// internal/privacy; nil: everything is allowed).
	Privacy Privacy
	// TokenEndpoint answers POST /api/token when its body is a form: the
	// token endpoint of OAuth 2 (internal/oauth), at lichess's path beside
	// the JSON that makes a personal token (nil: none).
	TokenEndpoint site.Handler
	// Notify tells a person who is not a bot of a challenge to him
	// (internal/notifications; nil: only his event stream tells him).
	Notify notify.Sender
}

// Privacy is what the API asks of the players' privacy settings, blocks
// and kid mode; a refusal is an error the API answers as it is.
type Privacy interface {
	// MayChallenge: may by challenge to, rated challengerRating in the
	// challenge's category (-1: unknown)?
	MayChallenge(ctx context.Context, by, to int64, challengerRating int) error
	// MayChat: may user chat in game id's players' room?
	MayChat(ctx context.Context, user int64, game string) error
	// MaySeeOnline: may viewer (an account; 0: a guest or nobody) see
	// that user is online?
	MaySeeOnline(ctx context.Context, viewer, user int64) bool
}

// API is the bot API's state in the server: the bounds per token, the
// event streams and the open challenges.
type API struct {
	kit      site.Kit
	st       Store // nil: the API is off
	hub      *live.Hub
	limits   Limits
	ladder   LadderConfig
	settings func(http.ResponseWriter, *http.Request, site.Account, TokenSection) error
	oauth    site.Handler
	perTok   *auth.Limiter
	events   *Events
	chals    *challenges
	priv     Privacy // nil: everything is allowed
	notify   notify.Sender

	mu      sync.Mutex
	streams map[int64]int // open streams per token id, guarded by mu
}

// New returns the bot API of the site kit.
func New(kit site.Kit, cfg Config) *API {
	l := cfg.Limits
	l.defaults()
	ev := cfg.Events
	if ev == nil {
		ev = NewEvents()
	}
	a := &API{kit: kit, st: cfg.Store, hub: cfg.Hub, limits: l, ladder: cfg.Ladder, settings: cfg.Settings, oauth: cfg.TokenEndpoint, events: ev, streams: map[int64]int{},
		perTok: auth.NewLimiter(rate.Limit(float64(l.RequestsPerMinute)/60), l.RequestsPerMinute, time.Now),
		chals:  newChallenges(l.Challenges, l.ChallengeExpiry, time.Now), priv: cfg.Privacy, notify: cfg.Notify}
	if b := cfg.Store; b != nil {
		ev.isBot = func(uid int64) bool {
			ctx, cancel := context.WithTimeout(context.Background(), site.StoreTimeout)
			defer cancel()
			bot, _ := b.IsBot(ctx, uid)
			return bot
		}
	}
	return a
}

// Events returns the fan-out of the API's event streams.
func (a *API) Events() *Events { return a.events }

// openStream counts a stream of token id; false past the bound.
func (a *API) openStream(id int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.streams[id] >= a.limits.StreamsPerToken {
		return false
	}
	a.streams[id]++
	return true
}

func (a *API) closeStream(id int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.streams[id]--; a.streams[id] <= 0 {
		delete(a.streams, id)
	}
}

// caller is who makes a request of the bot API: a token's user.
type caller struct {
	tok store.Token
}

func (c caller) seat() game.Seat { return game.UserSeat(c.tok.UserID, c.tok.UserName) }

func (c caller) chatter(r *http.Request) live.Chatter {
	return live.Chatter{ID: c.seat().ID, Name: c.tok.UserName, Addr: auth.AddrKey(auth.ClientIP(r))}
}

// HashToken is what the store keeps of token t: its hex SHA-256.
func HashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// NewToken returns a new token (personal or an app's) and its hash.
func NewToken() (token, hash string) {
	t := tokenPrefix + rand.Text()
	return t, HashToken(t)
}

// botAuth returns the caller of r's token if it has one of scopes (any,
// when none is named); 401 for a missing or unknown token, 403 for a
// missing scope, 429 past the token's requests a minute.
func (a *API) botAuth(r *http.Request, scopes ...string) (caller, error) {
	if a.st == nil {
		return caller{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.off")
	}
	t, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, tokenPrefix) || len(t) > 100 {
		return caller{}, apierr.New(http.StatusUnauthorized, apierr.CodeBadToken, "apierr.bot.no_token")
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	tok, err := a.st.TokenByHash(ctx, HashToken(t))
	if errors.Is(err, store.ErrNotFound) {
		return caller{}, apierr.New(http.StatusUnauthorized, apierr.CodeBadToken, "apierr.bot.no_token")
	}
	if err != nil {
		return caller{}, err
	}
	if !a.perTok.Allow(strconv.FormatInt(tok.ID, 10)) {
		return caller{}, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.rate", a.limits.RequestsPerMinute)
	}
	if len(scopes) > 0 && !slices.ContainsFunc(scopes, func(sc string) bool { return slices.Contains(tok.Scopes, sc) }) {
		return caller{}, apierr.New(http.StatusForbidden, apierr.CodeMissingScope, "apierr.bot.scope", strings.Join(scopes, ", "))
	}
	return caller{tok: tok}, nil
}

// playAuth is botAuth for the game endpoints of api ("bot" or "board"):
// the bot API is for bot accounts with bot:play, the board API for
// people with board:play.
func (a *API) playAuth(r *http.Request, api string) (caller, error) {
	scope := ScopeBoardPlay
	if api == "bot" {
		scope = ScopeBotPlay
	}
	c, err := a.botAuth(r, scope)
	if err != nil {
		return c, err
	}
	switch {
	case api == "bot" && !c.tok.Bot:
		return c, apierr.New(http.StatusForbidden, apierr.CodeNotBot, "apierr.bot.not_bot")
	case api == "board" && c.tok.Bot:
		return c, apierr.New(http.StatusForbidden, apierr.CodeNotBot, "apierr.bot.is_bot")
	}
	return c, nil
}

// Routes adds the bot API's routes, the ladder's page and the settings
// page's token forms.
func (a *API) Routes(rt site.Router) {
	rt.API("GET /api/account", a.apiAccount)
	rt.API("POST /api/token", a.apiCreateToken)
	rt.API("GET /api/token", a.apiTokens)
	rt.API("DELETE /api/token", a.apiRevokeOwnToken)
	rt.API("DELETE /api/token/{id}", a.apiRevokeToken)
	rt.API("POST /api/bot/account/upgrade", a.apiBotUpgrade)
	rt.API("POST /api/bot/account/ladder", a.apiBotLadder)
	rt.API("GET /api/stream/event", a.apiEventStream)
	rt.API("GET /api/challenge", a.apiChallenges)
	rt.API("POST /api/challenge/{name}", a.apiChallenge)
	rt.API("POST /api/challenge/{id}/accept", a.apiChallengeAnswer("accept"))
	rt.API("POST /api/challenge/{id}/decline", a.apiChallengeAnswer("decline"))
	rt.API("POST /api/challenge/{id}/cancel", a.apiChallengeAnswer("cancel"))
	for _, api := range []string{"bot", "board"} {
		// GET …/game/stream/{id} and GET …/game/{id}/chat overlap as
		// patterns (…/game/stream/chat): one route serves both.
		stream, history := a.apiGameStream(api), a.apiBotChatHistory(api)
		rt.API("GET /api/"+api+"/game/{x}/{y}", func(w http.ResponseWriter, r *http.Request) error {
			switch {
			case r.PathValue("x") == "stream":
				r.SetPathValue("id", r.PathValue("y"))
				return stream(w, r)
			case r.PathValue("y") == "chat":
				r.SetPathValue("id", r.PathValue("x"))
				return history(w, r)
			}
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_endpoint", site.Excerpt(r.URL.Path))
		})
		rt.API("POST /api/"+api+"/game/{id}/move/{move}", a.apiBotMove(api))
		rt.API("POST /api/"+api+"/game/{id}/chat", a.apiBotChat(api))
		for _, act := range []string{"resign", "abort", "claim-victory"} {
			rt.API("POST /api/"+api+"/game/{id}/"+act, a.apiBotAct(api, act))
		}
		rt.API("POST /api/"+api+"/game/{id}/draw/{accept}", a.apiBotDraw(api))
	}
	rt.Page("POST /settings/tokens", a.pageCreateToken)
	rt.Page("POST /settings/tokens/{id}/revoke", a.pageRevokeToken)
	rt.Page("GET /bots", a.pageBots)
}

// ---- what a client sent, in the errors ----
