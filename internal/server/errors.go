package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/account"
	"github.com/toguz/toguz/internal/analysisboard"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/archive"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/broadcast"
	"github.com/toguz/toguz/internal/culture"
	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/explorer"
	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/forum"
	"github.com/toguz/toguz/internal/friends"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/inbox"
	"github.com/toguz/toguz/internal/lessons"
	"github.com/toguz/toguz/internal/moderation"
	"github.com/toguz/toguz/internal/notifications"
	"github.com/toguz/toguz/internal/oauth"
	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/profile"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/simul"
	"github.com/toguz/toguz/internal/study"
	"github.com/toguz/toguz/internal/team"
	"github.com/toguz/toguz/internal/tv"
	"github.com/toguz/toguz/internal/twofactor"
)

// message returns e's message in the language of r.
func (s *Server) Message(r *http.Request, e *apierr.Error) string {
	return apierr.Message(s.cat, s.Lang(r), e)
}

// errorKeys lists the catalog key of every message the server's errors
// may have, for the test that finds each in every language.
func errorKeys() []string {
	keys := []string{
		"apierr.no_endpoint", "apierr.no_page", "apierr.accounts_off", "apierr.unauthenticated",
		"apierr.no_seek", "apierr.bad_tc", "apierr.bad_ruleset", "apierr.bad_level",
		"apierr.game_over_position", "apierr.bad_color", "apierr.no_game",
		"apierr.bad_format",
		"apierr.form_unreadable", "apierr.too_large", "apierr.forged_guest",
		"apierr.bad_lang",
		"apierr.not_whole", "apierr.no_challenge", "apierr.cancel_forbidden", "apierr.rate_limited",
		"apierr.internal", "apierr.canceled", "apierr.json_empty", "apierr.json_bad", "apierr.json_trailing",
		"apierr.ws_rate", "apierr.ws_binary", "apierr.ws_not_json", "apierr.ws_lobby_ping",
		"account.name_taken", "account.bad_credentials", "account.rate_limited", "account.busy",
		"account.bad_name", "account.bad_password",
		"apierr.no_lobby_chat", "apierr.ws_lobby_chat", "apierr.report_identity", "apierr.no_reports",
		"apierr.bad_room",
		"apierr.report_room_game", "apierr.report_user", "apierr.report_text",
	}
	keys = append(keys, lessons.ErrorKeys()...)
	keys = append(keys, puzzle.ErrorKeys()...)
	keys = append(keys, culture.ErrorKeys()...)
	keys = append(keys, events.ErrorKeys()...)
	keys = append(keys, review.ErrorKeys()...)
	keys = append(keys, analysisboard.ErrorKeys()...)
	keys = append(keys, study.ErrorKeys()...)
	keys = append(keys, team.ErrorKeys()...)
	keys = append(keys, explorer.ErrorKeys()...)
	keys = append(keys, archive.ErrorKeys()...)
	keys = append(keys, botapi.ErrorKeys()...)
	keys = append(keys, broadcast.ErrorKeys()...)
	keys = append(keys, simul.ErrorKeys...)
	keys = append(keys, profile.ErrorKeys()...)
	keys = append(keys, tv.ErrorKeys()...)
	keys = append(keys, privacy.ErrorKeys()...)
	keys = append(keys, twofactor.ErrorKeys()...)
	keys = append(keys, account.ErrorKeys()...)
	keys = append(keys, moderation.ErrorKeys()...)
	keys = append(keys, oauth.ErrorKeys()...)
	keys = append(keys, forum.ErrorKeys()...)
	keys = append(keys, federation.ErrorKeys()...)
	keys = append(keys, notifications.ErrorKeys()...)
	keys = append(keys, friends.ErrorKeys()...)
	keys = append(keys, inbox.ErrorKeys()...)
	keys = append(keys, "apierr.cross_origin")
	for _, k := range ruleErrorKeys {
		keys = append(keys, k)
	}
	for _, k := range rulesKeys {
		keys = append(keys, k.key)
	}
	keys = append(keys, "rules.other", "rules.illegal_hole", "where.line", "where.column", "where.game", "where.ply", "where.list")
	for _, c := range apierr.Codes() {
		keys = append(keys, "err."+string(c))
	}
	for _, k := range closeKeys {
		keys = append(keys, k)
	}
	return keys
}

// ---- accounts ----

