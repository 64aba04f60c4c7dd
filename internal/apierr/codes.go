package apierr

import "net/http"

// Code is an error's stable code, for programs: the "code" of the API's
// error object and of the websockets' error messages (docs/api.md,
// "Error codes").
type Code string

// The codes of the live games, the lobby and the messages that reach them.
const (
	CodeBadRequest  Code = "bad_request"  // a request with a bad field
	CodeBadMessage  Code = "bad_message"  // a websocket message that is not one
	CodeForbidden   Code = "forbidden"    // not allowed to this person
	CodeNotFound    Code = "not_found"    // no such game or seek
	CodeRateLimited Code = "rate_limited" // too many messages, seeks or attempts
	CodeGuestRated  Code = "guest_rated"  // a guest wants a rated game
	CodeOwnSeek     Code = "own_seek"     // accepting one's own seek
	CodeSeekGone    Code = "seek_gone"    // the seek was accepted already
	CodeBadTC       Code = "bad_tc"       // a time control that cannot be played
	CodeBadLevel    Code = "bad_level"    // an engine level, or no engine
	CodeBadPosition Code = "bad_position" // a start position that is not one
	// CodeTooManyEngineGames: past the engine games one person or address
	// may have at once.
	CodeTooManyEngineGames Code = "too_many_engine_games"
	CodeTooManySeeks       Code = "too_many_seeks"      // past the open seeks one person or address may have
	CodeTooManySpectators  Code = "too_many_spectators" // past the spectators of a game or from an address

	CodeNotAPlayer    Code = "not_a_player"   // a spectator tried to play
	CodeNotInControl  Code = "not_in_control" // another connection of the player is in control
	CodeGameOver      Code = "game_over"      // the game has ended
	CodeStaleMove     Code = "stale_move"     // a move for a ply that has passed
	CodeDuplicateMove Code = "duplicate_move" // a move already played (sent again)
	CodeFuturePly     Code = "future_ply"     // a move for a ply not reached yet
	CodeNotYourTurn   Code = "not_your_turn"
	CodeIllegalMove   Code = "illegal_move"
	CodeCannotAbort   Code = "cannot_abort"  // too late to abort
	CodeCannotClaim   Code = "cannot_claim"  // the opponent has not been gone long enough
	CodeNoDrawOffer   Code = "no_draw_offer" // accepting a draw nobody offered
	CodeInternal      Code = "internal"      // the server's fault
	// CodeGameMoving: the game's node is changing (a node stopped or
	// died, another takes the game over) or did not answer in time: the
	// same request succeeds once it has (503, Retry-After).
	CodeGameMoving Code = "game_moving"
	// CodeStoreUnavailable: the database did not take a move (or an
	// ending, a takeback) and the game is as it was (the database is
	// restarting): the same request succeeds once it is back (503,
	// Retry-After).
	CodeStoreUnavailable Code = "store_unavailable"

	CodeChatEmpty       Code = "chat_empty"        // a chat message with no text
	CodeChatAnonymous   Code = "chat_anonymous"    // chatting with no identity (not even a guest's)
	CodeChatTooLong     Code = "chat_too_long"     // over live.MaxChatRunes
	CodeChatRateLimited Code = "chat_rate_limited" // past the chat rate of one's identity or address
	CodeNotOver         Code = "not_over"          // a rematch before the game has ended
	CodeNoOffer         Code = "no_offer"          // accepting or declining a rematch or takeback nobody offered
	CodeCannotTakeBack  Code = "cannot_take_back"  // a rated game, or no move of one's own to take back
	CodeChatMuted       Code = "chat_muted"        // a moderator has muted the account's chat
)

// The codes of accounts, sessions, bounds and the site's features.
const (
	CodeBadName         Code = "bad_name"
	CodeBadPassword     Code = "bad_password"
	CodeNameTaken       Code = "name_taken"
	CodeBadCredentials  Code = "bad_credentials"
	CodeUnauthenticated Code = "unauthenticated"
	CodeBadFormat       Code = "bad_format"
	CodeBusy            Code = "busy"      // the password hashing is full
	CodeTooLarge        Code = "too_large" // a body over its route's limit
	CodeBadGuestToken   Code = "bad_guest_token"
	// CodeCanceled answers a request whose client has gone: nobody reads
	// it, so it is not documented.
	CodeCanceled Code = "canceled"

	CodeGameInProgress Code = "game_in_progress" // 403: its analysis opens when it ends
	CodeAnalysisRate   Code = "analysis_rate_limited"

	CodeBadToken     Code = "bad_token"     // 401: no token, or one that does not exist
	CodeMissingScope Code = "missing_scope" // 403: the token lacks the scope
	CodeNotBot       Code = "not_bot"       // 403: the bot API for a person, the board API for a bot
	CodeNotYourGame  Code = "not_your_game" // 403: a game the token's user does not play
	CodeHasGames     Code = "has_games"     // 400: upgrading an account that has played
)

// GameCodes returns the codes a game's websocket sends to its players: those
// the board explains in the page's language.
func GameCodes() []Code {
	return []Code{CodeNotAPlayer, CodeNotInControl, CodeGameOver, CodeStaleMove, CodeDuplicateMove,
		CodeFuturePly, CodeNotYourTurn, CodeIllegalMove, CodeCannotAbort, CodeCannotClaim, CodeNoDrawOffer,
		CodeRateLimited, CodeBadMessage, CodeInternal,
		CodeChatEmpty, CodeChatTooLong, CodeChatRateLimited, CodeNotOver, CodeNoOffer, CodeCannotTakeBack, CodeChatAnonymous,
		CodeChatMuted, CodeGameMoving, CodeStoreUnavailable}
}

// LiveCodes returns the codes of the live games: GameCodes and those of
// the lobby, of creating a game and of the HTTP requests that reach them.
func LiveCodes() []Code {
	return append(GameCodes(), CodeBadRequest, CodeForbidden, CodeNotFound, CodeGuestRated, CodeOwnSeek,
		CodeSeekGone, CodeBadTC, CodeBadLevel, CodeBadPosition, CodeTooManyEngineGames, CodeTooManySeeks,
		CodeTooManySpectators)
}

// Codes returns every code an error of the site may carry.
func Codes() []Code {
	return append(LiveCodes(), CodeBadName, CodeBadPassword, CodeNameTaken, CodeBadCredentials,
		CodeUnauthenticated, CodeBadFormat, CodeBusy, CodeTooLarge, CodeBadGuestToken, CodeCanceled,
		CodeGameInProgress, CodeAnalysisRate, CodeBadToken, CodeMissingScope, CodeNotBot, CodeNotYourGame, CodeHasGames)
}

// Status returns the HTTP status of an error of code c that says nothing
// else: 400 unless the code says otherwise.
func Status(c Code) int {
	switch c {
	case CodeNotFound:
		return http.StatusNotFound
	case CodeForbidden, CodeGuestRated, CodeChatMuted:
		return http.StatusForbidden
	case CodeOwnSeek:
		return http.StatusConflict
	case CodeSeekGone:
		return http.StatusGone
	case CodeRateLimited, CodeTooManyEngineGames, CodeTooManySeeks, CodeTooManySpectators:
		return http.StatusTooManyRequests
	case CodeInternal:
		return http.StatusInternalServerError
	case CodeGameMoving, CodeStoreUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusBadRequest
}
