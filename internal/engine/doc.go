// Package engine is the toguz search: it finds the best move of a Toguz
// Kumalak position under time, depth or node limits.
//
// Search (search.go, engine.go):
//   - iterative deepening with MultiPV lines (Options.MultiPV);
//   - principal-variation search, fail-soft, with aspiration windows around
//     the previous iteration's score (Options.PVS, Options.Aspiration);
//   - a transposition table of 4-entry clusters, keyed by
//     toguz.Position.Key, lockless (each entry stores key^data, so a torn
//     write fails the check), shared by the threads (tt.go, Options.TT);
//   - move ordering: table move, captures by size (computed while making the
//     children, which search copies into per-ply arrays), two killers per
//     ply, history (Options.CaptureSort, Killers, History; History is off
//     by default, having lost its match: docs/engine-testing.md);
//   - quiescence search over capturing moves with delta pruning
//     (Options.Quiescence);
//   - late move reductions of quiet moves, reverse futility pruning near the
//     leaves (Options.LMR, Options.Futility);
//   - mate-distance scores for proven endings (Score, MateScore) from the
//     rules library's Outcome at finished positions, with mate distance
//     pruning; an endgame Tablebase is probed at every interior node (a
//     win it holds without a distance scores KnownWin less the stones left);
//   - Lazy SMP (smp.go): Options.Threads workers share the table; the
//     helpers skip depths by Stockfish's skip tables (Options.SMPSkip),
//     order quiet moves each their own way (SMPOrder) and put off the moves
//     another worker is searching (SMPDefer, after ABDADA); the main
//     worker owns the limits, and the worker that completed the deepest
//     iteration gives the answer (SMPVote). On one thread none of this
//     changes a node;
//   - time management (limits.go) for sudden death, Fischer increment,
//     moves to go and fixed time per move, plus depth and node limits;
//     cancelling ctx stops a search within about a thousand nodes.
//
// Evaluation (package eval): a linear function of integer features with
// weights learned by logistic regression on game results and self-play
// search scores (package train, `toguz tune`); Options.LearnedEval off gives
// the plain kazan difference. Options.Neural adds a small integer network
// (package neural) trained on the linear evaluation's residual.
// Options.RulesetEval plays a ruleset that has weights of its own
// (eval.ForRules, trained by `toguz tune -ruleset`) with them and without
// the network, which corrects the standard weights only.
//
// Strength levels (level.go): below MaxLevel the search is shallow and the
// move is drawn, from Options.Seed, among the root moves close to the best,
// never one that loses by force when another does not.
//
// A node allocates nothing: positions are 32-byte values made by copy-make
// into fixed per-ply arrays owned by each worker.
//
// The engine knows nothing of the site: the pools that play the live games'
// moves and the site's analyses are internal/enginepool's, so that this
// package (and the browser's WebAssembly build of it) imports no live code.
package engine
