"""An encrypted store: SQLite3 Multiple Ciphers (the ``apsw-sqlite3mc`` build of apsw).

Every page of the database and of its WAL is encrypted by SQLite itself, so
FTS5, sqlite-vec and the rest of the store work unchanged on top; SQLite's
temporary storage stays in memory (:mod:`.db`), so no other file holds text.

The cipher is ChaCha20-Poly1305, sqlite3mc's default, named here so that a
future default cannot change what an existing store needs: it authenticates
every page (a changed byte is an error, not silently different text), runs in
constant time in software on every CPU (no AES-NI needed), and its key
derivation (PBKDF2-SHA256, 64,007 rounds) took 87 ms per open here against
500 ms for the SQLCipher scheme's, which every `rawrag` command pays once.

Whether a store is encrypted is read from the file itself: a plain SQLite
file starts with "SQLite format 3"; an encrypted one starts with its random
salt. A marker beside the store (no secret in it) says so before the first
page exists (a new ``init --encrypt`` home) and which cipher and keyring were
used. Encrypting, decrypting and rekeying write a whole new copy beside the
store (``VACUUM INTO`` under the new key), check it, fsync it and rename it
over the old one: a process killed on the way leaves the old store as it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import apsw

from ..errors import UserError
from ..progress import Progress
from . import keys
from .locks import exclusive, index_lock

CIPHER = "chacha20"
MARKER_SUFFIX = ".encrypted"
#: The new copy while it is written; never left behind by a finished run.
REWRITE_SUFFIX = ".rewrite"
#: Held shared by every open store, exclusively by a rewrite: neither waits for the other.
IN_USE_SUFFIX = ".in-use"
PLAIN_HEADER = b"SQLite format 3\x00"
#: How many SQLite VM steps between two looks at a rewrite's progress (SQLite counts them per
#: statement, so a small store's copy may never reach it); it reports at most every REPORT_EVERY_S.
PROGRESS_STEPS = 1000
REPORT_EVERY_S = 0.1


def marker_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + MARKER_SUFFIX)


def read_marker(db_path: Path) -> dict | None:
    try:
        return json.loads(marker_path(db_path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {}  # damaged: still says "encrypted"; the cipher is the default


def write_marker(db_path: Path, keyring: str | None) -> None:
    """Atomically, 0600: the cipher and the keyring that holds the passphrase (None: it is asked)."""
    path = marker_path(db_path)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"cipher": CIPHER, "keyring": keyring}, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def is_encrypted(db_path: Path) -> bool:
    """True for a store that needs a passphrase (or a file that is no SQLite store at all)."""
    try:
        with open(db_path, "rb") as f:
            head = f.read(len(PLAIN_HEADER))
    except FileNotFoundError:
        head = b""
    except OSError:
        return False  # unreadable: connect() says why
    if head:
        return head != PLAIN_HEADER
    return marker_path(db_path).exists()  # a new, still empty store made to be encrypted


def _hexkey(passphrase: str) -> str:
    """``PRAGMA hexkey`` of the passphrase's UTF-8 bytes: the same key as ``PRAGMA key``, with no quoting."""
    return passphrase.encode("utf-8").hex()


def apply_key(conn: apsw.Connection, db_path: Path, passphrase: str) -> None:
    """Key a freshly opened connection, and prove the key on the first page."""
    cipher = (read_marker(db_path) or {}).get("cipher") or CIPHER
    conn.pragma("cipher", cipher)
    conn.pragma("hexkey", _hexkey(passphrase))
    check_key(conn, db_path)


def check_key(conn: apsw.Connection, db_path: Path) -> None:
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except (apsw.NotADBError, apsw.CorruptError):
        raise UserError(f"{db_path}: wrong passphrase or not a rawrag store") from None


def _open(db_path: Path, flags: int) -> apsw.Connection:
    try:
        return apsw.Connection(str(db_path), flags=flags)
    except apsw.CantOpenError as exc:
        raise UserError(f"{db_path}: cannot open the store: {exc}") from None


def open_connection(db_path: Path, flags: int) -> apsw.Connection:
    """A connection to the store, keyed with the first passphrase that opens it where it is
    encrypted (that one is remembered for this process); a file that is no SQLite store is one line."""
    if not is_encrypted(db_path):
        conn = _open(db_path, flags)
        try:
            check_key(conn, db_path)
        except UserError:
            conn.close()
            raise
        return conn
    for passphrase in keys.candidates(db_path):
        conn = _open(db_path, flags)
        try:
            apply_key(conn, db_path, passphrase)
        except UserError:
            conn.close()
            continue
        keys.remember(db_path, passphrase)
        return conn
    raise UserError(f"{db_path}: wrong passphrase or not a rawrag store")


# -- who holds the store --------------------------------------------------------


