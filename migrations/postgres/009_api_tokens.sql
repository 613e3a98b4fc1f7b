-- API tokens (issue 8): a name, a scope, the SHA-256 of the secret (the secret itself is shown
-- once and never stored), and when it was revoked. A revoked token stays, so that its name is
-- not taken again by mistake and a request with it is told it was revoked.
CREATE TABLE api_tokens (
    name       TEXT PRIMARY KEY,
    scope      TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    hash       TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);
