"""One sync: read what is new in every live source, one transaction per file.

Session logs (Claude Code, Codex) are appended while a session runs. Each
file's state keeps how far it was read (``read_to``, the end of the last
complete line), a hash of that last line, and the file's size and time:

- same size and time: the file is not opened (the no-change path is a stat);
- the line before ``read_to`` still hashes the same: the file was appended
  to, and only lines past ``read_to`` are new: their unreadable lines are
  the ones reported, and a file with no new complete line is left alone;
- otherwise the file was rewritten (or cut): it is read again from the start.

The parser always reads the complete lines from the start of the file: a
session's id is on its first line, a streamed reply spans several lines and
its branches are a tree over the whole file, so the new lines cannot be
parsed alone. What is added is decided by the store's message keys (the
same message is never stored twice), which also makes a rewritten file and
a re-exported zip safe to read again. A line still being written (no newline
yet) waits for the next sync. Messages of a file deleted at its source stay.

The file's messages, windows and new state are committed together, so a
sync killed midway leaves every file either read or untouched.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from .. import importers
from ..errors import ImportFormatError, UserError
from ..importers.records import Conversation, ParseStats
from ..importers.source import ExportSource
from ..index import ingest
from ..index.ingest import ImportReport
from ..index.pending import window_pending
from ..progress import Progress
from ..settings import WindowSettings
from ..storage.store import MessageRow, Store, now_iso
from . import state as st
from .sources import SESSION_FORMATS, LiveSource

#: What a session log that holds no conversation yet says (a session just begun, a bookkeeping-only file).
NOTHING_YET = ("the session log holds no messages", "empty file")
#: Failure lines kept in the last sync's summary (status screens show them).
KEEP_FAILED = 20
_LINE = re.compile(r"line (\d+)")


def checkpoint(where: str, files_read: int) -> None:
    """A no-op at a known point inside a file's transaction; tests replace it to stop a sync there."""


@dataclass
class SyncReport:
    """What one sync did; ``failed`` holds one line per source or file that could not be read."""

    at: str
    seconds: float = 0.0
    sources: list[dict[str, Any]] = field(default_factory=list)
    files_seen: int = 0
    files_read: int = 0
    conversations: int = 0
    added: int = 0
    windows_written: int = 0
    embedded: int = 0
    failed: list[str] = field(default_factory=list)
    #: New lines or records skipped as unreadable: {"file", "where", "problem"}.
    unreadable: list[dict[str, str]] = field(default_factory=list)
    unreadable_count: int = 0
    #: Files in added folders that are not chat exports, said once.
    ignored: list[str] = field(default_factory=list)
    #: Messages left out on purpose, by reason (``resumed_replay``: a resumed session's copy of earlier ones).
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failed

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> dict[str, Any]:
        """What the store keeps of it: `rawrag status`, MCP ``status`` and the app show it."""
        return {"at": self.at, "seconds": round(self.seconds, 3), "files_seen": self.files_seen,
                "files_read": self.files_read, "added": self.added, "unreadable": self.unreadable_count,
                "failed": self.failed[:KEEP_FAILED], "failed_count": len(self.failed)}


class _Prefix(ExportSource):
    """A session file as far as its last complete line: the bytes already read, never the file again."""

    def __init__(self, path: Path, data: bytes):
        self.path = path
        self.kind = "file"
        self._zip = None
        self._zip_names = {}
        self._names = [path.name]
        self.cache = {}
        self._data = data

    def open(self, name: str) -> IO[bytes]:
        return io.BytesIO(self._data)


