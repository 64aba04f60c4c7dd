package privacy

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Routes registers the account's pages on r: the privacy settings and
// the blocked users (lichess's /account/preferences/privacy), blocking
// from a profile, kid mode (/account/kid), closing (/account/close) and
// the data's download (/account/export).
func (s *Service) Routes(r site.Router) {
	r.Page("GET /account/preferences/privacy", s.pageSettings)
	r.Page("POST /account/preferences/privacy", s.pageSaveSettings)
	r.Page("POST /@/{name}/block", s.pageBlock(true))
	r.Page("POST /@/{name}/unblock", s.pageBlock(false))
	r.Page("GET /account/kid", s.pageKid)
	r.Page("POST /account/kid", s.pageSetKid)
	r.Page("POST /account/kid/class/{id}", s.pageLockClass)
	r.Page("GET /account/close", s.pageClose)
	r.Page("POST /account/close", s.pageDoClose)
	r.Page("GET /account/export", s.pageExport)
	r.Page("POST /account/export", s.downloadExport)
}

// ErrorKeys are the messages of the package's errors, for the catalog's
// completeness test.
func ErrorKeys() []string {
	return []string{"privacy.refused.closed", "privacy.refused.blocked", "privacy.refused.kid", "privacy.refused.kid_self",
		"privacy.refused.guest", "privacy.refused.rating", "privacy.refused.friends", "privacy.refused.nobody",
		"privacy.err.login", "privacy.err.form", "privacy.err.choice", "privacy.err.rating", "privacy.err.user",
		"privacy.err.self", "privacy.err.class", "privacy.err.export_busy", "privacy.err.export_day", "privacy.refused.chat_kid"}
}

// account returns who asks r, an account, or a 401.
func (s *Service) account(r *http.Request) (site.Account, error) {
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Account{}, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "privacy.err.login")
	}
	return id.Account, nil
}

func ctxOf(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), site.StoreTimeout)
}

func formError() error { return apierr.BadRequest(apierr.CodeBadRequest, "privacy.err.form") }

// ---- the privacy settings and the blocked users ----

type choice struct {
	Value, Label string
	Selected     bool
}

type settingRow struct {
	Name, Title, Help string
	Choices           []choice
}

type settingsData struct {
	Rows                      []settingRow
	ChallengeRating, Min, Max int
	Blocks                    []store.Blocked
	Saved                     bool
	Kid                       bool
}

func (s *Service) pageSettings(w http.ResponseWriter, r *http.Request) error {
	return s.renderSettings(w, r, http.StatusOK, r.URL.Query().Get("saved") == "1")
}

func (s *Service) renderSettings(w http.ResponseWriter, r *http.Request, status int, saved bool) error {
	acc, err := s.account(r)
	if err != nil {
		return site.Redirect(w, r, "/login")
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	set, err := s.Settings(ctx, acc.ID)
	if err != nil {
		return err
	}
	blocks, err := s.st.Blocks(ctx, acc.ID)
	if err != nil {
		return err
	}
	p := s.kit.Page(r, "privacy.title", nil)
	cat := s.kit.Catalog()
	current := map[Action]string{Challenge: set.Challenge, Message: set.Message, Follow: set.Follow, SeeOnline: set.Online}
	var rows []settingRow
	for _, a := range []Action{Challenge, Message, Follow, SeeOnline} {
		row := settingRow{Name: string(a), Title: cat.T(p.Lang, "privacy."+string(a)+".title"), Help: cat.T(p.Lang, "privacy."+string(a)+".help")}
		for _, c := range Choices[a] {
			row.Choices = append(row.Choices, choice{Value: c, Label: cat.T(p.Lang, "privacy.choice."+c), Selected: c == current[a]})
		}
		rows = append(rows, row)
	}
	rating := set.ChallengeRating
	if rating == 0 {
		rating = 1500
	}
	p.Data = settingsData{Rows: rows, ChallengeRating: rating, Min: MinChallengeRating, Max: MaxChallengeRating, Blocks: blocks, Saved: saved, Kid: set.Kid}
	return s.kit.Render(w, status, "privacy", p)
}

func (s *Service) pageSaveSettings(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return formError()
	}
	var p store.Privacy
	for _, a := range []Action{Challenge, Message, Follow, SeeOnline} {
		v := r.PostFormValue(string(a))
		ok := false
		for _, c := range Choices[a] {
			ok = ok || c == v
		}
		if !ok {
			return apierr.BadRequest(apierr.CodeBadRequest, "privacy.err.choice", site.Excerpt(string(a)), site.Excerpt(v))
		}
		switch a {
		case Challenge:
			p.Challenge = v
		case Message:
			p.Message = v
		case Follow:
			p.Follow = v
		case SeeOnline:
			p.Online = v
		}
	}
	if p.Challenge == Rated {
		n, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("challenge_rating")))
		if err != nil || n < MinChallengeRating || n > MaxChallengeRating {
			return apierr.BadRequest(apierr.CodeBadRequest, "privacy.err.rating", MinChallengeRating, MaxChallengeRating)
		}
		p.ChallengeRating = n
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	if err := s.st.SetPrivacy(ctx, acc.ID, p); err != nil {
		return err
	}
	return site.Redirect(w, r, "/account/preferences/privacy?saved=1")
}

