// Package server is the HTTP side of `toguz serve`: the JSON API and the
// websockets of docs/api.md, and the HTML pages.
//
// # Index
//
//   - Open, Options and App (app.go): the whole server wired as `toguz serve`
//     and StartLocal both run it: the store, the auth accounts, the hub with
//     its engine player and its resumed games, the lobby and the handler;
//     Serve and Close. StartLocal (local.go) serves it on a loopback port
//     in the calling process, for the load and browser tests.
//   - Settings (settings.go): every setting of `toguz serve` declared once,
//     in a table of its flag, default and help; 0 is the default and a
//     negative value "none" everywhere; docs/deploy.md is generated from it.
//   - The features (each in a package of its own, seeing the server only
//     through internal/site's Kit and Router): New builds each, Handler
//     registers its routes; events, reviews and TV are internal/events,
//     internal/review and internal/tv, the others are listed below.
//   - Server and Config: built from the live hub and lobby, the accounts
//     (internal/auth), the archive (internal/store) and the pages
//     (internal/web); Handler returns the whole route table.
//   - routes (server.go): one stdlib ServeMux with Go 1.22 patterns, every
//     handler a func(w, r) error; errors become JSON or HTML error pages.
//   - Compression (server.go, compress): gzhttp gzips pages and API
//     answers; websocket upgrades pass by it, and so do the static assets,
//     which internal/web compresses once (brotli and gzip) and keeps.
//   - Errors (errors.go, internal/apierr): an apierr.Error has a status, a
//     stable code and a catalog key (locales/*/errors.json) with
//     arguments; its message is
//     written in the language of the request that gets it (JSON, error
//     page, form, websocket). live's errors take the text of their code;
//     the rules library's the text of the sentinel they wrap, with the
//     line, column, game, ply or hole they point at; auth's rules the
//     text of the rule. Their English text is the detail.
//   - Middleware (middleware.go): slog request logs, panic recovery, security
//     headers with a CSP of script-src 'self' and 'wasm-unsafe-eval' (the
//     engine's WebAssembly; no JavaScript eval), http.CrossOriginProtection for
//     every state-changing request, a per-address rate limit on writes.
//   - Bounds (bounds.go): a body limit on every route (413 too_large), the
//     http.Server's timeouts (lifted for websockets), a connection cap per
//     address (IPv6: /64) at the listener, 503 busy with a Retry-After when
//     auth's password hashing is full; counters in App.Stats and slog.
//   - Operations (health.go, internal/metrics): GET /healthz (the process
//     serves) and GET /readyz (Config.Ready: the store reachable and at
//     the latest schema, the hub accepting, not draining: App.Drain); the
//     Prometheus metrics of Config.Metrics, fed by logRequests (requests
//     by route pattern and status class), the websockets (sockets open,
//     a move's round trip) and App (store, engine, moves, bounds).
//   - Identity (identity.go, internal/site): a session token from the
//     cookie or a Bearer header names a user (internal/auth) or a guest (a token the server
//     signed, guestkey.go, whose hash is the guest's name); a guest token
//     it did not sign is refused.
//   - Websockets (ws.go): github.com/coder/websocket, a 4 KiB read limit,
//     JSON messages with a type field, a per-connection message rate. Two
//     goroutines per connection: the handler reads, one writer sends the
//     game's already-encoded messages; pings run from a timer.
//   - API (api.go), pages (pages.go), the archive (internal/archive:
//     GET /archive and /api/archive, the imports of /import and their
//     bounds, a game's export, the open database's files of /database;
//     its port is part of Archive, adapters.go), the opening explorer
//     (internal/explorer: /explorer, /api/explorer, /explorer/masters/{n};
//     the store's tree), the language: the switcher, an account's
//     setting, /settings (lang.go).
//   - The lessons (internal/lessons): /learn and /learn/{lesson}, boards
//     drawn by the server, and POST /api/learn/{lesson}/{exercise}, where
//     the package judges an answer by the rules library; an account's
//     progress kept by Config.Progress (internal/store), a guest's by his
//     browser.
//   - The puzzles (internal/puzzle): /puzzles, /puzzles/{id} and their
//     judge POST /api/puzzles/{id}; the ratings kept by Config.Puzzles.
//   - Around a game (social.go): the lobby's chat socket, chat reports
//     (stored, listed by `toguz reports`); the chat rate limits and the
//     seats' ratings given to the hub.
//   - The players' pages (internal/profile): /@/{name} with its rating
//     chart, /leaderboard, /api/users/{name}[/games] and /api/leaderboard,
//     read from the Archive; watching games (internal/tv): /games, /tv,
//     /api/games/live and /api/tv, read from the hub.
//   - The learning pages (internal/culture): /rules, /history and /key, their
//     statements as data each with its source (a seed's line, a section
//     of docs/rules.md) and its words, the seeds' examples drawn by svg at
//     /learn/diagram/{name}.svg, and the key's steps (internal/abacus).
//   - Studies and classes (internal/study): /study, /study/{id} and its
//     websocket GET /api/studies/{id}/ws, where internal/study's hub
//     applies the editors' ops to the stored chapters and sends them to
//     the followers; /classes and /class/{id}, a coach's students with
//     their lessons' progress and recent games.
//   - The board tools and the engine in the browser (internal/analysisboard):
//     the analysis board (/analysis, /analysis/game/{id}, the move tree's
//     import and export), the position editor (/editor, POST
//     /api/positions/check; the lobby's engine game reads its form through
//     EditorStart), POST /api/positions/legal and /play (the JSON of the
//     WebAssembly build, internal/engineweb), POST /api/analysis (its
//     fallback and the tablebase's result: Config.Analysis, Tablebase,
//     AnalysesPerMinute; refused to the players of a game in progress),
//     /play-offline, the manifest and the service worker.
//   - Broadcasts (internal/broadcast): over-the-board events relayed live
//     from the arbiter's score sheets (each ply checked by the rules library)
//     or a round's TRF and records, their viewers told of each change by
//     server-sent events.
//   - Simuls (internal/simul): one host against many, each participant's
//     game a live game; New builds the hall with the hub, Config.Simuls
//     and the server as its site.Kit, Handler registers its routes.
//   - Accounts (internal/account, kit_account.go): the e-mail address and
//     its verification, the password reset by mail, the change of address
//     and of password, the sessions' list; the server tells it of each
//     new session (sign-up, login) and each use of one (Identity), and
//     sends HSTS when served over HTTPS. Its mail goes through the queue of
//     internal/mail that App runs (Options.SMTP).
//   - The bot and board API (internal/botapi): lichess's, at its paths,
//     with the computer ladder, /bots and the tokens of /settings; the
//     server gives its paths' errors to botapi.WriteError and keeps its
//     NDJSON streams from gzip.
//   - Privacy (internal/privacy, privacy.go): the accounts' privacy
//     settings, blocks, kid mode, closing and data export; the server asks
//     it in the lobby, the chats, the bot API and the profiles.
//   - The second factor (internal/twofactor, twofactor.go): TOTP with
//     recovery codes and passkeys; a login checks the password, then asks
//     twofactor.Site.Gate, which answers a *twofactor.Needed (the second
//     step's page, or the API's ticket) instead of a session.
//   - Moderation (internal/moderation): the reports of games and profiles,
//     the moderators' queue, pages, actions, appeals and audit log under
//     /mod; Open builds its Service, whose snapshot of marks the lobby
//     (the marked pool), the hub (muted chat), Identity (closed accounts)
//     and Page (the header's link, a warning's banner) ask.
//   - Apps (internal/oauth): OAuth 2's code flow with PKCE, the consent page
//     /oauth and the token endpoint that the bot API's POST /api/token hands
//     a form to; the apps' tokens are the bot API's.
//   - Cross-site requests (crossorigin.go): http.CrossOriginProtection on
//     every state-changing request but those with a Bearer token and OAuth's
//     token request; CORS without credentials on the bot API's paths. The
//     ServeMux records every pattern registered (routeMux), and the route
//     walk (routes_test.go) holds each to the cross-site and ownership rules.
//   - Adapters (adapters.go, accounts.go): StoreArchive puts internal/store
//     behind Archive; AuthAccounts puts internal/auth (argon2id, sessions,
//     login limits) behind Accounts. The hub's store and engine are
//     store.LiveStore and enginepool.LivePlayer, beside what they adapt.
package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/toguz/toguz/internal/account"
	"github.com/toguz/toguz/internal/analysisboard"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/archive"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/broadcast"
	"github.com/toguz/toguz/internal/culture"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/explorer"
	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/forum"
	"github.com/toguz/toguz/internal/friends"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/insights"
	"github.com/toguz/toguz/internal/lessons"
	"github.com/toguz/toguz/internal/levels"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/metrics"
	"github.com/toguz/toguz/internal/moderation"
	"github.com/toguz/toguz/internal/notifications"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/oauth"
	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/profile"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/sections"
	"github.com/toguz/toguz/internal/simul"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/study"
	"github.com/toguz/toguz/internal/team"
	"github.com/toguz/toguz/internal/tv"
	"github.com/toguz/toguz/internal/twofactor"
	"github.com/toguz/toguz/internal/web"
	"golang.org/x/time/rate"
)

