// Package tablebase solves the endgames of Toguz Kumalak exactly: every
// position with up to N stones left on the board, with and without
// tuzdiks, either side to move, under every split of the kazans, for the
// standard game (N ≤ 12), Bestemshe (2×5, no tuzdik, N ≤ 30) and the 2×7
// board (N ≤ 15); not for the older sowing, which the unplaying of moves
// (frame.parents) does not know.
//
// # Index
//
//   - Solve computes the standard tables in memory, SolveWith any
//     ruleset's; Generate writes them to a file (`toguz tablebase
//     generate -ruleset R -stones N`), with a checkpoint per layer so that
//     a stopped generation resumes; Open and Parse read one back.
//   - Tables.ProbeWDL: the result under best play (win, draw, loss).
//   - Tables.ProbeDTM: the result and the plies to the end, up to
//     DistanceStones() stones on the board.
//   - The engine's search asks ProbeDTM and ProbeWDL (engine.Tablebase) and
//     makes the answers scores (engine.TablebaseScore).
//   - Set holds the tables of several rulesets and answers each probe from
//     the table of the position's own ruleset, never another's; OpenSet
//     reads a file, or a directory's table of the most stones per ruleset
//     (a ruleset without one is simply not in the set). The server, the
//     engine's TablebasePath and the match referee use it.
//   - Tables.Value: the two stored counts, below.
//   - Verify checks tables against an independent reference solver
//     (`toguz tablebase -verify FILE`).
//
// None of the probes allocates.
//
// # What is stored, and why it is exact
//
// Take a position with k stones on the board, the side to move holding a in
// his kazan and his opponent b = 162 − k − a. No move depends on the
// kazans: they only decide when the game ends. (The standard game's
// figures follow; the other rulesets are the same with their own total T
// and winning score W = T/2 + 1: 50 and 26 in Bestemshe, 98 and 50 on the
// 2×7 board.) Kazans never shrink, so a
// player who reaches 82 has won whatever follows (the other cannot reach 82
// too), and the game ends right then; at atsyrau the player not to move adds
// his own side to his kazan and the counts decide. So the side to move wins
// exactly when he can make sure to collect, in a finite number of moves,
// the r = 82 − a stones he lacks (captures, tuzdik captures, stones sown
// into his tuzdik, and his side at an atsyrau he is not stuck in), whatever
// the opponent does; he loses exactly when the opponent can make sure to
// collect the 82 − b he lacks; and the game is a draw otherwise: 81–81, or
// play that goes on for ever without a winner (quiet moves can cycle, and
// repetition is not a rule by default, docs/rules.md §3). These are reachability
// games with additive gains, so what a player can force is a threshold. For
// each board (stones, tuzdiks, side to move) the table stores
//
//	a(B) = the most stones the side to move can make sure to collect,
//	d(B) = the most stones his opponent can make sure to collect,
//
// the least solution of a(B) = max over moves (gain_me + d(B′)),
// d(B) = min over moves (gain_opp + a(B′)), with a = 0, d = k at atsyrau.
// Then the side to move wins when a(B) ≥ 82 − a, loses when d(B) ≥ 82 − b,
// and draws otherwise, for every kazan split at once; both cannot hold, as
// (82 − a) + (82 − b) = k + 2 > k ≥ a(B) + d(B). The two counts, at most
// N each, fit a byte when N ≤ 15: a in the low nibble, d in the high one;
// deeper tables (Bestemshe's) take two bytes, a then d. (The
// best final margin under play-out rules would not do: a cycle has no final
// margin, and the kazan split decides whether a cycle is a draw or comes
// after a win.)
//
// The distances (ProbeDTM) depend on the split, through r: for each board
// and each r in 1..k+1 one byte holds the plies to the end under best play,
// the winner ending the game as soon as he can and the loser holding out as
// long as he can (the end being the move that brings the winner's kazan to
// 82, or the atsyrau position). They are stored for up to M ≤ N stones.
//
// # Solving
//
// A move never adds stones to the board, so the layers (k stones) are solved
// from k = 0 up; moves that capture leave the layer for one already solved.
// Inside a layer, quiet moves (no capture, nothing sown into a tuzdik) can
// cycle, so each layer is solved as a game on a graph: for each threshold X
// from k down to 1, the positions with a ≥ X and with d ≥ X are found as
// attractors, following quiet moves backwards (frame.parents unplays them)
// with a count of unresolved quiet moves per position for the minimizing
// side; every position enters each set once. Distances are solved the same
// way per need r, in increasing distance with a bucket queue. The values'
// passes all run on every CPU: the moves that leave the layer over chunks of
// positions, and each threshold's attractor a round at a time (the workers
// follow back the positions the last round placed), with each count claimed
// by a compare-and-swap of its word so that a position enters a set once
// whoever finds it; the result does not depend on the order
// (TestWorkersAgree). The distances' bucket queue runs on one CPU.
//
// The tests check every value and distance against a plain solver of the
// whole game graph (the rules library's positions and moves, kazans and all,
// won/lost/drawn by the textbook fixed point, distances level by level) on
// random positions of every tuzdik configuration and every kazan split.
//
// # Index of positions
//
// Positions are stored from the side to move's view (White's holes are the
// mover's), so a position with Black to move is looked up with the sides
// swapped. The standard board has 73 tuzdik configurations (none; one of 8
// holes for one player; both, on different hole numbers), the 2×7 board 43,
// Bestemshe one; the stones of a board are ranked among the k-stone boards
// of its configuration's free holes (18 less the tuzdiks) in the
// combinatorial number system (stars and bars), a perfect index: layer k
// has C(k+17, 17) + 16·C(k+16, 16) + 56·C(k+15, 15) positions (Bestemshe:
// C(k+9, 9)). The file (file.go) is a 56-byte header naming the ruleset,
// the values, the distances and a CRC-32C, written to a temporary file and
// renamed (package atomicfile). A generation with a checkpoint directory
// (checkpoint.go) writes each layer there the same way as soon as it is
// solved, values and distances apart, and reads back instead of solving
// again whatever it finds there; a layer depends on nothing but the layers
// below it, so the checkpoints of N stones serve N+1 too.
//
// # Size and generation time
//
// Values take one byte per position (two above 15 stones), distances k+1
// bytes per position of layer k. docs/engine.md has the figures of the other
// rulesets; the standard game's:
//
//	stones N   positions    values     distances up to N
//	4            374,395    0.37 MB      1.8 MB
//	6          5,928,076    5.9 MB      39 MB
//	7         19,747,156     20 MB     150 MB
//	8         60,053,851     60 MB     513 MB
//	9        169,086,225    169 MB     1.6 GB
//	10       445,560,830    446 MB     4.6 GB
//
// Measured on the 2-core development machine while other jobs loaded it
// (load average 14–20), so the CPU times are the figures to go by, the wall
// times being 3–5 times what an idle machine takes:
//
//	command                         CPU (user+sys)   wall   peak memory    file
//	toguz tablebase -dtm -1 6             3.3 s       20 s       48 MB    5.9 MB
//	toguz tablebase -dtm -1 7              13 s       53 s      116 MB     20 MB
//	toguz tablebase -dtm -1 8              43 s      143 s          –     60 MB
//	toguz tablebase -dtm 6 6               22 s      100 s      153 MB     45 MB
//	toguz tablebase -dtm 7 7               80 s      288 s      532 MB    170 MB
//	toguz tablebase -dtm 7 9              236 s     1090 s      1.0 GB    319 MB
//	toguz tablebase 9 (-dtm 8, default)   373 s      664 s      1.9 GB    682 MB
//	toguz tablebase -dtm -1 10            347 s      575 s      2.2 GB    446 MB
//
// The last two ran at a lower load (1–13). With -dtm 8, the values took 246 s
// of wall time (layer 9: 122 s) and the distances 416 s (layers 7 and 8:
// 130 s and 249 s). The distances cost far more than the values, so they
// stop lower; probing beyond them gives the result but not the distance
// (ProbeWDL; the engine scores a won position there engine.KnownWin less
// the stones on the board). Each generated file was checked
// against the reference on every position reachable from 24 random
// positions of its top three layers (Verify; `toguz tablebase -verify FILE`).
package tablebase
