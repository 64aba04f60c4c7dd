// Package twofactor is an account's second factor and its passkeys: TOTP
// (RFC 6238, github.com/pquerna/otp) with single-use recovery codes, and
// WebAuthn passkeys (github.com/go-webauthn/webauthn), which serve both as
// the second step of a password login and as a login without a password
// (discoverable credentials). Its pages are /account/twofactor (lichess's
// path) and /account/passkeys; the second step of a login is
// POST /login/twofactor and its API POST /api/login/twofactor.
//
// # How a login goes
//
// internal/server checks the password, then asks Gate: an account with a
// confirmed TOTP secret or a passkey gets no session but a Needed error,
// which carries a login ticket (a random token, only its hash stored,
// valid five minutes). The page shows the second step; the API answers
// {"second_factor": true, "ticket": …}. The second step (a TOTP code, a
// recovery code, or an assertion of one of the account's passkeys) sent
// with the ticket consumes the ticket and only then calls Config.Login,
// which starts the session. A password-less login asks the browser for
// any passkey of this site (a discoverable credential) and requires user
// verification (a PIN or a biometric on the authenticator), which makes
// the passkey two factors by itself.
//
// # Invariants
//
//   - No session exists for an account with a second factor before its
//     second step succeeded.
//   - A TOTP code is accepted once: the store keeps the time step of the
//     last code accepted and accepts only later steps (a single
//     conditional update, so two nodes racing on one code accept it once).
//     Codes of the step before and after now are accepted (clock skew).
//   - A recovery code is accepted once; the store keeps only its SHA-256
//     (the codes have 50 random bits, so a hash without salt does not make
//     them guessable); they are shown once, when made: with TOTP, or with
//     the first passkey of an account without TOTP. They serve any second
//     factor and are deleted with the last one.
//   - Every wrong code counts against its account: after MaxFailures in
//     FailureWindow the account's second step is refused, right or wrong,
//     until the window ends (and a login ticket is needed at all, so the
//     password must be known to try).
//   - A WebAuthn challenge serves once (its pending row is taken), expires
//     after five minutes, and is bound to its purpose and account.
//
// # Threat model
//
// Protected against: a stolen or guessed password (the second factor is
// asked for before any session); a code read over the shoulder or from a
// log (replay refused); guessing codes (MaxFailures per account; 10⁶
// codes); a copy of the database without the key file (the TOTP secrets
// are sealed with AES-256-GCM under Config.Key, bound to their account, so
// a row copied to another account does not open; the key lives beside an
// SQLite database, not in it, as the guest key does); phishing for
// passkeys (the browser binds a credential to this site's RP ID and the
// server checks the origin of every ceremony against Config.Origin);
// a cloned authenticator (a signature counter that goes back is refused).
//
// Not protected against: an attacker with the server's key file and its
// database (he reads the secrets: the TOTP protocol needs the secret
// itself); with PostgreSQL and no key file, the key is kept in the
// database (secrets table) so that every node shares it, and a copy of the
// whole database then holds both; malware on the user's device; recovery
// codes the user stores badly. An attacker who holds only the user's
// session (a computer left logged in) cannot add a factor (enrolling TOTP
// or a passkey asks for the password), nor remove TOTP (a code or the
// password), but can remove a passkey, which weakens the account without
// opening it to him. Someone who knows the password can spend the
// account's MaxFailures and so hold its owner's second step (passkeys
// included) for FailureWindow: the price of bounding the guesses per
// account rather than per address, which a botnet would not feel.
package twofactor