// Config is what a Server is built from.
type Config struct {
	// Settings are the server's settings (settings.go; zero fields take
	// their defaults), Options' too.
	Settings

	Hub   *live.Hub
	Lobby *live.Lobby
	// LobbyChat is the lobby's chat room and Reports keeps the reported
	// chat messages (social.go; nil: none).
	LobbyChat *live.LobbyChat
	Reports   Reports
	// Progress keeps the lessons' progress of the accounts (internal/lessons;
	// nil: none is kept).
	Progress lessons.Progress
	// Studies keeps the studies and classes (internal/study; nil: none).
	Studies study.Studies
	// Teams keeps the clubs and teams (internal/team; nil: none), and
	// TeamNotices takes their invitations and leaders' messages (nil: the
	// site's notifications, Notifications; both nil: no
	// one is told).
	Teams       team.Store
	TeamNotices notify.Sender
	// Puzzles keeps the puzzle ratings (internal/puzzle; nil: no one is rated).
	Puzzles  puzzle.Ratings
	Accounts Accounts
	Archive  Archive
	// Explorer is the opening explorer (internal/explorer); nil with a
	// StoreArchive: one of its store and the embedded masters' games.
	Explorer *explorer.Explorer
	Logger   *slog.Logger
	// ImportsPerMinute bounds the imports one client address starts a
	// minute (0: 10; negative: no bound).
	ImportsPerMinute int
	// ImportsPerDay bounds the new games one account (else one client
	// address) stores in the archive in 24 hours (0: 5000; negative: no bound).
	ImportsPerDay int
	// Analysis searches the analyses of POST /api/analysis (nil: the
	// endpoint answers 503; Settings.AnalysesPerMinute bounds them).
	// Tablebase is the endgame tables the analysis probes for an exact
	// result (nil: none).
	Analysis  *enginepool.AnalysisPool
	Tablebase analysisboard.Tablebase
	// GuestKey signs the guest tokens (at least 16 bytes; LoadGuestKey
	// keeps one in a file). Empty: a random key, so that guests lose their
	// identity when the server restarts.
	GuestKey []byte
	// Reviews is the game review (internal/review; nil: reviews are off).
	Reviews review.Reviews

	// Broadcasts keeps the broadcasts (internal/broadcast; nil: none).
	Broadcasts broadcast.Store
	// Simuls keeps the simuls across restarts (internal/simul; nil: in
	// memory only); New loads them.
	Simuls simul.Store
	// Events runs the tournaments of /events (nil: none), and EventUser
	// finds an account by name (the arbiters an event's creator names).
	Events    *events.Manager
	EventUser func(ctx context.Context, name string) (int64, error)
	// Championships runs the events with sections of /championships
	// (internal/sections; nil: none).
	Championships *sections.Desk

	// Metrics counts the requests, sockets and moves' round trips (nil:
	// none are kept; internal/metrics).
	Metrics *metrics.Metrics
	// Ready answers GET /readyz: nil when the node can take traffic
	// (nil func: always ready). GET /healthz answers 200 while the
	// process serves at all.
	Ready func(ctx context.Context) error
	// Bots and BotEvents are the bot API's (botapi.Config's Store and
	// Events; its Limits and Ladder are Settings').
	Bots      botapi.Store
	BotEvents *botapi.Events
	// TwoFactor keeps the accounts' second factors and passkeys
	// (internal/twofactor; nil: none, logins take the password alone);
	// TwoFactorKey seals their TOTP secrets (twofactor.KeySize bytes;
	// empty: a random key, so that the secrets are lost at a restart).
	TwoFactor    twofactor.Store
	TwoFactorKey []byte
	// AccountStore and Passwords are the accounts' feature's
	// (internal/account; nil: no e-mail, reset or sessions' pages); Mail
	// sends its mail (nil or off: none), whose links start with SiteURL.
	AccountStore account.Store
	Passwords    account.Passwords
	Mail         *mail.Queue
	SiteURL      string
	// Moderation is the reports, the moderators and the marks'
	// consequences (internal/moderation; nil: none).
	Moderation *moderation.Service
	// OAuth keeps the apps' codes and tokens (internal/oauth; nil: no apps).
	OAuth oauth.Store
	// Notifications keeps and pushes the accounts' notices
	// (internal/notifications; nil: none, and no count in the header).
	Notifications *notifications.Service
}

