// Package culture is the pages that teach the game beside the lessons:
// /rules (the federation rules as docs/rules.md settles them, for
// players), /history (the game's names, history, competitions, variants,
// hole names and family, from the seeds) and /key (seed 000's board
// arithmetic, its steps by internal/abacus), with the seeds' examples
// drawn by package svg at /learn/diagram/{name}.svg.
//
// Every statement on them is a fact with its source: a seed file's line
// or a section of docs/rules.md, and a few words of the source's own text
// that a test finds on that line, so nothing on the pages is invented and
// a translator can check each against its source. The pages show players
// the work a seed is by name (an encyclopedia article, Mancala World) with
// its words, in the Latin alphabet on kk-Latn pages, and cite nothing for
// what only the project's settled rules state: never the project's files. The drawings are
// computed from the positions, never drawn by hand, and the tests play
// the seeds' moves to reach them. Nothing here is stored.
package culture
