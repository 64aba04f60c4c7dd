-- PostgreSQL: the twin of ../00006_studies.sql (same number, same tables).
-- Studies (internal/study): a coach's shared chapters, each a board with
-- its move tree stored as a record of our format (variations, comments,
-- marks, and marked holes and arrows in the comments), the members the
-- owner invited with their roles; and classes: a coach's students, each
-- invited by name and counted once he accepts. The server bounds the rows
-- of each (studies per owner, chapters per study, members, students).

-- +goose Up
CREATE TABLE studies (
    id          TEXT    PRIMARY KEY,
    owner_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    visibility  TEXT    NOT NULL CHECK (visibility IN ('public', 'unlisted', 'private')),
    created_ms  BIGINT  NOT NULL
);
CREATE INDEX studies_owner ON studies (owner_id);

CREATE TABLE study_members (
    study_id    TEXT    NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        TEXT    NOT NULL CHECK (role IN ('editor', 'viewer')),
    PRIMARY KEY (study_id, user_id)
);
CREATE INDEX study_members_user ON study_members (user_id);

CREATE TABLE study_chapters (
    study_id    TEXT    NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    record      TEXT    NOT NULL,
    PRIMARY KEY (study_id, idx)
);

CREATE TABLE classes (
    id          TEXT    PRIMARY KEY,
    coach_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    created_ms  BIGINT  NOT NULL
);
CREATE INDEX classes_coach ON classes (coach_id);

CREATE TABLE class_students (
    class_id    TEXT    NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    accepted    INTEGER NOT NULL DEFAULT 0,
    invited_ms  BIGINT  NOT NULL,
    PRIMARY KEY (class_id, user_id)
);
CREATE INDEX class_students_user ON class_students (user_id);

-- +goose Down
DROP TABLE class_students;
DROP TABLE classes;
DROP TABLE study_chapters;
DROP TABLE study_members;
DROP TABLE studies;
