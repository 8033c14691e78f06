"""The raw-history store: messages, windows, vectors and the FTS index.

Plain rows in, plain rows out: the store knows nothing of export formats,
models or the retrieval recipe above it. Callers group writes with
``with store.transaction():`` so an import lands whole or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import apsw
import numpy as np

from ..words import content_words
from . import bm25_bound, cjk, encryption, lexical_index, migrations, vector_matrix
from .db import BUSY_TIMEOUT_MS, connect, ensure_private_dir, touch_private
from .lexical_index import LexicalIndex, note_write, read_allowed
from .locks import exclusive, index_lock
from .migrations import create_vector_tables
from .vector_matrix import REMOVED_KEY, DensePlan, SpaceMatrix, VectorMatrices

#: meta key prefix + space id: every window text had a vector in that space when it was set.
EMBEDDED_KEY = "embedded:space-"


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def timestamp_fields(ts: datetime | None) -> tuple[str | None, str | None, str | None]:
    """(ts, ts_kind, sort_ts) for a message time.

    Aware times are stored in UTC with a ``Z``; naive ones are local wall-clock
    time whose zone the export did not say. ``sort_ts`` is fixed-width so that
    string order is time order.
    """
    if ts is None:
        return None, None, None
    if ts.tzinfo is not None:
        utc = ts.astimezone(UTC).replace(tzinfo=None)
        return utc.isoformat() + "Z", "utc", utc.strftime("%Y-%m-%dT%H:%M:%S.%f")
    return ts.isoformat(), "local", ts.strftime("%Y-%m-%dT%H:%M:%S.%f")


@dataclass(frozen=True)
class MessageRow:
    external_id: str
    speaker: str
    role: str
    text: str
    ts: datetime | None
    attachments: Sequence[str] = ()
    captions: Sequence[str] = ()
    parent_external_id: str | None = None
    on_main_branch: bool = True
    extra: dict | None = None
    content_hash: str = ""


@dataclass(frozen=True)
class WindowRow:
    seq: int
    token_start: int
    token_end: int
    first_seq: int
    last_seq: int
    text: str
    content_hash: str


#: Ids bound in one query at most: a long export's thousands of threads stay under SQLite's limit.
_IDS_PER_QUERY = 500
#: A message row with its conversation's title, as the answer path reads it (alias ``m``).
_MESSAGE_ROWS = ("SELECT m.id, m.external_id, m.conversation_id, c.title AS conversation, m.seq, m.ts, m.speaker,"
                 " m.role, m.text, m.captions, m.attachments, m.source_id FROM messages m"
                 " JOIN conversations c ON c.id = m.conversation_id")


#: Store identity -> how many stores of it are open in this process. The in-memory copies
#: (matrices, term scores) are shared by all of them and let go when the last one closes.
_OPEN: Counter[str] = Counter()
_OPEN_LOCK = threading.Lock()


class Store:
    def __init__(self, conn: apsw.Connection, path: Path):
        self.conn = conn
        self.path = path
        self._vocab: Any = None  # the index's tokenizer, once common_words has needed it
        self._speakers: tuple[tuple[int, int], list[str]] | None = None
        self._in_use: int | None = None  # the in-use lock's descriptor (encryption.hold_open)
        self._scratch_changes = 0  # rows this connection wrote to temp tables (allow_windows): no data changed
        self._allowed: tuple[tuple, int] | None = None  # allow_windows: (filter and generation, count) laid out
        identity = self._identity()
        self._kept_as: str | None = identity  # until close: see _OPEN
        with _OPEN_LOCK:
            _OPEN[identity] += 1
        self._matrices = VectorMatrices(conn, self.generation, identity)  # dense, in memory
        self._lexical = LexicalIndex(conn, self.generation, identity)  # lexical, in memory
        self._doc_counts: tuple[tuple[int, int], dict[str, int]] = ((-1, -1), {})  # common_words, per write

    def _identity(self) -> str:
        """What the in-memory copies of this store are kept under: its file and its random id
        (migration 6), so a store made anew at a deleted one's path never gets the old copies."""
        row = self._one("SELECT value FROM meta WHERE key = ?", (migrations.STORE_ID_KEY,)) \
            if self._has_table("meta") else None
        return f"{self.path.resolve()}#{row[0] if row else ''}"

    @classmethod
    def open(cls, path: Path, progress: migrations.Progress | None = None) -> Store:
        ensure_private_dir(path.parent)
        in_use = encryption.hold_open(path)  # no encrypt/decrypt/rekey swaps the file under this store
        try:
            conn = connect(path)
            migrations.migrate(conn, progress)
        except BaseException:
            os.close(in_use)
            raise
        store = cls(conn, path)
        store._in_use = in_use
        store.finish_erasure()  # a delete that another process's reader held up
        return store

    def close(self) -> None:
        self.conn.close()
        if self._in_use is not None:
            os.close(self._in_use)
            self._in_use = None
        self._let_go()

    def _let_go(self) -> None:
        """Closed: the last store of this identity in the process takes its in-memory copies with it."""
        identity, self._kept_as = self._kept_as, None
        if identity is None:
            return
        with _OPEN_LOCK:
            _OPEN[identity] -= 1
            last = _OPEN[identity] <= 0
            if last:
                del _OPEN[identity]
        if last:
            vector_matrix.forget(identity)
            lexical_index.forget(identity)

    def embedding_lock(self, on_wait: Callable[[], None] | None = None) -> contextlib.AbstractContextManager[None]:
        """One indexer per store at a time, across processes (:mod:`.locks`)."""
        return exclusive(index_lock(self.path), on_wait)

    # -- plumbing -----------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing; the outermost one takes the write lock first (BEGIN IMMEDIATE).

        Why immediate: a deferred transaction that has read cannot wait for
        another process's write lock (SQLite skips the busy handler to avoid
        a deadlock), so a second writer on the same home would fail at once
        instead of waiting out the busy timeout.
        """
        if self.conn.in_transaction:
            with self.conn:  # nested: a savepoint
                yield
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _rows(self, sql: str, args: Sequence[Any] | dict = ()) -> list[tuple]:
        return list(self.conn.cursor().execute(sql, args))

    def _one(self, sql: str, args: Sequence[Any] | dict = ()) -> tuple | None:
        return self.conn.cursor().execute(sql, args).fetchone()

    def _scalar(self, sql: str, args: Sequence[Any] | dict = ()) -> Any:
        """The first value of a query that always returns a row (an aggregate such as COUNT)."""
        return next(self.conn.cursor().execute(sql, args))[0]

    def _dicts(self, sql: str, args: Sequence[Any] | dict = ()) -> list[dict]:
        cur = self.conn.cursor().execute(sql, args)
        try:
            names = [d[0] for d in cur.getdescription()]
        except apsw.ExecutionCompleteError:
            return []
        return [dict(zip(names, row)) for row in cur]

    def meta_get(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    def meta_set(self, key: str, value: str) -> None:
        self.conn.cursor().execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- sources and conversations -----------------------------------------

    def find_source(self, fmt: str, sha256: str) -> int | None:
        row = self._one("SELECT id FROM sources WHERE format = ? AND sha256 = ?", (fmt, sha256))
        return row[0] if row else None

    def add_source(self, fmt: str, path: str, sha256: str) -> int:
        self.conn.cursor().execute(
            "INSERT INTO sources (format, path, sha256, imported_at) VALUES (?, ?, ?, ?)",
            (fmt, path, sha256, now_iso()),
        )
        return self.conn.last_insert_rowid()

    def finish_source(self, source_id: int, conversations: int, messages_added: int, skipped: dict) -> None:
        self.conn.cursor().execute(
            "UPDATE sources SET conversations = ?, messages_added = ?, skipped = ? WHERE id = ?",
            (conversations, messages_added, json.dumps(skipped, sort_keys=True), source_id),
        )

    def conversation_id(self, fmt: str, external_id: str) -> int | None:
        row = self._one("SELECT id FROM conversations WHERE format = ? AND external_id = ?", (fmt, external_id))
        return row[0] if row else None

    def upsert_conversation(self, source_id: int, fmt: str, external_id: str, title: str, kind: str) -> int:
        existing = self.conversation_id(fmt, external_id)
        if existing is not None:
            self.conn.cursor().execute("UPDATE conversations SET title = ? WHERE id = ?", (title, existing))
            return existing
        self.conn.cursor().execute(
            "INSERT INTO conversations (source_id, format, external_id, title, kind) VALUES (?, ?, ?, ?, ?)",
            (source_id, fmt, external_id, title, kind),
        )
        return self.conn.last_insert_rowid()

    def existing_external_ids(self, conversation_id: int) -> set[str]:
        rows = self._rows("SELECT external_id FROM messages WHERE conversation_id = ?", (conversation_id,))
        return {r[0] for r in rows}

    def add_messages(self, conversation_id: int, source_id: int, rows: Sequence[MessageRow]) -> int:
        """Insert the rows not already stored (by external id); returns how many.

        Messages without a time sort after the one before them in the export.
        When anything is added, the conversation is re-sequenced in time order
        and marked for re-windowing.
        """
        have = self.existing_external_ids(conversation_id)
        fresh: list[tuple] = []
        last_sort: str | None = None
        for row in rows:
            ts, ts_kind, sort_ts = timestamp_fields(row.ts)
            sort_ts = sort_ts or last_sort
            last_sort = sort_ts
            if row.external_id in have:
                continue
            have.add(row.external_id)
            fresh.append(
                (
                    conversation_id, source_id, row.external_id, ts, ts_kind, sort_ts, row.speaker,
                    row.role, row.text, json.dumps(list(row.attachments), ensure_ascii=False),
                    json.dumps(list(row.captions), ensure_ascii=False), row.parent_external_id,
                    int(row.on_main_branch), json.dumps(row.extra, ensure_ascii=False) if row.extra else None,
                    row.content_hash,
                )
            )
        if not fresh:
            return 0
        cur = self.conn.cursor()
        cur.executemany(
            "INSERT INTO messages (conversation_id, source_id, external_id, seq, ts, ts_kind, sort_ts, speaker,"
            " role, text, attachments, captions, parent_external_id, on_main_branch, extra, content_hash)"
            " VALUES (?, ?, ?, -1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            fresh,
        )
        cur.execute(
            "WITH ordered AS (SELECT id, ROW_NUMBER() OVER (ORDER BY sort_ts, id) - 1 AS rn"
            " FROM messages WHERE conversation_id = ?)"
            " UPDATE messages SET seq = ordered.rn FROM ordered WHERE messages.id = ordered.id",
            (conversation_id,),
        )
        cur.execute("UPDATE conversations SET windowed_with = NULL WHERE id = ?", (conversation_id,))
        return len(fresh)

    # -- windows ------------------------------------------------------------

    def conversations_needing_windows(self, settings_key: str) -> list[int]:
        return [
            r[0]
            for r in self._rows(
                "SELECT id FROM conversations WHERE windowed_with IS NULL OR windowed_with != ? ORDER BY id",
                (settings_key,),
            )
        ]

    def main_branch_messages(self, conversation_id: int) -> list[dict]:
        return self._dicts(
            "SELECT seq, ts, speaker, text, captions FROM messages"
            " WHERE conversation_id = ? AND on_main_branch = 1 ORDER BY seq",
            (conversation_id,),
        )

    def replace_windows(self, conversation_id: int, windows: Sequence[WindowRow], settings_key: str) -> int:
        """Make the conversation's windows exactly ``windows``; unchanged ones stay.

        Returns how many windows were (re)written.
        """
        cur = self.conn.cursor()
        old = {
            r[1]: r
            for r in self._rows(
                "SELECT id, seq, token_start, token_end, first_seq, last_seq, content_hash FROM windows"
                " WHERE conversation_id = ?",
                (conversation_id,),
            )
        }
        written = 0
        for w in windows:
            prev = old.pop(w.seq, None)
            if prev is not None:
                if prev[2:] == (w.token_start, w.token_end, w.first_seq, w.last_seq, w.content_hash):
                    continue
                cur.execute("DELETE FROM windows_fts WHERE rowid = ?", (prev[0],))
                cur.execute("DELETE FROM windows WHERE id = ?", (prev[0],))
            cur.execute(
                "INSERT INTO windows (conversation_id, seq, token_start, token_end, first_seq, last_seq, text,"
                " content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, w.seq, w.token_start, w.token_end, w.first_seq, w.last_seq, w.text, w.content_hash),
            )
            cur.execute(
                "INSERT INTO windows_fts (rowid, text, cjk) VALUES (?, ?, ?)",
                (self.conn.last_insert_rowid(), w.text, cjk.index_column(w.text)),
            )
            written += 1
        for prev in old.values():
            cur.execute("DELETE FROM windows_fts WHERE rowid = ?", (prev[0],))
            cur.execute("DELETE FROM windows WHERE id = ?", (prev[0],))
        cur.execute("UPDATE conversations SET windowed_with = ? WHERE id = ?", (settings_key, conversation_id))
        if written or old:  # the in-memory term scores are stale (:mod:`.lexical_index`)
            note_write(cur)
        if written:  # a new window text may lack a vector in any space
            cur.execute(f"DELETE FROM meta WHERE key LIKE '{EMBEDDED_KEY}%'")
        return written

    def windows_by_id(self, ids: Sequence[int]) -> dict[int, dict]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._dicts(
            "SELECT w.id, w.conversation_id, w.seq, w.first_seq, w.last_seq, w.text, w.content_hash,"
            f" c.title AS conversation FROM windows w JOIN conversations c ON c.id = w.conversation_id"
            f" WHERE w.id IN ({marks})",
            list(ids),
        )
        return {r["id"]: r for r in rows}

    def messages_between(self, conversation_id: int, first_seq: int, last_seq: int,
                         where: str = "1", args: Sequence[Any] = ()) -> list[dict]:
        """The main-branch messages from ``first_seq`` to ``last_seq`` that meet ``where`` (alias ``m``)."""
        return self._dicts(
            f"{_MESSAGE_ROWS} WHERE m.conversation_id = ? AND m.seq BETWEEN ? AND ? AND m.on_main_branch = 1"
            f" AND ({where}) ORDER BY m.seq",
            (conversation_id, first_seq, last_seq, *args),
        )

    def messages_sent_before(self, conversation_ids: Sequence[int], before_ts: str, limit: int) -> list[dict]:
        """The latest ``limit`` main-branch messages of ``conversation_ids`` sent
        before ``before_ts`` (ISO-8601, as stored), in time order: what the same
        people said in their other threads before a message of one of them."""
        if not conversation_ids or limit <= 0:
            return []
        rows: list[dict] = []
        ids = list(conversation_ids)
        for start in range(0, len(ids), _IDS_PER_QUERY):
            chunk = ids[start:start + _IDS_PER_QUERY]
            rows += self._dicts(
                f"{_MESSAGE_ROWS} WHERE m.conversation_id IN ({','.join('?' * len(chunk))})"
                " AND m.ts < ? AND m.on_main_branch = 1 ORDER BY m.ts DESC, m.conversation_id DESC, m.seq DESC LIMIT ?",
                (*chunk, before_ts, limit),
            )
        rows.sort(key=lambda r: (r["ts"], r["conversation_id"], r["seq"]))
        return rows[-limit:]

    def same_people(self, conversation_id: int) -> list[int]:
        """The conversations whose speakers are exactly this one's, itself
        included: the threads of one ChatGPT or Claude export (all "User" and
        the assistant), one chat exported twice. Empty where it has no message.
        One query: the conversations holding every one of its speakers (the
        speaker index), less those where anyone else writes (each one's own rows)."""
        speakers = [r[0] for r in self._rows(
            "SELECT DISTINCT speaker FROM messages WHERE conversation_id = ?", (conversation_id,))]
        if not speakers:
            return []
        marks = ",".join("?" * len(speakers))
        return [r[0] for r in self._rows(
            f"SELECT c FROM (SELECT conversation_id AS c FROM messages WHERE speaker IN ({marks})"
            " GROUP BY conversation_id HAVING COUNT(DISTINCT speaker) = ?)"
            " WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c"
            f" AND m.speaker NOT IN ({marks})) ORDER BY c",
            (*speakers, len(speakers), *speakers))]

    # -- filtered search ------------------------------------------------------

    def generation(self) -> tuple[int, int]:
        """Changes when the stored data may have: a write on this connection (``total_changes``,
        less its scratch rows in temp tables) or a commit by any other (``PRAGMA data_version``).
        What is read once and kept (speakers, word counts, the vector matrix) is keyed by it."""
        return self.conn.total_changes() - self._scratch_changes, int(self._scalar("PRAGMA data_version"))

    def speakers(self) -> list[str]:
        """Every speaker name in the store (for filters to match what people type).

        Read once (30 ms over 419,000 messages) and again only after a write, on this
        connection or any other (``data_version``).
        """
        key = self.generation()
        if self._speakers is None or self._speakers[0] != key:
            self._speakers = (key, [r[0] for r in self._rows("SELECT DISTINCT speaker FROM messages")])
        return self._speakers[1]

    def messages_where(self, where: str, args: Sequence[Any]) -> set[int]:
        """The ids of the messages that meet ``where`` (alias ``m``, as :meth:`allow_windows` takes it)."""
        return {r[0] for r in self._rows(f"SELECT m.id FROM messages m WHERE {where}", list(args))}

    def allow_windows(self, where: str, args: Sequence[Any]) -> int:
        """Lay the windows holding a main-branch message that meets ``where`` (alias ``m``) into
        ``temp.allowed_windows``, which ``lexical_search``/``dense_search`` read when ``allowed``
        is given; returns how many windows there are.

        A message is in the windows from the first whose ``last_seq`` reaches it to the last
        whose ``first_seq`` does: two index lookups per message (``windows_by_first``/``_by_last``).
        The same filter again with nothing written since is laid out already (9 ms for 1% of
        116,000 windows: every keystroke of a filtered search-as-you-type paid it).
        """
        key = (where, tuple(args), self.generation())
        if self._allowed is not None and self._allowed[0] == key and not self.conn.in_transaction:
            return self._allowed[1]
        cur = self.conn.cursor()
        before = self.conn.total_changes()
        cur.execute("CREATE TEMP TABLE IF NOT EXISTS allowed_windows (id INTEGER PRIMARY KEY)")
        cur.execute("DELETE FROM temp.allowed_windows")
        cur.execute(
            "INSERT OR IGNORE INTO temp.allowed_windows (id) SELECT w.id FROM messages m JOIN windows w"
            " ON w.conversation_id = m.conversation_id AND w.seq BETWEEN"
            " (SELECT x.seq FROM windows x WHERE x.conversation_id = m.conversation_id AND x.last_seq >= m.seq"
            "  ORDER BY x.last_seq, x.seq LIMIT 1)"
            " AND (SELECT y.seq FROM windows y WHERE y.conversation_id = m.conversation_id AND y.first_seq <= m.seq"
            "  ORDER BY y.first_seq DESC, y.seq DESC LIMIT 1)"
            f" WHERE m.on_main_branch = 1 AND ({where})",
            list(args),
        )
        self._scratch_changes += self.conn.total_changes() - before
        count = self._scalar("SELECT COUNT(*) FROM temp.allowed_windows")
        self._allowed = None if self.conn.in_transaction else (key, count)  # a rollback would empty the table
        return count

    # -- vectors ------------------------------------------------------------

    def ensure_space(self, fingerprint: str, dims: int) -> int:
        row = self._one("SELECT id, dims FROM embedding_spaces WHERE fingerprint = ?", (fingerprint,))
        if row:
            return row[0]
        with self.conn:
            cur = self.conn.cursor()
            cur.execute(
                "INSERT INTO embedding_spaces (fingerprint, dims, created_at) VALUES (?, ?, ?)",
                (fingerprint, dims, now_iso()),
            )
            space = self.conn.last_insert_rowid()
            create_vector_tables(self.conn, space, dims)
        return space

    def space_id(self, fingerprint: str) -> int | None:
        row = self._one("SELECT id FROM embedding_spaces WHERE fingerprint = ?", (fingerprint,))
        return row[0] if row else None

    def pending_count(self, space_id: int | None) -> int:
        if space_id is None:
            return self._scalar("SELECT COUNT(DISTINCT content_hash) FROM windows")
        return self._scalar(
            "SELECT COUNT(DISTINCT w.content_hash) FROM windows w WHERE NOT EXISTS"
            " (SELECT 1 FROM vectors v WHERE v.space_id = ? AND v.content_hash = w.content_hash)",
            (space_id,),
        )

    def has_windows(self) -> bool:
        return self._one("SELECT 1 FROM windows LIMIT 1") is not None

    def any_pending(self, space_id: int | None) -> bool:
        """Whether some window text lacks a vector: stops at the first one found.

        Every search asks this, and the answer is a scan of all windows when
        none is pending (160 ms at 183,000 windows), so the indexer records a
        finished space (:meth:`mark_embedded`) and writing any window clears it.
        """
        if space_id is None:
            return self.has_windows()
        if self.meta_get(f"{EMBEDDED_KEY}{space_id}") is not None:
            return False
        return self._one(
            "SELECT 1 FROM windows w WHERE NOT EXISTS"
            " (SELECT 1 FROM vectors v WHERE v.space_id = ? AND v.content_hash = w.content_hash) LIMIT 1",
            (space_id,),
        ) is not None

    def mark_embedded(self, space_id: int) -> None:
        """Record that every window text has a vector in the space, if it is so."""
        if not self.any_pending(space_id):
            self.meta_set(f"{EMBEDDED_KEY}{space_id}", now_iso())

    def has_vectors(self, space_id: int | None) -> bool:
        return space_id is not None and self._one(
            "SELECT 1 FROM vectors WHERE space_id = ? LIMIT 1", (space_id,)) is not None

    def vector_count(self, space_id: int | None) -> int:
        if space_id is None:
            return 0
        return self._scalar("SELECT COUNT(*) FROM vectors WHERE space_id = ?", (space_id,))

    def pending_windows(self, space_id: int, limit: int) -> list[tuple[str, str]]:
        """Up to ``limit`` (content_hash, text) pairs that have no vector in the space."""
        return self._rows(
            "SELECT w.content_hash, MIN(w.text) FROM windows w WHERE NOT EXISTS"
            " (SELECT 1 FROM vectors v WHERE v.space_id = ? AND v.content_hash = w.content_hash)"
            " GROUP BY w.content_hash LIMIT ?",
            (space_id, limit),
        )

    def add_vectors(self, space_id: int, hashes: Sequence[str], vectors: np.ndarray) -> None:
        cur = self.conn.cursor()
        data = np.ascontiguousarray(vectors, dtype=np.float32)
        quantized = self._has_table(f"vecb_{space_id}")
        for content_hash, vec in zip(hashes, data):
            # Another indexer (a second `rawrag index`, the app) may have stored it meanwhile.
            cur.execute("INSERT INTO vectors (space_id, content_hash) VALUES (?, ?) ON CONFLICT DO NOTHING",
                        (space_id, content_hash))
            if not self.conn.changes():
                continue
            vid, blob = self.conn.last_insert_rowid(), np.asarray(vec, dtype=np.float32).tobytes()
            cur.execute(f"INSERT INTO vecf_{space_id} (id, embedding) VALUES (?, ?)", (vid, blob))
            if quantized:
                cur.execute(f"INSERT INTO vecb_{space_id} (rowid, embedding) VALUES (?, vec_quantize_binary(?))",
                            (vid, blob))

    def dense_search(self, space_id: int, query: np.ndarray, n: int, exact_below: int = 20_000,
                     oversample: int = 2, allowed: int | None = None,
                     matrix_bytes: int = 0) -> list[tuple[int, float]]:
        """(window id, cosine distance) for the ``n`` nearest window texts.

        While the space's vectors take at most ``matrix_bytes`` they are searched
        exactly in memory (:mod:`.vector_matrix`, :meth:`dense_plan`); else in SQL:
        A space of up to ``exact_below`` vectors is scanned exactly. A larger
        one is searched as sqlite-vec's rescore index does it: a KNN over the
        binary-quantized vectors finds ``n * oversample`` candidates, and their
        float vectors, read by id, give the true cosine distances and the order.
        At 200,000 windows the dense channel took 113 ms p50 this way against 482 ms
        for the exact scan (bench/search_scale.py, docs/benchmarks.md).
        """
        plan = self.dense_plan(space_id, int(np.shape(query)[-1]), n, allowed, matrix_bytes, oversample)
        if plan is not None:
            return self.dense_windows(plan, query, plan.nearest(query))
        blob = np.asarray(query, dtype=np.float32).tobytes()
        if allowed is not None:
            return self._dense_allowed(space_id, blob, n, allowed, exact_below, oversample)
        large = self._one(f"SELECT 1 FROM vecf_{space_id} LIMIT 1 OFFSET ?", (int(exact_below),)) is not None
        if large and self._has_table(f"vecb_{space_id}"):
            candidates = (
                f"SELECT rowid AS id FROM vecb_{space_id} WHERE embedding MATCH vec_quantize_binary(?1) AND k = ?3"
            )
            limit_args: tuple = (blob, int(n), int(n) * max(1, int(oversample)))
            nearest = (
                f"SELECT f.id, vec_distance_cosine(f.embedding, ?1) AS distance FROM vecf_{space_id} f"
                f" WHERE f.id IN ({candidates}) ORDER BY distance LIMIT ?2"
            )
        else:
            limit_args = (blob, int(n))
            nearest = (
                f"SELECT id, vec_distance_cosine(embedding, ?1) AS distance FROM vecf_{space_id}"
                " ORDER BY distance LIMIT ?2"
            )
        rows = self._rows(
            f"WITH knn AS ({nearest}) SELECT w.id, knn.distance FROM knn JOIN vectors v ON v.id = knn.id"
            " JOIN windows w ON w.content_hash = v.content_hash ORDER BY knn.distance, w.id",
            limit_args,
        )
        return rows[:n]

    #: The most candidates one binary KNN asks for (sqlite-vec's own limit is 4,096).
    KNN_MAX = 4096

    def dense_plan(self, space_id: int, dims: int, n: int, allowed: int | None = None,
                   matrix_bytes: int = 0, oversample: int = 2) -> DensePlan | None:
        """The SQL half of an exact search by the in-memory matrix (:mod:`.vector_matrix`); None
        when the space's vectors would take more than ``matrix_bytes`` (then :meth:`dense_search`
        scans in SQL). ``allowed``: among ``temp.allowed_windows`` only (:meth:`allow_windows`).

        A filter keeping at most 1/8 of the space scores only its windows' vectors (the ids
        come from SQL). A broader one scores all of them and takes enough of the nearest that
        ``n`` are likely allowed; when fewer pass, :meth:`dense_windows` scores only the allowed
        ones after all. Either way the result is the exact scan's: the ``k`` nearest vectors
        hold the ``n`` nearest allowed windows whenever ``n`` of them are among those ``k``.
        """
        matrix = self._matrices.current(space_id, dims, matrix_bytes) if matrix_bytes > 0 else None
        if matrix is None:
            return None
        if allowed is None:
            return DensePlan(matrix, space_id, n, n)
        if allowed * 8 > matrix.count:
            k = int(n) * max(1, int(oversample)) * -(-matrix.count // max(1, allowed))
            return DensePlan(matrix, space_id, n, k, allowed=True)
        return DensePlan(matrix, space_id, n, n, self._allowed_rows(matrix, space_id), allowed=True)

    def _allowed_rows(self, matrix: SpaceMatrix, space_id: int) -> np.ndarray:
        ids = np.fromiter((r[0] for r in self.conn.cursor().execute(
            "SELECT DISTINCT v.id FROM temp.allowed_windows a CROSS JOIN windows w ON w.id = a.id"
            " CROSS JOIN vectors v ON v.space_id = ? AND v.content_hash = w.content_hash ORDER BY v.id",
            (space_id,))), dtype=np.int64)
        return matrix.rows_of(ids)

    def dense_windows(self, plan: DensePlan, query: np.ndarray,
                      found: tuple[np.ndarray, np.ndarray]) -> list[tuple[int, float]]:
        """The SQL half after the product: the windows of ``found = plan.nearest(query)``."""
        rows = self._windows_of(*found, plan.n, plan.allowed)
        if plan.allowed and plan.rows is None and len(rows) < plan.n and plan.k < plan.matrix.count:
            narrow = DensePlan(plan.matrix, plan.space_id, plan.n, plan.n,
                               self._allowed_rows(plan.matrix, plan.space_id), allowed=True)
            rows = self._windows_of(*narrow.nearest(query), plan.n, True)
        return rows

    def _windows_of(self, vector_ids: np.ndarray, distances: np.ndarray, n: int,
                    allowed: bool) -> list[tuple[int, float]]:
        """(window id, distance) of the windows whose text these vectors embed, nearest first, then by
        window id, at most ``n``; ``allowed``: only those in ``temp.allowed_windows``. Asked of SQL at
        every search, so a window deleted since the matrix was read is never returned."""
        if not len(vector_ids):
            return []
        sql = ("SELECT j.key, w.id FROM json_each(?) j CROSS JOIN vectors v ON v.id = j.value"
               " CROSS JOIN windows w ON w.content_hash = v.content_hash")
        if allowed:
            sql += " CROSS JOIN temp.allowed_windows a ON a.id = w.id"
        pairs = self._rows(sql, ("[" + ",".join(map(str, vector_ids.tolist())) + "]",))
        rows = sorted(((float(distances[at]), wid) for at, wid in pairs))
        return [(wid, dist) for dist, wid in rows[:n]]

    def _dense_allowed(self, space_id: int, blob: bytes, n: int, allowed: int, exact_below: int,
                       oversample: int) -> list[tuple[int, float]]:
        """The nearest ``n`` among ``temp.allowed_windows`` (see :meth:`allow_windows`).

        Up to ``exact_below`` allowed windows (or in a space too small for the binary
        index) their vectors are scanned exactly. More: the binary KNN is asked for
        enough candidates that ``n`` of them are likely allowed (the share the filter
        keeps), the filter is applied in SQL, and when fewer than ``n`` pass, the
        exact scan over the allowed windows answers instead.
        """
        # CROSS JOIN keeps this order (allowed windows first): left to itself the planner
        # scanned the whole space and took 150 ms, not 7, for 880 windows of 87,000
        exact = (
            f"SELECT w.id, vec_distance_cosine(f.embedding, ?1) AS distance FROM temp.allowed_windows a"
            f" CROSS JOIN windows w ON w.id = a.id"
            f" CROSS JOIN vectors v ON v.space_id = ?3 AND v.content_hash = w.content_hash"
            f" CROSS JOIN vecf_{space_id} f ON f.id = v.id ORDER BY distance, w.id LIMIT ?2"
        )
        if allowed <= exact_below or not self._has_table(f"vecb_{space_id}"):
            return self._rows(exact, (blob, int(n), space_id))
        total = self.vector_count(space_id)
        k = min(self.KNN_MAX, int(n) * max(1, int(oversample)) * -(-total // max(1, allowed)))
        rows = self._rows(
            f"WITH c AS (SELECT rowid AS id FROM vecb_{space_id} WHERE embedding MATCH vec_quantize_binary(?1)"
            " AND k = ?3),"
            f" knn AS (SELECT f.id, vec_distance_cosine(f.embedding, ?1) AS distance FROM vecf_{space_id} f"
            "  WHERE f.id IN c)"
            " SELECT w.id, knn.distance FROM knn CROSS JOIN vectors v ON v.id = knn.id"
            " CROSS JOIN windows w ON w.content_hash = v.content_hash CROSS JOIN temp.allowed_windows a ON a.id = w.id"
            " ORDER BY knn.distance, w.id LIMIT ?2",
            (blob, int(n), k),
        )
        return rows if len(rows) >= n else self._rows(exact, (blob, int(n), space_id))

    def _has_table(self, name: str) -> bool:
        return self._one("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)) is not None

    @staticmethod
    def fts_query(text: str, common: Collection[str] = ()) -> str | None:
        """Any of the query's words (either column) or CJK bigrams (the ``cjk`` column), BM25-ranked.

        English stop words, and the ``common`` words, are left out when others
        remain (:mod:`rawrag_tui.words`, :meth:`common_words`).

        A CJK run in a query is cut into bigrams exactly as the index cut the
        windows (:mod:`.cjk`); a lone CJK character is a prefix query on the
        ``cjk`` column, whose tokens each start with one character.
        """
        terms = Store.fts_terms(text, common)
        return " OR ".join(t for t, _ in terms) if terms else None

    @staticmethod
    def fts_terms(text: str, common: Collection[str] = ()) -> list[tuple[str, str | None]]:
        """:meth:`fts_query`'s terms: (FTS5 term, the word it quotes; None for a CJK term)."""
        words, bigrams, singles = cjk.query_parts(text)
        words = content_words(words)
        words = [w for w in words if w not in common] or words
        quote = lambda t: '"' + t.replace('"', '""') + '"'  # noqa: E731
        terms: list[tuple[str, str | None]] = [(quote(t), t) for t in words]
        terms += [(f"cjk : {quote(t)}", None) for t in bigrams]
        terms += [(f"cjk : {quote(t)} *", None) for t in singles]
        return terms

    def common_words(self, words: Sequence[str], share: float) -> set[str]:
        """The words found in more than ``share`` of all windows.

        FTS5 scores every window a query term matches before it keeps the best
        N, so one such word costs a read of most of the index (a speaker's
        name is in every window of a two-person chat), while BM25 gives it
        next to no weight: its IDF is ~0 from half the windows on. Counts come
        from the index's own vocabulary (fts5vocab), looked up by the term as
        the index's porter tokenizer stems it.
        """
        if not words or share >= 1:
            return set()
        counts = self._word_counts()
        return {w for w in words if (self._term_docs(w, counts) or 0) > share * counts[""]}

    def _word_counts(self) -> dict[str, int]:
        """The windows each word stem is in, as far as looked up (:meth:`_term_docs`), and under
        ``""`` at least the number of windows (the largest id, read in O(1)); kept until a write."""
        generation = self.generation()
        if self._doc_counts[0] != generation:
            self._doc_counts = (generation, {"": self._scalar("SELECT COALESCE(MAX(id), 0) FROM windows")})
        return self._doc_counts[1]

    def _term_docs(self, word: str, counts: dict[str, int]) -> int | None:
        """How many windows hold ``word`` as the index stems it (fts5vocab), None when it is not
        one term. fts5vocab counts them by reading the term's whole posting list (10-30 ms for a
        name found in every window of 200,000): kept in ``counts`` (:meth:`_word_counts`)."""
        if self._vocab is None:
            self.conn.cursor().execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.windows_vocab USING fts5vocab(main, windows_fts, 'row')")
            self._vocab = self.conn.fts5_tokenizer("porter", ["unicode61"])
        stems = [t[2] for t in self._vocab(word.encode("utf-8"), apsw.FTS5_TOKENIZE_QUERY, None)]
        if len(stems) != 1:
            return None
        if self.conn.in_transaction:  # inside a write that may yet be rolled back: counted, not kept
            docs = self._one("SELECT doc FROM windows_vocab WHERE term = ?", (stems[0],))
            return int(docs[0]) if docs else 0
        if stems[0] not in counts:
            docs = self._one("SELECT doc FROM windows_vocab WHERE term = ?", (stems[0],))
            counts[stems[0]] = docs[0] if docs else 0
        return int(counts[stems[0]])

    def cjk_messages(self, source_id: int | None = None) -> tuple[int, int]:
        """(messages holding Chinese/Japanese/Korean text, all messages), of one source or all."""
        where, args = ("WHERE source_id = ?", (source_id,)) if source_id is not None else ("", ())
        row = self._one(
            f"SELECT COALESCE(SUM(text GLOB '{cjk.SQL_GLOB}'), 0), COUNT(*) FROM messages {where}", args)
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def lexical_search(self, query: str, n: int, common_share: float = 1.0,
                       allowed: bool = False, cache_bytes: int = 0) -> list[tuple[int, float]]:
        """(window id, BM25 score, higher is better) for the best ``n`` windows.

        Words in more than ``common_share`` of the windows are left out when
        others remain (:meth:`common_words`). ``allowed``: only the windows in
        ``temp.allowed_windows`` (:meth:`allow_windows`). ``cache_bytes``: each query term's
        scores are kept in up to this much memory and summed there (:mod:`.lexical_index`); 0, or
        inside an open write, FTS5 scores the matches (pruned: :meth:`_lexical_pruned`).
        """
        words = content_words(cjk.query_parts(query)[0])
        terms = self.fts_terms(query, self.common_words(words, common_share) if len(words) > 1 else ())
        if not terms:
            return []
        if cache_bytes > 0 and not self.conn.in_transaction:
            found = self._lexical.search([t for t, _ in terms], int(n), cache_bytes,
                                         read_allowed(self.conn) if allowed else None)
            if found is not None:
                return found
        if not allowed and len(terms) > 1 and not self.conn.in_transaction:
            terms, pruned = self._lexical_pruned(terms, int(n))
            if pruned is not None:
                return pruned
        match = " OR ".join(t for t, _ in terms)
        if allowed:
            # The matches walked in rowid order (cheap), each looked up among the allowed windows,
            # and BM25, the costly part, computed for the allowed ones only: 11-17 ms against 74-104
            # for scoring every match first, at 116,000 windows with a filter keeping 1%, the same
            # rows. As MATCH ... AND rowid IN (...) the planner sorted every match in a temp B-tree
            # (2-6x slower); driven from the allowed windows (rowid = ? per window), 20x.
            sql = ("SELECT windows_fts.rowid, bm25(windows_fts) AS score FROM windows_fts"
                   " CROSS JOIN temp.allowed_windows a ON a.id = windows_fts.rowid WHERE windows_fts MATCH ?"
                   " ORDER BY score, windows_fts.rowid LIMIT ?")
        else:
            sql = "SELECT rowid, bm25(windows_fts) FROM windows_fts WHERE windows_fts MATCH ? ORDER BY rank LIMIT ?"
        rows = self._rows(sql, (match, int(n)))
        return [(r[0], -r[1]) for r in rows]

    #: Give up pruning when the windows to score would be more than this share of all: the
    #: pool's own cost (laying it out, a second walk of the matches) then outweighs what it saves.
    PRUNE_SHARE = 0.25

    def _lexical_pruned(self, terms: list[tuple[str, str | None]],
                        n: int) -> tuple[list[tuple[str, str | None]], list[tuple[int, float]] | None]:
        """The best ``n`` windows for the query (FTS5 BM25, ties by window id, as ``ORDER BY rank``
        gives them), scoring only the windows of its rarer terms, or None when that cannot be
        shown to give the same top ``n`` (:mod:`.bm25_bound`); with the terms rarest first, the
        order the full query takes them in too (its score sums them in that order).

        Not inside an open write: the counts the bound rests on are read and kept between writes.
        """
        counts = self._word_counts()
        rows_bound = counts[""]
        docs = [self._term_docs(word, counts) if word is not None else None for _, word in terms]
        ranked = bm25_bound.order(docs)
        terms, docs = [terms[i] for i in ranked], [docs[i] for i in ranked]
        reached = 0.0  # the n-th best score met so far: the top n scores at least this
        for j, others_bound in bm25_bound.splits(docs, rows_bound, n):
            if others_bound >= reached > 0:  # this split cannot be shown exact: take a larger one
                continue
            if sum(d or 0 for d in docs[:j]) > self.PRUNE_SHARE * rows_bound:
                break
            rows = self._lexical_split(terms[:j], terms[j:], n)
            if len(rows) >= n:
                reached = rows[n - 1][1]
                if reached > others_bound * (1 + 1e-9):
                    return terms, rows
        return terms, None

    def _lexical_split(self, scored: list[tuple[str, str | None]], others: list[tuple[str, str | None]],
                       n: int) -> list[tuple[int, float]]:
        """The best ``n`` (window id, score) for ``scored OR others`` among the windows a ``scored``
        term matches. Two queries, those with an ``others`` term too and those without, each
        holding every term once (so BM25 is the full query's), and each led by the scored terms'
        few windows: FTS5 seeks the others' postings instead of reading them all."""
        first = "(" + " OR ".join(t for t, _ in scored) + ")"
        rest = "(" + " OR ".join(t for t, _ in others) + ")"
        sql = "SELECT rowid, bm25(windows_fts) FROM windows_fts WHERE windows_fts MATCH ? ORDER BY rank LIMIT ?"
        rows = [(r[0], -r[1]) for op in ("AND", "NOT") for r in self._rows(sql, (f"{first} {op} {rest}", n))]
        rows.sort(key=lambda r: (-r[1], r[0]))
        return rows[:n]

    def mentions(self, word: str) -> bool:
        """Whether any window holds ``word``, or (for words of 5+ letters) a word
        starting like it (a question's "Annas" finds the history's "Anna"): "no"
        only when the history surely lacks it (answer/unknown.py). A word written
        between CJK characters ("LINE乗っ取られ") is one token of the ``text``
        column and a token of its own in the ``cjk`` one (storage/cjk.py): both are asked."""
        word = word.strip()
        if not word:
            return True
        term = word if len(word) < 5 else word[: len(word) - 2]
        quoted = '"' + term.replace('"', '""') + '"'
        match = f"{{text cjk}} : {quoted}" if len(word) < 5 else f"{{text cjk}} : {quoted} *"
        return self._one("SELECT 1 FROM windows_fts WHERE windows_fts MATCH ? LIMIT 1", (match,)) is not None

    # -- deletion -----------------------------------------------------------

    def delete_conversations(self, ids: Iterable[int]) -> int:
        """Delete conversations; a source they leave with no message goes too (nothing of it is left to list)."""
        cur = self.conn.cursor()
        count = 0
        touched: set[int] = set()
        for cid in ids:
            touched.update(r[0] for r in self._rows("SELECT DISTINCT source_id FROM messages WHERE conversation_id = ?",
                                                    (cid,)))
            for (wid,) in self._rows("SELECT id FROM windows WHERE conversation_id = ?", (cid,)):
                cur.execute("DELETE FROM windows_fts WHERE rowid = ?", (wid,))
            note_write(cur)  # the in-memory term scores are stale (:mod:`.lexical_index`)
            cur.execute("DELETE FROM windows WHERE conversation_id = ?", (cid,))
            cur.execute("DELETE FROM messages WHERE conversation_id = ?", (cid,))
            cur.execute("DELETE FROM conversations WHERE id = ?", (cid,))
            count += self.conn.changes()
        for sid in touched:
            if self._one("SELECT 1 FROM messages WHERE source_id = ? LIMIT 1", (sid,)) is None:
                cur.execute("UPDATE conversations SET source_id = (SELECT MIN(m.source_id) FROM messages m"
                            " WHERE m.conversation_id = conversations.id) WHERE source_id = ?", (sid,))
                cur.execute("DELETE FROM sources WHERE id = ?", (sid,))
        return count

    def delete_source(self, source_id: int) -> dict[str, int]:
        """Remove what this import added; conversations left empty go too."""
        rows = self._rows("SELECT DISTINCT conversation_id FROM messages WHERE source_id = ?", (source_id,))
        touched = [r[0] for r in rows]
        cur = self.conn.cursor()
        cur.execute("DELETE FROM messages WHERE source_id = ?", (source_id,))
        removed = self.conn.changes()
        empty = [
            cid for cid in touched
            if self._one("SELECT 1 FROM messages WHERE conversation_id = ? LIMIT 1", (cid,)) is None
        ]
        self.delete_conversations(empty)
        for cid in set(touched) - set(empty):
            cur.execute("UPDATE conversations SET windowed_with = NULL WHERE id = ?", (cid,))
        # Conversations first seen in this source but kept alive by a later one move to it.
        for (cid,) in self._rows("SELECT id FROM conversations WHERE source_id = ?", (source_id,)):
            cur.execute(
                "UPDATE conversations SET source_id = (SELECT MIN(source_id) FROM messages WHERE conversation_id = ?)"
                " WHERE id = ?",
                (cid, cid),
            )
        cur.execute("DELETE FROM sources WHERE id = ?", (source_id,))
        return {"messages": removed, "conversations": len(empty), "rewindow": len(touched) - len(empty)}

    def collect_garbage(self) -> int:
        """Drop vectors whose text no window has any more; returns how many."""
        dropped = 0
        for (space,) in self._rows("SELECT id FROM embedding_spaces"):
            quantized = self._has_table(f"vecb_{space}")
            orphans = [
                r[0]
                for r in self._rows(
                    "SELECT v.id FROM vectors v WHERE v.space_id = ? AND NOT EXISTS"
                    " (SELECT 1 FROM windows w WHERE w.content_hash = v.content_hash)",
                    (space,),
                )
            ]
            cur = self.conn.cursor()
            for vid in orphans:
                cur.execute(f"DELETE FROM vecf_{space} WHERE id = ?", (vid,))
                if quantized:
                    cur.execute(f"DELETE FROM vecb_{space} WHERE rowid = ?", (vid,))
                cur.execute("DELETE FROM vectors WHERE id = ?", (vid,))
            if orphans:  # every in-memory matrix of this space is read again (:mod:`.vector_matrix`)
                self._matrices.drop()
                cur.execute("INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT(key)"
                            " DO UPDATE SET value = CAST(value AS INTEGER) + 1", (f"{REMOVED_KEY}{space}",))
            dropped += len(orphans)
        return dropped

    def scrub(self) -> bool:
        """Leave no freed bytes behind: merge the FTS index, rebuild the file, empty the WAL.

        Runs outside any transaction (VACUUM cannot run inside one). Returns
        whether the erasure is complete: while another process holds a read
        transaction, the rebuilt pages wait in the WAL and the old ones, with
        the deleted text, stay in the file. Then a marker is left beside the
        store and the next writer to open it finishes the job.
        """
        cur = self.conn.cursor()
        cur.execute("INSERT INTO windows_fts (windows_fts) VALUES ('optimize')")
        cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
        cur.execute("VACUUM")
        return self.finish_erasure(started=True)

    @property
    def _erasure_marker(self) -> Path:
        return self.path.with_name(self.path.name + ".erase-pending")

    def finish_erasure(self, started: bool = False) -> bool:
        """Copy the rebuilt pages over the old ones and empty the WAL; True once
        nothing deleted is left. Right after a delete it waits up to the busy
        timeout for readers to finish; when a later open finds the marker it
        tries once without waiting, so no command stalls behind an open app."""
        if not started and not self._erasure_marker.exists():
            return True
        self.conn.set_busy_timeout(BUSY_TIMEOUT_MS if started else 0)
        try:
            busy = self._scalar("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            self.conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        if busy:
            touch_private(self._erasure_marker)
            return False
        self._erasure_marker.unlink(missing_ok=True)
        return True

    # -- reading ------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        one = self._scalar
        return {
            "sources": one("SELECT COUNT(*) FROM sources"),
            "conversations": one("SELECT COUNT(*) FROM conversations"),
            "messages": one("SELECT COUNT(*) FROM messages"),
            "windows": one("SELECT COUNT(*) FROM windows"),
        }

    def sources(self) -> list[dict]:
        return self._dicts(
            "SELECT s.id, s.format, s.path, s.sha256, s.imported_at, s.messages_added, s.skipped,"
            " (SELECT COUNT(*) FROM messages m WHERE m.source_id = s.id) AS messages"
            " FROM sources s ORDER BY s.id"
        )

    def conversations(self, source_id: int | None = None, text_filter: str | None = None) -> list[dict]:
        where: list[str] = []
        args: list[Any] = []
        if source_id is not None:
            where.append("c.id IN (SELECT conversation_id FROM messages WHERE source_id = ?)")
            args.append(source_id)
        if text_filter:  # the words as typed: % and _ are letters here, not LIKE's wildcards
            where.append("c.title LIKE ? ESCAPE '\\'")
            args.append("%" + text_filter.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
        clause = ("WHERE " + " AND ".join(where)) if where else ""
        return self._dicts(
            "SELECT c.id, c.source_id, c.format, c.external_id, c.title, c.kind,"
            " (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS messages,"
            " (SELECT MIN(ts) FROM messages m WHERE m.conversation_id = c.id) AS first_ts,"
            " (SELECT MAX(ts) FROM messages m WHERE m.conversation_id = c.id) AS last_ts"
            f" FROM conversations c {clause} ORDER BY last_ts DESC, c.id",
            args,
        )

    def conversation(self, conversation_id: int) -> dict | None:
        rows = self._dicts(
            "SELECT c.id, c.source_id, c.format, c.external_id, c.title, c.kind,"
            " (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS messages"
            " FROM conversations c WHERE c.id = ?",
            (conversation_id,),
        )
        return rows[0] if rows else None

    def find_messages(self, *, message_id: int | None = None, external_id: str | None = None,
                      conversation_id: int | None = None) -> list[dict]:
        """Where a message lives (its conversation and seq), by row id or by export id."""
        where, args = [], []
        for column, value in (("m.id", message_id), ("m.external_id", external_id),
                              ("m.conversation_id", conversation_id)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        return self._dicts(
            "SELECT m.id, m.external_id, m.conversation_id, c.title AS conversation, m.seq FROM messages m"
            f" JOIN conversations c ON c.id = m.conversation_id WHERE {' AND '.join(where) or '1'}"
            " ORDER BY m.conversation_id, m.seq LIMIT 50",
            args,
        )

    def messages(self, conversation_id: int, offset: int = 0, limit: int = -1) -> list[dict]:
        return self._dicts(
            "SELECT id, external_id, seq, ts, ts_kind, speaker, role, text, attachments, captions,"
            " parent_external_id, on_main_branch, source_id FROM messages WHERE conversation_id = ?"
            " ORDER BY seq LIMIT ? OFFSET ?",
            (conversation_id, limit, offset),
        )
