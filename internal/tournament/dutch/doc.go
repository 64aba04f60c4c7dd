// Package dutch pairs a round of a Swiss event by the FIDE (Dutch) system,
// FIDE Handbook C.04.3 as approved on 13 April 2024 and applied from 1 July
// 2025, with the general rules of C.04.1 and C.04.2 that it refers to.
//
// The pairing itself knows nothing of tournaments: its caller gives each
// player's pairing number, score, colour and float history, opponents met
// and bye status, and the round to pair (Input); adapter.go's Pairer, a
// tournament.Pairer, builds that Input from a tournament.Event (InputFor)
// and is what `toguz tournament pair --system dutch` uses. PairRound
// returns the boards, White first, and the bye (Pairing); Format writes them
// the way the FIDE-endorsed programs print a pairing with -p. Where the rules leave a choice to the arbiter (the colour drawn
// for round 1, who is absent or has a requested bye, the initial order of
// C.04.2) it is an input.
//
// # How the rules map to the code
//
// The criteria keep the numbers C1-C21 the rules give them; the articles
// are cited with the 2025 numbering where it exists (1.x: definitions) and
// the letters the programs' literature uses for the pairing process (B: the
// process, D: transpositions and exchanges, E: colours).
//
//	1.1 initial ranking list, C.04.2 ........ InputFor: Player.ID is the TRF start number
//	1.2 order: score, then pairing number ... newEngine (sort), engine.higher
//	1.3 scoregroups, brackets, residents .... engine.run (groups), pairBracket
//	1.3.4 remainder ......................... bctx.searchHet -> bctx.searchRem
//	1.4.1 downfloaters and MDPs ............. engine.run (mdps = the bracket's downfloaters)
//	1.4.2, 1.4.3 floats ..................... InputFor fills Player.Floats; bctx.addPair, bctx.addDown
//	1.5 pairing-allocated bye, C.04.1 ....... engine.restrictBye (the lowest score that completes the round),
//	                                          then the last bracket's unpaired player; engine.completable (dummy vertex)
//	1.6 colour difference and preferences ... preference (absolute, strong, mild, none)
//	1.7 topscorers (last round, > 50%) ...... newEngine (pl.top)
//	B.1 MaxPairs, M1 ........................ pairBracket (maxMatching, bipartiteGreedy)
//	B.2 S1, S2, Limbo ....................... bctx.searchHet (S1 = M1 MDPs), bctx.searchRem (S1 = first N1)
//	B.3-B.7 candidates in the rules' order .. searchHet: D.3 exchanges, D.1 MDP-pairing transpositions,
//	                                          then searchRem: D.2 exchanges, D.1 transpositions
//	B.8 no perfect candidate: the best,
//	    earliest among equals ............... the quality vector (less) and bctx.leaf's acceptance rule
//	C1 no rematch ........................... newEngine (compat from Opponents)
//	C2 no second bye, no bye after a win's
//	   points without play (C.04.1 art. 4) .. Player.ByeReceived -> pl.byeOK -> engine.completable
//	C3 non-topscorers with the same absolute
//	   colour preference do not meet ........ newEngine (compat)
//	C4 completion of the round .............. engine.completable, checked for every candidate kept
//	C5 maximise the pairs ................... pairBracket (p from MaxPairs down)
//	C6 minimise the PSD ..................... vector segment h6 (bctx.addPair, bctx.addDown); m1 from M1 down
//	C7, C8 the next bracket's pairs and PSD,
//	       within complete pairings ......... bctx.actualC7 (bctx.bracketC7, else bctx.exactC7:
//	                                          maxWeightMatching); bounds bctx.idealC7, bctx.bestC7;
//	                                          segments o7, h8
//	C9 unplayed games of the bye's receiver . segment o9 (bctx.leaf: the last bracket's unpaired player, or a
//	                                          bracket's one downfloater with the bye's score); bound bctx.byeBound
//	C10, C11 topscorers' colour limits ...... bctx.addPair (allocate, pl.afterGame)
//	C12, C13 colour preferences, strong ones  bctx.addPair; bounds c12Bound, globalBound
//	C14-C17 same float as 1 and 2 rounds ago  bctx.addPair (MDP pairs), bctx.addDown (downfloaters, the bye)
//	C18-C21 their score differences ......... segments h18 (bctx.addPair, bctx.addDown)
//	D.1 transpositions ...................... the DFS in searchHet and searchRem (S2 in BSN order)
//	D.2 exchanges in homogeneous brackets ... forExchanges, exchangesK
//	D.3 exchanges between S1 and the Limbo .. forExchanges over the MDPs (same comparison rules)
//	collapsed last bracket .................. pairBracket (collapsed: all its players, homogeneous)
//	E.1-E.5 colour allocation ............... engine.allocate (E.5's numbers: pl.tpn, Player.PairedBefore)
//	C.04.2 board order ...................... engine.boards
//
// # The search
//
// A candidate's quality is one vector of integers compared
// lexicographically (bracket.go): each criterion C5-C21 is one segment in
// the order of priority, and the lists the rules compare (the PSD of C6 and
// C8, the score differences of C18-C21) are histograms from the largest
// difference down, which compares them as the rules' lists sorted in
// descending order. The candidates are generated in the rules' order and
// the best one is kept, an earlier one winning a tie, so the result is the
// candidate B.8 chooses. Branch and bound makes this fast: every partial
// candidate has a lower bound (its criteria so far, the best the next
// bracket could do for C7/C8, counting bounds for C12 and C13; in a
// search past 20,000 nodes and within a per-round budget, an assignment
// problem over C10-C21 solved by the Hungarian method, assign.go; where
// the completion binds C7/C8, a
// maximum-weight matching of the players a node leaves, nodeC7), a greedy
// dive finds a good candidate first, and a subtree whose bound cannot beat
// the best is skipped. TestPruningMatchesExhaustiveSearch checks that the
// pruned search chooses what the exhaustive one does. Input.MaxNodes bounds
// the work per bracket; Stats.BudgetHits says when it cut a search short,
// which none of the 2,000 random events of the tests nor the 500-player
// benchmark does.
//
// C7 and C8 count the next bracket's pairs within complete pairings of the
// round (C4), as the matching-based programs do. The next bracket alone is
// the answer when one of its best pairings leaves players the lower
// brackets can complete (one cardinality matching); otherwise a
// maximum-weight matching over the rest of the round computes it
// (wmatch.go, weights in the criteria's order). Once that happens in a
// search, one more such matching over the bracket and the rest gives the
// best C7/C8 of all its candidates, which then bounds every node, so that
// the search prunes as before. A per-round budget bounds those matchings
// (Stats.C7Approx counts what it left to the next bracket alone). TestSameAsBbpPairings replays 33 rounds that bbpPairings,
// a FIDE-endorsed program, paired, and gets each the same; TestReplayTRFDir
// replays a directory of TRF files paired by such a program (62 of 62 rounds
// of nine bbpPairings events with draws, forfeits and byes); TestOracle
// compares with bbpPairings itself, built outside the repository, over
// thousands of generated rounds both ways (TOGUZ_ORACLE names its binary).
//
// docs/tournaments-dutch.md says what is covered and what is not.
package dutch
