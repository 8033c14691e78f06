"""A lock across processes, for work that two rawrags must not do at once.

SQLite serialises writes, not work done between them: two processes that
both embed what is pending read the same windows and embed them both (1,375
embeddings for 717 windows, measured with two imports at once). An exclusive
``flock`` on a small file beside the store makes the second wait; it then
finds nothing left to do. The lock goes with the process: a killed indexer
never leaves it held.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path

#: Beside the store: held by whoever embeds (one indexer per home), and by encrypt/decrypt/rekey.
INDEX_LOCK_SUFFIX = ".embed-lock"


def index_lock(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + INDEX_LOCK_SUFFIX)


@contextlib.contextmanager
def exclusive(path: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold ``path``'s lock for the block; ``on_wait`` is called once if another holder makes this one wait."""
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
