package server

import (
	"net/http"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/botapi"
)

// Cross-site requests (docs/accounts.md, "Cross-site requests").
//
// Threat model: another site's page makes the visitor's browser send a
// state-changing request here, with the visitor's session cookie, or
// upgrade a websocket with it. The defences:
//
//   - every request whose method is not GET, HEAD or OPTIONS passes the
//     standard library's http.CrossOriginProtection (the browser's
//     Sec-Fetch-Site, else Origin against Host): a cross-site one is
//     refused 403 before any handler runs, whatever its route; GET routes
//     change nothing (the route walk holds every route to it);
//   - a request with a Bearer token is exempt: its authority is the token,
//     which another site cannot know, and the server then never reads the
//     session cookie (token, identity.go, prefers the header by the same
//     rule as bearer here; the bot API reads only the header);
//   - OAuth's token endpoint (POST /api/token with a form) is exempt: it
//     carries no session, only a code and its PKCE verifier, and apps on
//     other sites call it from their pages;
//   - websockets (GET upgrades) are checked by their library's Origin test
//     (site.AcceptWS): another site's page cannot open one;
//   - the session cookie is SameSite=Lax, a second line for old browsers
//     that send neither Sec-Fetch-Site nor Origin.
//
// The bot API's paths answer CORS as lichess's do: any origin may call
// them, without credentials (Access-Control-Allow-Origin: *, never
// Allow-Credentials), so a browser app uses its Bearer token and never the
// visitor's cookie.
func (s *Server) crossOrigin(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if botapi.IsAPIPath(r.URL.Path) {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", "*")
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
				h.Set("Access-Control-Max-Age", "86400")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if !bearer(r) && !isTokenRequest(r) {
			if err := cop.Check(r); err != nil {
				s.writeError(w, r, apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.cross_origin"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// bearer reports whether r carries a Bearer token, by token's rule: then
// the server never reads r's session cookie.
func bearer(r *http.Request) bool {
	_, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok
}

// isTokenRequest reports whether r is OAuth's token request, which
// internal/botapi hands to internal/oauth without a session.
func isTokenRequest(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/api/token" && botapi.IsFormBody(r)
}

// routeMux is the server's ServeMux, which records every pattern
// registered on it: the route walk (routes_test.go) holds each to the
// cross-site and ownership rules.
type routeMux struct {
	*http.ServeMux
	routes []string
}

func newRouteMux() *routeMux { return &routeMux{ServeMux: http.NewServeMux()} }

func (m *routeMux) Handle(pattern string, h http.Handler) {
	m.routes = append(m.routes, pattern)
	m.ServeMux.Handle(pattern, h)
}

func (m *routeMux) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	m.routes = append(m.routes, pattern)
	m.ServeMux.HandleFunc(pattern, h)
}
