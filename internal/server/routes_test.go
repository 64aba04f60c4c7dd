package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// The route walk: every route the server registers (Server.routes, kept
// by routeMux) is classified in routeRules, and the walk holds each to the
// site's two rules (docs/accounts.md, "Cross-site requests"):
//
//  1. A state-changing route (POST, PUT, PATCH, DELETE, a pattern with no
//     method, a websocket upgrade) refuses a cross-site request that
//     carries the visitor's session cookie and no Bearer token; with a
//     Bearer token it is not refused as cross-site (the token is the
//     authority). The one exception is listed with its reason. Any other
//     GET route must not upgrade another site's request to a websocket.
//  2. A route with a path parameter ({id}, {name}, …) either names an
//     object that is public by design (the table says why), or refuses a
//     second account's request against the first account's object with
//     403 or 404; the table names the setup that makes the object.
//
// A route not in the table fails the test: classify it here. A route in
// the table that the server no longer registers fails it too.

// routeRule is how one route stands to the two rules.
type routeRule struct {
	// ws: the route upgrades to a websocket; its cross-site defence is
	// the Origin check of the upgrade.
	ws bool
	// tokenForm: why a form posted from another site is not refused (the
	// route's JSON still is); "" for none.
	tokenForm string
	// public says why the route's path parameters name objects anyone may
	// read or act on as himself; "" for a route without parameters or a
	// private one.
	public string
	// private makes the first account's object: the values of the path's
	// parameters, with the credential kind the route wants (as) and the
	// object's counterpart's.
	private func(w *walk) map[string]string
	// as is the credential the route takes: "" a session, "token" a
	// personal token with every scope, "bot" a bot's token.
	as string
}

// pub is a route whose parameters are public by design, for the reason why.
func pub(why string) routeRule { return routeRule{public: why} }

// own is a route on a private object that setup makes.
func own(setup func(w *walk) map[string]string) routeRule { return routeRule{private: setup} }

// The reasons, shared by many routes.
const (
	whyGames     = "games are public, as lichess's: anyone watches, reads and exports them; only their players move (not_a_player)"
	whyProfiles  = "players' profiles and their games are public"
	whySeek      = "an open seek is the lobby's: anyone sees it and may accept it (one's own is refused: own_seek)"
	whyContent   = "the site's own content: lessons, puzzles, diagrams, the masters' games, the open database's files"
	whyAnswer    = "the exercise or puzzle is the site's; the answer is recorded for the caller only"
	whyBroadcast = "broadcasts are public to watch; entering games and plies is the owner's (private routes below)"
	whyEvent     = "events are public to watch; joining, withdrawing and berserk act on the caller's own entry"
	whySimul     = "simuls are public to watch; joining and leaving act on the caller's own board"
	whyReview    = "a finished game's review is public as the game is (lichess's computer analysis); requests are bounded per requester"
	whyChallenge = "challenges another account by its name: that is what it does; the challenged one answers"
	whyBlock     = "blocks and unblocks a public profile by its name: the block is the caller's own"
	whyTeam      = "teams are public to read; joining, leaving and declining act on the caller's own membership, request or invitation"
	whyTeamMatch = "a team match is public to watch, as its games are; its lineups and start are its teams' leaders' and coaches'"
	whyRegister  = "the federations' register is their public record: federations, players, ranks, published lists"
	whyInbox     = "names the other side of the caller's own conversation: each account reads only the messages it sent or received"
	whyModInbox  = "a moderator's page (403 to others) of a conversation one side reported"
	whyFollow    = "follows and unfollows a public profile by its name: the follow is the caller's own, the followed player's settings decide"
	whyMailLink  = "the token is the capability, a signed single-use link mailed to its owner; a wrong or used one is refused"
)