// pageBlock is POST /@/{name}/block and /unblock: from the profile page
// or the list of blocked users, back to where it was posted from.
func (s *Service) pageBlock(on bool) site.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		acc, err := s.account(r)
		if err != nil {
			return err
		}
		name := r.PathValue("name")
		ctx, cancel := ctxOf(r)
		defer cancel()
		u, err := s.st.UserByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "privacy.err.user", site.Excerpt(name))
		} else if err != nil {
			return err
		}
		if u.ID == acc.ID {
			return apierr.BadRequest(apierr.CodeBadRequest, "privacy.err.self")
		}
		if on {
			err = s.st.Block(ctx, acc.ID, u.ID)
		} else {
			err = s.st.Unblock(ctx, acc.ID, u.ID)
		}
		if err != nil {
			return err
		}
		back := "/@/" + url.PathEscape(u.Name)
		if r.PostFormValue("back") == "settings" {
			back = "/account/preferences/privacy"
		}
		return site.Redirect(w, r, back)
	}
}

// ---- kid mode ----

type kidData struct {
	Kid, Locked bool
	Error       string
	Classes     []store.Class // the classes the account coaches
}

func (s *Service) pageKid(w http.ResponseWriter, r *http.Request) error {
	return s.renderKid(w, r, http.StatusOK, "")
}

func (s *Service) renderKid(w http.ResponseWriter, r *http.Request, status int, errKey string) error {
	acc, err := s.account(r)
	if err != nil {
		return site.Redirect(w, r, "/login")
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	set, err := s.Settings(ctx, acc.ID)
	if err != nil {
		return err
	}
	coached, _, _, err := s.st.ClassesOf(ctx, acc.ID)
	if err != nil {
		return err
	}
	p := s.kit.Page(r, "privacy.kid.title", nil)
	d := kidData{Kid: set.Kid, Locked: set.KidLockedBy != 0, Classes: coached}
	if errKey != "" {
		d.Error = s.kit.Catalog().T(p.Lang, errKey)
	}
	p.Data = d
	return s.kit.Render(w, status, "kid", p)
}

// pageSetKid is POST /account/kid: on=1 switches kid mode on (free);
// on=0 switches it off with the password, unless a coach locked it.
func (s *Service) pageSetKid(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return formError()
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	on := r.PostFormValue("on") == "1"
	set, err := s.Settings(ctx, acc.ID)
	if err != nil {
		return err
	}
	if !on {
		if set.KidLockedBy != 0 {
			return s.renderKid(w, r, http.StatusForbidden, "privacy.kid.locked")
		}
		if err := s.checkPassword(ctx, r, acc.Name); err != nil {
			if errors.Is(err, auth.ErrRateLimited) {
				return s.renderKid(w, r, http.StatusTooManyRequests, "privacy.password.limited")
			}
			return s.renderKid(w, r, http.StatusForbidden, "privacy.password.wrong")
		}
	}
	if set.Kid != on {
		if err := s.st.SetKid(ctx, acc.ID, on, 0); err != nil {
			return err
		}
	}
	return site.Redirect(w, r, "/account/kid")
}

// checkPassword checks name's password from the form (auth's limits).
func (s *Service) checkPassword(ctx context.Context, r *http.Request, name string) error {
	if s.cfg.CheckPassword == nil {
		return auth.ErrBadCredentials
	}
	pw := r.PostFormValue("password")
	if pw == "" {
		return auth.ErrBadCredentials
	}
	return s.cfg.CheckPassword(ctx, name, pw, auth.ClientIP(r))
}

// pageLockClass is POST /account/kid/class/{id}: the coach locks kid
// mode on for the class's pupils (lock=1) or lifts his locks (lock=0).
func (s *Service) pageLockClass(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return formError()
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	_, err = s.st.LockClassKid(ctx, r.PathValue("id"), acc.ID, r.PostFormValue("lock") == "1")
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "privacy.err.class", site.Excerpt(r.PathValue("id")))
	} else if err != nil {
		return err
	}
	return site.Redirect(w, r, "/account/kid?class="+url.QueryEscape(r.PathValue("id")))
}

// ---- closing ----

type closeData struct {
	Error  string
	Closed bool
	Name   string
}

func (s *Service) pageClose(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.account(r); err != nil {
		return site.Redirect(w, r, "/login")
	}
	return s.kit.Render(w, http.StatusOK, "close", s.kit.Page(r, "privacy.close.title", closeData{}))
}

// pageDoClose is POST /account/close: with the password and the
// confirmation box, the account is closed and its browser logged out.
func (s *Service) pageDoClose(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.account(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return formError()
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	fail := func(status int, key string) error {
		p := s.kit.Page(r, "privacy.close.title", nil)
		p.Data = closeData{Error: s.kit.Catalog().T(p.Lang, key)}
		return s.kit.Render(w, status, "close", p)
	}
	if r.PostFormValue("confirm") != "1" {
		return fail(http.StatusBadRequest, "privacy.close.confirm_missing")
	}
	if err := s.checkPassword(ctx, r, acc.Name); err != nil {
		if errors.Is(err, auth.ErrRateLimited) {
			return fail(http.StatusTooManyRequests, "privacy.password.limited")
		}
		return fail(http.StatusForbidden, "privacy.password.wrong")
	}
	if _, err := s.close(ctx, acc.ID, acc.Name); err != nil {
		return err
	}
	// The session is gone from the store; the page is shown as to nobody.
	if s.cfg.ClearSession != nil {
		s.cfg.ClearSession(w)
	}
	p := s.kit.Page(r, "privacy.close.title", closeData{Closed: true, Name: acc.Name})
	p.User, p.Guest = "", false
	return s.kit.Render(w, http.StatusOK, "close", p)
}
