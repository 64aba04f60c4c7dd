// Package tournament runs over-the-board and offline events as the
// federations do, on FIDE's rules, and moves them in and out of FIDE's
// Tournament Report File. What is where:
//
//   - event.go: Event, Player (the fields of a TRF 001 line, birth date and
//     Age for sections), Entry (a round: opponent, colour, TRF result code
//     1 0 = + - W D L H F U Z), Scoring (1/½/0 and the byes' points that
//     C.04.1 leaves to the event), results as the arbiter types them
//     (SetResult: wins, draws, forfeits, the double forfeit), requested half-
//     and zero-point byes (RequestBye, written into the round before it is
//     paired, the pairing programs' convention), withdrawals, late entries
//     (AddPlayer), Apply (a round's pairs, with checks).
//   - berger.go: round robin and double round robin by the Berger tables of
//     C.05 Annex 1 (the dummy for an odd count, colours reversed in the
//     second cycle, the first cycle's last two rounds swapped), and the
//     Pairer interface every system satisfies: the event in, the next
//     round's pairs out, Black 0 for the bye. The Dutch Swiss system lives in
//     internal/tournament/dutch and plugs in through PairerFor; the Swiss for
//     teams (C.04.6) lives in internal/tournament/teamswiss, which reads a
//     team event's teams from its TRF (013, XXT) and pairs the boards.
//   - doubleswiss.go: the Double-Swiss system (C.04.5): a match is two
//     rounds of the file, the second the first reversed; DoubleSwissPairer
//     reads the event into package doubleswiss's input, match by match;
//     byes requested for a whole match; a file's matches checked.
//   - knockout.go: knock-out matches of N games with tie-break stages
//     (rapid, blitz, armageddon), a seeded bracket with byes.
//   - pairs.go: a round's pairs as the FIDE-endorsed programs print them
//     with -p (the count, then "white black" lines, 0 for the bye).
//   - tiebreak.go: Standings with C.07's tie-breaks in the event's order:
//     DE, WIN, WON, BPG, BWG, GE, BH, SB (cut and median), ARO, PS, KS, with
//     C.07 art. 16's handling of unplayed rounds (the opponents' adjusted
//     scores, the dummy opponent).
//   - trf.go: TRF-16 read and write, XXR/XXC and toguz's own XX lines;
//     errors name the line, the column and the field.
//   - elo.go: the FIDE rating change of each player (table 8.1(b), the
//     400-point rule, K 40/20/10) and the CSV for a federation's list.
//   - print.go: pairings and standings as printable HTML and as CSV.
//
// docs/tournaments.md describes the command `toguz tournament` built on it.
package tournament