// Server serves the API and the pages.
type Server struct {
	cfg    Config
	log    *slog.Logger
	cat    *i18n.Catalog
	pages  *web.Pages
	ips    *auth.Limiter
	bound  *boundCounters
	guests guestSigner
	// archive is the archive's pages and its import gate (internal/archive).
	archive *archive.Site
	// studies is the studies' pages with the studies being followed.
	studies *study.Site
	// teams is the clubs and teams (nil without Config.Teams); its Member
	// is what the teams' forum asks.
	teams *team.Service
	board *analysisboard.Board // the analysis board, the editor and the browser engine's server side
	// bc is the broadcasts (internal/broadcast).
	bc *broadcast.Service
	// simuls holds the simuls and answers their routes (internal/simul).
	simuls *simul.Hall
	// bots is the bot and board API (internal/botapi).
	bots *botapi.API
	// profiles is the players' pages (internal/profile), tv the games
	// being played and the TV (internal/tv).
	profiles *profile.Site
	tv       *tv.Site
	// privacy is the accounts' privacy, blocks, kid mode, closing and
	// export (internal/privacy; nil without a store).
	privacy *privacy.Service
	// twofa is the second factors and passkeys (internal/twofactor; nil: off).
	twofa *twofactor.Site
	// levels places each engine level on the rating scale (forms.go),
	// from the table internal/levels embeds.
	levels []levels.Placement
	apiDoc *apiDocPage // GET /api
	// account is the e-mail, the reset and the sessions (internal/account).
	account *account.Service
	// apps is OAuth 2 for third-party apps (internal/oauth).
	apps *oauth.Site
	// routes is every pattern Handler registered, in order (routes.go).
	routes []string
	// friends is following players (internal/friends; nil without a store).
	friends *friends.Site
}

