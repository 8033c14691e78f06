"""Opening the one SQLite file safely, with sqlite-vec loaded.

Why apsw and not the stdlib ``sqlite3``: the stdlib module on this machine
(and on macOS system Pythons) is built without ``enable_load_extension``, so
it cannot load sqlite-vec. apsw ships its own current SQLite (FTS5 included),
loads extensions on every platform, and exposes SQLite's own transaction
semantics instead of the DB-API's implicit ones, which an all-or-nothing
import needs. pysqlite3-binary also worked here but is Linux x86_64 only.
"""

from __future__ import annotations

import os
from pathlib import Path

import apsw

from ..errors import UserError
from . import encryption

DIR_MODE = 0o700
#: How long a writer waits for another process's lock (or, emptying the WAL, for its readers).
BUSY_TIMEOUT_MS = 10_000
FILE_MODE = 0o600


def ensure_private_dir(path: Path) -> Path:
    """``path`` as a folder only its owner can enter; a path that cannot be one
    (a file, a folder without write access) is one line, not a traceback."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        os.chmod(path, DIR_MODE)
    except FileExistsError:
        raise UserError(f"{path}: cannot be used as a rawrag data folder: it is a file") from None
    except NotADirectoryError:
        raise UserError(f"{path}: cannot be used as a rawrag data folder: a part of its path is a file") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot be used as a rawrag data folder: {exc.strerror or exc}") from None
    return path


def touch_private(path: Path) -> None:
    try:
        fd = os.open(path, os.O_CREAT | os.O_RDWR, FILE_MODE)
        os.close(fd)
        os.chmod(path, FILE_MODE)
    except OSError as exc:
        raise UserError(f"{path}: cannot open the store: {exc.strerror or exc}") from None


def connect(db_path: Path, readonly: bool = False) -> apsw.Connection:
    """A connection with sqlite-vec loaded and the house pragmas set.

    The file is created 0600 before SQLite opens it; SQLite gives the -wal
    and -shm files the database file's permissions. An encrypted store
    (:mod:`.encryption`) is keyed first, with the first passphrase that
    opens it (:func:`.keys.candidates`).
    """
    import sqlite_vec

    if readonly:
        flags = apsw.SQLITE_OPEN_READONLY
    else:
        ensure_private_dir(db_path.parent)
        touch_private(db_path)
        flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
    conn = encryption.open_connection(db_path, flags)
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.enable_load_extension(False)
    conn.set_busy_timeout(BUSY_TIMEOUT_MS)
    cur = conn.cursor()
    if not readonly:
        cur.execute("PRAGMA journal_mode=WAL")
    # secure_delete zeroes freed pages: deleted history leaves no bytes behind.
    cur.execute("PRAGMA secure_delete=ON")
    # Statement journals and sort spills stay in memory: SQLite would write them,
    # unnamed and holding message text, to /var/tmp (a large import does).
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    return conn
