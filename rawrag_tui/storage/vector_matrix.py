"""One embedding space's vectors held in memory as one matrix: exact nearest neighbours by one product.

Why: scanned row by row in SQL (``vec_distance_cosine`` per row) the exact
dense search cost ~3 ms per 1,000 vectors; the same floats as one numpy
matrix take one matrix-vector product (BLAS, and it releases the GIL), about
0.1 ms per 1,000 on the 2-core machine of docs/benchmarks.md. The cost is
memory: rows x dims x 4 bytes (200,000 windows x 384 dims = 307 MB), so a
space larger than ``retrieval.vector_cache_mb`` stays on the SQL paths.

The store stays the single source of truth. The matrix is a copy of
``vecf_N`` rows, checked before every use:

- nothing written since the last check, on this connection
  (``total_changes``) or by another one (``PRAGMA data_version``),
  :meth:`Store.generation`: as it was;
- vectors only added (the largest id grew, nothing removed): the new rows are
  read and appended;
- anything removed (:meth:`Store.collect_garbage` bumps a counter in ``meta``,
  ``vectors-removed:space-N``), or the largest id went down (a rolled-back
  write): read again whole.

A matrix is never read from inside an open write transaction (its rows could
still be rolled back): the SQL paths answer there. Which windows a vector
stands for is always asked of SQL at query time, so a deleted window never
comes back from a stale row. One copy per database file per process, shared
by its connections.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import apsw
import numpy as np

#: meta key prefix + space id: bumped whenever vectors of that space are removed.
REMOVED_KEY = "vectors-removed:space-"


_BLAS: Any = None


def one_blas_thread() -> contextlib.AbstractContextManager:
    """BLAS limited to one thread for a matrix-vector product (threadpoolctl).

    The product is bound by memory, not arithmetic, so a second thread gains
    little; and OpenBLAS's second thread, asleep between searches, woke late on
    a shared CPU: 35 ms against 3.4 for 13,000 x 384 on the 2-core machine
    under load, and it spun a core meanwhile (56 against 35 ms CPU per
    filtered search at 116,000 windows).
    """
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController()  # finds the loaded BLAS once (a few ms)
    return _BLAS.limit(limits=1, user_api="blas")


#: A matrix of more rows than this is multiplied in two halves, on two threads (:func:`product`).
SPLIT_ROWS = 50_000

_HALF: Any = None  # the thread that multiplies a large matrix's second half


def product(unit: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``unit @ q``, a large matrix's two halves on two threads (each one BLAS thread, the GIL
    released in the product): 200,000 x 384 floats take 37 ms on one core of the 2-core machine
    of docs/benchmarks.md, less in wall time on both. Each row's dot product does not depend on
    the others (BLAS may round a row's last bit differently by where it falls in a block)."""
    global _HALF
    if len(unit) <= SPLIT_ROWS:
        return unit @ q
    if _HALF is None:
        from concurrent.futures import ThreadPoolExecutor

        _HALF = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rawrag-product")
    half = len(unit) // 2
    second = _HALF.submit(np.matmul, unit[half:], q)
    first = unit[:half] @ q
    return np.concatenate([first, second.result()])


