"""The one facade every face (CLI, TUI, eval) uses: open a home, then
import, index, search, ask, delete, status.

It owns the order of operations (parse -> store -> window in one
transaction, then embed in resumable batches) so the faces hold no pipeline
logic and cannot drift apart.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from . import importers
from .errors import UserError
from .importers.records import Conversation, ParseStats
from .importers.source import ExportSource
from .models.protocols import Embedder, Reranker
from .retrieval import indexing, pipeline
from .retrieval.types import SearchResult
from .settings import Settings, load_settings
from .storage.store import MessageRow, Store

if TYPE_CHECKING:
    from .doctor import DoctorReport
    from .retrieval.answer import Answer

Progress = Callable[[str, int, "int | None"], None]


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
                digest.update(hashlib.file_digest(fh, "sha256").digest())
        return digest.hexdigest()
    with open(source.path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def message_rows(conv: Conversation) -> list[MessageRow]:
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


class Memory:
    #: The export formats ``import_path`` reads (besides "auto").
    FORMATS = importers.FORMATS

    def __init__(self, settings: Settings, store: Store, embedder: Embedder | None = None,
                 reranker: Reranker | None = None):
        self.settings = settings
        self.store = store
        self._embedder = embedder
        self._reranker = reranker
        self._reranker_loaded = reranker is not None
        self._reader = None
        self._reader_gpu_layers: str | int | None = None
        self._auto_depth: int | None = None

    @classmethod
    def open(cls, home: str | Path | None = None, settings: Settings | None = None, *,
             embedder: Embedder | None = None, reranker: Reranker | None = None, **overrides: dict) -> "Memory":
        settings = settings or load_settings(home, **overrides)
        return cls(settings, Store.open(settings.db_path), embedder, reranker)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self.store.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- models (loaded on first use) --------------------------------------

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from .models import load_embedder

            self._embedder = load_embedder(self.settings)
        return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        if not self._reranker_loaded:
            from .models import load_reranker

            self._reranker = load_reranker(self.settings)
            self._reranker_loaded = True
        return self._reranker

    def _remember_fingerprint(self) -> None:
        key = f"fingerprint:{self.settings.models.profile}"
        if self.store.meta_get(key) != self.embedder.fingerprint:
            with self.store.transaction():
                self.store.meta_set(key, self.embedder.fingerprint)

    # -- import and index ---------------------------------------------------

    @staticmethod
    def detect_format(path: str | Path) -> str:
        """The export format ``path`` holds (by content), or a UserError saying why not."""
        path = Path(path).expanduser()
        if not path.exists():
            raise UserError(f"{path}: no such file or folder")
        with ExportSource(path) as source:
            return importers.detect(source)

    def import_path(self, path: str | Path, fmt: str = "auto", *, embed: bool = True, dry_run: bool = False,
                    progress: Progress | None = None) -> ImportReport:
        """Import one export; all of it or, on any error, none of it."""
        started = time.perf_counter()
        with ExportSource(path) as source:
            fmt = importers.detect(source) if fmt == "auto" else fmt
            parser = importers.load(fmt)
            stats = ParseStats()
            report = ImportReport(str(Path(path)), fmt, None, dry_run=dry_run)
            sha = fingerprint_source(source)
            if dry_run:
                self._dry_run(parser.parse(source, stats), fmt, report, progress)
            else:
                self._ingest(parser.parse(source, stats), fmt, sha, source, stats, report, progress)
            report.skipped = dict(stats.skipped)
            report.errors = list(stats.errors)
        if not dry_run and embed:
            report.embedded = self.index(progress)["embedded"]
        report.seconds = time.perf_counter() - started
        return report

    def _dry_run(self, stream, fmt: str, report: ImportReport, progress: Progress | None) -> None:
        for conv in stream:
            report.conversations += 1
            report.messages_seen += len(conv.messages)
            cid = self.store.conversation_id(fmt, conv.external_id)
            have = self.store.existing_external_ids(cid) if cid is not None else set()
            report.messages_added += len({m.external_id for m in conv.messages} - have)
            if progress:
                progress("parse", report.messages_seen, None)
        if report.conversations == 0:
            raise UserError(f"{report.path}: the {fmt} export holds no conversations")

    def _ingest(self, stream, fmt: str, sha: str, source: ExportSource, stats: ParseStats,
                report: ImportReport, progress: Progress | None) -> None:
        window = self.settings.window
        with self.store.transaction():
            source_id = self.store.find_source(fmt, sha)
            report.already_imported = source_id is not None
            if source_id is None:
                source_id = self.store.add_source(fmt, str(Path(source.path).resolve()), sha)
            report.source_id = source_id
            touched: list[int] = []
            for conv in stream:
                cid = self.store.upsert_conversation(source_id, fmt, conv.external_id, conv.title, conv.kind)
                report.conversations += 1
                report.messages_seen += len(conv.messages)
                report.messages_added += self.store.add_messages(cid, source_id, message_rows(conv))
                touched.append(cid)
                if progress:
                    progress("import", report.messages_seen, None)
            if report.conversations == 0:
                raise UserError(f"{report.path}: the {fmt} export holds no conversations")
            report.windows_written = indexing.window_pending(self.store, window, only=touched)
            if not report.already_imported:
                self.store.finish_source(source_id, report.conversations, report.messages_added, dict(stats.skipped))

    def index(self, progress: Progress | None = None) -> dict[str, int]:
        """Window what needs it (e.g. after a settings change), then embed what is pending."""
        with self.store.transaction():
            rewindowed = indexing.window_pending(self.store, self.settings.window)
            self.store.collect_garbage()
        if not self.store.has_windows():
            return {"windows_written": rewindowed, "embedded": 0}
        self._remember_fingerprint()
        embedded = indexing.embed_pending(self.store, self.embedder, batch=self.settings.models.commit_batch,
                                          progress=progress)
        return {"windows_written": rewindowed, "embedded": embedded}

    # -- search ----------------------------------------------------------------

    def search(self, query: str, *, mode: str | None = None, limit: int | None = None,
               candidates: int | None = None) -> SearchResult:
        if not query.strip():
            raise UserError("empty query")
        mode = mode or self.settings.retrieval.mode
        embedder = self.embedder if mode in ("dense", "hybrid") and self.store.has_windows() else None
        reranker = self.reranker
        retrieval = self.settings.retrieval
        if reranker is not None and retrieval.rerank_depth == 0:
            retrieval = replace(retrieval, rerank_depth=self.auto_rerank_depth())
        result = pipeline.search(self.store, query, retrieval, embedder, reranker,
                                 mode=mode, limit=limit, candidates=candidates)
        space = self.store.space_id(embedder.fingerprint) if embedder is not None else None
        if embedder is not None and self.store.any_pending(space):
            pending = self.store.pending_count(space)
            if pending:
                result.notes.append(f"{pending} windows are not embedded yet: run `rawrag index`")
        return result

    # -- ask -------------------------------------------------------------------

    def reader(self, gpu_layers: str | int | None = None):
        """The profile's reader, loaded on first use and kept warm in its own
        process (a crashed one is restarted on the next question); another
        --gpu-layers reloads it."""
        if self._reader is None or gpu_layers != self._reader_gpu_layers:
            from .models import load_reader

            if self._reader is not None:
                self._reader.close()
            self._reader = load_reader(self.settings, gpu_layers)
            self._reader_gpu_layers = gpu_layers
        return self._reader

    @staticmethod
    def require_reader() -> None:
        """One ModelError line now, before any work, when no reader can run
        (llama-cpp-python missing), instead of at the first question."""
        from .models.reader_process import require_llama_cpp

        require_llama_cpp()

    def evidence_tokens(self) -> int:
        """The reader's evidence budget: ``reader.evidence_tokens``, or the profile's measured one."""
        if self.settings.reader.evidence_tokens > 0:
            return self.settings.reader.evidence_tokens
        from .models.registry import get_profile

        return get_profile(self.settings.models.profile).evidence_tokens

    def prompt_style(self) -> str:
        style = self.settings.reader.prompt
        if style != "auto":
            return style
        return "plain" if self.settings.models.profile == "bundled" else "cited"

    def ask(self, question: str, *, date=None, on_token=None, on_evidence=None,
            on_progress: Progress | None = None,
            gpu_layers: str | int | None = None, mode: str | None = None, limit: int | None = None,
            result: SearchResult | None = None) -> "Answer":
        """Search, pack the evidence, and let the local reader answer with citations.

        With no evidence at all the reader is never loaded. ``result`` reuses
        a search already made (evaluation). ``on_progress("read", done,
        total)`` reports the prompt being read, before the first token. A
        reader that crashes raises :class:`~rawrag_tui.errors.ReaderCrashed`
        (one line) and is started afresh by the next question.
        """
        from .retrieval.answer import answer_question

        if result is None:
            result = self.search(question, mode=mode, limit=limit)
        return answer_question(question, result, lambda: self.reader(gpu_layers), date=date,
                               on_token=on_token, on_evidence=on_evidence, on_progress=on_progress,
                               answer_tokens=self.settings.reader.answer_tokens,
                               prompt_style=self.prompt_style(),
                               evidence_tokens=self.evidence_tokens(), select=self.settings.reader.select)

    # -- delete ----------------------------------------------------------------

    def delete_conversation(self, conversation_id: int) -> dict[str, int]:
        conversation = self.store.conversation(conversation_id)
        if conversation is None:
            raise UserError(f"no conversation with id {conversation_id}")
        messages = conversation["messages"]
        with self.store.transaction():
            self.store.delete_conversations([conversation_id])
            vectors = self.store.collect_garbage()
        self.store.scrub()
        return {"conversations": 1, "messages": messages, "vectors": vectors}

    def delete_source(self, source_id: int) -> dict[str, int]:
        if not any(s["id"] == source_id for s in self.store.sources()):
            raise UserError(f"no source with id {source_id}")
        with self.store.transaction():
            removed = self.store.delete_source(source_id)
            indexing.window_pending(self.store, self.settings.window)
            removed["vectors"] = self.store.collect_garbage()
        self.store.scrub()
        if removed["rewindow"]:
            # conversations that lost messages have new tail windows: keep search complete
            self.index()
        return removed

    # -- browsing (for the faces) ----------------------------------------------

    def sources(self) -> list[dict]:
        return self.store.sources()

    def conversations(self, source_id: int | None = None, text_filter: str | None = None) -> list[dict]:
        return self.store.conversations(source_id, text_filter)

    def conversation(self, conversation_id: int) -> dict | None:
        return self.store.conversation(conversation_id)

    def messages(self, conversation_id: int, offset: int = 0, limit: int = -1) -> list[dict]:
        """A conversation's messages in time order (all branches; ``on_main_branch`` marks the shown one)."""
        return self.store.messages(conversation_id, offset, limit)

    # -- status ----------------------------------------------------------------

    @staticmethod
    def doctor(home: str | Path | None = None) -> "DoctorReport":
        """Check every part by running it once (``rawrag doctor``); needs no open store."""
        from .doctor import diagnose

        return diagnose(load_settings(home))

    def auto_rerank_depth(self) -> int:
        """The paper's 128 candidates where a GPU runs the reranker, 32 on a CPU."""
        if self._auto_depth is None:
            self._auto_depth = 128 if self.device().get("device") == "cuda" else 32
        return self._auto_depth

    def device(self) -> dict[str, Any]:
        """Which execution provider the models use and why (no model is loaded)."""
        from .models.runtime import provider_report

        return provider_report(self.settings)

    def status(self) -> dict[str, Any]:
        counts = self.store.counts()
        fingerprint = self.store.meta_get(f"fingerprint:{self.settings.models.profile}")
        space = self.store.space_id(fingerprint) if fingerprint else None
        pending = self.store.pending_count(space)
        db = self.settings.db_path
        return {
            **counts,
            "pending_embeddings": pending,
            "profile": self.settings.models.profile,
            "embedding_fingerprint": fingerprint,
            "home": str(self.settings.home),
            "database": str(db),
            "database_bytes": sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists()),
            "device": self.device(),
            "retrieval": asdict(self.settings.retrieval),
            "window": asdict(self.settings.window),
        }
