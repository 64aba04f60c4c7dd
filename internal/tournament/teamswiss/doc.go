// Package teamswiss pairs a round of a team event by FIDE's Swiss Team
// Pairing System, Handbook C.04.6 as approved by the Council on 28 October
// 2025 and applied from 1 February 2026, with the Basic Rules (C.04.1) and
// the General Handling Rules (C.04.2) it applies mutatis mutandis, less
// Basic Rules 6 and 7 (the individual colour limits).
//
// It is not the Dutch system with teams in the players' places: C.04.6 has
// its own criteria ([C1]-[C10]), its own bye and its own procedure, which
// takes the FIRST candidate of an order the rules define rather than the
// best under a ladder of weights. So it shares no search with
// internal/tournament/dutch; what the two share is C.04.1 and C.04.2 (no
// rematch, one bye, the board order), applied here to teams.
//
// How the rules map to the code:
//
//	1.1 TPN ............................ Team.ID (the competition numbers the teams)
//	1.2 primary and secondary score .... Team.Primary, Team.Secondary (adapter: match points, game points)
//	1.4 pairing-allocated bye .......... PairRound, engine.pab (the adapter scores it as a drawn match)
//	1.5 floater ........................ Team.Floated (the previous round)
//	1.6 colour, colour difference ...... Team.Colours (the first board's colour, matches played), preference
//	1.7 Type A, Type B, none ........... preference, Input.Preferences
//	[C1] no second meeting ............. compatible (Team.Opponents: matches played)
//	[C2] no second bye, none after a
//	     match won by forfeit .......... Team.ByeBarred, engine.pab
//	[C3] completion .................... engine.legal: a perfect matching (matching.go, Edmonds)
//	3.4 the bye: lowest score, most
//	    matches, largest TPN ........... engine.pab
//	3.5 upfloaters: [C4] fewest,
//	    [C5] best scores, [C6], [C7],
//	    3.5.4's order .................. engine.upfloaters, profiles, eachSet, c6, c7, cmpSets
//	3.6 bracket pairing: identifier
//	    order, [C1], [C8]-[C10] ........ engine.pairBracket, pairCost, bound
//	Article 4 colours .................. engine.firstTeam (4.2), engine.allocate (4.3.1-4.3.9)
//
// Invariants: every team present is paired once or gets the bye; no two
// teams meet twice ([C1]); the bye goes to a team [C2] allows; the teams
// left after each bracket can still be paired ([C3]); a round has a bye
// exactly when the teams present are odd. PairRound is deterministic: the
// same Input gives the same Pairing.
//
// Readings where the text leaves a choice (docs/tournaments.md says the
// same): 3.6.4 names the minimisations [C8]-[C10] as if they were
// predicates; the first pairing "complying" is the first in identifier
// order among those with the fewest violations ([C8], then [C9], then
// [C10]). 3.5.5 likewise takes the least [C6] excess, then the least [C7]
// count, then 3.5.4's order. [C6]'s "C4 complied with" is the following
// scoregroup's bracket needing no more upfloaters than its parity asks.
// 4.3.1's odd TPN counts the teams paired in this round or before (a team
// entering late has no number until it arrives, C.04.2 2.4), as the
// individual programs do for E.5. A team that had the bye did not float
// (1.5: a floater plays an opponent).
//
// The search: the bye and each upfloater set are checked with a
// maximum-cardinality matching ([C3]); a bracket's pairings are walked in
// identifier order with a matching check at every node, so the walk never
// enters a dead branch, and branch and bound on [C8]/[C9] (of the teams
// that want one colour, at most one a pair gets it) stops as soon as no
// pairing can beat the best found. Input.MaxNodes bounds the work;
// Pairing.BudgetHit says a search was cut short. TestReference compares
// PairRound with a plain enumeration of Articles 3.4-3.6 over random small
// events.
package teamswiss
