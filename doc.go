// Package toguz is the rules of Toguz Kumalak (тоғызқұмалақ, тогуз коргоол),
// the two-player mancala of Central Asia, as the federations play it, and
// its notations. Everything else in the toguz system, from the engine to
// the web server, plays by this package.
//
// The rules are those of RULES.md: 2×9 holes of 9 stones, sowing from the
// emptied hole, even captures, the tuzdik, 82 wins, and atsyrau, where the
// player to move has no stone and his opponent collects his own side.
//
// # Index
//
//   - Rules: the parameters of a ruleset, and the named rulesets Standard,
//     Bestemshe, Seven and Pre1949; ParseRules reads their names.
//   - Position: a 32-byte comparable value. NewPosition and StartPosition
//     start a game, Setup describes any position and checks it.
//   - Move and MoveSet: a move is the number of the hole emptied; a MoveSet
//     is a bit set, so Position.LegalMoves never allocates.
//   - Position.Play checks and plays a move; Position.After and MakeMove
//     play a legal move without checking, for search.
//   - Position.Outcome: how the rules end a game (kazan, draw, atsyrau) and
//     the final score; Result and Termination name the results a record can
//     state, including resignation, time and agreement.
//   - ParseFEN and FormatFEN: the position string (PlayStrategy's FEN,
//     generalised to any board size).
//   - Score-sheet plies (notation.go): a Ply is the hole played, the hole the
//     last stone fell in and an x for a tuzdik ("76", "48x"); ParsePly reads
//     one, Position.Notation writes one, Position.PlayPly plays one and checks
//     its digits (NotationError).
//   - Game (game.go): a record with tags, rules, start position, plies with
//     kazan annotations and comments, recorded result and termination;
//     Game.Positions, Final and Outcome replay it and check every annotation.
//   - Record formats (record.go, playok.go, tgk.go, playstrategy.go):
//     ParseGames reads ours (FormatToguz, defined on Format), PlayOK PGN,
//     TGK and PlayStrategy move lists, and WriteGames writes them all;
//     DetectFormat tells them apart, and names the format of what any
//     writer wrote.
//   - Position.Diagram and ParseDiagram (diagram.go): the text board of the
//     seed documents.
//   - Key: a 64-bit hash of a position for tables and books.
//   - Perft and PerftBulk: move-path counts, the check of a move generator.
//   - ParseError: every parser's error, naming file, line, column, game and
//     ply.
package toguz
