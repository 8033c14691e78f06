"""Forward-only numbered migrations; the schema version is ``user_version``.

Each migration runs in its own transaction. Never edit a migration that has
shipped: add the next number.
"""

from __future__ import annotations

import apsw

MIGRATIONS: list[str] = [
    # 1: the raw-history store
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    -- One import of one export file.
    CREATE TABLE sources (
        id INTEGER PRIMARY KEY,
        format TEXT NOT NULL,
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        conversations INTEGER NOT NULL DEFAULT 0,
        messages_added INTEGER NOT NULL DEFAULT 0,
        skipped TEXT NOT NULL DEFAULT '{}',
        UNIQUE (format, sha256)
    );

    -- A conversation is identified across exports by (format, external_id),
    -- so a newer export of the same account adds to it.
    CREATE TABLE conversations (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id),
        format TEXT NOT NULL,
        external_id TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        windowed_with TEXT,  -- window settings key; NULL = (re)window needed
        UNIQUE (format, external_id)
    );

    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        source_id INTEGER NOT NULL REFERENCES sources(id),
        external_id TEXT NOT NULL,
        seq INTEGER NOT NULL,          -- position in time within the conversation
        ts TEXT,                       -- ISO-8601; 'Z' suffix when UTC
        ts_kind TEXT,                  -- utc | local | NULL (no time in export)
        sort_ts TEXT,                  -- ts, or the previous message's, for ordering
        speaker TEXT NOT NULL,
        role TEXT NOT NULL,
        text TEXT NOT NULL,            -- exactly as exported
        attachments TEXT NOT NULL DEFAULT '[]',
        captions TEXT NOT NULL DEFAULT '[]',
        parent_external_id TEXT,
        on_main_branch INTEGER NOT NULL DEFAULT 1,
        extra TEXT,
        content_hash TEXT NOT NULL,
        UNIQUE (conversation_id, external_id)
    );
    CREATE INDEX messages_by_seq ON messages (conversation_id, seq);
    CREATE INDEX messages_by_source ON messages (source_id);

    CREATE TABLE windows (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        token_start INTEGER NOT NULL,
        token_end INTEGER NOT NULL,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        UNIQUE (conversation_id, seq)
    );
    CREATE INDEX windows_by_hash ON windows (content_hash);

    -- rowid = windows.id. secure-delete removes a deleted row's terms from
    -- the index at once instead of leaving them until the next merge.
    CREATE VIRTUAL TABLE windows_fts USING fts5 (text, tokenize = 'porter unicode61');
    INSERT INTO windows_fts (windows_fts, rank) VALUES ('secure-delete', 1);

    -- One embedding space per fingerprint (model id + dims + weights hash);
    -- each has its own vec0 table, so vectors of two models never mix.
    CREATE TABLE embedding_spaces (
        id INTEGER PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        dims INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    -- Vectors are keyed by the window text's hash: identical text is never
    -- embedded twice, and re-windowing reuses every unchanged window.
    CREATE TABLE vectors (
        id INTEGER PRIMARY KEY,     -- = rowid in the space's vec0 table
        space_id INTEGER NOT NULL REFERENCES embedding_spaces(id),
        content_hash TEXT NOT NULL,
        UNIQUE (space_id, content_hash)
    );
    """,
]


def schema_version(conn: apsw.Connection) -> int:
    return conn.cursor().execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: apsw.Connection) -> int:
    """Apply pending migrations; returns the resulting version."""
    version = schema_version(conn)
    if version > len(MIGRATIONS):
        from ..errors import UserError

        raise UserError(
            f"this store has schema version {version}, newer than this rawrag knows ({len(MIGRATIONS)}): upgrade rawrag"
        )
    for number in range(version + 1, len(MIGRATIONS) + 1):
        with conn:
            conn.cursor().execute(MIGRATIONS[number - 1])
            conn.cursor().execute(f"PRAGMA user_version = {number}")
    return len(MIGRATIONS)
