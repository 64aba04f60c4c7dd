-- The lessons of /learn an account has done: one row per exercise solved
-- (lesson/exercise, as package internal/lessons names them), with when.
-- The server stores only names of the course's exercises, so an account
-- has at most as many rows as the course has exercises.

-- +goose Up
CREATE TABLE lesson_progress (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    exercise   TEXT    NOT NULL,
    done_ms    BIGINT  NOT NULL,
    PRIMARY KEY (user_id, exercise)
);

-- +goose Down
DROP TABLE lesson_progress;
