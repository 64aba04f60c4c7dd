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
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/live"
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
	perTok   *auth.Limiter
	events   *Events
	chals    *challenges

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
	a := &API{kit: kit, st: cfg.Store, hub: cfg.Hub, limits: l, ladder: cfg.Ladder, settings: cfg.Settings, events: ev, streams: map[int64]int{},
		perTok: auth.NewLimiter(rate.Limit(float64(l.RequestsPerMinute)/60), l.RequestsPerMinute, time.Now),
		chals:  newChallenges(l.Challenges, l.ChallengeExpiry, time.Now)}
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

func (c caller) seat() live.Seat { return live.UserSeat(c.tok.UserID, c.tok.UserName) }

func (c caller) chatter(r *http.Request) live.Chatter {
	return live.Chatter{ID: c.seat().ID, Name: c.tok.UserName, Addr: auth.AddrKey(auth.ClientIP(r))}
}

func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
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
	tok, err := a.st.TokenByHash(ctx, hashToken(t))
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
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_endpoint", excerpt(r.URL.Path))
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

// excerpt shortens what a client sent for an error message.
func excerpt(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// notFound names what was not found: live's not_found error becomes the
// message key (apierr.no_game) about id; other errors are returned as
// they are.
func notFound(err error, key, id string) error {
	var le *live.Error
	if errors.As(err, &le) && le.Code == apierr.CodeNotFound {
		return &apierr.Error{Status: http.StatusNotFound, Code: apierr.CodeNotFound, Key: key, Args: []any{excerpt(id)}, Detail: le.Message}
	}
	return err
}

func parseTC(s string) (clock.TimeControl, error) {
	if s == "none" {
		s = ""
	}
	tc, err := clock.ParseTimeControl(s)
	if err != nil {
		return tc, apierr.BadRequest(apierr.CodeBadTC, "apierr.bad_tc", excerpt(s)).WithDetail(err)
	}
	return tc, nil
}

func parseRuleset(s string) (toguz.Rules, error) {
	if s == "" {
		return toguz.Standard(), nil
	}
	r, err := toguz.ParseRules(s)
	if err != nil {
		return r, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_ruleset", excerpt(s)).WithDetail(err)
	}
	return r, nil
}

// clearDeadlines lifts the http.Server's read and write deadlines from the
// connection of a stream, which lives as long as its client reads it, not
// ReadTimeout or WriteTimeout.
func clearDeadlines(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	// ErrNotSupported (a test recorder) leaves nothing to clear.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
}

// ---- account and tokens ----

func (a *API) apiAccount(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r)
	if err != nil {
		return err
	}
	j := map[string]any{"id": strings.ToLower(c.tok.UserName), "username": c.tok.UserName, "scopes": c.tok.Scopes}
	if c.tok.Bot {
		j["title"] = "BOT"
	}
	return site.WriteJSON(w, http.StatusOK, j)
}

// tokenJSON is a token as the API lists it (never the token itself).
type tokenJSON struct {
	ID          int64     `json:"id"`
	Description string    `json:"description"`
	Scopes      []string  `json:"scopes"`
	Created     time.Time `json:"created"`
}

// maxTokenDescription is the longest description of a token, in runes.
const maxTokenDescription = 100

// createToken makes a token for account with description and scopes and
// returns it: the only time it is shown.
func (a *API) createToken(ctx context.Context, account site.Account, description string, scopes []string) (string, tokenJSON, error) {
	description = strings.TrimSpace(description)
	if description == "" || len([]rune(description)) > maxTokenDescription {
		return "", tokenJSON{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.description", maxTokenDescription)
	}
	if len(scopes) == 0 {
		return "", tokenJSON{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.no_scope", strings.Join(Scopes, ", "))
	}
	var clean []string
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return "", tokenJSON{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.bad_scope", excerpt(sc), strings.Join(Scopes, ", "))
		}
		if !slices.Contains(clean, sc) {
			clean = append(clean, sc)
		}
	}
	t := tokenPrefix + rand.Text()
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	id, err := a.st.AddToken(ctx, account.ID, hashToken(t), description, clean)
	if errors.Is(err, store.ErrTooMany) {
		return "", tokenJSON{}, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.too_many_tokens", store.MaxTokens)
	}
	if err != nil {
		return "", tokenJSON{}, err
	}
	return t, tokenJSON{ID: id, Description: description, Scopes: clean, Created: time.Now().UTC()}, nil
}

// sessionAccount returns the signed-up account of r's session (cookie or
// session Bearer), or 401: tokens are made and listed by a session, never
// by another token.
func (a *API) sessionAccount(r *http.Request) (site.Account, error) {
	if a.st == nil {
		return site.Account{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.off")
	}
	id := a.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Account{}, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.bot.account")
	}
	return id.Account, nil
}

type tokenRequest struct {
	Description string   `json:"description"`
	Scopes      []string `json:"scopes"`
}

// apiCreateToken is POST /api/token, by a session: {"description", "scopes"}
// → the token, shown this once.
func (a *API) apiCreateToken(w http.ResponseWriter, r *http.Request) error {
	acct, err := a.sessionAccount(r)
	if err != nil {
		return err
	}
	var req tokenRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	t, j, err := a.createToken(r.Context(), acct, req.Description, req.Scopes)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"token": t, "id": j.ID, "description": j.Description, "scopes": j.Scopes})
}