// New returns a server.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Settings.setDefaults()
	guests, err := newGuestSigner(cfg.GuestKey)
	if err != nil {
		return nil, err
	}
	if sa, ok := cfg.Archive.(StoreArchive); ok && cfg.Explorer == nil && sa.S != nil {
		masters, err := explorer.DefaultMasters()
		if err != nil {
			return nil, err
		}
		cfg.Explorer = explorer.New(explorerStore{sa.S}, masters)
	}
	cat := i18n.New()
	pages, err := web.NewPages(cat)
	if err != nil {
		return nil, err
	}
	srv := &Server{cfg: cfg, log: cfg.Logger, cat: cat, pages: pages, guests: guests,
		ips: auth.NewLimiter(rate.Limit(cfg.WritesPerSecond), cfg.WriteBurst, time.Now), bound: newBoundCounters()}
	srv.studies = study.NewSite(srv, srv.studyConfig())
	if cfg.Teams != nil {
		notices := cfg.TeamNotices
		if notices == nil {
			notices = senderOf(cfg.Notifications)
		}
		tc := team.Config{Store: cfg.Teams, Notify: notices, Logger: srv.log, Kid: func(ctx context.Context, user int64) bool {
			return srv.kid(ctx, site.Identity{Account: site.Account{ID: user}})
		}}
		if cfg.Events != nil {
			tc.Events = cfg.Events
		}
		if cfg.Hub != nil {
			tc.Games = cfg.Hub
		}
		if cfg.Moderation != nil {
			tc.IsModerator = cfg.Moderation.IsModerator
		}
		srv.teams = team.NewService(tc)
	}
	srv.archive = archive.NewSite(srv, archive.Config{Store: cfg.Archive, DatabaseDir: cfg.DatabaseDir, ImportsPerMinute: cfg.ImportsPerMinute, ImportsPerDay: cfg.ImportsPerDay, RulesError: rulesError, ParseForm: srv.parseForm})
	srv.board = analysisboard.New(srv, srv.boardConfig())
	srv.apps = oauth.New(srv, oauth.Config{Store: cfg.OAuth})
	srv.bots = botapi.New(srv, botapi.Config{Store: cfg.Bots, Hub: cfg.Hub, Events: cfg.BotEvents, Limits: cfg.BotLimits, Ladder: cfg.Ladder, Settings: srv.renderSettings,
		Privacy: privacyGate{srv}, TokenEndpoint: srv.apps.TokenEndpoint, Notify: senderOf(cfg.Notifications)})
	srv.bc = broadcast.New(srv, broadcast.Config{Store: cfg.Broadcasts, MaxRecords: archive.MaxImportGames, RulesError: rulesError})
	srv.profiles = profile.NewSite(srv, cfg.Archive)
	if srv.privacy = srv.newPrivacy(); srv.privacy != nil {
		srv.profiles.SetRelations(profileRelations{srv.privacy})
		if srv.friends = srv.newFriends(); srv.friends != nil {
			srv.profiles.SetSocial(srv.friends.PanelByName)
		}
	}
	if sa, ok := cfg.Archive.(StoreArchive); ok && sa.S != nil {
		srv.profiles.SetFederations(profileFederations{st: sa.S, reg: federation.New(sa.S, nil)})
	}
	srv.tv = tv.NewSite(srv, tv.Config{Games: cfg.Hub, GamePage: srv.pageGame})
	if srv.twofa, err = srv.newTwoFactor(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), site.StoreTimeout)
	defer cancel()
	if srv.simuls, err = simul.New(ctx, simul.Config{Games: cfg.Hub, Store: cfg.Simuls, Kit: srv}); err != nil {
		return nil, err
	}
	if srv.account, err = newAccount(ctx, srv); err != nil {
		return nil, err
	}
	lt, err := levels.Embedded()
	if err != nil {
		return nil, err
	}
	srv.levels = lt.Placements(engine.MaxLevel)
	if srv.apiDoc, err = apiDocOnce(); err != nil {
		return nil, err
	}
	return srv, nil
}