def hold_open(db_path: Path) -> int:
    """A descriptor holding the store's in-use lock shared, for as long as the store is open."""
    import fcntl

    fd = os.open(db_path.with_name(db_path.name + IN_USE_SUFFIX), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise UserError(f"{db_path}: another rawrag is encrypting, decrypting or rekeying this store: "
                        "run this again when it has finished") from None
    _discard(db_path.with_name(db_path.name + REWRITE_SUFFIX))  # a killed rewrite's partial copy
    return fd


@contextlib.contextmanager
def alone(db_path: Path) -> Iterator[None]:
    """The in-use lock, exclusively and at once: no other rawrag has the store open."""
    import fcntl

    fd = os.open(db_path.with_name(db_path.name + IN_USE_SUFFIX), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(f"{db_path}: another rawrag has this store open (the app, an MCP server, an import): "
                            "close it, then run this again") from None
        yield
    finally:
        os.close(fd)


# -- encrypt, decrypt, rekey ------------------------------------------------------


def _discard(path: Path) -> None:
    for leftover in (path, path.with_name(path.name + "-journal")):
        leftover.unlink(missing_ok=True)


def _target(path: Path, passphrase: str | None) -> str:
    """The URI ``VACUUM INTO`` writes: sqlite3mc takes the copy's cipher and key from it
    (an empty key: a plain copy; without one the copy would take the source's key)."""
    query = {"cipher": CIPHER, "hexkey": _hexkey(passphrase)} if passphrase else {"key": ""}
    return "file:" + urllib.parse.quote(str(path)) + "?" + urllib.parse.urlencode(query)


def _copy(db_path: Path, tmp: Path, new: str | None, stage: str, progress: Progress | None) -> None:
    """The whole store, under ``new`` (None: plain), into ``tmp``; reports pages written."""
    import sqlite_vec

    src = open_connection(db_path, apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_URI)
    try:
        src.enable_load_extension(True)
        src.load_extension(sqlite_vec.loadable_path())
        src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = int(src.pragma("page_size"))
        total = int(src.pragma("page_count"))

        last = [0.0]

        def report() -> bool:
            """Pages written so far; called inside VACUUM INTO, so it reports only once the copy exists."""
            now = time.monotonic()
            if progress is None or now - last[0] < REPORT_EVERY_S:
                return False  # go on
            try:
                done = tmp.stat().st_size // page_size
            except FileNotFoundError:
                return False
            last[0] = now
            progress(stage, min(done, total), total)
            return False

        src.set_progress_handler(report, PROGRESS_STEPS)
        src.execute("VACUUM INTO ?", (_target(tmp, new),))
        src.set_progress_handler(None)
    finally:
        src.close()  # the last connection: SQLite folds the WAL in and removes it
    if progress is not None:
        progress(stage, total, total)


def _check(tmp: Path, new: str | None) -> None:
    """The copy opens under the new key and SQLite finds it whole, before it replaces anything."""
    conn = apsw.Connection(str(tmp), flags=apsw.SQLITE_OPEN_READWRITE)
    try:
        if new:
            conn.pragma("cipher", CIPHER)
            conn.pragma("hexkey", _hexkey(new))
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    finally:
        conn.close()
    if problems != ["ok"]:
        raise UserError(f"{tmp}: the new copy failed SQLite's check ({problems[0]}); the store was left as it was")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _swap(tmp: Path, db_path: Path) -> None:
    """The new copy takes the store's name in one rename; the directory entry is made durable."""
    for side in ("-wal", "-shm"):
        stale = db_path.with_name(db_path.name + side)
        if side == "-wal" and stale.exists() and stale.stat().st_size:
            raise UserError(f"{stale}: the store's write-ahead log is not empty; the store was left as it was")
        stale.unlink(missing_ok=True)  # belongs to the old file: it must never be read against the new one
    os.replace(tmp, db_path)
    _fsync(db_path.parent)


def _overwrite(fd: int) -> None:
    """Zero the old file's bytes (now nameless) where the filesystem writes in place: best effort."""
    size = os.fstat(fd).st_size
    block = b"\0" * (1 << 20)
    os.lseek(fd, 0, os.SEEK_SET)
    written = 0
    while written < size:
        written += os.write(fd, block[: min(len(block), size - written)])
    os.fsync(fd)


def rewrite(db_path: Path, new: str | None, stage: str, progress: Progress | None = None) -> None:
    """Replace the store with a copy under ``new`` (None: plain), atomically.

    The old passphrase comes from :func:`keys.candidates`. Holds the home's
    index lock (no import embeds meanwhile) and needs the store to itself.
    The caller writes the marker after (the file's header is what counts).
    """
    if not db_path.exists() or not db_path.stat().st_size:
        raise UserError(f"{db_path.parent}: there is no store here yet (`rawrag init --encrypt` makes a new one)")
    tmp = db_path.with_name(db_path.name + REWRITE_SUFFIX)
    with alone(db_path), exclusive(index_lock(db_path)):  # refused at once, never a silent wait
        _discard(tmp)
        erase_old = stage != "decrypt"  # the old bytes were plain text, or under a key being retired
        try:
            _copy(db_path, tmp, new, stage, progress)
            _check(tmp, new)
            os.chmod(tmp, 0o600)
            _fsync(tmp)
        except BaseException:
            _discard(tmp)
            raise
        old = os.open(db_path, os.O_RDWR) if erase_old else None
        try:
            _swap(tmp, db_path)
            if old is not None:
                _overwrite(old)
        finally:
            if old is not None:
                os.close(old)


def opens(db_path: Path, passphrase: str) -> bool:
    """Whether ``passphrase`` opens the encrypted store (nothing is remembered)."""
    try:
        conn = _open(db_path, apsw.SQLITE_OPEN_READWRITE)
    except UserError:
        return False
    try:
        apply_key(conn, db_path, passphrase)
    except UserError:
        return False
    finally:
        conn.close()
    return True