func (a *API) listTokens(ctx context.Context, uid int64) ([]tokenJSON, error) {
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	ts, err := a.st.Tokens(ctx, uid)
	if err != nil {
		return nil, err
	}
	out := make([]tokenJSON, len(ts))
	for i, t := range ts {
		out[i] = tokenJSON{ID: t.ID, Description: t.Description, Scopes: t.Scopes, Created: t.Created}
	}
	return out, nil
}

func (a *API) apiTokens(w http.ResponseWriter, r *http.Request) error {
	acct, err := a.sessionAccount(r)
	if err != nil {
		return err
	}
	ts, err := a.listTokens(r.Context(), acct.ID)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"tokens": ts})
}

// apiRevokeOwnToken is DELETE /api/token: the token of the request
// revokes itself, as lichess's.
func (a *API) apiRevokeOwnToken(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r)
	if err != nil {
		return err
	}
	if err := a.st.RevokeToken(r.Context(), c.tok.UserID, c.tok.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// apiRevokeToken is DELETE /api/token/{id}, by a session.
func (a *API) apiRevokeToken(w http.ResponseWriter, r *http.Request) error {
	acct, err := a.sessionAccount(r)
	if err != nil {
		return err
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err := a.st.RevokeToken(r.Context(), acct.ID, id); errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.not_yours", excerpt(r.PathValue("id")))
	} else if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// apiBotUpgrade is POST /api/bot/account/upgrade: the account becomes a
// bot, for good; only one that has played no game.
func (a *API) apiBotUpgrade(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r, ScopeBotPlay)
	if err != nil {
		return err
	}
	if err := a.st.UpgradeToBot(r.Context(), c.tok.UserID); errors.Is(err, store.ErrConflict) {
		return apierr.BadRequest(apierr.CodeHasGames, "apierr.bot.has_games")
	} else if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// apiBotLadder is POST /api/bot/account/ladder?on=true|false: a bot joins
// or leaves the computer ladder (/bots).
func (a *API) apiBotLadder(w http.ResponseWriter, r *http.Request) error {
	c, err := a.playAuth(r, "bot")
	if err != nil {
		return err
	}
	on, err := strconv.ParseBool(cmp.Or(r.FormValue("on"), "true"))
	if err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.json_bad").WithDetail(err)
	}
	if err := a.st.SetLadder(r.Context(), c.tok.UserID, on); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true, "ladder": on})
}

// ---- streams ----

// ndjson writes the lines of a stream, each flushed, and an empty line
// when nothing was written for a while.
type ndjson struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func startNDJSON(w http.ResponseWriter) *ndjson {
	clearDeadlines(w)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	n := &ndjson{w: w, rc: http.NewResponseController(w)}
	n.rc.Flush()
	return n
}

