// Package events runs tournaments on the site: Swiss (when a Swiss pairer,
// the Dutch system of internal/tournament/dutch, is connected), round
// robins single and double (the Berger tables), and arenas (continuous
// pairing for a fixed duration, lichess's points: 2 a win, 1 a draw,
// doubled on a streak of two wins, one more for a berserk win).
//
//   - events.go: Settings (ruleset, time control, rounds, start, rating
//     limits, sections by age and sex, the repetition rule, publication of
//     results), the Manager, create, join, withdraw. Every change is made
//     on a copy, written whole to the store (store.SaveEvent, one
//     transaction), and only then seen.
//   - run.go: the start, the pairing of each round with package tournament
//     once the round before has all its results, the games created on the
//     live hub with the event's clocks and repetition rule, the results
//     taken from the hub's OnEnd (an abort before a side moved is that
//     side's forfeit). After a restart SetGames creates the games of
//     stored pairings the store lacks and takes the results that ended
//     while nobody listened; the games themselves resume as live games do.
//   - arena.go: the arena's scoring and pairing waves (by score then
//     rating, no immediate rematch), berserk.
//   - arbiter.go: the arbiter's console (the creator and the arbiters he
//     names): results and corrections, forfeits, clock adjustments through
//     the live game's goroutine, re-pairing a round before it begins,
//     publication; each action logged in the store.
//   - web.go: the site's side (Web, its Routes): /events and its form,
//     /event/{id} with its live part (an ETag of what this viewer sees)
//     and its TRF, joining, withdrawing, berserk, the arbiter's console,
//     GET /api/events; APIError gives a refusal its HTTP status. A viewer
//     sees the results of the rounds published to him (shownRounds) on
//     the page, its live part, the TRF and the API alike.
package events
