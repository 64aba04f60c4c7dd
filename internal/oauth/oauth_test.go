package oauth

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/toguz/toguz/internal/apierr"
)

// TestCheck: what an authorization request may be, and which of its
// faults are shown on the page (never followed) or sent back to the app.
func TestCheck(t *testing.T) {
	challenge := s256(strings.Repeat("a", 43))
	good := request{ResponseType: "code", ClientID: "app", RedirectURI: "https://app.example/cb", Challenge: challenge, Method: "S256",
		State: "s", Scopes: []string{"board:play"}}
	for _, c := range []struct {
		name  string
		edit  func(*request)
		page  bool   // an apierr shown on the page
		error string // else the error code sent to the app; "" none
	}{
		{"good", func(*request) {}, false, ""},
		{"no scope", func(q *request) { q.Scopes = nil }, false, ""},
		{"loopback http", func(q *request) { q.RedirectURI = "http://127.0.0.1:8080/cb" }, false, ""},
		{"localhost http", func(q *request) { q.RedirectURI = "http://localhost/cb" }, false, ""},
		{"IPv6 loopback", func(q *request) { q.RedirectURI = "http://[::1]:9/cb" }, false, ""},
		{"no client", func(q *request) { q.ClientID = "" }, true, ""},
		{"long client", func(q *request) { q.ClientID = strings.Repeat("x", maxClientID+1) }, true, ""},
		{"control in client", func(q *request) { q.ClientID = "a\nb" }, true, ""},
		{"http elsewhere", func(q *request) { q.RedirectURI = "http://app.example/cb" }, true, ""},
		{"lookalike loopback", func(q *request) { q.RedirectURI = "http://127.0.0.1.evil.example/cb" }, true, ""},
		{"user info", func(q *request) { q.RedirectURI = "https://me@app.example/cb" }, true, ""},
		{"fragment", func(q *request) { q.RedirectURI = "https://app.example/cb#f" }, true, ""},
		{"relative", func(q *request) { q.RedirectURI = "//app.example/cb" }, true, ""},
		{"javascript", func(q *request) { q.RedirectURI = "javascript:alert(1)" }, true, ""},
		{"a directive in the host", func(q *request) { q.RedirectURI = "https://app.example;report-uri=x/cb" }, true, ""},
		{"a quote in the host", func(q *request) { q.RedirectURI = "https://app'x.example/cb" }, true, ""},
		{"token flow", func(q *request) { q.ResponseType = "token" }, false, "unsupported_response_type"},
		{"plain", func(q *request) { q.Method = "plain" }, false, "invalid_request"},
		{"short challenge", func(q *request) { q.Challenge = "abc" }, false, "invalid_request"},
		{"challenge alphabet", func(q *request) { q.Challenge = strings.Repeat("+", 43) }, false, "invalid_request"},
		{"long state", func(q *request) { q.State = strings.Repeat("s", maxState+1) }, false, "invalid_request"},
		{"unknown scope", func(q *request) { q.Scopes = []string{"email:read"} }, false, "invalid_scope"},
	} {
		q := good
		c.edit(&q)
		err := q.check()
		var ae *apierr.Error
		var re *redirectError
		switch {
		case c.page && !errors.As(err, &ae):
			t.Errorf("%s: %v, want an error on the page", c.name, err)
		case !c.page && c.error == "" && err != nil:
			t.Errorf("%s: %v, want none", c.name, err)
		case !c.page && c.error != "" && (!errors.As(err, &re) || re.code != c.error):
			t.Errorf("%s: %v, want %s sent back", c.name, err, c.error)
		}
	}
}

// TestRedirectTo keeps the redirect_uri's own query and adds the answer's.
func TestRedirectTo(t *testing.T) {
	got, _ := url.Parse(redirectTo("https://app.example/cb?app=1", url.Values{"code": {"c d"}, "state": {""}}))
	if got.Host != "app.example" || got.Path != "/cb" || got.Query().Get("app") != "1" || got.Query().Get("code") != "c d" || got.Query().Has("state") {
		t.Errorf("redirectTo = %s", got)
	}
}

// TestS256 agrees with golang.org/x/oauth2, the apps' side.
func TestS256(t *testing.T) {
	for range 10 {
		v := oauth2.GenerateVerifier()
		if got, want := s256(v), oauth2.S256ChallengeFromVerifier(v); got != want || !validPKCE(v) || !validPKCE(got) {
			t.Errorf("s256(%s) = %s, want %s", v, got, want)
		}
	}
}