// routeRules classifies every route. Patterns without a parameter need
// only rule 1, which applies by their method: routeRule{} (or ws).
var routeRules = map[string]routeRule{
	// accounts and the lobby
	"POST /api/guest":                     {},
	"POST /api/signup":                    {},
	"POST /api/login":                     {},
	"POST /api/logout":                    {},
	"GET /api/me":                         {},
	"GET /api/seeks":                      {},
	"POST /api/seeks":                     {},
	"GET /api/seeks/{id}":                 pub(whySeek),
	"DELETE /api/seeks/{id}":              own(func(w *walk) map[string]string { return map[string]string{"id": w.seek()} }),
	"POST /api/seeks/{id}/accept":         pub(whySeek),
	"POST /api/engine-games":              {},
	"GET /{$}":                            {},
	"POST /lobby/seek":                    {},
	"POST /lobby/engine":                  {},
	"GET /signup":                         {},
	"POST /signup":                        {},
	"GET /login":                          {},
	"POST /login":                         {},
	"POST /logout":                        {},
	"GET /challenge/{id}":                 pub(whySeek),
	"POST /challenge/{id}":                pub(whySeek),
	"POST /challenge/{id}/cancel":         own(func(w *walk) map[string]string { return map[string]string{"id": w.seek()} }),
	"POST /lang":                          {},
	"GET /settings":                       {},
	"GET /api/lobby/ws":                   {ws: true},
	"GET /api/lobby/chat":                 {ws: true},
	"POST /api/reports":                   {},
	"GET /healthz":                        {},
	"GET /readyz":                         {},
	"/api/":                               {},
	"/":                                   {},
	"GET /static/":                        {},
	"GET /favicon.ico":                    {},
	"GET /sw.js":                          {},
	"GET /manifest.webmanifest":           {},
	"GET /play-offline":                   {},
	"GET /editor":                         {},
	"GET /analysis":                       {},
	"POST /api/positions/check":           {},
	"POST /api/positions/legal":           {},
	"POST /api/positions/play":            {},
	"POST /api/analysis":                  {},
	"POST /api/analysis/import":           {},
	"POST /api/analysis/export":           {},
	"GET /analysis/game/{id}":             pub(whyGames),
	"GET /api/games/{id}":                 pub(whyGames),
	"GET /game/{id}":                      pub(whyGames),
	"GET /api/games/{id}/export":          pub(whyGames),
	"GET /api/games/{id}/ws":              {ws: true, public: whyGames},
	"GET /api/users/{name}":               pub(whyProfiles),
	"GET /api/users/{name}/games":         pub(whyProfiles),
	"GET /@/{name}":                       pub(whyProfiles),
	"GET /api/leaderboard":                {},
	"GET /leaderboard":                    {},
	"GET /api/games/live":                 {},
	"GET /api/tv":                         {},
	"GET /games":                          {},
	"GET /tv":                             {},
	"GET /api/archive":                    {},
	"GET /archive":                        {},
	"GET /import":                         {},
	"POST /import":                        {},
	"GET /database":                       {},
	"GET /database/{file}":                pub(whyContent),
	"GET /api/explorer":                   {},
	"GET /explorer":                       {},
	"GET /explorer/masters/{n}":           pub(whyContent),
	"POST /api/learn/{lesson}/{exercise}": pub(whyAnswer),
	"GET /api/learn/progress":             {},
	"GET /learn":                          {},
	"GET /learn/{lesson}":                 pub(whyContent),
	"POST /api/puzzles/{id}":              pub(whyAnswer),
	"GET /puzzles":                        {},
	"GET /puzzles/{id}":                   pub(whyContent),
	"GET /rules":                          {},
	"GET /history":                        {},
	"GET /key":                            {},
	"GET /learn/diagram/{name}":           pub(whyContent),

	// the bot and board API, tokens and apps
	"GET /api/account": {},
	"POST /api/token": {tokenForm: "OAuth's token endpoint (internal/oauth): a form carries a code and its PKCE verifier, never a session, " +
		"and apps on other sites post it from their pages"},
	"GET /api/token":                    {},
	"DELETE /api/token":                 {},
	"DELETE /api/token/{id}":            own(func(w *walk) map[string]string { return map[string]string{"id": w.token()} }),
	"POST /settings/tokens":             {},
	"POST /settings/tokens/{id}/revoke": own(func(w *walk) map[string]string { return map[string]string{"id": w.token()} }),
	"GET /oauth":                        {},
	"POST /oauth":                       {},
	"POST /settings/apps/{id}/revoke":   own(func(w *walk) map[string]string { return map[string]string{"id": w.appToken()} }),
	"POST /api/bot/account/upgrade":     {},
	"POST /api/bot/account/ladder":      {},
	"GET /api/stream/event":             {},
	"GET /api/challenge":                {},
	"GET /bots":                         {},
	"POST /api/challenge/{name}":        pub(whyChallenge),
	"POST /api/challenge/{id}/accept":   {as: "token", private: func(w *walk) map[string]string { return map[string]string{"id": w.challenge()} }},
	"POST /api/challenge/{id}/decline": {as: "token", private: func(w *walk) map[string]string {
		return map[string]string{"id": w.challenge()}
	}},
	"POST /api/challenge/{id}/cancel": {as: "token", private: func(w *walk) map[string]string { return map[string]string{"id": w.challenge()} }},

	// studies and classes
	"GET /api/studies/{id}/ws": {ws: true, private: func(w *walk) map[string]string { return map[string]string{"id": w.study()} }},
	"GET /study":               {},
	"POST /study":              {},
	"GET /study/{id}":          own(func(w *walk) map[string]string { return map[string]string{"id": w.study()} }),
	"POST /study/{id}/members": own(func(w *walk) map[string]string { return map[string]string{"id": w.study()} }),
	"GET /classes":             {},
	"POST /classes":            {},
	"GET /class/{id}":          own(func(w *walk) map[string]string { return map[string]string{"id": w.class()} }),
	"POST /class/{id}/invite":  own(func(w *walk) map[string]string { return map[string]string{"id": w.class()} }),
	"POST /class/{id}/answer":  own(func(w *walk) map[string]string { return map[string]string{"id": w.class()} }),

	// teams
	"GET /team":                        {},
	"POST /team":                       {},
	"GET /api/team":                    {},
	"POST /api/team":                   {},
	"GET /team/{id}":                   pub(whyTeam),
	"GET /api/team/{id}":               pub(whyTeam),
	"POST /team/{id}/join":             pub(whyTeam),
	"POST /team/{id}/leave":            pub(whyTeam),
	"POST /team/{id}/decline":          pub(whyTeam),
	"POST /api/team/{id}/join":         pub(whyTeam),
	"POST /api/team/{id}/leave":        pub(whyTeam),
	"POST /api/team/{id}/decline":      pub(whyTeam),
	"GET /api/team/{id}/requests":      own(walkTeam),
	"POST /team/{id}/requests":         own(walkTeam),
	"POST /team/{id}/invite":           own(walkTeam),
	"POST /team/{id}/kick":             own(walkTeam),
	"POST /team/{id}/role":             own(walkTeam),
	"POST /team/{id}/edit":             own(walkTeam),
	"POST /team/{id}/message":          own(walkTeam),
	"POST /api/team/{id}/requests":     own(walkTeam),
	"POST /api/team/{id}/invite":       own(walkTeam),
	"POST /api/team/{id}/kick":         own(walkTeam),
	"POST /api/team/{id}/role":         own(walkTeam),
	"POST /api/team/{id}/edit":         own(walkTeam),
	"POST /api/team/{id}/message":      own(walkTeam),
	"POST /team/{id}/close":            own(walkTeam),
	"POST /api/team/{id}/close":        own(walkTeam),
	"POST /team/{id}/battle":           own(walkTeam),
	"POST /api/team/{id}/battle":       own(walkTeam),
	"GET /team/battle/{event}":         pub(whyEvent),
	"GET /api/events/{event}/teams":    pub(whyEvent),
	"GET /api/team/{id}/chat":          {ws: true, private: walkTeam},
	"POST /team/{id}/match":            own(walkTeam),
	"POST /api/team/{id}/match":        own(walkTeam),
	"GET /team/match/{id}":             pub(whyTeamMatch),
	"GET /api/team-match/{id}":         pub(whyTeamMatch),
	"POST /team/match/{id}/lineup":     own(walkTeamMatch),
	"POST /team/match/{id}/start":      own(walkTeamMatch),
	"POST /api/team-match/{id}/lineup": own(walkTeamMatch),
	"POST /api/team-match/{id}/start":  own(walkTeamMatch),
	"POST /class/{id}/team":            own(func(w *walk) map[string]string { return map[string]string{"id": w.class()} }),

	// broadcasts
	"POST /api/broadcasts":            {},
	"GET /api/broadcasts/{id}":        pub(whyBroadcast),
	"GET /api/broadcasts/{id}/events": pub(whyBroadcast),
	"POST /api/broadcasts/{id}/games": own(func(w *walk) map[string]string { return map[string]string{"id": w.broadcast(), "game": "1"} }),
	"POST /api/broadcasts/{id}/games/{game}/plies": own(func(w *walk) map[string]string {
		return map[string]string{"id": w.broadcast(), "game": w.broadcastGame()}
	}),
	"GET /broadcasts":            {},
	"POST /broadcasts":           {},
	"GET /broadcast/{id}":        pub(whyBroadcast),
	"GET /broadcast/{id}/enter":  own(func(w *walk) map[string]string { return map[string]string{"id": w.broadcast()} }),
	"POST /broadcast/{id}/games": own(func(w *walk) map[string]string { return map[string]string{"id": w.broadcast()} }),
	"POST /broadcast/{id}/game/{game}/plies": own(func(w *walk) map[string]string {
		return map[string]string{"id": w.broadcast(), "game": w.broadcastGame()}
	}),
	"POST /broadcast/{id}/upload":      own(func(w *walk) map[string]string { return map[string]string{"id": w.broadcast()} }),
	"GET /broadcast/{id}/board/{game}": pub(whyBroadcast),

	// events
	"GET /api/events":                   {},
	"GET /api/events/{id}":              pub(whyEvent),
	"GET /events":                       {},
	"POST /events":                      {},
	"GET /event/{id}":                   pub(whyEvent),
	"GET /event/{id}/live":              pub(whyEvent),
	"GET /event/{id}/trf":               pub(whyEvent),
	"POST /event/{id}/join":             pub(whyEvent),
	"POST /event/{id}/withdraw":         pub(whyEvent),
	"POST /event/{id}/berserk":          pub(whyEvent),
	"POST /event/{id}/arbiter/{action}": own(func(w *walk) map[string]string { return map[string]string{"id": w.event(), "action": "start"} }),

	// simuls
	"POST /api/simuls":            {},
	"GET /api/simuls/{id}":        pub(whySimul),
	"POST /api/simuls/{id}/join":  pub(whySimul),
	"POST /api/simuls/{id}/leave": pub(whySimul),
	"POST /api/simuls/{id}/start": own(func(w *walk) map[string]string { return map[string]string{"id": w.simul()} }),
	"GET /simuls":                 {},
	"POST /simuls":                {},
	"GET /simul/{id}":             pub(whySimul),
	"POST /simul/{id}/join":       pub(whySimul),
	"POST /simul/{id}/leave":      pub(whySimul),
	"POST /simul/{id}/start":      own(func(w *walk) map[string]string { return map[string]string{"id": w.simul()} }),
	"GET /simul/{id}/host":        own(func(w *walk) map[string]string { return map[string]string{"id": w.simul()} }),
	"GET /simul/{id}/board/{n}":   pub(whySimul),
	// championships: public to read; the desk is their arbiters'
	"GET /championships":                    {},
	"POST /championships":                   {},
	"GET /championship/{id}":                pub(whyChampionship),
	"GET /championship/{id}/paper/{paper}":  pub(whyChampionship),
	"GET /championship/{id}/trf/{section}":  pub(whyChampionship),
	"GET /championship/{id}/norms":          pub(whyChampionship),
	"GET /championship/{id}/desk":           own(championshipOf),
	"POST /championship/{id}/desk/{action}": own(func(w *walk) map[string]string { return map[string]string{"id": w.championship(), "action": "pair"} }),
	"POST /api/championships":               {},
	"GET /api/championships/{id}":           pub(whyChampionship),
	"POST /api/championships/{id}/entries":  own(championshipOf),
	"POST /api/championships/{id}/pair":     own(championshipOf),
	"POST /api/championships/{id}/results":  own(championshipOf),
	"POST /api/championships/{id}/submit":   own(championshipOf),
	"POST /api/championships/{id}/withdraw": own(championshipOf),
	"POST /api/championships/{id}/bye":      own(championshipOf),

	// reviews
	"GET /api/games/{id}/review":  pub(whyReview),
	"POST /api/games/{id}/review": pub(whyReview),
	"GET /game/{id}/review":       pub(whyReview),
	"POST /game/{id}/review":      pub(whyReview),
	"GET /review/{id}/learn":      pub(whyReview),
	"POST /review/{id}/learn":     pub(whyReview),

	// the notices (internal/notifications): each the account's own
	"GET /notifications":            {},
	"POST /notifications/read":      {},
	"POST /settings/notifications":  {},
	"GET /api/notifications":        {},
	"GET /api/notifications/unread": {},
	"POST /api/notifications/read":  {},
	"GET /api/notifications/ws":     {ws: true},
	"GET /api/push/key":             {},
	"POST /api/push/subscribe":      {},
	"POST /api/push/unsubscribe":    {},

	// following players (internal/friends)
	"POST /@/{name}/follow":         pub(whyFollow),
	"POST /@/{name}/unfollow":       pub(whyFollow),
	"GET /following":                {},
	"POST /api/rel/follow/{name}":   pub(whyFollow),
	"POST /api/rel/unfollow/{name}": pub(whyFollow),
	"GET /api/rel/following":        {},

	// private messages (internal/inbox): {name} is the other side of the
	// caller's own conversation; the moderators' pages check the role
	"GET /inbox":                {},
	"GET /inbox/{name}":         pub(whyInbox),
	"POST /inbox/{name}":        pub(whyInbox),
	"POST /inbox/{name}/report": pub(whyInbox),
	"GET /mod/inbox":            {},
	"GET /mod/inbox/{a}/{b}":    pub(whyModInbox),
	"GET /api/inbox":            {},
	"GET /api/inbox/{name}":     pub(whyInbox),
	"POST /api/inbox/{name}":    pub(whyInbox),

	// privacy, kid mode, closing, the export
	"GET /account/preferences/privacy":  {},
	"POST /account/preferences/privacy": {},
	"POST /@/{name}/block":              pub(whyBlock),
	"POST /@/{name}/unblock":            pub(whyBlock),
	"GET /account/kid":                  {},
	"POST /account/kid":                 {},
	"POST /account/kid/class/{id}":      own(func(w *walk) map[string]string { return map[string]string{"id": w.class()} }),
	"GET /account/close":                {},
	"POST /account/close":               {},
	"GET /account/export":               {},
	"POST /account/export":              {},

	// second factors and passkeys
	"GET /account/twofactor":                   {},
	"POST /account/twofactor/setup":            {},
	"POST /account/twofactor/confirm":          {},
	"POST /account/twofactor/disable":          {},
	"POST /account/twofactor/recovery":         {},
	"GET /account/passkeys":                    {},
	"POST /account/passkeys/{id}/delete":       own(func(w *walk) map[string]string { return map[string]string{"id": w.passkey()} }),
	"POST /login/twofactor":                    {},
	"GET /api/account/twofactor":               {},
	"POST /api/account/passkeys":               {},
	"POST /api/account/passkeys/finish":        {},
	"DELETE /api/account/passkeys/{id}":        own(func(w *walk) map[string]string { return map[string]string{"id": w.passkey()} }),
	"POST /api/login/twofactor":                {},
	"POST /api/login/twofactor/passkey":        {},
	"POST /api/login/twofactor/passkey/finish": {},
	"POST /api/login/passkey":                  {},
	"POST /api/login/passkey/finish":           {},

	// e-mail, the reset, the sessions
	"GET /password/reset":                 {},
	"POST /password/reset":                {},
	"GET /password/reset/{token}":         pub(whyMailLink),
	"POST /password/reset/{token}":        pub(whyMailLink),
	"GET /account/email":                  {},
	"POST /account/email":                 {},
	"POST /account/email/verify":          {},
	"POST /account/email/remove":          {},
	"GET /account/email/confirm/{token}":  pub(whyMailLink),
	"POST /account/email/confirm/{token}": pub(whyMailLink),
	"GET /account/passwd":                 {},
	"POST /account/passwd":                {},
	"GET /account/security":               {},
	"POST /account/security/revoke":       {},
	"POST /account/security/revoke-all":   {},
	"GET /api/account/sessions":           {},
	"DELETE /api/account/sessions/{id}":   own(func(w *walk) map[string]string { return map[string]string{"id": w.session()} }),

	// reports and the moderators
	"GET /api":               {}, // the API reference page
	"GET /insights":          {}, // one's own games only
	"GET /report":            {},
	"POST /report":           {},
	"POST /api/mod/reports":  {},
	"GET /warning":           {},
	"POST /warning":          {},
	"GET /appeal":            {},
	"POST /appeal":           {},
	"GET /mod":               {},
	"GET /mod/log":           {},
	"GET /mod/appeals":       {},
	"POST /mod/appeals/{id}": own(func(w *walk) map[string]string { return map[string]string{"id": "1"} }),
	"GET /mod/@/{name}":      own(func(w *walk) map[string]string { return map[string]string{"name": "carol"} }),
	"POST /mod/@/{name}":     own(func(w *walk) map[string]string { return map[string]string{"name": "carol"} }),

	// the federations' register: public; its officers' forms refuse anyone else
	"GET /api/federations":                                    {},
	"GET /api/federations/{code}":                             pub(whyRegister),
	"GET /api/federations/{code}/players":                     pub(whyRegister),
	"GET /api/federations/{code}/lists/{discipline}/{day}":    pub(whyRegister),
	"GET /api/players":                                        {},
	"GET /api/players/{id}":                                   pub(whyRegister),
	"GET /federations":                                        {},
	"GET /federations/{code}":                                 pub(whyRegister),
	"POST /federations/{code}/import":                         own(func(w *walk) map[string]string { return map[string]string{"code": "KAZ"} }),
	"POST /federations/{code}/publish":                        own(func(w *walk) map[string]string { return map[string]string{"code": "KAZ"} }),
	"POST /federations/{code}/config":                         own(func(w *walk) map[string]string { return map[string]string{"code": "KAZ"} }),
	"POST /federations/{code}/ranks":                          own(func(w *walk) map[string]string { return map[string]string{"code": "KAZ"} }),
	"POST /federations/{code}/players":                        own(func(w *walk) map[string]string { return map[string]string{"code": "KAZ"} }),
	"POST /federations/{code}/clubs":                          own(func(w *walk) map[string]string { return map[string]string{"code": "KAZ"} }),
	"POST /federations/{code}/claims":                         own(func(w *walk) map[string]string { return map[string]string{"code": "KAZ"} }),
	"GET /federations/{code}/lists/{discipline}/{day}":        pub(whyRegister),
	"GET /federations/{code}/lists/{discipline}/{day}/{file}": pub(whyRegister),
	"GET /players":                                            {},
	"GET /players/{id}":                                       pub(whyRegister),
	"POST /players/{id}/claim":                                pub("claims a register entry for the caller's own account; an officer of its federation decides"),
}

