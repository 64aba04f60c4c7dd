// Package toguz is the rules of Toguz Kumalak (тоғызқұмалақ, тогуз коргоол),
// the two-player mancala of Central Asia, as the federations play it, and
// its notations. Everything else in the toguz system, from the engine to
// the web server, plays by this package.
//
// The rules are those of docs/rules.md: 2×9 holes of 9 stones, sowing from the
// emptied hole, even captures, the tuzdik, 82 wins, and atsyrau, where the
// player to move has no stone and his opponent collects his own side.
//
// # Index
//
//   - Rules: the parameters of a ruleset, and the named rulesets Standard(),
//     Bestemshe(), Seven() and Pre1949() (functions, so that no package can
//     change them for the others); ParseRules reads their names.
//   - Position: a 32-byte comparable value. NewPosition and StartPosition
//     start a game, Setup describes any position and checks it. Methods
//     that read a position take it by value (StartPosition().LegalMoves()
//     works); MakeMove, which changes it, takes a pointer.
//   - Move and MoveSet: a move is the number of the hole emptied; a MoveSet
//     is a bit set, so Position.LegalMoves never allocates.
//   - Position.Play checks and plays a move; Position.After and MakeMove
//     play a legal move without checking, for search.
//   - Position.Outcome: how the rules end a game (kazan, draw, atsyrau) and
//     the final score; Result and Termination name the results a record can
//     state, including resignation, time and agreement.
//   - ParseFEN and FormatFEN: the position string (PlayStrategy's FEN,
//     generalised to any board size); FullMove gives a game's move number.
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
//     writer wrote. A GameReader reads them from an io.Reader one game at
//     a time, in memory bounded by one game (MaxGameBytes), however large
//     the file; errors quote at most a short excerpt of the bad text.
//   - Tree (tree.go): a game with its variations, comments and marks
//     (Node, Mark); ParseTrees reads them from our format, PGN-style
//     ( … ) variations nested, and WriteTrees writes them back; the other
//     formats hold only the main line (Tree.MainLine).
//   - Position.Diagram and ParseDiagram (diagram.go): the text board of the
//     seed documents; Position.DiagramNamed adds a legend of the holes'
//     traditional names (given by the caller: package internal/i18n has
//     them in each language).
//   - Key: a 64-bit hash of a position for tables and books; Repetitions
//     and Game.Repetition count a game's positions by it for an event's
//     repetition draw (the Nth occurrence, off by default).
//   - Perft and PerftBulk: move-path counts, the check of a move generator.
//   - ParseError: every parser's error, naming file, line, column, game and
//     ply.
//
// # Notations and record formats
//
// docs/rules.md §6 lists the notations in use; this package reads all of them
// and writes all but PlayOK's.
//
// The score sheet (Ply, ParsePly, Position.Notation, Position.PlayPly):
// each ply is two digits, the hole played and the number of the hole where
// the last stone fell, on either side (the side is not written), then x
// when the move made a tuzdik (X, х and Х are read too): "76", "48x".
// Plies are numbered in pairs, White's then Black's: "1. 76 98", "5. 48 36x".
//
// The position string, PlayStrategy's FEN (FormatFEN, ParseFEN):
// "NORTH/SOUTH K1 K2 TURN FULLMOVE". NORTH is Black's holes from the last
// down to 1, SOUTH White's from 1 up, cells separated by commas: "<n>S" for
// n stones, a digit d for d empty holes in a row, "t" for a tuzdik (owned by
// the other row's player). K1 and K2 are White's and Black's kazans, TURN is
// S (White) or N (Black), FULLMOVE counts from 1 and grows after each of
// Black's plies (FullMove). The start:
//
//	9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1
//
// A Position does not know its move number; Position.FEN writes 1, and the
// position of a game in progress is written with FormatFEN(p, g.FullMove()).
//
// Game records (ParseGames, WriteGames, DetectFormat; Format documents ours
// in full):
//   - Ours (FormatToguz, files .tgn): PGN with score-sheet plies. Tag pairs
//     [Name "Value"], of which Ruleset, FEN, Result and Termination have a
//     meaning; numbered plies, each optionally followed by the mover's kazan
//     total "87(10)", a mark (! ? !! ?? !? ?!) and a {comment}; variations
//     ( … ) after a ply (read by ParseTrees; ParseGames keeps the main
//     line); a result token 1-0, 0-1, 1/2-1/2 or *. What the writer writes
//     reads back to an equal Game.
//   - PlayOK PGN (FormatPlayOK, read only): PGN tags and the same plies;
//     exactly the plies that capture carry the mover's kazan total, and
//     {zero} after the result marks an atsyrau ending (MarkingPlayOK); both
//     are checked.
//   - TGK, the Master app's files (FormatTGK): PGN-like tags (White, Black,
//     WhiteTime, BlackTime, WhiteELO, BlackELO, Start, Date, Event, Site,
//     ID, …), a blank line and one numbered pair of plies per line, with no
//     kazan totals, comments or result token. Only standard games from the
//     start can be written.
//   - PlayStrategy move lists (FormatPlayStrategy): each move is two
//     squares, the hole emptied and the hole of the last stone: "e1f2".
//     Files run a.. from White's left; rank 1 is White's row (White's hole k
//     is file k), rank 2 Black's (Black's hole k is file Holes+1-k). Moves
//     are separated by spaces, optionally after tag pairs as in ours and
//     before a result token (Position.PlayStrategyMove,
//     Position.ParsePlayStrategyMove).
//   - The board diagram of the seeds (Position.Diagram, ParseDiagram): Black's
//     row on top, White's below, each followed by its owner's kazan.
package toguz
