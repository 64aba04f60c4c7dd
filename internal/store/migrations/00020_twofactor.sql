-- The second factor of an account (internal/twofactor): its TOTP secret,
-- its recovery codes, its passkeys (WebAuthn credentials), the logins and
-- ceremonies under way, and its recent wrong codes.
--
-- totp.secret is sealed by internal/twofactor (AES-256-GCM under a key kept
-- beside the database, not in it, for SQLite); confirmed is 0 until the
-- first code is right; last_step is the 30-second step of the last code
-- accepted, so that no code is accepted twice. recovery_codes keep only a
-- hash of each code; used_ms is 0 until it is used. twofactor_pending holds
-- the hash of a token the browser carries (a login waiting for its second
-- step, or a WebAuthn ceremony's challenge), deleted when used or expired.

-- +goose Up
CREATE TABLE totp (
    user_id    INTEGER NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret     BLOB    NOT NULL,
    confirmed  INTEGER NOT NULL DEFAULT 0,
    last_step  BIGINT  NOT NULL DEFAULT 0,
    created_ms BIGINT  NOT NULL
);

CREATE TABLE recovery_codes (
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT    NOT NULL,
    used_ms   BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE passkeys (
    id            INTEGER PRIMARY KEY,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id BLOB    NOT NULL UNIQUE,
    name          TEXT    NOT NULL,
    credential    TEXT    NOT NULL, -- the WebAuthn credential record as JSON
    created_ms    BIGINT  NOT NULL,
    used_ms       BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX passkeys_user ON passkeys (user_id);

CREATE TABLE twofactor_pending (
    token_hash TEXT    PRIMARY KEY, -- hex SHA-256 of the token; the token itself is never stored
    kind       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL DEFAULT 0, -- 0: a password-less login, whose user is not known yet
    data       BLOB    NOT NULL,
    expires_ms BIGINT  NOT NULL
);
CREATE INDEX twofactor_pending_expires ON twofactor_pending (expires_ms);

CREATE TABLE twofactor_failures (
    user_id   INTEGER NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    window_ms BIGINT  NOT NULL, -- when the current window began
    failures  INTEGER NOT NULL
);

-- +goose Down
DROP TABLE twofactor_failures;
DROP TABLE twofactor_pending;
DROP TABLE passkeys;
DROP TABLE recovery_codes;
DROP TABLE totp;
