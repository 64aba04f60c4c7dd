package botapi

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

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
			return "", tokenJSON{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.bad_scope", site.Excerpt(sc), strings.Join(Scopes, ", "))
		}
		if !slices.Contains(clean, sc) {
			clean = append(clean, sc)
		}
	}
	t, hash := NewToken()
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	id, err := a.st.AddToken(ctx, account.ID, hash, description, clean)
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
// → the token, shown this once. A form is OAuth 2's token request, which
// the TokenEndpoint answers: it carries no session's authority.
func (a *API) apiCreateToken(w http.ResponseWriter, r *http.Request) error {
	if a.oauth != nil && IsFormBody(r) {
		return a.oauth(w, r)
	}
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
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.not_yours", site.Excerpt(r.PathValue("id")))
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

// ---- the tokens on the settings page ----

// TokenSection is the settings page's tokens section.
type TokenSection struct {
	On     bool // the server has the bot API
	Tokens []tokenJSON
	Scopes []string
	New    string // the token just made, shown this once
	Error  string
}

// TokenSection returns the tokens section of the settings page of user
// uid: his tokens (never the tokens themselves) and the scopes to choose.
func (a *API) TokenSection(ctx context.Context, uid int64) TokenSection {
	st := TokenSection{On: a.st != nil, Scopes: Scopes}
	if st.On {
		st.Tokens, _ = a.listTokens(ctx, uid)
	}
	return st
}

// pageCreateToken is POST /settings/tokens: the settings page again, with
// the new token shown once.
func (a *API) pageCreateToken(w http.ResponseWriter, r *http.Request) error {
	acct, err := a.sessionAccount(r)
	if err != nil {
		return site.Redirect(w, r, "/login")
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	t, _, err := a.createToken(r.Context(), acct, r.PostFormValue("description"), r.PostForm["scope"])
	sec := TokenSection{}
	if err != nil {
		ae := a.kit.AsError(r, err)
		sec.Error = a.kit.Message(r, ae)
	}
	sec.New = t
	return a.settings(w, r, acct, sec)
}

// pageRevokeToken is POST /settings/tokens/{id}/revoke.
func (a *API) pageRevokeToken(w http.ResponseWriter, r *http.Request) error {
	acct, err := a.sessionAccount(r)
	if err != nil {
		return site.Redirect(w, r, "/login")
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err := a.st.RevokeToken(r.Context(), acct.ID, id); errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.not_yours", site.Excerpt(r.PathValue("id")))
	} else if err != nil {
		return err
	}
	return site.Redirect(w, r, "/settings#tokens")
}

// IsFormBody reports whether r's body is a form
// (application/x-www-form-urlencoded), as OAuth 2's token requests are.
func IsFormBody(r *http.Request) bool {
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	return strings.EqualFold(strings.TrimSpace(ct), "application/x-www-form-urlencoded")
}
