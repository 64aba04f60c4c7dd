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
//   - pages_test.go, on a site with two accounts, open seeks, a game being
//     played and a finished one, every page (the lobby, the editor of each
//     ruleset, import, login, sign-up, leaderboard, profile, challenge, the
//     two games, the error page, the offline engine game): TestPagesFitPhone fails when a document
//     is wider than a 360 px window; TestPagesVisibleText when a visible
//     text (text nodes, placeholder, aria-label, title, button values)
//     outside translate="no" is not a text of the page's language's catalog
//     (textMatcher, whose own test TestTextMatcher runs without a browser;
//     the languages are TOGUZ_E2E_TEXT_LANGS, default "en,kk");
//     TestPageScreenshots keeps page-<name>-<lang>-<width>.png for kk, ky,
//     ru and en at 1366 and 360 px; TestBoardReadyTime measures the time
//     from the navigation's start to board.js's performance mark
//     toguz:board-ready (the first board drawn, playable), under 300 ms.
//   - TestPageWeight (pageweight_test.go): what a browser with an empty
//     cache downloads to show the lobby (under 30 KB) and a game's page
//     for its player (under 60 KB), compressed as sent, from Chromium's
//     network events; the log lists each download with its coding. The
//     engine's wasm comes in brotli, under 950,000 bytes.
//   - TestModeration (moderation_test.go): a victim loses a rated game to a
//     cheater and reports him from the game's page; the role is granted
//     through the database while the server runs; the report reaches the
//     moderator's queue; the mark refunds the victim's points; the
//     cheater's next rated seek is neither listed to nor accepted by the
//     victim, while a marked account sees and accepts it. Screenshots
//     mod-{queue,account}-{en,kk}-{1366,360}.png.
//   - TestSeekTabs: the lobby's live list for a seek's creator (in a second
//     tab: cancel, never play) and for another player (play); a cancel, and
//     a creator who closed his tabs, take the seek off the list.
//   - TestHeaderControls: the colour scheme follows the system until the
//     header's switch overrides it; the language switcher acts on choosing.
//   - TestEditorRulesetAndFEN: the editor's ruleset control, a pasted FEN,
//     and the FEN shown as the position is edited.
//   - account_test.go, on a site whose mail goes to an SMTP server in the
//     test's process (internal/mail/smtptest): TestSignupEmailVerification
//     (sign-up with an address, the mail read from the server, its link
//     opened and confirmed); TestPasswordResetByMail ("Forgot your
//     password?" from the login page, the link by mail, the new password,
//     the other browser logged out, the link refused a second time);
//     TestSessionRevoke (one browser ends the other's session from
//     /account/security).
//   - engineweb_test.go, the engine in the browser: TestEngineWorker (the
//     WebAssembly build loads in its worker, answers the start's legal
//     moves exactly as the server does, gives a best move with MultiPV
//     lines depth by depth, and stops); TestOfflineGame (once the service
//     worker has kept the engine, /play-offline opens with the network cut,
//     plays a move and gets the engine's reply); TestEngineFallback (with
//     no WebAssembly the same client asks the server); and
//     TestEngineDepthInBrowser logs the depth reached in 1 s from the start.
//   - privacy_test.go, an account's privacy: TestKidMode (kid mode on
//     from its page, the chat gone from the lobby and a game, switching
//     it off refused without the password and taken with it);
//     TestCloseAccount (closing
//     with the confirmation and the password: logged out, the profile
//     closed, the game and the archive showing a neutral name, the login
//     refused); TestDataExport (the page's button downloads one zip, by
//     the browser's download, with the profile, the settings, the
//     ratings, the games as records and the reports).
//   - twofactor_test.go, on http://localhost (WebAuthn needs a domain):
//     TestTOTPLogin (TOTP turned on with the key read from the page, a
//     login's second step refusing a wrong code and taking the app's code,
//     then a recovery code); TestPasskeys (Chromium's virtual authenticator,
//     the DevTools WebAuthn domain: a passkey added, a password-less login,
//     the passkey as the second step, removed); TestTwoFactorPages (the
//     security pages, the login and its second step fit 360 px and speak
//     kk and en; their screenshots at 1366 and 360 px).
//   - oauth_test.go: TestOAuthApp, in kk and en: a third-party app (an httptest
//     server using golang.org/x/oauth2 with PKCE) sends a logged-out user to
//     /oauth; he logs in and is back on the consent page (its texts the
//     catalog's, 360 px wide at most, screenshots oauth-consent-<lang>-<width>.png),
//     approves; the app redeems the code and calls GET /api/account with its
//     token; /settings lists the app (oauth-settings-…png) and revoking it ends
//     the token.
package e2e
