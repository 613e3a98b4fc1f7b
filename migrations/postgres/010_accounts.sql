-- People who sign in to the pages (issue 8). A local account has an argon2id hash of its
-- password; a disabled one keeps its row, so that its name is not given to someone else.
CREATE TABLE accounts (
    name          TEXT PRIMARY KEY,
    scope         TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    disabled_at   TIMESTAMPTZ
);

-- Sessions of people signed in, locally or through OpenID Connect ("oidc:" names, which have no
-- account row). The cookie holds a random secret; only its SHA-256 is stored. Every replica
-- reads the same table, so a session works behind any of them.
CREATE TABLE sessions (
    hash       TEXT PRIMARY KEY,
    person     TEXT NOT NULL,
    scope      TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_person ON sessions (person);
CREATE INDEX sessions_expires_at ON sessions (expires_at);
