// Package live runs the games being played: one goroutine per game owns its
// state, the server's clocks, the engine's turns, and the connections that
// play or watch it.
//
// # Index
//
//   - Hub: the live games. Create starts a game, Join connects a client,
//     Resume restarts, after a crash or a clean Stop, every game the store
//     holds as being played, with its clocks.
//   - Abandonment (abandon.go): when a game nobody plays is aborted; each
//     game's timer enforces it, and Resume aborts the games past it without
//     loading them.
//   - actor: the actor of one game (game.go). Every change (a move, a
//     resignation, a flag, a draw, an abort, a claim) happens on its
//     goroutine, so the rules library's Position needs no lock. Each ending
//     of docs/rules.md is detected with toguz.Position.Outcome after every move.
//   - Conn: one client. The newest connection of a player is in control;
//     older ones follow and may take control back. A connection that cannot
//     keep up is dropped; its client reconnects and resyncs by ply.
//   - Clocks: internal/clock (sudden death, Fischer increment, correspondence
//     days per move), owned by the game goroutine; they start with each
//     side's first move, and a flag is caught by a timer at the deadline.
//     The engine's clock is held while its search waits for a searcher
//     (maybeEngine) and charged from the search's start (engineDone).
//   - Engine games: at most Config.MaxEngineGames per person and
//     MaxEngineGamesPerAddr per client address at once (enginegames.go),
//     refused with CodeTooManyEngineGames.
//   - fanout (fanout.go): a game's spectators. The game hands it each
//     message once, with the spectators' state after it; its own goroutine
//     sends them in rounds, coalesces, answers spectators' syncs and drops
//     the slow, so that spectators never cost the game goroutine more than
//     one state encoding per message. Spectators per game and per client
//     address are bounded (Hub.JoinFrom).
//   - Lobby and Seek: open seeks and challenges by link, bounded per person
//     and per client address, expiring, and gone when their creator leaves
//     the lobby; watchers get the newest seeks once, then deltas.
//   - Around a game (social.go, chat.go): rematch once a game is over,
//     takeback by consent in casual games (the plies cut in the store,
//     then the position rebuilt by replaying the kept moves, as a restart
//     does; no time given back), the players' chat room (the game's
//     goroutine) apart from the spectators' (the fan-out's), the lobby's
//     room (LobbyChat), all bounded in length, rate and history; and
//     Hub.Games and Hub.TV, the games being played by rating.
//   - The bot API's actions (api.go): Hub.Act runs a player's message on the
//     game's goroutine without a connection (the same checks and
//     store-before-acknowledge as his socket), Hub.PlayPly a move written as
//     the score sheet writes it, Hub.GamesOf lists a player's games.
//   - Category: the rating category of a time control.
//   - The model (internal/game): a game's Spec, its Seats, Status, Ending,
//     Saved record, PlayedMove, Lease and EngineRequest are game's types,
//     shared with the store and the feature packages; live keeps the
//     behaviour.
//   - Store and Engine: what the package needs from the database and the
//     engine (consumer-side interfaces; the real ones are store.LiveStore
//     and enginepool.LivePlayer, which the tests use too).
//
// # Durability
//
// A move is stored (Store.AddMove returns) before it is applied, broadcast or
// acknowledged, and an ending before it is announced, so a client is never
// told of a move a crash can lose. A takeback removes the plies from the store
// before it changes the game or tells anyone. After a restart Resume replays the stored
// moves with the rules library and rebuilds the clocks: the player to move is
// charged until the server stopped (the instant Stop stored, or the last
// heartbeat after a crash) and only the downtime is forgiven.
//
// # Locking
//
// Hub.mu guards only the map of games; Lobby.mu only the seeks and lobby
// watchers; engineGames.mu only the counts of engine games (taken under
// Hub.mu by Hub.start, never the other way round); a fanout's mu only its
// queue of events and the spectators' chat room, which the game goroutine and
// the spectators' handlers append to without waiting on any spectator;
// LobbyChat.mu only the lobby's chat room and its watchers; the chat rate
// limiters (Config.ChatPerIdentity, ChatPerAddress) have locks of their own,
// taken alone. A rematch is created from the game goroutine through
// Hub.CreateFrom, which takes Hub.mu only briefly and never waits on a game;
// Hub.Games reads only the games' fixed specs, their atomic over flag and
// the fan-outs' counts. A game's fields belong to its goroutine and are reached through
// game.do; nothing is held while a message is sent, and messages to clients
// are queued without blocking.
package live
