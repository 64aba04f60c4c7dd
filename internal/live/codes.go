package live

// Code is a stable error code of the API (docs/api.md, "Error codes"): the
// code of an Error, of the websockets' error messages and of the HTTP
// API's error answers.
type Code string

// The codes of the live games, the lobby and the messages that reach them.
// internal/server adds those of its own (accounts, sessions, exports).
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
	// CodeTooManyEngineGames refuses an engine game to a person, or an
	// address, already playing the most the server allows at once.
	CodeTooManyEngineGames Code = "too_many_engine_games"

	CodeTooManySeeks      Code = "too_many_seeks"      // past the open seeks one person or address may have
	CodeTooManySpectators Code = "too_many_spectators" // past the spectators of a game or from an address

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

	CodeChatEmpty       Code = "chat_empty"        // a chat message with no text
	CodeChatAnonymous   Code = "chat_anonymous"    // chatting with no identity (not even a guest's)
	CodeChatTooLong     Code = "chat_too_long"     // over MaxChatRunes
	CodeChatRateLimited Code = "chat_rate_limited" // past the chat rate of one's identity or address
	CodeNotOver         Code = "not_over"          // a rematch before the game has ended
	CodeNoOffer         Code = "no_offer"          // accepting or declining a rematch or takeback nobody offered
	CodeCannotTakeBack  Code = "cannot_take_back"  // a rated game, or no move of one's own to take back
)

// GameCodes returns the codes a game's websocket sends to its players: those
// the board explains in the page's language.
func GameCodes() []Code {
	return []Code{CodeNotAPlayer, CodeNotInControl, CodeGameOver, CodeStaleMove, CodeDuplicateMove,
		CodeFuturePly, CodeNotYourTurn, CodeIllegalMove, CodeCannotAbort, CodeCannotClaim, CodeNoDrawOffer,
		CodeRateLimited, CodeBadMessage, CodeInternal,
		CodeChatEmpty, CodeChatTooLong, CodeChatRateLimited, CodeNotOver, CodeNoOffer, CodeCannotTakeBack, CodeChatAnonymous}
}

// Codes returns every code of the package: GameCodes and those of the
// lobby, of creating a game and of the HTTP requests that reach them.
func Codes() []Code {
	return append(GameCodes(), CodeBadRequest, CodeForbidden, CodeNotFound, CodeGuestRated, CodeOwnSeek,
		CodeSeekGone, CodeBadTC, CodeBadLevel, CodeBadPosition, CodeTooManyEngineGames, CodeTooManySeeks,
		CodeTooManySpectators)
}
