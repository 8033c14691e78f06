"""The one facade every face (CLI, TUI, eval) uses: open a home, then
import, index, search, ask, delete, status.

It owns the order of operations (parse -> store -> window in one
transaction, then embed in resumable batches) so the faces hold no pipeline
logic and cannot drift apart.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import time
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

from . import importers
from .errors import UserError
from .importers.records import Conversation, ParseStats
from .importers.source import ExportSource
from .models.protocols import Embedder, EmbedKind, Reader, Reranker  # noqa: F401  (EmbedKind: re-exported)
from .retrieval import indexing, pipeline
from .retrieval.types import SearchResult
from .settings import RetrievalSettings, Settings, default_home, load_settings
from .storage.store import MessageRow, Store

if TYPE_CHECKING:
    from .doctor import DoctorReport
    from .retrieval.answer import Answer

Progress = Callable[[str, int, "int | None"], None]


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


#: What a writer hears when another process holds the home's write lock past the busy timeout.
BUSY = "another rawrag is importing into this home; try again when it finishes"

_F = TypeVar("_F", bound=Callable[..., Any])


def _writer(method: _F) -> _F:
    """Turn SQLite's busy error into one line: the app, the CLI and an MCP
    server may share a home, and only one of them can write at a time."""

    @functools.wraps(method)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        import apsw

        try:
            return method(*args, **kwargs)
        except (apsw.BusyError, apsw.LockedError):
            raise UserError(BUSY) from None

    return cast(_F, wrapped)


def _day(value: str | None, name: str) -> str | None:
    """A YYYY-MM-DD filter bound, checked, or None."""
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        raise UserError(f"{name}: {value!r} is not a date (YYYY-MM-DD)") from None


class Memory:
    #: The export formats ``import_path`` reads (besides "auto").
    FORMATS = importers.FORMATS
    #: The search modes ``search`` takes.
    MODES = pipeline.MODES
    #: The retrieval settings a home starts with (for the faces' help texts).
    RETRIEVAL_DEFAULTS = RetrievalSettings()

    def empty_hint(self) -> str | None:
        """What a first search or question on a memory with nothing imported
        says (how to fill it), instead of a bare "no matches"; None otherwise."""
        if self.store.has_windows():
            return None
        from .settings import default_home

        return (f"the memory in {self.settings.home} is empty: import an export with `rawrag import FILE`, "
                f"or try `rawrag demo` (a sample history, kept apart in {default_home() / 'demo'})")

    #: Share of Chinese/Japanese/Korean messages from which an import suggests the multilingual profile.
    CJK_HINT_SHARE = 0.2

    def language_hint(self, source_id: int | None = None) -> str | None:
        """After an import: when many messages are Chinese/Japanese/Korean and the embedder is the
        English one, say how to search them by meaning (README "Chinese, Japanese and Korean")."""
        from .models.registry import get_profile

        embed = get_profile(self.settings.models.profile).role("embed")
        if self.settings.models.embed_model or embed.kind != "minilm-embed":
            return None
        cjk, total = self.store.cjk_messages(source_id)
        if not total or cjk / total < self.CJK_HINT_SHARE:
            return None
        return (f"{cjk:,} of {total:,} messages are Chinese, Japanese or Korean: lexical search finds their words; "
                "to search them by meaning too, run `rawrag models use multilingual` then `rawrag index`")

    def __init__(self, settings: Settings, store: Store, embedder: Embedder | None = None,
                 reranker: Reranker | None = None):
        self.settings = settings
        self.store = store
        self._embedder = embedder
        self._reranker = reranker
        self._reranker_loaded = reranker is not None
        self._reader: Reader | None = None
        self._reader_gpu_layers: str | int | None = None
        self._auto_depth: int | None = None

    @classmethod
    def open(cls, home: str | Path | None = None, settings: Settings | None = None, *,
             embedder: Embedder | None = None, reranker: Reranker | None = None,
             progress: Progress | None = None, **overrides: dict) -> Memory:
        """``progress`` reports a store upgrade that rewrites every window (a schema migration)."""
        settings = settings or load_settings(home, **overrides)
        return cls(settings, Store.open(settings.db_path, progress), embedder, reranker)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self.store.close()

    def __enter__(self) -> Memory:
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
    def locomo_samples(path: str | Path) -> list[dict]:
        """A LoCoMo file's samples as JSON, after the LoCoMo importer's own checks
        (a bad file is refused as an import would refuse it); for benchmarks."""
        from .importers.locomo import load_samples, parse

        with ExportSource(Path(path)) as source:
            samples = load_samples(source)
            for _ in parse(source, ParseStats()):
                pass
        return samples

    @staticmethod
    def locomo_session_day(text: str) -> str:
        """The ISO day of a LoCoMo ``session_N_date_time`` ("1:56 pm on 8 May, 2023"); ValueError if none."""
        from .importers.locomo import parse_session_date

        return parse_session_date(text).date().isoformat()

    @staticmethod
    def detect_format(path: str | Path) -> str:
        """The export format ``path`` holds (by content), or a UserError saying why not."""
        path = Path(path).expanduser()
        if not path.exists():
            raise UserError(f"{path}: no such file or folder")
        with ExportSource(path) as source:
            return importers.detect(source)

    @_writer
    def import_path(self, path: str | Path, fmt: str = "auto", *, embed: bool = True, dry_run: bool = False,
                    progress: Progress | None = None) -> ImportReport:
        """Import one export; all of it or, on any error, none of it."""
        started = time.perf_counter()
        with ExportSource(path) as source:
            fmt = importers.resolve(source, fmt)
            stats = ParseStats()
            report = ImportReport(str(Path(path)), fmt, None, dry_run=dry_run)
            sha = fingerprint_source(source)
            if dry_run:
                self._dry_run(importers.parse(fmt, source, stats), fmt, report, progress)
            else:
                self._ingest(importers.parse(fmt, source, stats), fmt, sha, source, stats, report, progress)
            report.skipped = dict(stats.skipped)
            report.errors = list(stats.errors)
            report.unreadable = list(stats.places)
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

    @_writer
    def index(self, progress: Progress | None = None, lock=None) -> dict[str, int]:
        """Window what needs it (e.g. after a settings change), then embed what is pending.

        ``lock``: the app's store lock, held only around store access so that
        searches run while the model embeds (background indexing).
        """
        guard = lock if lock is not None else contextlib.nullcontext()
        with guard, self.store.transaction():
            rewindowed = indexing.window_pending(self.store, self.settings.window)
            self.store.collect_garbage()
        if not self.store.has_windows():
            return {"windows_written": rewindowed, "embedded": 0}
        with guard:
            self._remember_fingerprint()
        embedded = indexing.embed_pending(self.store, self.embedder, batch=self.settings.models.commit_batch,
                                          progress=progress, lock=lock)
        return {"windows_written": rewindowed, "embedded": embedded}

    # -- search ----------------------------------------------------------------

    def search(self, query: str, *, mode: str | None = None, limit: int | None = None,
               candidates: int | None = None, conversation_ids: Collection[int] | None = None,
               source_id: int | None = None, since: str | None = None,
               until: str | None = None) -> SearchResult:
        """The RAW-RAG search path; the filters keep only hits in the given
        conversations, source and date range (inclusive, YYYY-MM-DD, by the
        messages' own dates).

        A filtered search keeps every candidate through the pipeline and cuts
        to ``limit`` after filtering, so a filter never empties a result that
        the unfiltered recall would have had matches for.
        """
        if not query.strip():
            raise UserError("empty query")
        filters = (conversation_ids, source_id, since, until)
        if any(f is not None for f in filters):
            return self._filtered_search(query, mode, limit, candidates, *filters)
        mode = mode or self.settings.retrieval.mode
        embedder = self.embedder if mode in ("dense", "hybrid") and self.store.has_windows() else None
        space = self.store.space_id(embedder.fingerprint) if embedder is not None else None
        pending = self.store.pending_count(space) if embedder is not None and self.store.any_pending(space) else 0
        run_mode = mode
        if embedder is not None and not self.store.has_vectors(space):
            # Nothing embedded yet (an import just landed): words now, meaning once indexed.
            run_mode, embedder = "lexical", None
        reranker = self.reranker
        retrieval = self.settings.retrieval
        if reranker is not None and retrieval.rerank_depth == 0:
            retrieval = replace(retrieval, rerank_depth=self.auto_rerank_depth())
        result = pipeline.search(self.store, query, retrieval, embedder, reranker,
                                 mode=run_mode, limit=limit, candidates=candidates)
        result.mode, result.pending_embeddings = mode, pending
        if result.lexical_only:
            result.notes.append(f"results come from the lexical channel alone: {pending:,} windows are still "
                                "waiting for embeddings (`rawrag index` continues them)")
        elif pending:
            result.notes.append(f"{pending:,} windows are not embedded yet, so search by meaning cannot see them: "
                                "run `rawrag index`")
        return result

    def _filtered_search(self, query: str, mode: str | None, limit: int | None, candidates: int | None,
                         conversation_ids: Collection[int] | None, source_id: int | None,
                         since: str | None, until: str | None) -> SearchResult:
        first, last = _day(since, "since"), _day(until, "until")
        if first and last and first > last:
            raise UserError(f"since {first} is after until {last}")
        allowed: set[int] | None = None
        if conversation_ids is not None:
            allowed = {int(c) for c in conversation_ids}
        if source_id is not None:
            if not any(s["id"] == source_id for s in self.store.sources()):
                raise UserError(f"no source with id {source_id}")
            in_source = {c["id"] for c in self.store.conversations(source_id)}
            allowed = in_source if allowed is None else allowed & in_source
        n = candidates or self.settings.retrieval.candidates
        result = self.search(query, mode=mode, limit=n, candidates=n)
        k = limit or self.settings.retrieval.top_k

        def dated(hit) -> bool:
            days = [m.timestamp[:10] for m in hit.messages if m.timestamp]
            return any((not first or d >= first) and (not last or d <= last) for d in days)

        kept = [h for h in result.hits
                if (allowed is None or h.conversation_id in allowed) and (not (first or last) or dated(h))]
        result.hits = [replace(h, rank=rank) for rank, h in enumerate(kept[:k], start=1)]
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

    @staticmethod
    def reader_missing() -> str | None:
        """Why no reader can run in this build (one line), or None when one can."""
        from .errors import ModelError

        try:
            Memory.require_reader()
        except ModelError as exc:
            return str(exc)
        return None

    def evidence_tokens(self) -> int:
        """The reader's evidence budget: ``reader.evidence_tokens``, or the profile's measured one."""
        from .models.registry import evidence_ceiling

        return evidence_ceiling(self.settings)

    def prompt_style(self) -> str:
        style = self.settings.reader.prompt
        if style != "auto":
            return style
        return "plain" if self.settings.models.profile == "bundled" else "cited"

    def ask(self, question: str, *, date=None, on_token=None, on_evidence=None,
            on_progress: Progress | None = None,
            gpu_layers: str | int | None = None, mode: str | None = None, limit: int | None = None,
            result: SearchResult | None = None) -> Answer:
        """Search, pack the evidence, and let the local reader answer with citations.

        With no evidence at all the reader is never loaded. ``result`` reuses
        a search already made (evaluation). ``on_progress("read", done,
        total)`` reports the prompt being read, before the first token. A
        reader that crashes raises :class:`~rawrag_tui.errors.ReaderCrashed`
        (one line) and is started afresh by the next question.
        """
        from .retrieval.answer import answer_question

        if result is None:
            hint = self.empty_hint()
            if hint:
                raise UserError(hint)
            result = self.search(question, mode=mode, limit=limit)
        return answer_question(question, result, lambda: self.reader(gpu_layers), date=date,
                               on_token=on_token, on_evidence=on_evidence, on_progress=on_progress,
                               **self.answer_options())

    def answer_options(self) -> dict[str, Any]:
        """How ``answer_question`` reads for this memory's settings (for
        callers that bring their own reader, like the benchmarks)."""
        r = self.settings.reader
        return {"answer_tokens": r.answer_tokens, "prompt_style": self.prompt_style(),
                "evidence_tokens": self.evidence_tokens(), "select": r.select,
                "first_token_seconds": r.first_token_seconds, "min_evidence_tokens": r.min_evidence_tokens}

    # -- delete ----------------------------------------------------------------

    @_writer
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

    @_writer
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

    def counts(self) -> dict[str, int]:
        """Sources, conversations, messages and windows in the store (cheap: no model, no device probe)."""
        return self.store.counts()

    def conversation_id(self, fmt: str, external_id: str) -> int | None:
        """The store id of the conversation an export calls ``external_id`` (e.g. a LoCoMo sample id)."""
        return self.store.conversation_id(fmt, external_id)

    def locate_message(self, *, message_id: int | None = None, external_id: str | None = None,
                       conversation_id: int | None = None) -> dict:
        """One message's place ({id, external_id, conversation_id, conversation, seq}).

        An export id is unique only inside its conversation: when it is in
        several, the error names them so the caller can add the conversation.
        """
        if message_id is None and external_id is None:
            raise UserError("give a message id or an external id")
        rows = self.store.find_messages(message_id=message_id, external_id=external_id,
                                        conversation_id=conversation_id)
        what = f"id {message_id}" if message_id is not None else f"external id {external_id!r}"
        where = f" in conversation {conversation_id}" if conversation_id is not None else ""
        if not rows:
            raise UserError(f"no message with {what}{where}")
        if len(rows) > 1:
            ids = ", ".join(str(r["conversation_id"]) for r in rows[:10])
            raise UserError(f"{what} is in {len(rows)} conversations ({ids}): give the conversation id too")
        return rows[0]

    @staticmethod
    def default_home() -> Path:
        """The data directory when none is given: RAWRAG_HOME, else the platform's user data dir."""
        return default_home()

    @staticmethod
    def is_abstention(text: str) -> bool:
        """Whether a reader's answer is the prompt's own "not in your history" sentence."""
        from .retrieval.prompts import is_abstention

        return is_abstention(text)

    @staticmethod
    def count_tokens(text: str) -> int:
        """cl100k tokens, the unit of windows and of every face's size budget."""
        from .retrieval.windowing import count_tokens

        return count_tokens(text)

    # -- models (``rawrag models``): need a home's settings, not an open store --

    @staticmethod
    def load_embedder(home: str | Path | None = None) -> Embedder:
        """The home's profile's embedder, loaded now (to share one model across several stores)."""
        from .models import load_embedder

        return load_embedder(load_settings(home))

    @staticmethod
    def model_list(home: str | Path | None = None) -> dict[str, Any]:
        """Profiles, their roles and what is on this machine, plus the runtime in one line."""
        from .models.manager import list_models
        from .models.runtime import describe

        settings = load_settings(home)
        return {**list_models(settings), "runtime": describe(settings)}

    @staticmethod
    def model_pull(target: str, home: str | Path | None = None, *, include: list[str] | None = None,
                   revision: str = "main", progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
        from .models.manager import pull

        return pull(target, load_settings(home), include=include, revision=revision, progress=progress)

    @staticmethod
    def model_use(profile: str, home: str | Path | None = None, *, force: bool = False) -> tuple[Path, list[str]]:
        """Make ``profile`` the active one; returns the config written and the roles still to pull."""
        from .models.manager import missing_roles, use

        path = use(profile, load_settings(home), force=force)
        return path, missing_roles(profile, load_settings(home))

    @staticmethod
    def model_export(hf_dir: str | Path, role: str, out: str | Path, *, quantize: str | None = None,
                     model_id: str | None = None) -> dict[str, Any]:
        from .models.exporter import export

        return export(hf_dir, role, out, quantize=quantize, model_id=model_id)

    @staticmethod
    def model_open(directory: str | Path, role: str, home: str | Path | None = None, **options: Any) -> Any:
        """An exported model directory opened for ``role`` (an Embedder or a Reranker)."""
        from .models.exporter import read_manifest
        from .models.local_models import open_model_dir

        manifest = read_manifest(directory)
        if manifest["role"] != role:
            raise UserError(f"{directory}: made for role {manifest['role']}, not {role}")
        if manifest["kind"] == "cross-encoder" and options:
            raise UserError(f"{directory}: a cross-encoder takes no instruction")
        return open_model_dir(directory, load_settings(home), **options)

    # -- status ----------------------------------------------------------------

    @staticmethod
    def doctor(home: str | Path | None = None) -> DoctorReport:
        """Check every part by running it once (``rawrag doctor``); needs no open store."""
        from .doctor import diagnose

        return diagnose(load_settings(home))

    def auto_rerank_depth(self) -> int:
        """The paper's 128 candidates where a GPU runs the reranker, 32 on a CPU."""
        if self._auto_depth is None:
            self._auto_depth = 128 if self.device().get("device") == "cuda" else 32
        return self._auto_depth

    def device(self) -> DeviceReport:
        """Which execution provider the models use and why (no model is loaded)."""
        from .models.runtime import provider_report

        return cast(DeviceReport, provider_report(self.settings))

    def status(self) -> Status:
        counts = self.store.counts()
        fingerprint = self.store.meta_get(f"fingerprint:{self.settings.models.profile}")
        space = self.store.space_id(fingerprint) if fingerprint else None
        pending = self.store.pending_count(space)
        db = self.settings.db_path
        return cast(Status, {
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
        })