// The forum's routes (internal/forum): its public categories are read by
// anyone and written by any account as himself; a post's editing is its
// author's, hiding, locking, moving and the edits' history the moderators'.
func init() {
	const whyForum = "the forum's public categories are read by anyone and written by any account as himself (a team's answers 404 to all but its members)"
	for _, p := range []string{"GET /forum", "GET /forum/search", "GET /forum/reports", "GET /api/forum", "GET /api/forum/search"} {
		routeRules[p] = routeRule{}
	}
	for _, p := range []string{"GET /forum/{category}", "GET /forum/new/{category}", "POST /forum/new/{category}",
		"GET /forum/{category}/{topic}", "POST /forum/{category}/{topic}", "GET /forum/post/{id}",
		"GET /forum/post/{id}/report", "POST /forum/post/{id}/report", "GET /api/forum/{category}", "POST /api/forum/{category}",
		"GET /api/forum/{category}/{topic}", "POST /api/forum/{category}/{topic}", "GET /api/forum/post/{id}",
		"POST /api/forum/post/{id}/report"} {
		routeRules[p] = pub(whyForum)
	}
	post := func(w *walk) map[string]string { return map[string]string{"id": w.forumPost()} }
	topic := func(w *walk) map[string]string {
		w.forumPost()
		return map[string]string{"category": "general", "topic": w.cache["forumTopic"]}
	}
	for _, p := range []string{"GET /forum/post/{id}/edit", "POST /forum/post/{id}/edit", "PUT /api/forum/post/{id}",
		"POST /forum/post/{id}/mod", "POST /api/forum/post/{id}/mod", "GET /forum/post/{id}/history"} {
		routeRules[p] = own(post)
	}
	for _, p := range []string{"POST /forum/{category}/{topic}/mod", "POST /api/forum/{category}/{topic}/mod"} {
		routeRules[p] = own(topic)
	}
}