@dataclass
class SpaceMatrix:
    """The unit-length float32 vectors of one space, by ascending vector id."""

    dims: int
    ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    count: int = 0
    removed: str | None = None

    def __post_init__(self) -> None:
        self._buffer = np.zeros((0, self.dims), dtype=np.float32)

    @property
    def unit(self) -> np.ndarray:
        return self._buffer[: self.count]

    @property
    def top(self) -> int:
        return int(self.ids[-1]) if self.count else 0

    @property
    def nbytes(self) -> int:
        return self.count * self.dims * 4

    def reserve(self, rows: int) -> None:
        """Room for ``rows`` in all, allocated once (a whole read knows its count: no spare half)."""
        if rows > len(self._buffer):
            grown = np.empty((rows, self.dims), dtype=np.float32)
            grown[: self.count] = self._buffer[: self.count]
            self._buffer = grown

    def append(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors /= np.where(norms > 0, norms, 1)  # a zero vector stays zero: similarity 0 to all
        need = self.count + len(ids)
        if need > len(self._buffer):  # grow by half again, so a stream of small appends copies rarely
            self.reserve(max(need, len(self._buffer) * 3 // 2, 1024))
        self._buffer[self.count: need] = vectors
        self.ids = np.concatenate([self.ids, ids])
        self.count = need  # last: a search reading count sees rows and ids already there

    def nearest(self, query: np.ndarray, n: int, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(vector ids, cosine distances) of the ``n`` nearest, nearest first; ``rows``: among these rows only."""
        q = np.asarray(query, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        q = q / norm if norm > 0 else q
        count = self.count  # rows past it may be being appended by another connection
        unit, all_ids = self._buffer[:count], self.ids[:count]
        ids = all_ids if rows is None else all_ids[rows]
        with one_blas_thread():
            sims = product(unit, q) if rows is None else unit[rows] @ q
        if len(sims) > n:
            part = np.argpartition(-sims, n - 1)[:n]
            ids, sims = ids[part], sims[part]
        order = np.lexsort((ids, -sims))
        return ids[order], (1.0 - sims[order]).astype(np.float64)

    def rows_of(self, vector_ids: np.ndarray) -> np.ndarray:
        """Row numbers of the given vector ids (those held here)."""
        count = self.count
        ids = self.ids[:count]
        at = np.minimum(np.searchsorted(ids, vector_ids), max(count - 1, 0))
        return at[ids[at] == vector_ids] if count else at[:0]


@dataclass
class DensePlan:
    """What SQL decided before the product (:meth:`Store.dense_plan`): the matrix, the rows to
    score (None: all), how many of the nearest to take. :meth:`nearest` reads no SQL, so it can
    run on another thread while the connection serves the lexical channel."""

    matrix: SpaceMatrix
    space_id: int
    n: int
    k: int
    rows: np.ndarray | None = None
    allowed: bool = False

    def nearest(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.matrix.nearest(query, self.k, self.rows)


#: (database file, space id) -> its matrix, one per process: every connection to the file (the MCP
#: server opens several) reads and checks the same copy, so the memory is paid once.
_SHARED: dict[tuple[str, int], SpaceMatrix] = {}
_SHARED_LOCK = threading.Lock()  # one connection at a time checks or reads rows into them


def forget(database: str) -> None:
    """Let go of ``database``'s matrices (its last store in this process closed: a deleted memory's
    vectors do not stay in a long-lived process, and many stores opened in turn are not all held)."""
    with _SHARED_LOCK:
        for key in [k for k in _SHARED if k[0] == database]:
            del _SHARED[key]


class VectorMatrices:
    """One connection's view of its database's matrices, kept current with the store (see the module doc)."""

    def __init__(self, conn: apsw.Connection, generation: Callable[[], tuple[int, int]], database: str):
        self.conn = conn
        self.generation = generation  # Store.generation
        self.database = database
        self._checked: dict[int, tuple[tuple[int, int], SpaceMatrix]] = {}  # space -> (stamp, matrix checked then)
        self._too_big: dict[int, tuple[int, int]] = {}  # space -> the stamp when it was found too big

    def _scalar(self, sql: str, args: tuple = ()) -> Any:
        row = self.conn.cursor().execute(sql, args).fetchone()
        return row[0] if row else None

    def drop(self) -> None:
        """Forget every matrix of this database (vectors were removed: the next search reads them again)."""
        self._checked.clear()
        self._too_big.clear()
        forget(self.database)

    def current(self, space_id: int, dims: int, max_bytes: int) -> SpaceMatrix | None:
        """The space's matrix as the store holds it now; None when it would take more than
        ``max_bytes``, or while this connection has a write open (rows that may still be rolled
        back are never kept: the SQL paths, which see them, answer)."""
        stamp = self.generation()
        key = (self.database, space_id)
        checked = self._checked.get(space_id)
        if checked is not None and checked[0] == stamp and _SHARED.get(key) is checked[1]:
            return checked[1]
        if self._too_big.get(space_id) == stamp or self.conn.in_transaction:
            return None
        with _SHARED_LOCK:
            self.conn.cursor().execute("BEGIN")  # one snapshot for the checks and the rows read
            try:
                held = self._refresh(key, space_id, dims, max_bytes)
            finally:
                self.conn.cursor().execute("COMMIT")
        if held is None:
            self._too_big[space_id] = stamp
            return None
        self._checked[space_id] = (stamp, held)
        return held

    def _refresh(self, key: tuple[str, int], space_id: int, dims: int, max_bytes: int) -> SpaceMatrix | None:
        removed = self._scalar("SELECT value FROM meta WHERE key = ?", (f"{REMOVED_KEY}{space_id}",))
        top = int(self._scalar(f"SELECT COALESCE(MAX(id), 0) FROM vecf_{space_id}"))
        held = _SHARED.get(key)
        if held is None or held.removed != removed or top < held.top or held.dims != dims:
            _SHARED.pop(key, None)
            count = int(self._scalar("SELECT COUNT(*) FROM vectors WHERE space_id = ?", (space_id,)))
            if count * dims * 4 > max_bytes:
                return None
            held = SpaceMatrix(dims, removed=removed)
            held.reserve(count)
        if top > held.top:  # appended in place: a search using it meanwhile sees a whole prefix
            self._read(held, space_id, max_bytes)
            if held.nbytes > max_bytes:
                _SHARED.pop(key, None)
                return None
        _SHARED[key] = held
        return held

    def _read(self, held: SpaceMatrix, space_id: int, max_bytes: int, batch: int = 8192) -> None:
        cur = self.conn.cursor().execute(
            f"SELECT id, embedding FROM vecf_{space_id} WHERE id > ? ORDER BY id", (held.top,))
        while rows := list(itertools.islice(cur, batch)):
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            flat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            held.append(ids, flat.reshape(len(rows), held.dims).copy())
            if held.nbytes > max_bytes:
                return
