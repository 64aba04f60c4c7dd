package server

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/notifications"
	"github.com/toguz/toguz/internal/oauth"
	"github.com/toguz/toguz/internal/site"
)

// langCookie remembers the language a visitor chose with the switcher.
const langCookie = "lang"

// lang returns the interface language of r: the one chosen with the
// switcher on this browser (its cookie), else the one the account chose,
// else the best match of Accept-Language. A login keeps the browser's
// choice (loginLang).
func (s *Server) Lang(r *http.Request) string {
	if c, err := r.Cookie(langCookie); err == nil {
		if tag, ok := i18n.Parse(c.Value); ok {
			return tag
		}
	}
	if token(r) != "" {
		if tag, ok := i18n.Parse(s.Identity(r).Account.Lang); ok {
			return tag
		}
	}
	return s.cat.Match(r.Header.Get("Accept-Language"))
}

// setLangCookie remembers tag on this browser.
func (s *Server) setLangCookie(w http.ResponseWriter, tag string) {
	http.SetCookie(w, &http.Cookie{Name: langCookie, Value: tag, Path: "/", Secure: s.cfg.SecureCookies,
		SameSite: http.SameSiteLaxMode, MaxAge: 400 * 24 * 3600})
}

// loginLang applies the language rule of a login (or sign-up) on this
// browser: the language chosen on the browser (its cookie) stays, and
// becomes the account's when the account has none yet; a browser that
// has chosen none takes the account's choice, so that an account's choice
// follows it to browsers that have none of their own.
func (s *Server) loginLang(w http.ResponseWriter, r *http.Request, a site.Account) error {
	if c, err := r.Cookie(langCookie); err == nil {
		if tag, ok := i18n.Parse(c.Value); ok {
			if _, chosen := i18n.Parse(a.Lang); chosen || a.ID == 0 || s.cfg.Archive == nil {
				return nil
			}
			ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
			defer cancel()
			return s.cfg.Archive.SetLang(ctx, a.ID, tag)
		}
	}
	if tag, ok := i18n.Parse(a.Lang); ok {
		s.setLangCookie(w, tag)
	}
	return nil
}

// pageSetLang is POST /lang, the switcher on every page: lang= is the
// language, back= the page to return to (a path on this site).
func (s *Server) pageSetLang(w http.ResponseWriter, r *http.Request) error {
	tag, ok := i18n.Parse(r.FormValue("lang"))
	if !ok {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_lang", site.Excerpt(r.FormValue("lang")))
	}
	s.setLangCookie(w, tag)
	// A logged-in user's choice is his account's too: his other browsers
	// and his next login get it.
	if id := s.Identity(r); id.Account.ID != 0 && s.cfg.Archive != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		if err := s.cfg.Archive.SetLang(ctx, id.Account.ID, tag); err != nil {
			return err
		}
	}
	return site.Redirect(w, r, localPath(r.FormValue("back")))
}

// pageSettings is GET /settings: an account's settings (its language).
func (s *Server) pageSettings(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	if id.Account.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	return s.renderSettings(w, r, id.Account, botapi.TokenSection{})
}

// renderSettings renders the settings page of account, its tokens'
// section with sec's new token or error (internal/botapi's).
func (s *Server) renderSettings(w http.ResponseWriter, r *http.Request, account site.Account, sec botapi.TokenSection) error {
	p := s.Page(r, "settings.title", nil)
	tokens := s.bots.TokenSection(r.Context(), account.ID)
	tokens.New, tokens.Error = sec.New, sec.Error
	p.Data = struct {
		Langs   []i18n.Language
		Current string
		Tokens  botapi.TokenSection
		Apps    oauth.Section
		Notify  notifications.Section
		Saved   string
	}{Langs: i18n.Languages(), Current: cmp.Or(account.Lang, p.Lang), Tokens: tokens, Apps: s.apps.Section(r, account.ID),
		Notify: s.cfg.Notifications.Section(r, account.ID), Saved: r.URL.Query().Get("saved")}
	return s.Render(w, http.StatusOK, "settings", p)
}

// localPath returns back if it is a path on this site, else "/": the
// switcher must not redirect elsewhere.
func localPath(back string) string {
	u, err := url.Parse(back)
	if err != nil || back == "" || u.IsAbs() || u.Host != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(back, "//") || strings.Contains(back, `\`) {
		return "/"
	}
	return u.RequestURI()
}
