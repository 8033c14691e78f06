"""The lexical channel's BM25 top N from each query term's scores, kept in memory between writes.

Why: FTS5 computes BM25 for every window a query term matches, then keeps
the best N; at a heavy user's scale a question's everyday words match tens of
thousands of windows, and that is paid again at every search (49 ms CPU at
200,000 windows even with storage/bm25_bound.py's pruning). But FTS5's score
for an OR of terms is a sum, term by term, of what each term alone scores
(fts5_aux.c: ``score += idf[i] * tf * (k1 + 1) / (tf + k1 * (1 - b + b * D / avgdl))``,
the term's IDF, the window's length D and the average length are the same
whichever other terms the query holds; a term a window lacks adds exactly 0).
So each term's ``(window id, bm25)`` pairs are read once, from FTS5 itself
(the term alone as the query), and a search adds them up in the query's term
order with numpy (``bincount`` sums in input order, as FTS5 does: the same
float64 additions, so the same scores to the last bit) and takes the best N,
ties by window id as ``ORDER BY rank`` gives them.

Kept while the indexed text is unchanged: :meth:`Store.generation` says when
anything may have been written (the fast path, as for the vector matrix,
storage/vector_matrix.py); then a counter in ``meta`` (``WRITTEN_KEY``),
bumped by every write of window text (:func:`note_write`), says whether
the windows were. Not used inside an open write (FTS5 answers there). One
cache per database file per process, shared by its connections, bounded by
``max_bytes`` (least recently used terms go first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import apsw
import numpy as np

#: meta key: bumped whenever a window's indexed text is written or removed.
WRITTEN_KEY = "windows-written"

#: Bytes per cached (window id, score) pair: int32 + float64 (int64 ids past 2**31 - 1).
PAIR_BYTES = 12


def note_write(cursor: apsw.Cursor) -> None:
    """Record, in the writing transaction, that window text changed (every cached term score is stale)."""
    cursor.execute("INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT(key)"
                   " DO UPDATE SET value = CAST(value AS INTEGER) + 1", (WRITTEN_KEY,))


class TermScores:
    """Each FTS5 term's (window ids, BM25 scores), for one state of the windows (``written``)."""

    def __init__(self, written: str | None, max_bytes: int):
        self.written = written
        self.max_bytes = max_bytes
        self.nbytes = 0
        self.terms: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        with self.lock:
            found = self.terms.get(term)
            if found is not None:
                self.terms.move_to_end(term)
            return found

    def put(self, term: str, pairs: tuple[np.ndarray, np.ndarray]) -> None:
        size = pairs[0].nbytes + pairs[1].nbytes
        if size > self.max_bytes:
            return
        with self.lock:
            if term in self.terms:
                return
            while self.terms and self.nbytes + size > self.max_bytes:
                _, (ids, scores) = self.terms.popitem(last=False)
                self.nbytes -= ids.nbytes + scores.nbytes
            self.terms[term] = pairs
            self.nbytes += size


#: database file -> its term scores, one per process: every connection to the file shares them.
_SHARED: dict[str, TermScores] = {}
_SHARED_LOCK = threading.Lock()


def forget(database: str) -> None:
    """Let go of ``database``'s term scores (its last store in this process closed)."""
    with _SHARED_LOCK:
        _SHARED.pop(database, None)


class LexicalIndex:
    """One connection's view of its database's term scores, kept current with the store (module doc)."""

    def __init__(self, conn: apsw.Connection, generation: Callable[[], tuple[int, int]], database: str):
        self.conn = conn
        self.generation = generation  # Store.generation
        self.database = database
        self._checked: tuple[tuple[int, int], TermScores] | None = None

    def current(self, max_bytes: int = 0) -> TermScores | None:
        """The term scores for the windows as the store holds them now; None inside an open write."""
        if self.conn.in_transaction:
            return None
        stamp = self.generation()
        checked = self._checked
        if checked is not None and checked[0] == stamp and _SHARED.get(self.database) is checked[1]:
            return checked[1]
        row = self.conn.cursor().execute("SELECT value FROM meta WHERE key = ?", (WRITTEN_KEY,)).fetchone()
        written = row[0] if row else None
        with _SHARED_LOCK:
            held = _SHARED.get(self.database)
            if held is None or held.written != written:
                held = _SHARED[self.database] = TermScores(written, max_bytes)
        self._checked = (stamp, held)
        return held

    def _read(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """FTS5's own BM25 for each window the term matches, the term alone as the query."""
        rows: list[Any] = self.conn.cursor().execute(
            "SELECT rowid, bm25(windows_fts) FROM windows_fts WHERE windows_fts MATCH ?", (term,)).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        if len(ids) and int(ids.max()) < 2**31:
            ids = ids.astype(np.int32)
        scores = np.fromiter((-r[1] for r in rows), dtype=np.float64, count=len(rows))
        return ids, scores

    def search(self, terms: Sequence[str], n: int, max_bytes: int,
               allowed: np.ndarray | None = None) -> list[tuple[int, float]] | None:
        """(window id, score) of the best ``n`` windows for the OR of ``terms`` (FTS5 term syntax,
        in the order the query gives them), as FTS5's ``ORDER BY rank`` returns them, or among
        the ``allowed`` window ids only; None inside an open write. The scores kept take at most
        ``max_bytes`` (``retrieval.lexical_cache_mb``)."""
        held = self.current(max_bytes)
        if held is None or not terms or n <= 0:
            return None if held is None else []
        held.max_bytes = max_bytes
        pairs = []
        for term in terms:
            found = held.get(term)
            if found is None:
                found = self._read(term)
                held.put(term, found)
            pairs.append(found)
        return top_n(pairs, n, allowed)


def top_n(pairs: Sequence[tuple[np.ndarray, np.ndarray]], n: int,
          allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
    """The best ``n`` of the summed scores (each pair: window ids, a term's scores), ties by id."""
    size = max((int(w.max()) + 1 for w, _ in pairs if len(w)), default=0)
    if size == 0:
        return []
    total: np.ndarray
    if len(pairs) == 1:
        total = np.zeros(size, dtype=np.float64)
        total[pairs[0][0]] = pairs[0][1]
    else:  # summed per window in the terms' order, as FTS5 adds them
        total = np.bincount(np.concatenate([w for w, _ in pairs]),
                            weights=np.concatenate([s for _, s in pairs]), minlength=size)
    # A window a term matches scores > 0: each term adds its IDF (>= 1e-6) times a positive share.
    ids = np.flatnonzero(total) if allowed is None else allowed[allowed < size].astype(np.int64)
    scores = total[ids]
    if allowed is not None:
        ids, scores = ids[scores > 0], scores[scores > 0]
    if len(scores) > n:  # every window scoring at least the n-th best, ties included, then the order
        cut = np.partition(scores, len(scores) - n)[len(scores) - n]
        ids, scores = ids[scores >= cut], scores[scores >= cut]
    order = np.lexsort((ids, -scores))[:n]
    return [(int(i), float(s)) for i, s in zip(ids[order], scores[order])]


def read_allowed(conn: apsw.Connection) -> np.ndarray:
    """The window ids laid into ``temp.allowed_windows`` (Store.allow_windows)."""
    rows: Any = conn.cursor().execute("SELECT id FROM temp.allowed_windows")
    return np.fromiter((r[0] for r in rows), dtype=np.int64)
