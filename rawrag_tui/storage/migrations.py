"""Forward-only numbered migrations; the schema version is ``user_version``.

Each migration runs in its own transaction. Never edit a migration that has
shipped: add the next number. A migration is SQL, or a function of the
connection and a progress callback for the ones that rewrite every row.
"""

from __future__ import annotations

from collections.abc import Callable

import apsw

from ..progress import Progress

#: SQL, or a function that rewrites rows and reports its progress.
Migration = str | Callable[[apsw.Connection, "Progress | None"], None]

REBUILD_BATCH = 500


def _fts_with_cjk(conn: apsw.Connection, progress: Progress | None) -> None:
    """2: the full-text index gains a ``cjk`` column of bigrams (see storage/cjk.py).

    Rebuilt from the windows table, in one transaction with the version bump:
    an interrupted upgrade leaves the old index and version 1 untouched.
    """
    from .cjk import index_column

    cur = conn.cursor()
    total = next(cur.execute("SELECT COUNT(*) FROM windows"))[0]
    cur.execute("DROP TABLE windows_fts")
    cur.execute("CREATE VIRTUAL TABLE windows_fts USING fts5 (text, cjk, tokenize = 'porter unicode61')")
    cur.execute("INSERT INTO windows_fts (windows_fts, rank) VALUES ('secure-delete', 1)")
    if progress and total:  # a new, empty store has nothing to rebuild: say nothing
        progress("rebuild full-text index", 0, total)
    done, last = 0, 0
    while True:
        rows = list(conn.cursor().execute(
            "SELECT id, text FROM windows WHERE id > ? ORDER BY id LIMIT ?", (last, REBUILD_BATCH)))
        if not rows:
            break
        cur.executemany("INSERT INTO windows_fts (rowid, text, cjk) VALUES (?, ?, ?)",
                        [(wid, text, index_column(text)) for wid, text in rows])
        done += len(rows)
        last = rows[-1][0]
        if progress and total:
            progress("rebuild full-text index", done, total)


def create_vector_tables(conn: apsw.Connection, space: int, dims: int) -> None:
    """One embedding space's vectors, laid out as sqlite-vec's rescore index lays them out.

    ``vecf_N`` holds each float32 vector by id (= ``vectors.id``): the exact
    scan of a small space and the rescoring of a large one read it. ``vecb_N``
    is a vec0 table of the same vectors quantized to one bit per dimension
    (``vec_quantize_binary``), the coarse KNN of a large space; 4,096 per
    chunk, the most vec0 allows, as fewer chunks scan faster (41 against 61 ms
    at 200,000 vectors, bench/dense_scale.py). A width that is not a whole
    number of bytes gets no quantized table and is always scanned exactly.
    """
    cur = conn.cursor()
    cur.execute(f"CREATE TABLE vecf_{space} (id INTEGER PRIMARY KEY, embedding BLOB NOT NULL)")
    if dims % 8 == 0:
        cur.execute(f"CREATE VIRTUAL TABLE vecb_{space} USING vec0 (embedding bit[{dims}], chunk_size=4096)")


def _rescore_layout(conn: apsw.Connection, progress: Progress | None) -> None:
    """3: each space's float vec0 table becomes the rescore layout (:func:`create_vector_tables`).

    sqlite-vec 0.1.9 scans every float vector for a KNN (250 ms at 200,000
    windows on 2 cores); its binary-quantized scan plus a rescoring pass is
    the fast path for large stores. The vectors are copied, not re-embedded,
    in the same transaction as the version bump.
    """
    cur = conn.cursor()
    spaces = list(cur.execute("SELECT id, dims FROM embedding_spaces ORDER BY id"))
    total = sum(next(conn.cursor().execute(f"SELECT COUNT(*) FROM vec_{space}"))[0] for space, _ in spaces)
    if progress and total:
        progress("rebuild vector index", 0, total)
    done = 0
    for space, dims in spaces:
        create_vector_tables(conn, space, dims)
        quantized = dims % 8 == 0  # as create_vector_tables decides
        batch: list[tuple[int, bytes]] = []
        for row in conn.cursor().execute(f"SELECT rowid, embedding FROM vec_{space}"):
            batch.append((row[0], row[1]))
            if len(batch) >= REBUILD_BATCH:
                done += _copy_vectors(conn, space, batch, quantized)
                if progress:
                    progress("rebuild vector index", done, total)
        done += _copy_vectors(conn, space, batch, quantized)
        if progress and total:
            progress("rebuild vector index", done, total)
        cur.execute(f"DROP TABLE vec_{space}")


