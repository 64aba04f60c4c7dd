-- Apps (internal/oauth, docs/api.md "OAuth"): the authorization codes of
-- OAuth 2's code flow with PKCE, and which app each token granted to an
-- app belongs to. A code is stored as the hex SHA-256 of the code, with the
-- app (client_id), the redirect_uri and the scopes the user approved and
-- the S256 code_challenge; it is redeemed once (token_id is then the token
-- it made, so that a second use revokes that token) and expires within
-- minutes. The access token itself is a row of tokens (00012), so that
-- every check of the bot and board API applies to it as to a personal
-- token; oauth_grants says which app holds it and until when.

-- +goose Up
CREATE TABLE oauth_codes (
    hash         TEXT    PRIMARY KEY,
    user_id      BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_id    TEXT    NOT NULL,
    redirect_uri TEXT    NOT NULL,
    scopes       TEXT    NOT NULL, -- space-separated
    challenge    TEXT    NOT NULL, -- base64url SHA-256 of the code_verifier
    token_id     BIGINT  NOT NULL DEFAULT 0, -- the token it made; 0 until redeemed
    created_ms   BIGINT  NOT NULL,
    expires_ms   BIGINT  NOT NULL
);
CREATE INDEX oauth_codes_user ON oauth_codes (user_id);
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_ms);

CREATE TABLE oauth_grants (
    token_id   BIGINT  PRIMARY KEY REFERENCES tokens (id) ON DELETE CASCADE,
    client_id  TEXT    NOT NULL,
    expires_ms BIGINT  NOT NULL
);

-- +goose Down
DROP TABLE oauth_grants;
DROP INDEX oauth_codes_expires;
DROP INDEX oauth_codes_user;
DROP TABLE oauth_codes;
