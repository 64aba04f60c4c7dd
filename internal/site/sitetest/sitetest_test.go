package sitetest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
)

func TestKitReadsTokensAndLanguages(t *testing.T) {
	k := NewKit(t)
	for _, tt := range []struct {
		target, auth, accept string
		who                  func(*http.Request, string) site.Identity
		id                   int64
		name, lang           string
	}{
		{"/", "Bearer 7:Aigerim", "", nil, 7, "Aigerim", "en"},
		{"/?lang=kk", "Bearer 7:Aigerim", "ru", nil, 7, "Aigerim", "kk"},
		{"/", "Bearer x:Aigerim", "ru", nil, 0, "", "ru"},
		{"/", "", "", nil, 0, "", "en"},
		{"/", "Bearer bolat", "", GuestToken, 0, "bolat", "en"},
	} {
		k.Who = tt.who
		r := httptest.NewRequest("GET", tt.target, nil)
		if tt.auth != "" {
			r.Header.Set("Authorization", tt.auth)
		}
		if tt.accept != "" {
			r.Header.Set("Accept-Language", tt.accept)
		}
		id := k.Identity(r)
		if id.Account.ID != tt.id || id.Name() != tt.name || k.Lang(r) != tt.lang {
			t.Errorf("%s %q %q: %+v in %s, want %d %q in %s", tt.target, tt.auth, tt.accept, id, k.Lang(r), tt.id, tt.name, tt.lang)
		}
	}
}

func TestRouterAnswersErrors(t *testing.T) {
	k := NewKit(t)
	rt := NewRouter(k)
	fail := func(http.ResponseWriter, *http.Request) error {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.json_empty")
	}
	rt.API("/api/x", fail)
	rt.Page("/x", fail)
	ts := httptest.NewServer(rt.Mux)
	t.Cleanup(ts.Close)
	c := Client{T: t, URL: ts.URL}
	if r := c.Do("POST", "/api/x", "", map[string]any{}); r.Status != 400 || r.JSON()["error"].(map[string]any)["code"] != string(apierr.CodeBadRequest) {
		t.Errorf("API: %d %s", r.Status, r.Body)
	}
	if r := c.Do("POST", "/x", "", url.Values{"a": {"b"}}); r.Status != 400 || r.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("page: %d %s %s", r.Status, r.Header, r.Body)
	}
}
