-- Accounts people can trust (internal/account, internal/mail): an optional
-- e-mail address per account, the single-use links mailed for verifying an
-- address, resetting a password and changing the address, the sessions'
-- device, address and last use, the devices an account has logged in from,
-- and the outgoing mail's queue, kept here so that a restart loses no mail.

-- +goose Up
CREATE TABLE user_emails (
    user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    email       TEXT    NOT NULL,           -- as the user wrote it
    email_key   TEXT    NOT NULL,           -- lower-cased: several accounts may share an address
    verified_ms BIGINT  NOT NULL DEFAULT 0  -- 0: not verified
);
CREATE INDEX user_emails_key ON user_emails (email_key);

-- A link's token is never stored: only its SHA-256. A row is deleted when
-- its link is used, and swept when it expires.
CREATE TABLE account_links (
    token_hash TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL,            -- verify, reset, email_old, email_new
    email      TEXT    NOT NULL DEFAULT '', -- the address the link was sent to
    created_ms BIGINT  NOT NULL,
    expires_ms BIGINT  NOT NULL
);
CREATE INDEX account_links_user ON account_links (user_id, purpose);
CREATE INDEX account_links_expires ON account_links (expires_ms);

-- A change of address waits for both addresses' confirmations (the old one
-- only when it was verified).
CREATE TABLE email_changes (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    new_email  TEXT    NOT NULL,
    old_ok     INTEGER NOT NULL DEFAULT 0,
    new_ok     INTEGER NOT NULL DEFAULT 0,
    expires_ms BIGINT  NOT NULL
);

CREATE TABLE session_devices (
    token_hash   TEXT   PRIMARY KEY REFERENCES sessions (token_hash) ON DELETE CASCADE,
    device       TEXT   NOT NULL, -- from the User-Agent, short: "Firefox on Android"
    addr         TEXT   NOT NULL, -- the client's address at the last use
    last_seen_ms BIGINT NOT NULL
);

CREATE TABLE known_devices (
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device   TEXT    NOT NULL,
    first_ms BIGINT  NOT NULL,
    PRIMARY KEY (user_id, device)
);

CREATE TABLE mail_queue (
    id         INTEGER PRIMARY KEY,
    to_addr    TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_ms    BIGINT  NOT NULL, -- when to try next; a node sending it moves it past its lease
    created_ms BIGINT  NOT NULL,
    last_error TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX mail_queue_next ON mail_queue (next_ms);

-- +goose Down
DROP INDEX mail_queue_next;
DROP TABLE mail_queue;
DROP TABLE known_devices;
DROP TABLE session_devices;
DROP TABLE email_changes;
DROP INDEX account_links_expires;
DROP INDEX account_links_user;
DROP TABLE account_links;
DROP INDEX user_emails_key;
DROP TABLE user_emails;