def sync(store: Store, window: WindowSettings, sources: list[LiveSource], *,
         progress: Progress | None = None, lock: Any = None) -> SyncReport:
    """Read what is new in ``sources``; records the summary as the last sync."""
    started = time.perf_counter()
    report = SyncReport(at=now_iso())
    guard = lock if lock is not None else contextlib.nullcontext()
    with guard:  # the store only under the app's lock: searches go on between files
        states = st.file_states(store)
    for source in sources:
        entry: dict[str, Any] = {**source.to_json(), "files": 0, "read": 0, "added": 0, "failed": None}
        report.sources.append(entry)
        try:
            files = list(source.files())
        except OSError as exc:
            entry["failed"] = f"{source.path}: cannot read this {_what(source)}: {_reason(exc)}"
            report.failed.append(entry["failed"])
            continue
        entry["files"] = len(files)
        if source.kind == "claude_code":
            files = _oldest_session_first(files, states)
        for path in files:
            report.files_seen += 1
            before = report.added
            read = _one_file(store, window, source, path, states.get(str(path)), guard, report)
            entry["read"] += read
            entry["added"] += report.added - before
            if progress and read:
                progress("sync", report.files_seen, None)
    report.seconds = time.perf_counter() - started
    with guard:
        st.record_last_sync(store, report.summary())
    return report


def _oldest_session_first(files: list[Path], states: dict[str, st.FileState]) -> list[Path]:
    """Changed Claude Code sessions in the order they began, as the importer reads them: a resumed
    session replays earlier messages under their ids, and the session that began first keeps them.
    Unchanged files are not opened (their place does not matter: they are not read)."""
    def began(path: Path) -> str:
        state = states.get(str(path))
        try:
            stat = path.stat()
        except OSError:
            return ""
        if state is not None and state.unchanged(stat.st_size, stat.st_mtime_ns):
            return ""
        return _first_timestamp(path)

    return sorted(files, key=lambda p: (began(p), str(p)))


def _first_timestamp(path: Path, lines: int = 20) -> str:
    """The first ``timestamp`` among a session file's first lines ("~", after any time, when none)."""
    try:
        with path.open("rb") as fh:
            for _ in range(lines):
                raw = fh.readline(256 * 1024)
                if not raw:
                    break
                with contextlib.suppress(ValueError, RecursionError):
                    obj = json.loads(raw)
                    if isinstance(obj, dict) and isinstance(obj.get("timestamp"), str):
                        return obj["timestamp"]
    except OSError:
        pass
    return "~"


def _what(source: LiveSource) -> str:
    return {"claude_code": "Claude Code folder", "codex": "Codex folder"}.get(source.kind, "folder")


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def _one_file(store: Store, window: WindowSettings, source: LiveSource, path: Path, state: st.FileState | None,
              guard: Any, report: SyncReport) -> int:
    """Read one file if it changed; 1 when it was read, 0 when the stat said nothing changed."""
    try:
        stat = path.stat()
    except OSError as exc:  # gone since the listing: its messages stay
        if isinstance(exc, FileNotFoundError):
            return 0
        report.failed.append(f"{path}: cannot read: {_reason(exc)}")
        return 0
    if state is not None and state.unchanged(stat.st_size, stat.st_mtime_ns):
        return 0
    report.files_read += 1
    fmt = state.format if state is not None and state.format else (
        source.kind if source.kind in SESSION_FORMATS else None)
    try:
        if fmt is None:
            with ExportSource(path) as detecting:
                try:
                    fmt = importers.resolve(detecting, "auto")
                except ImportFormatError as exc:
                    report.ignored.append(f"{path}: not a chat export ({exc.problem})")
                    with guard, store.transaction():
                        st.save_file(store, st.FileState(str(path), None, None, stat.st_size, stat.st_mtime_ns,
                                                         state="ignored", problem=exc.problem))
                    return 1
        if fmt in SESSION_FORMATS and path.is_file() and path.suffix != ".zip":
            _read_session(store, window, path, fmt, stat, state, guard, report)
        else:
            _read_export(store, window, path, fmt, stat, guard, report)
    except (UserError, OSError) as exc:
        line = str(exc) if isinstance(exc, UserError) else f"{path}: cannot read: {_reason(exc)}"
        report.failed.append(line if line.startswith(str(path)) else f"{path}: {line}")
        failed = st.FileState(**{**asdict(state), "state": "failed", "problem": line}) if state else st.FileState(
            str(path), fmt, None, stat.st_size, stat.st_mtime_ns, state="failed", problem=line)
        with guard, store.transaction():
            st.save_file(store, failed)
    return 1


