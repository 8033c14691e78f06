"""From parsed conversations to store rows: one export, all of it or none.

The importers parse an export into :class:`~rawrag_tui.importers.records.Conversation`
records and know nothing of the store; this module writes them (sources,
conversations, messages with content hashes) and cuts the touched
conversations into windows inside one transaction, so a failed or cancelled
import leaves the store exactly as it was. Embedding comes after, in
resumable batches (``pending.embed_pending``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..importers.records import Conversation, ParseStats
from ..importers.source import ExportSource
from ..progress import Progress
from ..settings import WindowSettings
from ..storage.store import MessageRow, Store
from .pending import window_pending


@dataclass
class ImportReport:
    path: str
    format: str
    source_id: int | None
    conversations: int = 0
    messages_seen: int = 0
    messages_added: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: Records skipped as unreadable, with their place: {"file", "where", "problem"} (first 50).
    unreadable: list[dict[str, str]] = field(default_factory=list)
    windows_written: int = 0
    embedded: int = 0
    already_imported: bool = False
    dry_run: bool = False
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def fingerprint_source(source: ExportSource) -> str:
    """SHA-256 of a file, or of a folder's (name, content hash) list."""
    digest = hashlib.sha256()
    if source.kind == "folder":
        for name in source.names():
            digest.update(name.encode() + b"\0")
            with source.open(name) as fh:
                # a folder's members are plain files (readinto), typed as IO[bytes]
                digest.update(hashlib.file_digest(fh, "sha256").digest())  # type: ignore[arg-type]
        return digest.hexdigest()
    with open(source.path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def message_rows(conv: Conversation) -> list[MessageRow]:
    """A conversation's messages as store rows, each keyed by a hash of its date, speaker and text."""
    rows = []
    for m in conv.messages:
        basis = f"{m.timestamp.isoformat() if m.timestamp else ''}\0{m.speaker}\0{m.text}"
        rows.append(
            MessageRow(
                external_id=m.external_id, speaker=m.speaker, role=m.role, text=m.text, ts=m.timestamp,
                attachments=m.attachments, captions=m.captions, parent_external_id=m.parent_external_id,
                on_main_branch=m.on_main_branch, extra=m.extra,
                content_hash=hashlib.sha256(basis.encode("utf-8")).hexdigest(),
            )
        )
    return rows


def dry_run(store: Store, stream: Iterable[Conversation], report: ImportReport,
            progress: Progress | None) -> None:
    """Count what an import would add, writing nothing."""
    for conv in stream:
        report.conversations += 1
        report.messages_seen += len(conv.messages)
        cid = store.conversation_id(report.format, conv.external_id)
        have = store.existing_external_ids(cid) if cid is not None else set()
        report.messages_added += len({m.external_id for m in conv.messages} - have)
        if progress:
            progress("parse", report.messages_seen, None)
    _refuse_empty(report)


def ingest(store: Store, window: WindowSettings, stream: Iterable[Conversation], source: ExportSource,
           sha: str, stats: ParseStats, report: ImportReport, progress: Progress | None) -> None:
    """Write the conversations and their windows in one transaction (a re-import adds only what is new)."""
    fmt = report.format
    with store.transaction():
        source_id = store.find_source(fmt, sha)
        report.already_imported = source_id is not None
        if source_id is None:
            source_id = store.add_source(fmt, str(Path(source.path).resolve()), sha)
        report.source_id = source_id
        touched: list[int] = []
        for conv in stream:
            cid = store.upsert_conversation(source_id, fmt, conv.external_id, conv.title, conv.kind)
            report.conversations += 1
            report.messages_seen += len(conv.messages)
            report.messages_added += store.add_messages(cid, source_id, message_rows(conv))
            touched.append(cid)
            if progress:
                progress("import", report.messages_seen, None)
        _refuse_empty(report)
        report.windows_written = window_pending(store, window, only=touched)
        if not report.already_imported:
            store.finish_source(source_id, report.conversations, report.messages_added, dict(stats.skipped))


def _refuse_empty(report: ImportReport) -> None:
    if report.conversations == 0:
        raise UserError(f"{report.path}: the {report.format} export holds no conversations")
