-- The community between players (internal/notifications): the notices
-- each account was told, its choices of which kinds it wants and where,
-- its Web Push subscriptions, the players it follows, and the private
-- messages.
--
-- A notice names its text by a catalog key with its arguments as JSON
-- (each reader sees it in his own language); read_ms 0 is unread. An
-- account keeps its newest notices only (the store prunes the rest).
-- notify_prefs has a row only for a kind the account changed (no row: on
-- in the site and by push, off by mail).

-- +goose Up
CREATE TABLE notifications (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id   INTEGER NOT NULL DEFAULT 0,
    kind       TEXT    NOT NULL,
    msg_key    TEXT    NOT NULL,
    args       TEXT    NOT NULL DEFAULT '[]',
    url        TEXT    NOT NULL DEFAULT '',
    created_ms BIGINT  NOT NULL,
    read_ms    BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX notifications_user ON notifications (user_id, id);
CREATE INDEX notifications_unread ON notifications (user_id, read_ms);

CREATE TABLE notify_prefs (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    site    INTEGER NOT NULL DEFAULT 1,
    push    INTEGER NOT NULL DEFAULT 1,
    mail    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, kind)
);

CREATE TABLE push_subscriptions (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint   TEXT    NOT NULL UNIQUE,
    p256dh     TEXT    NOT NULL,
    auth       TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

CREATE TABLE follows (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE, -- who follows
    followed_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms  BIGINT  NOT NULL,
    PRIMARY KEY (user_id, followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id);

-- Private messages (internal/inbox): one-to-one, a conversation being the
-- messages between two accounts; addr is the sender's address key, for
-- the bound per address. message_reports marks a conversation one side
-- reported: the moderators may read it.
CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    sender_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipient_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body         TEXT    NOT NULL,
    addr         TEXT    NOT NULL DEFAULT '',
    created_ms   BIGINT  NOT NULL,
    read_ms      BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX messages_pair ON messages (sender_id, recipient_id, id);
CREATE INDEX messages_to ON messages (recipient_id, id);
CREATE INDEX messages_addr ON messages (addr, created_ms);

CREATE TABLE message_reports (
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    target_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms  BIGINT  NOT NULL,
    PRIMARY KEY (reporter_id, target_id)
);

-- +goose Down
DROP TABLE message_reports;
DROP TABLE messages;
DROP TABLE follows;
DROP TABLE push_subscriptions;
DROP TABLE notify_prefs;
DROP TABLE notifications;
