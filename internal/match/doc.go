// Package match plays engines that speak the toguz engine protocol
// (docs/protocol.md) against each other and judges the games by the rules
// library alone, as cutechess-cli does for chess. `toguz match` is its
// command.
//
// # Index
//
//   - Run plays a match of Config: two EngineSpecs (a command line, setoption
//     pairs, a TimeControl), an opening suite played twice per opening with
//     colours swapped, concurrency, adjudication, an SPRT that stops the
//     match when it decides, records and a progress bar. It returns a Report:
//     win/draw/loss and pair (pentanomial) counts, Elo ± 95%, LLR.
//   - The referee: each move is checked with toguz.Position.Play and each game
//     ends by Position.Outcome; an illegal or malformed bestmove, a crash or a
//     silent engine loses (ByAdjudication), and so does a clock that runs out
//     beyond Config.TimeMargin (ByTime). Adjudication: a move limit (draw),
//     agreed resigning scores, a Referee such as a tablebase, and an event's
//     repetition draw (the Nth occurrence of a position, toguz.Repetitions).
//   - TimeControl and ParseTimeControl: cutechess-cli's tc=MOVES/SECONDS+INC,
//     plus fixed time per move, depth or nodes.
//   - Config.Openings: the positions to start from (package openings has
//     the default suite).
//   - Game.WriteRecord: the toguz record format of the root package, with the
//     opening as FEN and the reason of the ending.
//   - Statistics: Elo and ExpectedScore, EloFromCounts (95% interval from the
//     trinomial variance), SPRT with Bounds, Decide and the generalized LLR on
//     trinomial or pentanomial counts (LLRTrinomial, LLRPentanomial, as
//     fishtest computes them), LLRNormal (its normal approximation).
package match
