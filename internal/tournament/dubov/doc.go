// Package dubov pairs a round of a Swiss event by the Dubov system, FIDE
// Handbook C.04.4.1 as approved by the Council on 28 October 2025 and
// applied from 1 February 2026, with the Basic Rules for Swiss Systems and
// the General Handling Rules it refers to.
//
// The Dubov system pairs players who met weak opposition so far (a low
// average rating of opponents, ARO) against the strongest of their score:
// in each bracket the White seekers, sorted by ascending ARO, meet the
// others in TPN order. There are no downfloaters: a bracket takes players
// from lower scores (upfloaters) until its residents are all paired.
//
// How the articles map to the code:
//
//	1.2 TPN ................................. Player.ID (the TRF start number, adapter.go)
//	1.3 scoregroups, brackets, residents .... engine.bracket (the highest score left)
//	1.6 colour preferences .................. preference (absolute, strong, mild; mild Black before a game)
//	1.7 ARO ................................. InputFor (played games only, rounded half up)
//	1.8 maximum upfloater, MaxT ............. maxT, InputFor (Upfloats, UpfloatedLast)
//	2.1 C1 no rematch, C3 absolute colours .. newEngine (compat)
//	    C2 no second bye .................... Player.ByeReceived, engine.bye
//	2.2 C4 completion of the round .......... the matchings span every player left (engine.upfloaters)
//	2.3 C5-C10 .............................. engine.upfloaters: one field each in the matching's weight
//	3.1 the pairing-allocated bye ........... engine.bye
//	3.2.1, 3.2.2 the upfloaters (order 4.2) . engine.upfloaters
//	3.2.3 G1 and G2 ......................... engine.pairBracket
//	3.2.4 shifts (order 4.3) ................ engine.pairBracket (shift), middleOut, sortGroup
//	3.2.5 S1 and the transpositions (4.4) ... engine.pairBracket
//	5.2 colour allocation ................... engine.colours
//	D.9 the order of the boards ............. PairRound
//
// # Invariants
//
//   - Every pair satisfies C1 and C3, no player gets a second bye (C2), and
//     the round is complete: everyone available is paired or has the bye,
//     or PairRound fails with ErrUnpairable.
//   - Each bracket's upfloaters are as few as its residents need (C5),
//     then best by C6-C10 (C8-C10 not in the last round), then the first
//     set in the order of 4.2 among the best; upfloaters never meet each
//     other, and the players left can always be paired.
//   - Within a bracket C7 (colour preferences granted) is at its best in
//     every step: the shifts and the transposition are the first in the
//     rules' orders among the pairings best by C7.
//   - The result depends on the input alone: the same input, the same
//     pairing.
//
// # How it is computed
//
// Each question "is there a pairing, best by the criteria, in which ...?"
// is one maximum-weight matching (wmatch.go, Galil's form of Edmonds'
// algorithm, with wide integer weights, wide.go) over the players it
// concerns. For the upfloaters that is every player left, so that C4 holds:
// a pair's weight holds C5 to C10 as fields, the most important highest,
// each wide enough for a whole pairing's sum, C6 and C9 one field per
// score difference and upfloat count so that their lists compare from the
// largest down; the lowest field is an incentive that tries one candidate
// upfloater at a time in the order of 4.2. (Where a weight of 384 bits
// cannot hold a C6 field for every score below, in events of hundreds of
// players over many rounds, the farthest scores share one: C6 does not
// tell upfloaters from those scores apart.) For the shifts and the
// transposition it is the bracket alone, with C7 above a field that counts
// the pairs crossing G1 and G2. reference_test.go pairs the same rounds by
// enumerating every pairing at each step, the rules read literally, and
// TestEngineMatchesReference compares the two on random tournaments.
package dubov