// forumPost is alice's topic's first post in the general category.
func (w *walk) forumPost() string {
	return w.once("forumPost", func() string {
		code, m := w.l.do("POST", "/api/forum/general", w.alice, map[string]any{"title": "Walk", "text": "A post."})
		w.must("alice's forum topic", code, 201, m)
		w.cache["forumTopic"] = fmt.Sprint(m["id"])
		code, m = w.l.do("GET", "/api/forum/general/"+w.cache["forumTopic"], w.alice, nil)
		w.must("alice's forum topic", code, 200, m)
		return fmt.Sprint(m["posts"].([]any)[0].(map[string]any)["id"])
	})
}

func init() {
	// The bot and board API's game routes: the players' own.
	for _, api := range []string{"bot", "board"} {
		as := "token"
		game := func(w *walk) string { return w.game() }
		if api == "bot" {
			as, game = "bot", func(w *walk) string { return w.botGame() }
		}
		routeRules["GET /api/"+api+"/game/{x}/{y}"] = routeRule{as: as, private: func(w *walk) map[string]string {
			return map[string]string{"x": game(w), "y": "chat"}
		}}
		for _, p := range []string{"move/{move}", "chat", "resign", "abort", "claim-victory", "draw/{accept}"} {
			routeRules["POST /api/"+api+"/game/{id}/"+p] = routeRule{as: as, private: func(w *walk) map[string]string {
				return map[string]string{"id": game(w), "move": "1", "accept": "yes"}
			}}
		}
	}
}