// line writes b and a newline; false when the client has gone.
func (n *ndjson) line(b []byte) bool {
	if _, err := n.w.Write(append(b, '\n')); err != nil {
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
	out := startNDJSON(w)
	ctx := r.Context()
	for _, spec := range a.hub.GamesOf(c.seat().ID) {
		if !out.json(a.gameEvent(ctx, "gameStart", spec, c.tok.UserID, nil)) {
			return nil
		}
	}
	for _, ch := range a.chals.of(c.tok.UserID) {
		if !out.json(challengeEvent{Type: "challenge", Challenge: ch.json()}) {
			return nil
		}
	}
	ping := time.NewTicker(a.limits.Ping)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.gone:
			return nil // too slow: the client reconnects and gets the state again
		case b := <-sub.ch:
			if !out.line(b) {
				return nil
			}
		case <-ping.C:
			if !out.line(nil) {
				return nil
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
func (a *API) gameEvent(ctx context.Context, typ string, spec live.Spec, uid int64, end *live.Ending) gameEvent {
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
func gameEventOf(typ string, spec live.Spec, uid int64, end *live.Ending, isBot func(int64) bool) gameEvent {
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
		st, err := a.hub.State(ctx, id)
		if err != nil {
			return notFound(err, "apierr.no_game", id)
		}
		if !seatIs(st.White, c.tok.UserName) && !seatIs(st.Black, c.tok.UserName) {
			return apierr.New(http.StatusForbidden, apierr.CodeNotYourGame, "apierr.bot.not_your_game", excerpt(id))
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
					return notFound(err, "apierr.no_game", id)
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
			var m streamMsg
			if json.Unmarshal(b, &m) != nil {
				continue
			}
			var line any
			switch m.Type {
			case "state":
				m.State.Type, m.State.Clock, m.State.Status, m.State.Result, m.State.Termination =
					m.Type, m.Clock, m.Status, m.Result, m.Termination
				t.reset(m.State)
				if *out == nil {
					*out = startNDJSON(w)
					line = gameFull(m.State, t.st)
				} else {
					line = t.st
				}
			case "move":
				t.moves = append(t.moves, m.Notation)
				t.st.Moves, t.st.FEN = strings.Join(t.moves, " "), m.FEN
				t.st.WTime, t.st.BTime = m.Clock.WhiteMS, m.Clock.BlackMS
				t.st.WDraw, t.st.BDraw = false, false
				line = t.st
			case "end":
				t.st.Status = endStatus(m.Status, m.Termination)
				t.st.Winner = winnerOf(m.Result)
				t.st.WTime, t.st.BTime = m.Clock.WhiteMS, m.Clock.BlackMS
				t.st.WDraw, t.st.BDraw = false, false
				t.over = true
				line = t.st
			case "draw_offer":
				t.st.WDraw, t.st.BDraw = m.By == "white", m.By == "black"
				line = t.st
			case "draw_declined":
				t.st.WDraw, t.st.BDraw = false, false
				line = t.st
			case "chat":
				line = chatLineJSON{Type: "chatLine", Username: m.By, Text: m.Text, Room: "player"}
			default:
				continue
			}
			if *out == nil || !(*out).json(line) || t.over {
				return true
			}
		}
	}
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

// ---- acting in a game ----

// botGameError makes the hub's refusals lichess's: another's game is 403.
func botGameError(err error, id string) error {
	var le *live.Error
	if errors.As(err, &le) && le.Code == apierr.CodeNotAPlayer {
		return apierr.New(http.StatusForbidden, apierr.CodeNotYourGame, "apierr.bot.not_your_game", excerpt(id))
	}
	return notFound(err, "apierr.no_game", id)
}

func okJSON(w http.ResponseWriter) error {
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// apiBotMove is POST /api/{bot,board}/game/{id}/move/{move}: the move in
// score-sheet notation ("76", "48x"), or the hole alone ("7").
func (a *API) apiBotMove(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		y, err := toguz.ParsePly(r.PathValue("move"))
		if err != nil {
			return apierr.BadRequest(apierr.CodeIllegalMove, "apierr.bot.bad_move", excerpt(r.PathValue("move"))).WithDetail(err)
		}
		if err := a.hub.PlayPly(r.Context(), r.PathValue("id"), c.chatter(r), y); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotAct is POST /api/{bot,board}/game/{id}/{resign,abort,claim-victory}.
func (a *API) apiBotAct(api, act string) func(http.ResponseWriter, *http.Request) error {
	typ := map[string]string{"resign": "resign", "abort": "abort", "claim-victory": "claim_win"}[act]
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		if err := a.hub.Act(r.Context(), r.PathValue("id"), c.chatter(r), live.ClientMsg{Type: typ}); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotDraw is POST /api/{bot,board}/game/{id}/draw/{yes,no}: yes offers
// a draw or accepts the opponent's, no declines it.
func (a *API) apiBotDraw(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		typ := ""
		switch r.PathValue("accept") {
		case "yes", "true":
			typ = "draw_offer" // the hub accepts a standing offer of the opponent's
		case "no", "false":
			typ = "draw_decline"
		default:
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_endpoint", excerpt(r.URL.Path))
		}
		if err := a.hub.Act(r.Context(), r.PathValue("id"), c.chatter(r), live.ClientMsg{Type: typ}); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotChat is POST /api/{bot,board}/game/{id}/chat: room=player and
// text=… (form fields, as lichess's). The spectators' room is the site's.
func (a *API) apiBotChat(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		if room := cmp.Or(r.FormValue("room"), "player"); room != "player" {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.bad_room", excerpt(room))
		}
		if err := a.hub.Act(r.Context(), r.PathValue("id"), c.chatter(r), live.ClientMsg{Type: "chat", Text: r.FormValue("text")}); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotChatHistory is GET /api/{bot,board}/game/{id}/chat: the players'
// recent messages, [{"user", "text"}].
func (a *API) apiBotChatHistory(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		id := r.PathValue("id")
		st, err := a.hub.State(r.Context(), id)
		if err != nil {
			return notFound(err, "apierr.no_game", id)
		}
		if !seatIs(st.White, c.tok.UserName) && !seatIs(st.Black, c.tok.UserName) {
			return apierr.New(http.StatusForbidden, apierr.CodeNotYourGame, "apierr.bot.not_your_game", excerpt(id))
		}
		conn, err := a.hub.JoinWith(r.Context(), id, c.chatter(r))
		if err != nil {
			return notFound(err, "apierr.no_game", id)
		}
		defer conn.Leave()
		lines := []map[string]string{}
		timeout := time.After(time.Second)
		for {
			select {
			case b, ok := <-conn.Out():
				if !ok {
					return site.WriteJSON(w, http.StatusOK, lines)
				}
				var m struct {
					Type     string          `json:"type"`
					Messages []live.ChatJSON `json:"messages"`
				}
				if json.Unmarshal(b, &m) != nil || m.Type != "chat_history" {
					if m.Type == "state" {
						conn.Send(live.ClientMsg{Type: "chat_history"})
					}
					continue
				}
				for _, cm := range m.Messages {
					lines = append(lines, map[string]string{"user": cm.By, "text": cm.Text})
				}
				return site.WriteJSON(w, http.StatusOK, lines)
			case <-timeout:
				return site.WriteJSON(w, http.StatusOK, lines)
			case <-r.Context().Done():
				return nil
			}
		}
	}
}

// ---- seats ----

// botSeat returns the seat of user (id, name) in a game of tc, with his
// rating in the category the game would be rated in: the bots' when bot.
func (a *API) botSeat(ctx context.Context, uid int64, name string, tc clock.TimeControl, bot bool) live.Seat {
	seat := live.UserSeat(uid, name)
	cat, ok := live.Category(tc)
	if !ok {
		return seat
	}
	if bot {
		cat = cat.Bot()
	}
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	if p, err := a.st.Perf(ctx, uid, cat); err == nil {
		seat.Rating = p.Int()
	} else {
		seat.Rating = int(rating.DefaultRating)
	}
	return seat
}

// startBotGame creates the game between a and b (a White) and tells both
// of it on their event streams.
func (a *API) startBotGame(ctx context.Context, spec live.Spec, source string) (string, error) {
	id, err := a.hub.Create(ctx, spec)
	if err != nil {
		return "", err
	}
	spec.ID = id
	for _, seat := range []live.Seat{spec.White, spec.Black} {
		ev := a.gameEvent(ctx, "gameStart", spec, seat.UserID, nil)
		ev.Game.Source = source
		a.events.send(seat.UserID, ev)
	}
	return id, nil
}

// errNoUser is the refusal of a challenge to a name nobody has.
func errNoUser(name string) error {
	return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.no_user", excerpt(name))
}

// ---- event fan-out ----

// Events delivers the event streams' events to their users: each
// stream's queue is bounded, and a stream that cannot keep up is ended
// (its client reconnects and is sent the games and challenges again).
//
// Locking: mu guards subs; events are encoded before it is taken and
// queued without blocking under it.
type Events struct {
	// isBot tells a bot account (set by New from Config.Store; nil: none
	// is known).
	isBot func(uid int64) bool

	mu   sync.Mutex
	subs map[int64]map[*botSub]struct{}
}

type botSub struct {
	ch   chan []byte
	gone chan struct{} // closed when the stream was too slow
	shut bool
}

// botSubBuffer is the events queued for one stream before it is ended.
const botSubBuffer = 64

// NewEvents returns a fan-out with no streams.
func NewEvents() *Events { return &Events{subs: map[int64]map[*botSub]struct{}{}} }

func (e *Events) subscribe(uid int64) *botSub {
	sub := &botSub{ch: make(chan []byte, botSubBuffer), gone: make(chan struct{})}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.subs[uid] == nil {
		e.subs[uid] = map[*botSub]struct{}{}
	}
	e.subs[uid][sub] = struct{}{}
	return sub
}

func (e *Events) unsubscribe(uid int64, sub *botSub) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.subs[uid], sub)
	if len(e.subs[uid]) == 0 {
		delete(e.subs, uid)
	}
}

// Online reports whether user has an event stream open.
func (e *Events) Online(uid int64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.subs[uid]) > 0
}

// send queues v for every stream of user uid.
func (e *Events) send(uid int64, v any) {
	if uid == 0 {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for sub := range e.subs[uid] {
		select {
		case sub.ch <- b:
		default:
			if !sub.shut {
				sub.shut = true
				close(sub.gone)
			}
		}
	}
}

// GameEnded tells the players of a finished game on their event streams
// (live.Config.OnEnd). It does not block: the events are made on a
// goroutine of their own, since the perf asks the store.
func (e *Events) GameEnded(sv live.Saved) {
	if sv.End == nil || (!e.Online(sv.White.UserID) && !e.Online(sv.Black.UserID)) {
		return
	}
	go func() {
		for _, seat := range []live.Seat{sv.White, sv.Black} {
			if seat.UserID != 0 {
				e.send(seat.UserID, gameEventOf("gameFinish", sv.Spec, seat.UserID, sv.End, e.isBot))
			}
		}
	}()
}

// ---- challenges ----

// challenge is a challenge of one user to another, open until answered,
// cancelled or expired. Challenges live in memory, as seeks do.
type challenge struct {
	ID       string
	By, To   challengeUser
	TC       clock.TimeControl
	Rated    bool
	Color    string // the challenger's: white, black or random
	Rules    toguz.Rules
	Created  time.Time
	Status   string // created, accepted, declined, canceled
	GameID   string
	Declined string // the reason of a decline
}

type challengeUser struct {
	ID   int64
	Name string
	Bot  bool
}

func (u challengeUser) json(rating int) map[string]any {
	j := map[string]any{"id": strings.ToLower(u.Name), "name": u.Name, "rating": rating}
	if u.Bot {
		j["title"] = "BOT"
	}
	return j
}

type challengeEvent struct {
	Type      string         `json:"type"`
	Challenge map[string]any `json:"challenge"`
}

// json is the challenge as lichess writes one.
func (c *challenge) json() map[string]any {
	j := map[string]any{"id": c.ID, "url": "/api/challenge/" + c.ID, "status": c.Status,
		"challenger": c.By.json(0), "destUser": c.To.json(0), "rated": c.Rated, "color": c.Color,
		"variant": keyJSON{Key: c.Rules.String()}, "ruleset": c.Rules.String(), "tc": tcOrNone(c.TC)}
	switch c.TC.Kind() {
	case clock.Unlimited:
		j["timeControl"] = map[string]any{"type": "unlimited"}
		j["speed"] = "unlimited"
	case clock.Correspondence:
		j["timeControl"] = map[string]any{"type": "correspondence", "daysPerTurn": c.TC.Days}
		j["speed"] = "correspondence"
	default:
		j["timeControl"] = map[string]any{"type": "clock", "limit": int(c.TC.Base.Seconds()),
			"increment": int(c.TC.Increment.Seconds()), "show": c.TC.String()}
		cat, _ := live.Category(c.TC)
		j["speed"] = cat.String()
	}
	if c.GameID != "" {
		j["gameId"] = c.GameID
	}
	if c.Declined != "" {
		j["declineReason"] = c.Declined
	}
	return j
}

func tcOrNone(tc clock.TimeControl) string {
	if tc.Kind() == clock.Unlimited {
		return "none"
	}
	return tc.String()
}

// challenges holds the open challenges.
//
// Locking: mu guards every field below it.
type challenges struct {
	max    int
	expiry time.Duration
	now    func() time.Time

	mu   sync.Mutex
	m    map[string]*challenge
	byBy map[int64]int // open challenges per challenger
}

func newChallenges(max int, expiry time.Duration, now func() time.Time) *challenges {
	return &challenges{max: max, expiry: expiry, now: now, m: map[string]*challenge{}, byBy: map[int64]int{}}
}

// sweepLocked removes the expired challenges and returns them.
func (cs *challenges) sweepLocked() []*challenge {
	var gone []*challenge
	now := cs.now()
	for id, c := range cs.m {
		if now.Sub(c.Created) >= cs.expiry {
			gone = append(gone, c)
			cs.removeLocked(id)
		}
	}
	return gone
}

func (cs *challenges) removeLocked(id string) {
	c, ok := cs.m[id]
	if !ok {
		return
	}
	delete(cs.m, id)
	if cs.byBy[c.By.ID]--; cs.byBy[c.By.ID] <= 0 {
		delete(cs.byBy, c.By.ID)
	}
}

// add opens c; false when its challenger has the most open already. It
// returns the challenges that expired meanwhile.
func (cs *challenges) add(c *challenge) (bool, []*challenge) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	gone := cs.sweepLocked()
	if cs.byBy[c.By.ID] >= cs.max {
		return false, gone
	}
	c.ID, c.Created, c.Status = live.NewID(), cs.now(), "created"
	cs.m[c.ID] = c
	cs.byBy[c.By.ID]++
	return true, gone
}

// take removes and returns challenge id if check allows it (check's
// error is returned otherwise, and the challenge stays).
func (cs *challenges) take(id string, check func(*challenge) error) (*challenge, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.sweepLocked()
	c, ok := cs.m[id]
	if !ok {
		return nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.no_challenge", excerpt(id))
	}
	if err := check(c); err != nil {
		return nil, err
	}
	cs.removeLocked(id)
	cp := *c
	return &cp, nil
}

// of returns the open challenges made by or to user uid, oldest first.
func (cs *challenges) of(uid int64) []*challenge {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.sweepLocked()
	var out []*challenge
	for _, c := range cs.m {
		if c.By.ID == uid || c.To.ID == uid {
			cp := *c
			out = append(out, &cp)
		}
	}
	slices.SortFunc(out, func(a, b *challenge) int { return a.Created.Compare(b.Created) })
	return out
}

// challengeForm reads a challenge's fields, lichess's (clock.limit and
// clock.increment in seconds, days, rated, color, variant) or ours (tc,
// ruleset), from the form or the query.
func challengeForm(r *http.Request) (clock.TimeControl, bool, string, toguz.Rules, error) {
	var tc clock.TimeControl
	var err error
	switch {
	case r.FormValue("tc") != "":
		tc, err = parseTC(r.FormValue("tc"))
	case r.FormValue("clock.limit") != "":
		limit, e1 := strconv.Atoi(r.FormValue("clock.limit"))
		inc, e2 := strconv.Atoi(cmp.Or(r.FormValue("clock.increment"), "0"))
		if e1 != nil || e2 != nil || limit < 0 || inc < 0 || limit > 3*3600 || inc > 180 {
			return tc, false, "", toguz.Rules{}, apierr.BadRequest(apierr.CodeBadTC, "apierr.bot.bad_clock")
		}
		tc = clock.TimeControl{Base: time.Duration(limit) * time.Second, Increment: time.Duration(inc) * time.Second}
		if err = tc.Validate(); err != nil {
			err = apierr.BadRequest(apierr.CodeBadTC, "apierr.bad_tc", tc.String()).WithDetail(err)
		}
	case r.FormValue("days") != "":
		tc, err = parseTC(r.FormValue("days") + "d")
	}
	if err != nil {
		return tc, false, "", toguz.Rules{}, err
	}
	rated, _ := strconv.ParseBool(cmp.Or(r.FormValue("rated"), "false"))
	color := cmp.Or(r.FormValue("color"), "random")
	if color != "white" && color != "black" && color != "random" {
		return tc, false, "", toguz.Rules{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_color", excerpt(color))
	}
	if rated && tc.Kind() == clock.Unlimited {
		return tc, false, "", toguz.Rules{}, apierr.BadRequest(apierr.CodeBadTC, "err.bad_tc").WithDetail(errors.New("rated games need a clock"))
	}
	rules, err := parseRuleset(cmp.Or(r.FormValue("ruleset"), r.FormValue("variant")))
	return tc, rated, color, rules, err
}

// apiChallenge is POST /api/challenge/{name}: challenge a user.
func (a *API) apiChallenge(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r, ScopeChallengeWrite, ScopeBotPlay, ScopeBoardPlay)
	if err != nil {
		return err
	}
	name := r.PathValue("name")
	if strings.EqualFold(name, c.tok.UserName) {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.challenge_self")
	}
	tc, rated, color, rules, err := challengeForm(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	u, err := a.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return errNoUser(name)
	} else if err != nil {
		return err
	}
	bot, err := a.st.IsBot(ctx, u.ID)
	if err != nil {
		return err
	}
	ch := &challenge{By: challengeUser{ID: c.tok.UserID, Name: c.tok.UserName, Bot: c.tok.Bot}, To: challengeUser{ID: u.ID, Name: u.Name, Bot: bot},
		TC: tc, Rated: rated, Color: color, Rules: rules}
	ok, gone := a.chals.add(ch)
	a.tellExpired(gone)
	if !ok {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.challenges", a.limits.Challenges)
	}
	ev := challengeEvent{Type: "challenge", Challenge: ch.json()}
	a.events.send(ch.To.ID, ev)
	a.events.send(ch.By.ID, ev)
	return site.WriteJSON(w, http.StatusOK, ch.json())
}

// tellExpired tells both sides of each expired challenge that it is gone.
func (a *API) tellExpired(gone []*challenge) {
	for _, c := range gone {
		c.Status = "canceled"
		ev := challengeEvent{Type: "challengeCanceled", Challenge: c.json()}
		a.events.send(c.By.ID, ev)
		a.events.send(c.To.ID, ev)
	}
}

// apiChallenges is GET /api/challenge: {"in": […], "out": […]}.
func (a *API) apiChallenges(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r, ScopeChallengeRead, ScopeBotPlay, ScopeBoardPlay)
	if err != nil {
		return err
	}
	in, out := []map[string]any{}, []map[string]any{}
	for _, ch := range a.chals.of(c.tok.UserID) {
		if ch.To.ID == c.tok.UserID {
			in = append(in, ch.json())
		} else {
			out = append(out, ch.json())
		}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"in": in, "out": out})
}

// apiChallengeAnswer is POST /api/challenge/{id}/{accept,decline,cancel}:
// the challenged accepts (the game starts, both are told on their event
// streams) or declines, the challenger cancels.
func (a *API) apiChallengeAnswer(what string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.botAuth(r, ScopeChallengeWrite, ScopeBotPlay, ScopeBoardPlay)
		if err != nil {
			return err
		}
		id := r.PathValue("id")
		ch, err := a.chals.take(id, func(ch *challenge) error {
			mine := ch.To.ID
			if what == "cancel" {
				mine = ch.By.ID
			}
			if mine != c.tok.UserID {
				// As lichess: another's challenge is not found.
				return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.no_challenge", excerpt(id))
			}
			return nil
		})
		if err != nil {
			return err
		}
		switch what {
		case "decline":
			ch.Status, ch.Declined = "declined", cmp.Or(r.FormValue("reason"), "generic")
			ev := challengeEvent{Type: "challengeDeclined", Challenge: ch.json()}
			a.events.send(ch.By.ID, ev)
			a.events.send(ch.To.ID, ev)
			return okJSON(w)
		case "cancel":
			ch.Status = "canceled"
			ev := challengeEvent{Type: "challengeCanceled", Challenge: ch.json()}
			a.events.send(ch.To.ID, ev)
			a.events.send(ch.By.ID, ev)
			return okJSON(w)
		}
		botGame := ch.By.Bot || ch.To.Bot
		by := a.botSeat(r.Context(), ch.By.ID, ch.By.Name, ch.TC, botGame)
		to := a.botSeat(r.Context(), ch.To.ID, ch.To.Name, ch.TC, botGame)
		spec := live.Spec{Rules: ch.Rules, TC: ch.TC, Rated: ch.Rated, White: by, Black: to}
		if ch.Color == "black" || (ch.Color == "random" && rand.Text()[0]%2 == 1) {
			spec.White, spec.Black = to, by
		}
		gid, err := a.startBotGame(r.Context(), spec, "friend")
		if err != nil {
			return err
		}
		return site.WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "gameId": gid})
	}
}
