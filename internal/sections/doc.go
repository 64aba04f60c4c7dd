// Package sections runs events with sections: one championship of several
// sections (by sex, age and rating) in several disciplines (classic,
// rapid, blitz), each section its own over-the-board Swiss (the Dutch
// pairer of internal/tournament/dutch) or round robin (the Berger tables),
// up to MaxPlayers entries in all, run from one arbiter's desk.
//
//   - sections.go: the championship (Settings, Spec, Section, the log of
//     corrections), entries by federation id with the sections' limits
//     (sex, age on the start date's year, rating in the discipline), late
//     entries, withdrawals, byes requested in advance, the pairing of each
//     section's next round, results by board, team results of clubs or
//     federations across sections, the federation.Report of a discipline.
//   - desk.go: the Desk, which loads a championship, changes a copy and
//     writes it whole (port Store; a write that another came before fails,
//     so that nothing an arbiter entered is lost), the register it takes
//     players from (federation.Register), the report's submission.
//   - papers.go: the papers as PDFs through internal/papers: pairings,
//     standings, cross tables, score sheets of every board, certificates,
//     the rating report.
//   - teamswiss.go: a team Swiss section (FIDE C.04.6 through package
//     teamswiss): its teams from its players' clubs or federations, formed
//     at the first pairing, the boards match by match, the matches and the
//     team standings.
//   - web.go: /championships, a championship's page (its print style is
//     the paper), the arbiter's desk and its bulk results form, the API.
//
// Invariants: a section's IDs[i] is the federation id of start number
// i+1; a player is in at most one section of a discipline; a result
// changed after it was entered is in Log with who, when, before and
// after; Players holds the register's entry as it was when the player
// entered, so the papers print what the arbiter saw.
package sections