// TestRouteWalk walks every route of the server (see above).
func TestRouteWalk(t *testing.T) {
	// Alice's seek must outlive the walk, which opens and closes her lobby
	// socket and takes half a minute under the race detector: a seek goes
	// after its creator's lobby grace.
	l := startAbuse(t, Options{Federations: walkRegister{}, Lobby: live.LobbyConfig{Grace: time.Hour}})
	routes := l.l.app.srv.routes
	for _, r := range routes {
		if _, ok := routeRules[r]; !ok {
			t.Errorf("route %q is not classified: add it to routeRules in internal/server/routes_test.go, "+
				"saying whether it changes state (its method, a websocket) and whether its parameters name public or private objects", r)
		}
	}
	for r := range routeRules {
		if !slices.Contains(routes, r) {
			t.Errorf("routeRules classifies %q, which the server does not register", r)
		}
	}
	w := newWalk(t, l)
	for _, pattern := range routes {
		rule, ok := routeRules[pattern]
		if !ok {
			continue
		}
		method, path, _ := strings.Cut(pattern, " ")
		if path == "" {
			method, path = "", method
		}
		params := pathParams(path)
		if len(params) > 0 && rule.public == "" && rule.private == nil {
			t.Errorf("%s: its parameters %v are neither public (say why) nor private (say how to make the object)", pattern, params)
			continue
		}
		var vals map[string]string
		if rule.private != nil {
			vals = rule.private(w)
		}
		target := fill(t, pattern, path, params, vals)
		switch {
		case rule.ws:
			w.checkSocket(pattern, target)
		case method == "GET":
			w.checkNoSocket(pattern, target)
		case method == "" || method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE":
			if method == "" {
				method = "POST"
			}
			w.checkCrossSite(pattern, method, target, rule)
		}
		if rule.private != nil {
			w.checkOwner(pattern, cmpOr(method, "GET"), target, rule)
		}
	}
	w.checkIntact()
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var paramRE = regexp.MustCompile(`\{([a-z]+)\$?\}`)

// pathParams returns the names of the parameters of a pattern's path.
func pathParams(path string) []string {
	var out []string
	for _, m := range paramRE.FindAllStringSubmatch(path, -1) {
		if m[1] != "" {
			out = append(out, m[1])
		}
	}
	return out
}

// fill puts the values into the path's parameters; a parameter without a
// value takes a placeholder, unless the route is private (its setup must
// name them all).
func fill(t *testing.T, pattern, path string, params []string, vals map[string]string) string {
	t.Helper()
	path = strings.ReplaceAll(path, "{$}", "")
	for _, p := range params {
		v, ok := vals[p]
		if !ok {
			if vals != nil {
				t.Fatalf("%s: the setup gives no value for {%s}", pattern, p)
			}
			v = "x1"
		}
		path = strings.Replace(path, "{"+p+"}", url.PathEscape(v), 1)
	}
	if strings.HasSuffix(path, "/") && path != "/" && path != "/api/" && path != "/static/" {
		return path
	}
	switch path {
	case "/api/":
		return "/api/nosuch"
	case "/static/":
		return "/static/nosuch"
	}
	return path
}

// walk is the accounts and objects of the route walk: alice owns the
// objects, bob tries them, carol is alice's counterpart (her opponent,
// the one she challenges or invites).
type walk struct {
	t                 *testing.T
	l                 *local
	alice, bob, carol string // sessions
	// personal tokens with every scope, and the bots' tokens
	aliceTok, bobTok, carolTok string
	botA, botB, botC           string
	cache                      map[string]string
	crossOrigin                string // the cross-origin refusal's text, which no other answer has
}

func newWalk(t *testing.T, l *local) *walk {
	w := &walk{t: t, l: l, cache: map[string]string{}}
	w.alice, w.bob, w.carol = l.signup("alice"), l.signup("bob"), l.signup("carol")
	all := botapi.Scopes
	w.aliceTok, w.bobTok, w.carolTok = l.token(w.alice, all...), l.token(w.bob, all...), l.token(w.carol, all...)
	w.botA, w.botB, w.botC = l.botAccount("walkbota"), l.botAccount("walkbotb"), l.botAccount("walkbotc")
	w.crossOrigin = "Refused: this request came from another site"
	return w
}

// once makes the object kind with make the first time it is asked for.
func (w *walk) once(kind string, make func() string) string {
	if v, ok := w.cache[kind]; ok {
		return v
	}
	v := make()
	w.cache[kind] = v
	return v
}

func (w *walk) must(what string, code int, want int, m any) {
	w.t.Helper()
	if code != want {
		w.t.Fatalf("the walk's setup: %s: %d %v, want %d", what, code, m, want)
	}
}

func (w *walk) seek() string {
	return w.once("seek", func() string {
		code, m := w.l.do("POST", "/api/seeks", w.alice, map[string]any{"tc": "5+3"})
		w.must("alice's seek", code, 201, m)
		return m["id"].(string)
	})
}

func (w *walk) token() string {
	return w.once("token", func() string {
		code, m := w.l.do("POST", "/api/token", w.alice, map[string]any{"description": "walk", "scopes": []string{"board:play"}})
		w.must("alice's token", code, 201, m)
		w.cache["tokenValue"] = m["token"].(string)
		return strconv.Itoa(int(m["id"].(float64)))
	})
}

func (w *walk) appToken() string {
	return w.once("app", func() string {
		ctx := context.Background()
		st := w.l.l.app.Store
		u, err := st.UserByName(ctx, "alice")
		if err != nil {
			w.t.Fatal(err)
		}
		now := time.Now()
		verifier := strings.Repeat("v", 43)
		if err := st.AddOAuthCode(ctx, "walkcode", store.OAuthCode{UserID: u.ID, ClientID: "walk-app", RedirectURI: "https://app.example/cb",
			Challenge: verifier, Created: now, Expires: now.Add(time.Minute)}); err != nil {
			w.t.Fatal(err)
		}
		tok, hash := botapi.NewToken()
		_, id, err := st.RedeemOAuthCode(ctx, "walkcode", func(store.OAuthCode) error { return nil }, store.AppToken{Hash: hash, Expires: now.Add(time.Hour)})
		if err != nil {
			w.t.Fatal(err)
		}
		w.cache["appValue"] = tok
		return strconv.FormatInt(id, 10)
	})
}

// passkey is alice's passkey, stored as the ceremony would (its record's
// content is never read by the routes walked).
func (w *walk) passkey() string {
	return w.once("passkey", func() string {
		ctx := context.Background()
		st := w.l.l.app.Store
		u, err := st.UserByName(ctx, "alice")
		if err != nil {
			w.t.Fatal(err)
		}
		id, err := st.AddPasskey(ctx, store.Passkey{User: u.ID, CredentialID: []byte("walk-credential"), Name: "walk", Credential: []byte("{}"), Created: time.Now()})
		if err != nil {
			w.t.Fatal(err)
		}
		return strconv.FormatInt(id, 10)
	})
}

// session is one of alice's sessions, by the id the sessions' list gives.
func (w *walk) session() string {
	return w.once("session", func() string {
		code, m := w.l.do("GET", "/api/account/sessions", w.alice, nil)
		w.must("alice's sessions", code, 200, m)
		list, _ := m["sessions"].([]any)
		if len(list) == 0 {
			w.t.Fatalf("the walk's setup: alice has no session: %v", m)
		}
		return fmt.Sprint(list[0].(map[string]any)["id"])
	})
}

func (w *walk) challenge() string {
	return w.once("challenge", func() string {
		code, m := w.l.botForm("POST", "/api/challenge/carol", w.aliceTok, url.Values{"tc": {"5+3"}})
		w.must("alice's challenge of carol", code, 200, m)
		return m["id"].(string)
	})
}

func (w *walk) game() string {
	return w.once("game", func() string {
		_, _, id := w.l.game(w.alice, w.carol, "5+3", false)
		return id
	})
}

func (w *walk) botGame() string {
	return w.once("botGame", func() string {
		code, m := w.l.botForm("POST", "/api/challenge/walkbotb", w.botA, url.Values{"tc": {"5+3"}})
		w.must("a bot's challenge", code, 200, m)
		code, m = w.l.botForm("POST", "/api/challenge/"+m["id"].(string)+"/accept", w.botB, nil)
		w.must("the bot's acceptance", code, 200, m)
		return m["gameId"].(string)
	})
}

func (w *walk) study() string {
	return w.once("study", func() string {
		code, loc, body := w.l.form("/study", w.alice, url.Values{"name": {"Walk"}, "visibility": {"private"}, "ruleset": {"standard"}})
		w.must("alice's private study", code, http.StatusSeeOther, body)
		return strings.TrimPrefix(loc, "/study/")
	})
}

func (w *walk) class() string {
	return w.once("class", func() string {
		code, loc, body := w.l.form("/classes", w.alice, url.Values{"name": {"Walk"}})
		w.must("alice's class", code, http.StatusSeeOther, body)
		code, _, body = w.l.form(loc+"/invite", w.alice, url.Values{"name": {"carol"}})
		w.must("carol's invitation", code, http.StatusSeeOther, body)
		return strings.TrimPrefix(loc, "/class/")
	})
}

// walkTeam is alice's team: only its leaders and coaches manage it.
func walkTeam(w *walk) map[string]string {
	return map[string]string{"id": w.once("team", func() string {
		code, loc, body := w.l.form("/team", w.alice, url.Values{"name": {"Walk club"}, "joinMode": {"request"}})
		w.must("alice's team", code, http.StatusSeeOther, body)
		return strings.TrimPrefix(loc, "/team/")
	})}
}

// walkTeamMatch is a match of alice's team against carol's: bob manages
// neither.
func walkTeamMatch(w *walk) map[string]string {
	return map[string]string{"id": w.once("teamMatch", func() string {
		code, loc, body := w.l.form("/team", w.carol, url.Values{"name": {"Walk rivals"}, "joinMode": {"open"}})
		w.must("carol's team", code, http.StatusSeeOther, body)
		code, loc, body = w.l.form("/team/"+walkTeam(w)["id"]+"/match", w.alice, url.Values{"opponent": {strings.TrimPrefix(loc, "/team/")}, "boards": {"1"}, "tc": {"5+3"}})
		w.must("alice's team match", code, http.StatusSeeOther, body)
		return strings.TrimPrefix(loc, "/team/match/")
	})}
}

func (w *walk) broadcast() string {
	return w.once("broadcast", func() string {
		code, m := w.l.do("POST", "/api/broadcasts", w.alice, map[string]any{"name": "Walk open", "ruleset": "standard", "rounds": 1})
		w.must("alice's broadcast", code, 201, m)
		return strconv.Itoa(int(m["id"].(float64)))
	})
}

func (w *walk) broadcastGame() string {
	return w.once("broadcastGame", func() string {
		id := w.broadcast()
		code, m := w.l.do("POST", "/api/broadcasts/"+id+"/games", w.alice, map[string]any{"round": 1, "board": 1, "white": "A", "black": "B"})
		w.must("the broadcast's game", code, 201, m)
		games := w.l.bcGames(int64(must(strconv.Atoi(id))), 1)
		return strconv.Itoa(int(games[0].(map[string]any)["id"].(float64)))
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func (w *walk) event() string {
	return w.once("event", func() string {
		code, loc, body := w.l.form("/events", w.alice, url.Values{"name": {"Walk cup"}, "kind": {"roundrobin"}, "tc": {"5+3"}, "ruleset": {"standard"}})
		w.must("alice's event", code, http.StatusSeeOther, body)
		return strings.TrimPrefix(loc, "/event/")
	})
}

func (w *walk) simul() string {
	return w.once("simul", func() string {
		code, m := w.l.do("POST", "/api/simuls", w.alice, map[string]any{"ruleset": "standard", "tc": "none", "max": 4, "color": "black"})
		w.must("alice's simul", code, 201, m)
		return m["id"].(string)
	})
}

// request sends method target with a body fit for its kind (JSON to the
// API, an empty form to a page) and the headers; it returns the status
// and the body.
func (w *walk) request(method, target string, h http.Header) (int, string) {
	w.t.Helper()
	var body io.Reader
	if method != "GET" {
		if strings.HasPrefix(target, "/api/") {
			body = bytes.NewReader([]byte("{}"))
		} else {
			body = strings.NewReader("")
		}
	}
	req, _ := http.NewRequest(method, w.l.URL+target, body)
	if method != "GET" {
		if strings.HasPrefix(target, "/api/") {
			req.Header.Set("Content-Type", "application/json")
		} else {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	for k, v := range h {
		req.Header[k] = v
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		w.t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusSwitchingProtocols {
		return resp.StatusCode, ""
	}
	// A stream answers line by line: its first bytes say enough.
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, string(b)
}

// checkCrossSite holds a state-changing route to rule 1: refused from
// another site with alice's cookie, by Sec-Fetch-Site or by Origin alone;
// not refused as cross-site with a Bearer token.
func (w *walk) checkCrossSite(pattern, method, target string, rule routeRule) {
	w.t.Helper()
	cookie := (&http.Cookie{Name: cookieName, Value: w.alice}).String()
	for _, h := range []http.Header{
		{"Cookie": {cookie}, "Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://evil.example"}},
		{"Cookie": {cookie}, "Origin": {"https://evil.example"}},
	} {
		code, body := w.request(method, target, h)
		if code != http.StatusForbidden || !strings.Contains(body, w.crossOrigin) {
			w.t.Errorf("%s: a cross-site request (%s) with the session cookie: %d, want 403 refused as cross-site", pattern, headerNames(h), code)
		}
	}
	if rule.tokenForm != "" {
		req, _ := http.NewRequest(method, w.l.URL+target, strings.NewReader("grant_type=authorization_code&code=x"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Origin", "https://app.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			w.t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusForbidden || strings.Contains(string(b), w.crossOrigin) {
			w.t.Errorf("%s: an app's form from another site: %d %s, want it to reach the token endpoint", pattern, resp.StatusCode, b)
		}
	}
	code, body := w.request(method, target, http.Header{"Authorization": {"Bearer nosuchtoken"}, "Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://evil.example"}})
	if strings.Contains(body, w.crossOrigin) {
		w.t.Errorf("%s: a cross-site request with a Bearer token: %d, refused as cross-site", pattern, code)
	}
}

func headerNames(h http.Header) string {
	var names []string
	for k := range h {
		if k != "Cookie" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// checkSocket holds a websocket to rule 1: another site's page cannot
// open it with alice's cookie, this site's can.
func (w *walk) checkSocket(pattern, target string) {
	w.t.Helper()
	// A game's socket: a real game, so that it gets as far as the upgrade.
	// Only a whole segment is the placeholder: a random id (a team's) may
	// hold "x1" (the walk failed once in CI on such a team).
	segs := strings.Split(target, "/")
	if i := slices.Index(segs, "x1"); i >= 0 {
		segs[i] = w.game()
		target = strings.Join(segs, "/")
	}
	upgrade := func(origin string) int {
		code, _ := w.request("GET", target, http.Header{"Cookie": {(&http.Cookie{Name: cookieName, Value: w.alice}).String()},
			"Connection": {"Upgrade"}, "Upgrade": {"websocket"}, "Sec-Websocket-Version": {"13"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="},
			"Origin": {origin}})
		return code
	}
	if code := upgrade("https://evil.example"); code != http.StatusForbidden {
		w.t.Errorf("%s: another site opens the websocket: %d, want 403", pattern, code)
	}
	if code := upgrade(w.l.URL); code != http.StatusSwitchingProtocols {
		w.t.Errorf("%s: this site's page opens the websocket: %d, want 101", pattern, code)
	}
}

// checkNoSocket: a route not classified as a websocket does not upgrade
// another site's request to one (a new socket must be classified, and
// then checked by checkSocket).
func (w *walk) checkNoSocket(pattern, target string) {
	w.t.Helper()
	req, _ := http.NewRequest("GET", w.l.URL+target, nil)
	for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-Websocket-Version": "13",
		"Sec-Websocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "https://evil.example"} {
		req.Header.Set(k, v)
	}
	req.AddCookie(&http.Cookie{Name: cookieName, Value: w.alice})
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		w.t.Fatalf("%s: %v", pattern, err)
	}
	resp.Body.Close() // a stream's headers say enough
	if resp.StatusCode == http.StatusSwitchingProtocols {
		w.t.Errorf("%s: upgrades another site's request to a websocket: classify it as one (ws: true) and check the Origin (site.AcceptWS)", pattern)
	}
}

// credential returns who makes a request of kind as: bob, or alice.
func (w *walk) credential(as string, bob bool) string {
	switch {
	case as == "token" && bob:
		return w.bobTok
	case as == "token":
		return w.aliceTok
	case as == "bot" && bob:
		return w.botC
	case as == "bot":
		return w.botA
	case bob:
		return w.bob
	}
	return w.alice
}

// checkOwner holds a private route to rule 2: bob's request on alice's
// object is refused with 403 or 404.
func (w *walk) checkOwner(pattern, method, target string, rule routeRule) {
	w.t.Helper()
	code, body := w.request(method, target, http.Header{"Authorization": {"Bearer " + w.credential(rule.as, true)}})
	if code != http.StatusForbidden && code != http.StatusNotFound {
		w.t.Errorf("%s: a second account on the first's object (%s): %d, want 403 or 404\n%.300s", pattern, target, code, body)
	}
}

// checkIntact: after the walk, alice's objects that bob tried are as
// they were.
func (w *walk) checkIntact() {
	w.t.Helper()
	if code, m := w.l.do("GET", "/api/seeks/"+w.seek(), "", nil); code != 200 {
		w.t.Errorf("alice's seek after the walk: %d %v", code, m)
	}
	for _, tok := range []string{w.cache["tokenValue"], w.cache["appValue"]} {
		if code, m := w.l.do("GET", "/api/account", tok, nil); code != 200 {
			w.t.Errorf("alice's token after the walk: %d %v", code, m)
		}
	}
	code, m := w.l.do("GET", "/api/challenge", w.carolTok, nil)
	if code != 200 || !strings.Contains(fmt.Sprint(m), w.challenge()) {
		w.t.Errorf("alice's challenge of carol after the walk: %d %v", code, m)
	}
}