def _line_of(where: str, default: int) -> int:
    """The line number of an unreadable record's place ("line 12"); ``default`` for other places."""
    match = _LINE.search(where)
    return int(match.group(1)) if match else default


def _tail_hash(data: bytes, end: int, length: int) -> str:
    return hashlib.sha256(data[end - length:end]).hexdigest()


def _read_session(store: Store, window: WindowSettings, path: Path, fmt: str, stat: Any,
                  state: st.FileState | None, guard: Any, report: SyncReport) -> None:
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1  # a line still being written waits for the next sync
    appended = (state is not None and state.format == fmt and state.state in ("read", "empty")
                and state.read_to <= end
                and (state.read_to == 0 or _tail_hash(data, state.read_to, state.tail_len) == state.tail_hash))
    last_start = data.rfind(b"\n", 0, max(end - 1, 0)) + 1 if end else 0
    new = st.FileState(str(path), fmt, state.source_id if state else None, len(data), stat.st_mtime_ns,
                       read_to=end, lines=data.count(b"\n", 0, end),
                       tail_hash=_tail_hash(data, end, end - last_start) if end else None, tail_len=end - last_start,
                       messages_added=state.messages_added if state else 0)
    if appended and state is not None and end == state.read_to:
        new.state = state.state
        with guard, store.transaction():
            st.save_file(store, new)
        return
    seen_lines = state.lines if appended and state is not None else 0
    stats = ParseStats()
    conversations: list[Conversation] = []
    new.state = "empty"  # until a conversation is read: a session just begun, or bookkeeping lines only
    if end:
        try:
            conversations = list(importers.parse(fmt, _Prefix(path, data[:end]), stats))
            new.state = "read"
        except ImportFormatError as exc:
            if exc.problem not in NOTHING_YET:
                raise
    fresh = [p for p in stats.places if _line_of(p["where"], seen_lines + 1) > seen_lines]
    report.unreadable += fresh
    report.unreadable_count += len(fresh)
    with guard, store.transaction():
        if conversations:
            parent = _fork_parent(data[:end]) if fmt == "codex" else None
            added = _write(store, window, path, fmt, data[:end], conversations, new, report, parent)
            new.messages_added += added
        checkpoint("file", report.files_read)
        st.save_file(store, new)


def _write(store: Store, window: WindowSettings, path: Path, fmt: str, content: bytes,
           conversations: list[Conversation], new: st.FileState, report: SyncReport,
           fork_of: str | None = None) -> int:
    """A session file's conversations into the store, under one source row per file.

    A conversation this file already gave messages to that is no longer stored was deleted in
    rawrag (`rawrag delete`): it is not brought back from the session's later lines.
    """
    read_before = new.messages_added > 0
    added = 0
    touched = []
    for conv in conversations:
        rows = ingest.message_rows(conv)
        if store.conversation_id(fmt, conv.external_id) is None:
            if read_before:
                report.skipped["deleted_in_rawrag"] = report.skipped.get("deleted_in_rawrag", 0) + len(rows)
                continue
            if fmt == "claude_code":
                rows = _without_replays(store, fmt, conv.external_id, rows, report)
            elif fork_of is not None:
                rows = _without_fork_replay(store, fmt, fork_of, rows, report)
            if not rows:
                continue  # all of it a replay so far: the conversation begins with its first new message
        if not st.source_exists(store, new.source_id):
            sha = hashlib.sha256(content).hexdigest()
            new.source_id = store.find_source(fmt, sha) or store.add_source(fmt, str(path.resolve()), sha)
        assert new.source_id is not None
        cid = store.upsert_conversation(new.source_id, fmt, conv.external_id, conv.title, conv.kind)
        added += store.add_messages(cid, new.source_id, rows)
        touched.append(cid)
    if touched:
        assert new.source_id is not None
        report.windows_written += window_pending(store, window, only=touched)
        st.grow_source(store, new.source_id, len(touched), added)
    report.conversations += len(touched)
    report.added += added
    return added