// Handler returns the route table wrapped in the middleware.
func (s *Server) Handler() http.Handler {
	mux := newRouteMux()
	api := func(pattern string, h func(http.ResponseWriter, *http.Request) error) {
		mux.Handle(pattern, s.jsonHandler(h))
	}
	page := func(pattern string, h func(http.ResponseWriter, *http.Request) error) {
		mux.Handle(pattern, s.pageHandler(h))
	}

	api("POST /api/guest", s.apiGuest)
	api("POST /api/signup", s.apiSignup)
	api("POST /api/login", s.apiLogin)
	api("POST /api/logout", s.apiLogout)
	api("GET /api/me", s.apiMe)
	api("GET /api/seeks", s.apiSeeks)
	api("POST /api/seeks", s.apiCreateSeek)
	api("GET /api/seeks/{id}", s.apiSeek)
	api("DELETE /api/seeks/{id}", s.apiCancelSeek)
	api("POST /api/seeks/{id}/accept", s.apiAcceptSeek)
	api("POST /api/engine-games", s.apiEngineGame)
	s.board.Routes(router{s: s, mux: mux})
	api("GET /api/games/{id}", s.apiGame)
	s.profiles.Routes(router{s: s, mux: mux})
	mux.HandleFunc("GET /api/games/{id}/ws", s.gameWS)
	mux.HandleFunc("GET /api/lobby/ws", s.lobbyWS)
	mux.HandleFunc("GET /api/lobby/chat", s.lobbyChatWS)
	api("POST /api/reports", s.apiReport)
	s.tv.Routes(router{s: s, mux: mux})
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	s.bots.Routes(router{s: s, mux: mux})
	page("GET /api", s.pageAPIDoc)
	s.apps.Routes(router{s: s, mux: mux})
	api("/api/", func(_ http.ResponseWriter, r *http.Request) error {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_endpoint", site.Excerpt(r.URL.Path))
	})

	page("GET /{$}", s.pageLobby)
	page("POST /lobby/seek", s.pageCreateSeek)
	page("POST /lobby/engine", s.pageEngineGame)
	page("GET /signup", s.pageSignupForm)
	page("POST /signup", s.pageSignup)
	page("GET /login", s.pageLoginForm)
	page("POST /login", s.pageLogin)
	page("POST /logout", s.pageLogout)
	page("GET /game/{id}", s.pageGame)
	page("GET /challenge/{id}", s.pageChallenge)
	page("POST /challenge/{id}", s.pageAcceptChallenge)
	page("POST /challenge/{id}/cancel", s.pageCancelChallenge)
	page("POST /lang", s.pageSetLang)
	s.archive.Routes(router{s: s, mux: mux})
	explorer.NewSite(s, s.cfg.Explorer).Routes(router{s: s, mux: mux})
	page("GET /settings", s.pageSettings)
	lessons.NewSite(s, s.cfg.Progress).Routes(router{s, mux})
	puzzle.NewSite(s, s.cfg.Puzzles, s.pages.RenderPart).Routes(router{s, mux})
	culture.NewSite(s).Routes(router{s, mux})
	s.studies.Routes(router{s: s, mux: mux})
	if s.teams != nil {
		team.NewSite(s, s.teams, s.cfg.Hub).Routes(router{s, mux})
	}
	s.bc.Routes(router{s: s, mux: mux})
	s.eventsWeb().Routes(router{s: s, mux: mux})
	s.simuls.Routes(router{s, mux})
	if s.cfg.Championships != nil {
		sections.NewWeb(s, s.cfg.Championships).Routes(router{s, mux})
	}
	s.reviewWeb().Routes(router{s: s, mux: mux})
	if s.privacy != nil {
		s.privacy.Routes(router{s: s, mux: mux})
	}
	if s.twofa != nil {
		s.twofa.Routes(router{s: s, mux: mux})
	}
	if s.account != nil {
		s.account.Routes(router{s, mux})
	}
	if s.cfg.Moderation != nil {
		moderation.NewWeb(s, s.cfg.Moderation).Routes(router{s, mux})
	}
	if s.cfg.Notifications != nil {
		notifications.NewWeb(s, s.cfg.Notifications).Routes(router{s, mux})
	}
	if s.friends != nil {
		s.friends.Routes(router{s, mux})
	}
	if ib := s.newInbox(); ib != nil {
		ib.Routes(router{s, mux})
	}
	if sa, ok := s.cfg.Archive.(StoreArchive); ok {
		insights.New(s, sa.S).Routes(router{s: s, mux: mux})
		forum.New(s, s.forumConfig(sa.S)).Routes(router{s: s, mux: mux})
	}
	if sa, ok := s.cfg.Archive.(StoreArchive); ok && sa.S != nil {
		fh := federation.NewHandlers(federation.New(sa.S, nil), s)
		if s.cfg.Championships != nil {
			fh.ShowChampionships(s.cfg.Championships)
		}
		fh.Routes(router{s: s, mux: mux})
	}
	mux.Handle("GET /static/", s.pages.Static())
	mux.Handle("GET /favicon.ico", s.pages.Favicon())
	page("/", func(_ http.ResponseWriter, r *http.Request) error {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_page", site.Excerpt(r.URL.Path))
	})

	s.routes = mux.routes
	var h http.Handler = compress(mux)
	h = s.limitBodies(h)
	h = s.limitWrites(h)
	h = s.crossOrigin(h)
	h = securityHeaders(h)
	h = s.hsts(h)
	h = s.recoverPanics(h)
	h = logRequests(s.log, s.cfg.Metrics, h)
	return h
}

