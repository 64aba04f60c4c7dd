// Package book is the opening book: the moves strong players chose in the
// first plies of their games, with how often and how well, for the engine
// to play instantly and with variety instead of searching.
//
// Features:
//   - Building (Builder): games from record files (masters, PlayOK, with a
//     weight per source) and from self-play (SelfPlay); per position, keyed by
//     toguz.Position.Key, each move's weighted count and wins, draws and
//     losses for the mover. Options.MaxPly keeps the opening only,
//     Options.MinCount only well-trodden moves, and an optional engine check
//     (Options.Check) drops moves that lose badly and records their value.
//   - The file (Write, WriteFile, Read, Open): a header with a version, the
//     rules and a CRC-32C of everything, then the positions sorted by key
//     (each stored whole, so a key collision can never answer for another
//     position) and their moves. WriteFile replaces the file atomically; Read
//     rejects truncated, corrupt or inconsistent data with ErrCorrupt.
//   - Lookup (Book.Moves, Book.Pick): a binary search by key and a check of
//     the whole position, without allocation. Pick chooses the best-scoring
//     move (Best) or a count-weighted random one among the good moves
//     (Varied), from a random source the caller passes in.
//   - The default book (Default): built from the 2018 master games with
//     `toguz book build` and embedded in the binary.
//   - Every ruleset's book (Set, DefaultSet): the standard game's and the
//     self-play books of Bestemshe and the 2×7 board (`toguz book build
//     -ruleset R -selfplay N`), embedded too; a Set answers a position from
//     its own ruleset's book only, so the engine is given them all at once.
package book