def _without_replays(store: Store, fmt: str, conversation: str, rows: list[MessageRow],
                     report: SyncReport) -> list[MessageRow]:
    """A new session's messages less those stored under the same id in another session of the format:
    a resumed Claude Code session begins with a copy of earlier messages (the importer's
    ``resumed_replay``), which `rawrag import` drops when both files are in one import."""
    have = {row[0] for row in store.conn.cursor().execute(
        "SELECT m.external_id FROM conversations c JOIN messages m ON m.conversation_id = c.id"
        " WHERE c.format = ? AND c.external_id != ? AND m.external_id IN (SELECT value FROM json_each(?))",
        (fmt, conversation, json.dumps([r.external_id for r in rows])))}
    if have:
        report.skipped["resumed_replay"] = report.skipped.get("resumed_replay", 0) + len(have)
    return [r for r in rows if r.external_id not in have]


def _fork_parent(content: bytes) -> str | None:
    """The thread a Codex rollout was forked from, from its first line (``session_meta``):
    ``forked_from_id``, or a subagent's ``source.subagent.thread_spawn.parent_thread_id``."""
    try:
        first = json.loads(content[: content.find(b"\n") + 1 or len(content)])
    except (ValueError, RecursionError):
        return None
    if not isinstance(first, dict) or first.get("type") != "session_meta":
        return None
    payload = first.get("payload")
    payload = payload if isinstance(payload, dict) else {}
    parent = payload.get("forked_from_id")
    for key in ("source", "subagent", "thread_spawn"):  # where a subagent thread names its parent
        payload = payload.get(key) if isinstance(payload, dict) else None
    if parent is None and isinstance(payload, dict):
        parent = payload.get("parent_thread_id")
    return parent if isinstance(parent, str) and parent else None


def _without_fork_replay(store: Store, fmt: str, parent: str, rows: list[MessageRow],
                         report: SyncReport) -> list[MessageRow]:
    """A forked Codex rollout begins by replaying its parent's turns: the leading messages the parent
    already holds (same speaker role and words) are left out, as the importer leaves out
    ``fork_replay`` when both rollouts are in one import."""
    parent_id = store.conversation_id(fmt, parent)
    if parent_id is None:
        return rows
    said = {(m["role"], m["text"]) for m in store.messages(parent_id)}
    keep = 0
    while keep < len(rows) and (rows[keep].role, rows[keep].text) in said:
        keep += 1
    if keep:
        report.skipped["fork_replay"] = report.skipped.get("fork_replay", 0) + keep
    return rows[keep:]


def _read_export(store: Store, window: WindowSettings, path: Path, fmt: str, stat: Any, guard: Any,
                 report: SyncReport) -> None:
    """A whole export (a zip in an added folder): imported as `rawrag import` does, adding only what is new."""
    with ExportSource(path) as source:
        stats = ParseStats()
        imported = ImportReport(str(path), fmt, None)
        sha = ingest.fingerprint_source(source)
        with guard, store.transaction():
            ingest.ingest(store, window, importers.parse(fmt, source, stats), source, sha, stats, imported, None)
            checkpoint("file", report.files_read)
            st.save_file(store, st.FileState(str(path), fmt, imported.source_id, stat.st_size, stat.st_mtime_ns,
                                             read_to=stat.st_size, messages_added=imported.messages_added))
    report.conversations += imported.conversations
    report.added += imported.messages_added
    report.windows_written += imported.windows_written
    report.unreadable += stats.places
    report.unreadable_count += stats.unreadable