// compress gzips the responses of next (pages, assets, the API's JSON) for
// clients that accept it, with github.com/klauspost/compress/gzhttp; the
// websockets' upgrades pass by it, since their frames are not an HTTP body.
func compress(next http.Handler) http.Handler {
	gz := gzhttp.GzipHandler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// An event stream (internal/broadcast) and the bot API's NDJSON
		// streams are flushed event by event.
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") || strings.Contains(r.Header.Get("Accept"), "text/event-stream") ||
			botapi.IsStreamPath(r.URL.Path) ||
			strings.HasPrefix(r.URL.Path, "/static/") { // compressed once by internal/web, kept
			next.ServeHTTP(w, r)
			return
		}
		gz.ServeHTTP(w, r)
	})
}

// asAPIError classifies any error for the client; unknown errors are
// logged and shown as "internal".
func (s *Server) AsError(r *http.Request, err error) *apierr.Error {
	return s.asErrorAt(r.URL.Path, err)
}

// asErrorAt is AsError for a request of which only the path is kept (a
// websocket's).
func (s *Server) asErrorAt(path string, err error) *apierr.Error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
	}
	var ee *events.Error
	if errors.As(err, &ee) {
		return s.asErrorAt(path, events.APIError(err))
	}
	var le *live.Error
	if errors.As(err, &le) {
		// live's messages are English: the code's text says it in the
		// user's language, live's message is the detail.
		return &apierr.Error{Status: apierr.Status(le.Code), Code: le.Code, Key: "err." + string(le.Code), Detail: le.Message}
	}
	if errors.Is(err, context.Canceled) {
		return apierr.New(499, apierr.CodeCanceled, "apierr.canceled")
	}
	s.log.Error("handler", "path", path, "err", err)
	return apierr.New(http.StatusInternalServerError, apierr.CodeInternal, "apierr.internal")
}

