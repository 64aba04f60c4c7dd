// Package doubleswiss pairs one round of a Double-Swiss tournament by FIDE's
// Double-Swiss Pairing System (C.04.5, approved 28/10/2025, applied from 1
// February 2026). Every pairing is a match of two games with alternating
// colours; this package pairs the matches and says who has White in the
// first game. It knows nothing of events or files: package tournament reads
// an event into an Input (tournament.DoubleSwissPairer) and writes the match
// as two rounds of the file.
//
// The regulation, article by article, and where it is:
//
//   - 0 (Preface): a match is forfeited only when a player forfeits both
//     games; only then may the two meet again. Player.Opponents holds the
//     opponents of the matches that were not forfeited. Byes are for matches.
//   - 1.2 (Order): score, then TPN ascending (rank, in pair.go).
//   - 1.3 (Scoregroups, brackets): a bracket is the top scoregroup of the
//     players still to pair (the residents) and upfloaters from lower
//     scoregroups; it is even and paired whole.
//   - 1.5 (Floaters): a player paired against a different score is a floater
//     (Player.Floated: in the previous round).
//   - 1.6 (Colours): a player had a colour in a match when at least one of its
//     games was played; the colour is the first game's (Player.Colours, one
//     entry a match, None otherwise).
//   - [C1] no two players meet twice; [C2] no pairing-allocated bye for a
//     player who had one, won a match by forfeit or had a full-point bye
//     (Player.NoBye); [C3] completion: the players not yet paired can all
//     be paired by [C1]. There is no colour criterion.
//   - [C4] fewest upfloaters; [C5] the upfloaters' scores as high as they can
//     be (the scores sorted from the highest, compared in that order); [C6]
//     the next scoregroup's bracket can be paired with the fewest
//     upfloaters its size allows (none when even, one when odd); [C7]
//     fewest upfloaters who floated in the previous round; [C8] fewest
//     upfloaters' opponents who floated in the previous round.
//     [C7] and [C8] do not apply in the last round (Input.LastRound).
//   - 3.4 (the bye): before any bracket, to the player who may have it
//     ([C2]) and leaves the others pairable ([C3]): the lowest score, then
//     the most matches played, then the largest TPN.
//   - 3.5 (upfloaters): for the top scoregroup, the first set, in the
//     regulation's order (each set sorted by score descending then TPN,
//     the sets compared by TPN), of those that satisfy [C3] to [C7] in turn.
//   - 3.6 (the bracket): the pairing whose identifier (the top members' TPNs
//     ascending, then their opponents' in the same order; the top member of
//     a pair is the higher ranked) comes first, among those that satisfy
//     [C1] and [C8].
//   - 4.3 (colours): if neither player had a colour, the higher ranked
//     player gets the initial colour when his TPN is odd, the other when it
//     is even; else White to the one with fewer Whites; else both alternate
//     from the latest match in which their colours differed; else the higher
//     ranked player alternates from his last colour; else his opponent does.
//     4.4: White in the first game is Black in the second.
//
// Invariants: Pair returns each player of the input exactly once (one of a
// match, or the bye), never a pair of players who met ([C1]), never the bye
// to a player barred by [C2]; when it returns ErrUnpairable no pairing
// satisfies [C1] to [C3]. The result depends only on the input (no
// randomness, no map order).
//
// How: perfect matchings in general graphs (Edmonds' blossom algorithm,
// match.go) decide [C3] and prune the searches in the regulation's orders,
// so the first candidate found in each order is the regulation's; a slow
// reference in the tests (reference_test.go) enumerates every set and every
// pairing, sorts them by the criteria and checks this package on random
// tournaments.
//
// Readings where the text leaves room (docs/tournaments.md says the same):
// "upfloater" is a bracket member from a lower scoregroup; in [C6] the next
// scoregroup is the highest score among the players left after the
// bracket, and [C6] is met or not (as the TEC's reference engine reads the
// same words of the Swiss team system, C.04.6), not a count;
// [C8] counts the residents paired with an upfloater (not two upfloaters
// paired together); the pairing-allocated bye is not a float.
package doubleswiss
