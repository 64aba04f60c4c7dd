-- PostgreSQL: the twin of ../00025_teams.sql (same number, same tables).
-- Clubs and teams (internal/team): a team with its members and their
-- roles, the requests to join one, the invitations, and the log of the
-- writes each account is bounded by per day.
--
-- join_mode: open (anyone joins), request (a leader or coach accepts),
-- invite (only the invited join). role: leader, coach, member; a team
-- always has a leader while it has members. members is the count of
-- team_members' rows, kept by the same transactions, so that /team sorts
-- by it. class_id is the class (internal/study) the team was made of, ''
-- for none. team_writes holds one row per bounded write (kind: create,
-- request, invite, message), pruned after a day.

-- +goose Up
CREATE TABLE teams (
    id          TEXT    NOT NULL PRIMARY KEY,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    join_mode   TEXT    NOT NULL DEFAULT 'open',
    class_id    TEXT    NOT NULL DEFAULT '',
    created_by  BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms  BIGINT  NOT NULL,
    members     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX teams_members ON teams (members, created_ms);
CREATE INDEX teams_class ON teams (class_id);

CREATE TABLE team_members (
    team_id   TEXT    NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id   BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role      TEXT    NOT NULL DEFAULT 'member',
    joined_ms BIGINT  NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id);

CREATE TABLE team_requests (
    team_id    TEXT    NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    message    TEXT    NOT NULL DEFAULT '',
    created_ms BIGINT  NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_requests_user ON team_requests (user_id);

CREATE TABLE team_invites (
    team_id    TEXT    NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    invited_by BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_invites_user ON team_invites (user_id);

CREATE TABLE team_writes (
    user_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    at_ms   BIGINT  NOT NULL
);
CREATE INDEX team_writes_user ON team_writes (user_id, kind, at_ms);

-- A team battle (an arena of internal/events whose entrants play for
-- their teams): its teams, how many of each team's best players count,
-- and the team each entrant plays for.
CREATE TABLE team_battles (
    event_id   TEXT    NOT NULL PRIMARY KEY,
    team_id    TEXT    NOT NULL, -- the team whose leader made it
    leaders    INTEGER NOT NULL,
    created_by BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL
);

CREATE TABLE team_battle_teams (
    event_id TEXT NOT NULL REFERENCES team_battles (event_id) ON DELETE CASCADE,
    team_id  TEXT NOT NULL,
    name     TEXT NOT NULL, -- as it was when the battle was made: a closed team stays in the results
    PRIMARY KEY (event_id, team_id)
);
CREATE INDEX team_battle_teams_team ON team_battle_teams (team_id);

CREATE TABLE team_battle_players (
    event_id TEXT    NOT NULL REFERENCES team_battles (event_id) ON DELETE CASCADE,
    user_id  BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id  TEXT    NOT NULL,
    PRIMARY KEY (event_id, user_id)
);

-- A match of two teams over boards: each team's lineup by board order
-- (its leaders or coaches set it), one game a board once it starts
-- (started_ms 0 until then); the games' results are the games'.
CREATE TABLE team_matches (
    id         TEXT    NOT NULL PRIMARY KEY,
    team_a     TEXT    NOT NULL, -- the challenging team: White on the odd boards
    team_b     TEXT    NOT NULL,
    name_a     TEXT    NOT NULL,
    name_b     TEXT    NOT NULL,
    boards     INTEGER NOT NULL,
    tc         TEXT    NOT NULL,
    rated      INTEGER NOT NULL DEFAULT 0,
    created_by BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL,
    started_ms BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX team_matches_a ON team_matches (team_a, created_ms);
CREATE INDEX team_matches_b ON team_matches (team_b, created_ms);

CREATE TABLE team_match_players (
    match_id TEXT    NOT NULL REFERENCES team_matches (id) ON DELETE CASCADE,
    team_id  TEXT    NOT NULL,
    board    INTEGER NOT NULL,
    user_id  BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (match_id, team_id, board)
);

CREATE TABLE team_match_games (
    match_id TEXT    NOT NULL REFERENCES team_matches (id) ON DELETE CASCADE,
    board    INTEGER NOT NULL,
    game_id  TEXT    NOT NULL,
    PRIMARY KEY (match_id, board)
);

-- +goose Down
DROP TABLE team_match_games;
DROP TABLE team_match_players;
DROP TABLE team_matches;
DROP TABLE team_battle_players;
DROP TABLE team_battle_teams;
DROP TABLE team_battles;
DROP TABLE team_writes;
DROP TABLE team_invites;
DROP TABLE team_requests;
DROP TABLE team_members;
DROP TABLE teams;
