"""The per-home facade every face (CLI, app, eval, MCP) uses: open a home, then
import, index, search, ask, delete, status, and the reads the faces need.

It owns the order of operations (parse -> store -> window in one
transaction, then embed in resumable batches) so the faces hold no pipeline
logic and cannot drift apart. Calls that need no open home (models, doctor,
token counting) are in :mod:`rawrag_tui.toolkit`.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import importers, transcripts
from .answer.options import answer_options
from .errors import UserError
from .importers.records import ParseStats
from .importers.source import ExportSource
from .index import ingest
from .index import pending as indexing
from .index.ingest import ImportReport
from .models.loaded import LoadedModels
from .models.protocols import Embedder, EmbedKind, Reader, Reranker
from .progress import Progress
from .search.filters import conversations_passing, narrow
from .search.home import what_is_searchable
from .search.types import Filters, SearchResult
from .settings import Settings, default_home, load_settings
from .status import DeviceReport, Status, device_report, home_status
from .storage.store import Store
from .storage.writer import BUSY, writer
from .transcripts import Section

if TYPE_CHECKING:
    from .answer.history import StoreHistory
    from .answer.types import Answer
    from .sync.runner import SyncReport  # noqa: F401  (the faces type a sync's report with it)
    from .sync.service import Syncing

__all__ = ["BUSY", "DeviceReport", "EmbedKind", "Embedder", "ImportReport", "Memory", "Progress", "Settings", "Status"]


class Memory:
    """One home: its settings, its store and the models it loads on first use."""

    def __init__(self, settings: Settings, store: Store, embedder: Embedder | None = None,
                 reranker: Reranker | None = None):
        self.settings = settings
        self.store = store
        self._models = LoadedModels(settings, embedder, reranker)  # a sibling shares its parent's
        self._reader: Reader | None = None
        self._reader_gpu_layers: str | int | None = None
        self._auto_depth: int | None = None
        self._history: StoreHistory | None = None  # made on the first question

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

    # -- hints the faces show ------------------------------------------------

    def empty_hint(self) -> str | None:
        """What a first search or question on a memory with nothing imported
        says (how to fill it), instead of a bare "no matches"; None otherwise."""
        if self.store.has_windows():
            return None
        return (f"the memory in {self.settings.home} is empty: import an export with `rawrag import FILE`, "
                f"or try `rawrag demo` (a sample history, kept apart in {default_home() / 'demo'})")

    #: Share of Chinese/Japanese/Korean messages from which an import suggests the multilingual profile.
    CJK_HINT_SHARE = 0.2

    def language_hint(self, source_id: int | None = None) -> str | None:
        """After an import: when many messages are Chinese/Japanese/Korean and the embedder is the
        English one, say how to search them by meaning (docs/models.md)."""
        from .models.registry import get_profile

        embed = get_profile(self.settings.models.profile).role("embed")
        if self.settings.models.embed_model or embed.kind != "minilm-embed":
            return None
        cjk, total = self.store.cjk_messages(source_id)
        if not total or cjk / total < self.CJK_HINT_SHARE:
            return None
        return (f"{cjk:,} of {total:,} messages are Chinese, Japanese or Korean: lexical search finds their words; "
                "to search them by meaning too, run `rawrag models use multilingual` then `rawrag index`")

    # -- models (loaded on first use) --------------------------------------

    @property
    def embedder(self) -> Embedder:
        return self._models.embedder

    @property
    def reranker(self) -> Reranker | None:
        return self._models.reranker

    def sibling(self) -> Memory:
        """Another connection to this home, for a call beside this one's (a connection serves one call at
        a time), using this memory's models (each loaded once). Its reader is its own: ask the parent."""
        twin = Memory.open(settings=self.settings)
        twin._models = self._models
        return twin

    def _remember_fingerprint(self) -> None:
        key = f"fingerprint:{self.settings.models.profile}"
        if self.store.meta_get(key) != self.embedder.fingerprint:
            with self.store.transaction():
                self.store.meta_set(key, self.embedder.fingerprint)

    # -- import and index ---------------------------------------------------

    @writer
    def import_path(self, path: str | Path, fmt: str = "auto", *, embed: bool = True, dry_run: bool = False,
                    progress: Progress | None = None) -> ImportReport:
        """Import one export; all of it or, on any error, none of it."""
        started = time.perf_counter()
        with ExportSource(path) as source:
            fmt = importers.resolve(source, fmt)
            stats = ParseStats()
            report = ImportReport(str(Path(path)), fmt, None, dry_run=dry_run)
            stream = importers.parse(fmt, source, stats)
            if dry_run:
                ingest.dry_run(self.store, stream, report, progress)
            else:
                sha = ingest.fingerprint_source(source)
                ingest.ingest(self.store, self.settings.window, stream, source, sha, stats, report, progress)
            report.skipped = dict(stats.skipped)
            report.errors = list(stats.errors)
            report.unreadable = list(stats.places)
        if not dry_run and embed:
            report.embedded = self.index(progress)["embedded"]
        report.seconds = time.perf_counter() - started
        return report

    @writer
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

    def syncing(self) -> Syncing:
        """`rawrag sync`: the live sources (Claude Code, Codex, added folders) and reading what is new."""
        from .sync.service import Syncing

        return Syncing(self.store, self.settings, self.index)

    # -- search ----------------------------------------------------------------

    def search(self, query: str, *, mode: str | None = None, limit: int | None = None,
               candidates: int | None = None, filters: Filters | None = None) -> SearchResult:
        """The RAW-RAG search path; ``filters`` (dates, speakers, source, conversation, kind)
        restrict both channels' candidates in SQL, so K hits come back when K pass them.
        An unknown name or a bad date is one UserError line that names the near matches."""
        if not query.strip():
            raise UserError("empty query")
        scope = narrow(self.store, filters) if filters else None
        return what_is_searchable(self.store, query, self.settings.retrieval, mode, limit, candidates,
                                  lambda: self.embedder, self.reranker, self.auto_rerank_depth, scope)

    def search_for_answer(self, question: str, *, mode: str | None = None, limit: int | None = None,
                          filters: Filters | None = None) -> SearchResult:
        """The search a question's answer reads from: :meth:`search` for the
        question less the words that only ask whether a state goes on ("now",
        "still": answer/history.py, ``as_searched``), as :meth:`ask` makes it."""
        from .answer.history import as_searched

        return self.search(as_searched(question), mode=mode, limit=limit, filters=filters)

    # -- ask -------------------------------------------------------------------

    @property
    def reader_loaded(self) -> bool:
        return self._reader is not None

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

    def ask(self, question: str, *, date=None, on_token=None, on_evidence=None,
            on_progress: Progress | None = None,
            gpu_layers: str | int | None = None, mode: str | None = None, limit: int | None = None,
            result: SearchResult | None = None, filters: Filters | None = None) -> Answer:
        """Search, pack the evidence, and let the local reader answer with citations.

        With no evidence at all the reader is never loaded. ``result`` reuses
        a search already made (evaluation). ``on_progress("read", done,
        total)`` reports the prompt being read, before the first token. A
        reader that crashes raises :class:`~rawrag_tui.errors.ReaderCrashed`
        (one line) and is started afresh by the next question.
        """
        from .answer.reading import answer_question

        if result is None:
            hint = self.empty_hint()
            if hint:
                raise UserError(hint)
            result = self.search_for_answer(question, mode=mode, limit=limit, filters=filters)
            if result.nothing_passes:  # said in one line; the reader is never loaded
                from .answer.types import Answer

                if on_token:
                    on_token(result.nothing_passes)
                return Answer(question, result.nothing_passes)
        return answer_question(question, result, lambda: self.reader(gpu_layers), date=date,
                               on_token=on_token, on_evidence=on_evidence, on_progress=on_progress,
                               **self.answer_options())

    def answer_options(self) -> dict[str, Any]:
        """How ``answer_question`` reads for this memory's settings (for
        callers that bring their own reader, like the benchmarks), with the
        history later messages and names are looked up in."""
        from .answer.history import StoreHistory

        if self._history is None:  # one per memory: its message vectors are kept between questions
            self._history = StoreHistory(self.store, lambda: self.embedder)
        return answer_options(self.settings) | {"history": self._history}

    # -- delete ----------------------------------------------------------------

    @writer
    def delete_conversation(self, conversation_id: int) -> dict[str, int]:
        """Delete for good; ``erased`` is False while another process's reader keeps the old bytes."""
        conversation = self.store.conversation(conversation_id)
        if conversation is None:
            raise UserError(f"no conversation with id {conversation_id}")
        messages = conversation["messages"]
        with self.store.transaction():
            self.store.delete_conversations([conversation_id])
            vectors = self.store.collect_garbage()
        erased = self.store.scrub()
        self._history = None  # its cache keys hold the deleted messages' text
        return {"conversations": 1, "messages": messages, "vectors": vectors, "erased": erased}

    @writer
    def delete_source(self, source_id: int) -> dict[str, int]:
        if not any(s["id"] == source_id for s in self.store.sources()):
            raise UserError(f"no source with id {source_id}")
        with self.store.transaction():
            removed = self.store.delete_source(source_id)
            indexing.window_pending(self.store, self.settings.window)
            removed["vectors"] = self.store.collect_garbage()
        removed["erased"] = self.store.scrub()
        self._history = None  # its cache keys hold the deleted messages' text
        if removed["rewindow"]:
            # conversations that lost messages have new tail windows: keep search complete
            self.index()
        return removed

    # -- browsing (for the faces) ----------------------------------------------

    def sources(self) -> list[dict]:
        return self.store.sources()

    def conversations(self, source_id: int | None = None, text_filter: str | None = None,
                      filters: Filters | None = None) -> list[dict]:
        """With ``filters``: the conversations holding a message that passes them, as search reads them."""
        keep = conversations_passing(self.store, narrow(self.store, filters)) if filters else None
        return [c for c in self.store.conversations(source_id, text_filter) if keep is None or c["id"] in keep]

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

    def show(self, conversation: str, around: str | None = None, context: int = 10) -> Section:
        """One conversation (its id, or a title naming one), or ``context`` messages each side of ``around``."""
        return transcripts.conversation(self.store, transcripts.one_conversation(self.store, conversation),
                                        around, context)

    def export(self, fmt: str, *, conversation: str | None = None, source: str | None = None,
               query: str | None = None, filters: Filters | None = None, mode: str | None = None,
               limit: int | None = None) -> tuple[str, int]:
        """A conversation, a source, or a search's hits (each message once) as md, html or jsonl:
        (the text, how many messages it holds)."""
        if query is not None:
            result = self.search(query, mode=mode, limit=limit, filters=filters)
            sections, title = transcripts.hits(result), f"rawrag search: {query}"
        else:  # filters keep the messages that pass them (a --speaker: that person's)
            sections, title = transcripts.selected(self.store, conversation, source,
                                                   narrow(self.store, filters) if filters else None)
        return transcripts.render(sections, fmt, title), transcripts.count(sections)

    def auto_rerank_depth(self) -> int:
        """The paper's 128 candidates where a GPU runs the reranker, 32 on a CPU."""
        if self._auto_depth is None:
            self._auto_depth = 128 if self.device().get("device") == "cuda" else 32
        return self._auto_depth

    def device(self) -> DeviceReport:
        """Which execution provider the models use and why (no model is loaded)."""
        return device_report(self.settings)

    def status(self) -> Status:
        return home_status(self.settings, self.store, self.device())
