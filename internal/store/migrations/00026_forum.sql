-- The forum (internal/forum): categories, topics, posts, the edits kept
-- for the moderators, and the posts' reports.
--
-- A category's row is made on its first use (the general one, one per
-- language, one per team: kind and ref say which). A topic's posts count
-- and last_ms are kept with each post written, so that a category's page
-- reads one row per topic. A post's search column is its text (and, for a
-- topic's first post, the title) in lower case as Go writes it, so that a
-- search finds Cyrillic text in any case on SQLite and PostgreSQL alike.
-- A hidden post is kept (its text for the moderators); forum_edits keeps
-- each text a post had before an edit.

-- +goose Up
CREATE TABLE forum_categories (
    id         TEXT    NOT NULL PRIMARY KEY, -- general, a language tag, team-<id>
    kind       TEXT    NOT NULL,             -- general, lang, team
    ref        TEXT    NOT NULL DEFAULT '',  -- the language or the team
    created_ms BIGINT  NOT NULL
);

CREATE TABLE forum_topics (
    id          INTEGER PRIMARY KEY,
    category_id TEXT    NOT NULL REFERENCES forum_categories (id),
    title       TEXT    NOT NULL,
    author_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    posts       INTEGER NOT NULL DEFAULT 0,
    locked      INTEGER NOT NULL DEFAULT 0,
    created_ms  BIGINT  NOT NULL,
    last_ms     BIGINT  NOT NULL
);
CREATE INDEX forum_topics_category ON forum_topics (category_id, last_ms);

CREATE TABLE forum_posts (
    id         INTEGER PRIMARY KEY,
    topic_id   INTEGER NOT NULL REFERENCES forum_topics (id) ON DELETE CASCADE,
    author_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body       TEXT    NOT NULL,
    search     TEXT    NOT NULL,
    hidden     INTEGER NOT NULL DEFAULT 0,
    created_ms BIGINT  NOT NULL,
    edited_ms  BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX forum_posts_topic ON forum_posts (topic_id, id);
CREATE INDEX forum_posts_author ON forum_posts (author_id, created_ms);

CREATE TABLE forum_edits (
    post_id   INTEGER NOT NULL REFERENCES forum_posts (id) ON DELETE CASCADE,
    body      TEXT    NOT NULL, -- the text before the edit
    edited_ms BIGINT  NOT NULL
);
CREATE INDEX forum_edits_post ON forum_edits (post_id, edited_ms);

CREATE TABLE forum_reports (
    post_id     INTEGER NOT NULL REFERENCES forum_posts (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    note        TEXT    NOT NULL DEFAULT '',
    open        INTEGER NOT NULL DEFAULT 1,
    created_ms  BIGINT  NOT NULL,
    PRIMARY KEY (post_id, reporter_id)
);
CREATE INDEX forum_reports_open ON forum_reports (open, created_ms);

-- +goose Down
DROP TABLE forum_reports;
DROP TABLE forum_edits;
DROP TABLE forum_posts;
DROP TABLE forum_topics;
DROP TABLE forum_categories;
