// Package burstein pairs a round of a Swiss event by the FIDE Burstein
// system, FIDE Handbook C.04.4.2 as approved on 13 April 2024 (applied with
// the Dutch rules of the same date), with the general rules of C.04.1 and
// C.04.2 it refers to.
//
// The system ranks the players of a bracket by an Index of the strength of
// their opposition and pairs the highest Index with the lowest, so that
// players on the same score end up with opposition as equal as possible.
// Its first rounds, the seeding rounds, are paired by the Dutch system.
//
// # How the rules map to the code
//
//	1.1 initial ranking list, C.04.2 .... the TRF start number (dutch.InputFor)
//	1.2 scoregroups and brackets ........ PairRound (brackets: residents and incoming floaters)
//	1.5 colour preferences .............. newPl (absolute, strong, mild, none)
//	1.6 seeding rounds (min(rounds/2, 4)) SeedingRounds; Pairer gives them to dutch.Pairer
//	1.7 Index: Buchholz, Sonneborn-Berger  InputFor (an unplayed round counts the player's
//	                                      own score; a late entry's zero-point byes count as
//	                                      draws for his opponents)
//	1.8 ranking: Index, then TPN ........ ranks
//	C1 no rematch, C3 absolute colours .. compatible
//	C2 the bye once, not after a
//	   forfeit win (C.04.1 art. 4) ...... Player.ByeReceived, chooseBye
//	C4 completion of the round .......... a maximum-cardinality matching of everyone left
//	C5-C8 quality criteria .............. the edges' weights (newLayout): a field per criterion
//	3.1 the pairing-allocated bye ....... chooseBye: C2, C4, lowest score, most games, lowest rank
//	3.2, 4 the first best pairing in the
//	   order of the BSNs ................ pairBracket: resident by resident in BSN order, the
//	                                      partner with the highest BSN among the best pairings
//	5.2 colour allocation ............... colourOf
//	5.3 board order ..................... boards
//
// # The search
//
// Every bracket is paired by maximum-weight matchings (dutch.MaxWeightMatching,
// Edmonds' blossom algorithm) over all the players still unpaired: a
// matching of maximum cardinality is a complete pairing of the round (C4),
// and the weights make the heaviest one the pairing that complies best with
// C5 (pairs in the bracket), C6 (the outgoing floaters' scores, a field
// per score), C7 (the next bracket's pairs, then the scores of the floaters
// it pairs) and C8 (pairs that grant both colour preferences). The order of
// 4 (BSN 1's opponent the highest BSN, then BSN 2's, ...) decides among
// the best: for each resident in turn the edges to the residents below him
// weigh their BSN difference in the lowest field, the matching is computed
// again and his partner (or his float) is fixed. TestAgainstReference
// checks the result against an enumeration of every candidate of every
// bracket as the articles word them.
//
// docs/tournaments-burstein.md says what is covered and what is not.
package burstein
