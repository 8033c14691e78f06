"""What `rawrag sync` remembers in the store: added folders, how far each file was read, the last run.

Kept in the home's own database (migration 5), so a sync's file state is
committed in the same transaction as the messages it read: a sync killed
midway leaves each file either read with its state, or untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..storage.store import Store, now_iso

#: The meta key of the last sync's summary (when, what it added, what failed).
LAST_SYNC = "sync:last"


@dataclass
class FileState:
    """One live file as the last sync left it."""

    path: str
    format: str | None
    source_id: int | None
    size: int
    mtime_ns: int
    read_to: int = 0
    lines: int = 0
    tail_hash: str | None = None
    tail_len: int = 0
    messages_added: int = 0
    state: str = "read"
    problem: str | None = None

    def unchanged(self, size: int, mtime_ns: int) -> bool:
        """The stat-only fast path: same size and time, and nothing to retry."""
        return self.size == size and self.mtime_ns == mtime_ns and self.state != "failed"


_FILE_COLUMNS = ("path", "format", "source_id", "size", "mtime_ns", "read_to", "lines", "tail_hash", "tail_len",
                 "messages_added", "state", "problem")


def file_states(store: Store) -> dict[str, FileState]:
    """Every file's state, read in one query (the no-change path stats files against it)."""
    rows = store.conn.cursor().execute(f"SELECT {', '.join(_FILE_COLUMNS)} FROM sync_files")
    return {row[0]: FileState(*row) for row in rows}


def save_file(store: Store, state: FileState) -> None:
    values = [getattr(state, name) for name in _FILE_COLUMNS]
    store.conn.cursor().execute(
        f"INSERT OR REPLACE INTO sync_files ({', '.join(_FILE_COLUMNS)}, synced_at)"
        f" VALUES ({', '.join('?' * len(_FILE_COLUMNS))}, ?)",
        (*values, now_iso()),
    )


def source_exists(store: Store, source_id: int | None) -> bool:
    return source_id is not None and store.conn.cursor().execute(
        "SELECT 1 FROM sources WHERE id = ?", (source_id,)).fetchone() is not None


def grow_source(store: Store, source_id: int, conversations: int, added: int) -> None:
    """A live file's source row counts every message its syncs added."""
    store.conn.cursor().execute(
        "UPDATE sources SET conversations = MAX(conversations, ?), messages_added = messages_added + ? WHERE id = ?",
        (conversations, added, source_id),
    )


def listed_sources(store: Store) -> list[dict[str, str]]:
    """Folders the person added, and found sources set aside: [{path, pattern, kind}]."""
    rows = store.conn.cursor().execute("SELECT path, pattern, kind FROM sync_sources ORDER BY added_at, path")
    return [{"path": p, "pattern": pattern, "kind": kind} for p, pattern, kind in rows]


def put_source(store: Store, path: str, pattern: str, kind: str) -> None:
    with store.transaction():
        store.conn.cursor().execute(
            "INSERT OR REPLACE INTO sync_sources (path, pattern, kind, added_at) VALUES (?, ?, ?, ?)",
            (path, pattern, kind, now_iso()))


def drop_source(store: Store, path: str) -> bool:
    with store.transaction():
        cur = store.conn.cursor()
        cur.execute("DELETE FROM sync_sources WHERE path = ?", (path,))
        return store.conn.changes() > 0


def last_sync(store: Store) -> dict[str, Any] | None:
    """The last sync's summary: {at, seconds, added, files_read, failed: [line, ...]}; None before the first."""
    raw = store.meta_get(LAST_SYNC)
    return json.loads(raw) if raw else None


def record_last_sync(store: Store, summary: dict[str, Any]) -> None:
    with store.transaction():
        store.meta_set(LAST_SYNC, json.dumps(summary, ensure_ascii=False))
