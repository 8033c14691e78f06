"""What a home reports about itself: counts, pending work, where models run.

The shapes here are what ``Memory.status`` and ``Memory.device`` return:
the app's status screen, ``rawrag status --json`` and MCP ``status`` all
show the same figures.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, TypedDict, cast

from .settings import Settings
from .storage.home_encryption import state as encryption_state
from .storage.store import Store
from .sync.state import last_sync


class DeviceReport(TypedDict, total=False):
    """Where the models run (``Memory.device``): ``device`` is "cpu", "cuda" or None, ``reason`` says why."""

    device: str | None
    reason: str
    providers: list[str]
    available_providers: list[str]
    onnxruntime: str
    intra_op_threads: int
    physical_cores: int
    graph_optimization: str
    error: str  # only when no provider can be chosen (e.g. models.device = cuda without CUDA)


class Status(TypedDict):
    """What ``Memory.status`` reports: the faces' status screens, ``rawrag status --json``, MCP ``status``."""

    sources: int
    conversations: int
    messages: int
    windows: int
    pending_embeddings: int
    profile: str
    embedding_fingerprint: str | None
    home: str
    database: str
    database_bytes: int  # the database and its write-ahead log
    device: DeviceReport
    retrieval: dict[str, Any]
    window: dict[str, Any]
    #: The last `rawrag sync` ({at, seconds, files_seen, files_read, added, unreadable, failed, failed_count}).
    last_sync: dict[str, Any] | None
    #: {encrypted} and, for an encrypted store, {cipher, keyring}: the keyring holding its passphrase, or None.
    encryption: dict[str, Any]


def device_report(settings: Settings) -> DeviceReport:
    """Which execution provider the models use and why (no model is loaded)."""
    from .models.runtime import provider_report

    return cast(DeviceReport, provider_report(settings))


def home_status(settings: Settings, store: Store, device: DeviceReport) -> Status:
    counts = store.counts()
    fingerprint = store.meta_get(f"fingerprint:{settings.models.profile}")
    space = store.space_id(fingerprint) if fingerprint else None
    db = settings.db_path
    return {
        "sources": counts["sources"],
        "conversations": counts["conversations"],
        "messages": counts["messages"],
        "windows": counts["windows"],
        "pending_embeddings": store.pending_count(space),
        "profile": settings.models.profile,
        "embedding_fingerprint": fingerprint,
        "home": str(settings.home),
        "database": str(db),
        "database_bytes": sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists()),
        "device": device,
        "retrieval": asdict(settings.retrieval),
        "window": asdict(settings.window),
        "last_sync": last_sync(store),
        "encryption": encryption_state(db),
    }