def _copy_vectors(conn: apsw.Connection, space: int, batch: list[tuple[int, bytes]], quantized: bool) -> int:
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO vecf_{space} (id, embedding) VALUES (?, ?)", batch)
    if quantized:
        cur.executemany(f"INSERT INTO vecb_{space} (rowid, embedding) VALUES (?, vec_quantize_binary(?))", batch)
    count = len(batch)
    batch.clear()
    return count


#: meta key: the store's random id (migration 6).
STORE_ID_KEY = "store-id"

MIGRATIONS: list[Migration] = [
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
    _fts_with_cjk,
    _rescore_layout,
    # 4: filters in SQL: messages by date and speaker, and the windows a message is in
    """
    CREATE INDEX IF NOT EXISTS messages_by_ts ON messages (ts);
    CREATE INDEX IF NOT EXISTS messages_by_speaker ON messages (speaker);
    CREATE INDEX IF NOT EXISTS windows_by_first ON windows (conversation_id, first_seq, seq);
    CREATE INDEX IF NOT EXISTS windows_by_last ON windows (conversation_id, last_seq, seq);
    """,
    # 5: `rawrag sync`: the folders a person added (or set aside), and how far each live file was read
    """
    CREATE TABLE IF NOT EXISTS sync_sources (
        path TEXT PRIMARY KEY,
        pattern TEXT NOT NULL,
        kind TEXT NOT NULL,            -- added | ignored (a found source set aside)
        added_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS sync_files (
        path TEXT PRIMARY KEY,
        format TEXT,
        source_id INTEGER REFERENCES sources(id) ON DELETE SET NULL,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        read_to INTEGER NOT NULL,      -- bytes read: the end of the last complete line
        lines INTEGER NOT NULL,        -- complete lines up to read_to
        tail_hash TEXT,                -- SHA-256 of the last line read (ends at read_to)
        tail_len INTEGER NOT NULL DEFAULT 0,
        messages_added INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL,           -- read | empty | ignored | failed
        problem TEXT,
        synced_at TEXT NOT NULL
    );
    """,
    # 6: the store's own random id. The in-memory copies of a store (the vector
    # matrix, the term scores) are kept per file and per this id: a store deleted
    # and made anew at the same path is another store, whose counters may read
    # the same as the old one's, and must never be answered from the old copies.
    f"""
    INSERT OR IGNORE INTO meta (key, value) VALUES ('{STORE_ID_KEY}', lower(hex(randomblob(16))));
    """,
]


def schema_version(conn: apsw.Connection) -> int:
    return next(conn.cursor().execute("PRAGMA user_version"))[0]


def migrate(conn: apsw.Connection, progress: Progress | None = None) -> int:
    """Apply pending migrations; returns the resulting version."""
    version = schema_version(conn)
    if version > len(MIGRATIONS):
        from ..errors import UserError

        raise UserError(
            f"this store has schema version {version}, newer than this rawrag knows ({len(MIGRATIONS)}): upgrade rawrag"
        )
    for number in range(version + 1, len(MIGRATIONS) + 1):
        step = MIGRATIONS[number - 1]
        # The write lock first, then the version again: a second rawrag opening
        # the same store waits for the first one's upgrade instead of redoing it.
        try:
            conn.execute("BEGIN IMMEDIATE")
        except apsw.BusyError:
            from ..errors import UserError

            raise UserError("another rawrag is upgrading this store: try again when it has finished") from None
        try:
            if schema_version(conn) < number:
                if callable(step):
                    step(conn, progress)
                else:
                    conn.execute(step)
                conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return len(MIGRATIONS)
