// Package e2e holds the browser test of the toguz server: headless
// Chromium (Debian's package) driven by github.com/chromedp/chromedp plays
// on the real server, started in the test's process with a fresh SQLite
// database.
//
// The test runs only when TOGUZ_E2E=1 (CI's .ci/run sets it after
// `apt-get install -y chromium`); otherwise it is skipped with the reason.
// Its screenshots of the board go to the directory named by
// TOGUZ_E2E_ARTIFACTS (a temporary directory when unset). TOGUZ_CHROMIUM
// names the browser binary when it is not `chromium` on PATH.
//
//   - TestTwoPlayers: two users sign up in separate browser contexts, one
//     creates a rated seek, the other accepts it in the lobby, and they play
//     a whole game by clicking holes; the result must appear in both
//     profiles' histories and both ratings must change.
//   - TestEngineGame: a user plays the engine (level 1) by clicking, to the
//     end of the game.
package e2e