// ruleErrorKeys are the messages of auth's rules for names and passwords.
var ruleErrorKeys = map[auth.Rule]string{
	auth.RuleNameUTF8:       "account.name.utf8",
	auth.RuleNameLength:     "account.name.length",
	auth.RuleNameStart:      "account.name.start",
	auth.RuleNameChar:       "account.name.char",
	auth.RuleNameGuest:      "account.name.guest",
	auth.RuleNameClosed:     "account.name.closed",
	auth.RulePasswordShort:  "account.password.short",
	auth.RulePasswordLong:   "account.password.long",
	auth.RulePasswordIsName: "account.password.name",
}

// accountError turns the errors of Accounts into the API's, their
// messages naming the rule a name or a password breaks.
func accountError(err error) error {
	for _, c := range []struct {
		err    error
		status int
		code   apierr.Code
		key    string
	}{
		{ErrBadName, http.StatusBadRequest, apierr.CodeBadName, "account.bad_name"},
		{ErrBadPassword, http.StatusBadRequest, apierr.CodeBadPassword, "account.bad_password"},
		{ErrNameTaken, http.StatusConflict, apierr.CodeNameTaken, "account.name_taken"},
		{ErrBadCredentials, http.StatusUnauthorized, apierr.CodeBadCredentials, "account.bad_credentials"},
		{ErrRateLimited, http.StatusTooManyRequests, apierr.CodeRateLimited, "account.rate_limited"},
		{ErrBusy, http.StatusServiceUnavailable, apierr.CodeBusy, "account.busy"},
	} {
		if !errors.Is(err, c.err) {
			continue
		}
		e := apierr.New(c.status, c.code, c.key)
		var re *auth.RuleError
		if errors.As(err, &re) {
			if k, ok := ruleErrorKeys[re.Kind]; ok {
				e.Key, e.Args = k, re.Args
			}
		}
		return e
	}
	return err
}

// ---- the rules library ----

// rulesKeys maps the rules library's sentinels to messages, the most
// specific first (an IllegalMoveError after the game's end wraps both
// ErrIllegalMove and ErrGameOver).
var rulesKeys = []struct {
	err error
	key string
}{
	{toguz.ErrTooLarge, "rules.too_large"},
	{toguz.ErrGameOver, "rules.game_over"},
	{toguz.ErrIllegalMove, "rules.illegal"},
	{toguz.ErrNotation, "rules.notation"},
	{toguz.ErrPosition, "rules.position"},
	{toguz.ErrRules, "rules.ruleset"},
	{toguz.ErrUnwritable, "rules.unwritable"},
	{toguz.ErrSyntax, "rules.syntax"},
}

// where is the place in a record or position string an error points at.
type where struct{ Line, Column, Game, Ply int }

// text is " (line 3, game 2, ply 7)" in lang, or "" when nothing is known.
func (w where) Text(c *i18n.Catalog, lang string) string {
	var parts []string
	for _, p := range []struct {
		key string
		n   int
	}{{"where.game", w.Game}, {"where.line", w.Line}, {"where.column", w.Column}, {"where.ply", w.Ply}} {
		if p.n > 0 {
			parts = append(parts, c.T(lang, p.key, p.n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return c.T(lang, "where.list", strings.Join(parts, ", "))
}

// rulesError is the API error of an error of the rules library: code and
// status as given, the message chosen by the sentinel the error wraps,
// with the place it points at (line, column, game, ply; the hole of an
// illegal move). The library's own text, English, is the detail.
func rulesError(status int, code apierr.Code, err error) *apierr.Error {
	var w where
	detail := err.Error()
	var pe *toguz.ParseError
	if errors.As(err, &pe) {
		w = where{pe.Line, pe.Column, pe.Game, pe.Ply}
		detail = pe.Msg
		if pe.Err != nil && !isSentinel(pe.Err) {
			detail += ": " + pe.Err.Error()
		}
	}
	key := "rules.other"
	for _, k := range rulesKeys {
		if errors.Is(err, k.err) {
			key = k.key
			detail = strings.TrimPrefix(detail, k.err.Error()+": ")
			break
		}
	}
	e := &apierr.Error{Status: status, Code: code, Key: key, Args: []any{w}, Detail: detail}
	var ie *toguz.IllegalMoveError
	if errors.As(err, &ie) && key == "rules.illegal" {
		e.Key, e.Args, e.Detail = "rules.illegal_hole", []any{int(ie.Move), w}, ie.Reason
	}
	return e
}

func isSentinel(err error) bool {
	for _, k := range rulesKeys {
		if err == k.err {
			return true
		}
	}
	return false
}