func (s *Server) jsonHandler(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeJSONError(w, r, s.AsError(r, err))
		}
	})
}

// writeJSONError answers e as the API's error object, its message in the
// language of r, live's or the rules library's English text as "detail".
func (s *Server) writeJSONError(w http.ResponseWriter, r *http.Request, e *apierr.Error) {
	if botapi.IsAPIPath(r.URL.Path) {
		setBoundHeaders(w, e)
		botapi.WriteError(w, e, s.Message(r, e))
		return
	}
	setBoundHeaders(w, e)
	body := map[string]string{"code": string(e.Code), "message": s.Message(r, e)}
	if e.Detail != "" {
		body["detail"] = e.Detail
	}
	site.WriteJSON(w, e.Status, map[string]any{"error": body})
}

var _ site.Kit = (*Server)(nil)

// Catalog is the texts of every language (site.Kit).
func (s *Server) Catalog() *i18n.Catalog { return s.cat }

// Logger is the server's log (site.Kit).
func (s *Server) Logger() *slog.Logger { return s.log }

// WriteError answers err as the API's JSON error object (site.Kit).
func (s *Server) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	s.writeJSONError(w, r, s.AsError(r, err))
}

// router registers routes on a ServeMux with the server's error answers
// (site.Router).
type router struct {
	s   *Server
	mux *routeMux
}

func (rt router) API(pattern string, h site.Handler)    { rt.mux.Handle(pattern, rt.s.jsonHandler(h)) }
func (rt router) Page(pattern string, h site.Handler)   { rt.mux.Handle(pattern, rt.s.pageHandler(h)) }
func (rt router) Handle(pattern string, h http.Handler) { rt.mux.Handle(pattern, h) }
