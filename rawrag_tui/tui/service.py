"""The app's side of the Memory facade: one lock, cancellation, the reader adapter.

Kept free of textual so the rules it encodes (how calls are serialised, how an
import is cancelled, how an answer's citations map back to messages) can be
tested and read on their own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..progress import Cancelled, ProgressMeter, human_duration  # noqa: F401  (the screens use them)

if TYPE_CHECKING:
    from ..answer.types import Answer, Citation
    from ..memory import ImportReport, Memory, Status, SyncReport
    from ..progress import Progress
    from ..search.types import Filters, SearchResult


class MemoryGate:
    """Serialises every facade call behind one lock: one method per Memory call the app makes.

    The store is one apsw connection; workers run on several threads, and an
    import's transaction must not interleave with a search or a delete.
    A call made while an import runs simply waits for it. The methods run on
    the worker threads that call them; the screens hand their results back
    with ``app.call_from_thread``.
    """

    def __init__(self, memory: Memory):
        self.memory = memory
        self._lock = threading.RLock()
        self._embedding = 0  # index() runs in progress (an import's or the Status screen's)
        self._counting = threading.Lock()  # for that count alone: never waits for the store

    # -- reads -------------------------------------------------------------------

    def status(self) -> Status:
        with self._lock:
            return self.memory.status()

    def sources(self) -> list[dict]:
        with self._lock:
            return self.memory.sources()

    def conversations(self, source_id: int | None = None, text_filter: str | None = None) -> list[dict]:
        with self._lock:
            return self.memory.conversations(source_id, text_filter)

    def conversation(self, conversation_id: int) -> dict | None:
        with self._lock:
            return self.memory.conversation(conversation_id)

    def messages(self, conversation_id: int) -> list[dict]:
        with self._lock:
            return self.memory.messages(conversation_id)

    def export(self, fmt: str, conversation_id: int) -> tuple[str, int]:
        """One conversation as md, html or jsonl: (the text, how many messages it holds)."""
        with self._lock:
            return self.memory.export(fmt, conversation=str(conversation_id))

    def search(self, query: str, *, mode: str | None = None, filters: Filters | None = None) -> SearchResult:
        with self._lock:
            return self.memory.search(query, mode=mode, filters=filters)

    def search_for_answer(self, question: str) -> SearchResult:
        """The search :meth:`ask` reads from (Memory.search_for_answer)."""
        with self._lock:
            return self.memory.search_for_answer(question)

    def ask(self, question: str, on_piece: Callable[[str], None],
            on_evidence: Callable[[Any], None] | None = None,
            on_progress: Callable[[str, int, int | None], None] | None = None) -> Answer:
        """:func:`ask` under the lock, for the whole answer (the reader streams meanwhile)."""
        with self._lock:
            return ask(self.memory, question, on_piece, on_evidence, on_progress)

    # -- changes -----------------------------------------------------------------

    def import_path(self, path: str, fmt: str = "auto", *, progress: Progress | None = None) -> ImportReport:
        """Store and window one export under the lock (one transaction, all or nothing);
        embedding is left to :meth:`index`, so the lock is not held while the model runs."""
        with self._lock:
            return self.memory.import_path(path, fmt, embed=False, progress=progress)

    def index(self, progress: Progress | None = None) -> dict[str, int]:
        """Window and embed what waits, holding the lock only around each store access and
        commit: searches (and the other reads) run while the model embeds."""
        with self._counting:
            self._embedding += 1
        try:
            return self.memory.index(progress, lock=self._lock)
        finally:
            with self._counting:
                self._embedding -= 1

    @property
    def embedding(self) -> bool:
        """Whether this app is embedding now (search then says so, instead of "run rawrag index")."""
        return self._embedding > 0

    @property
    def reader_loaded(self) -> bool:
        """Whether the reader is loaded in this app (after its first question), for the Status screen."""
        return self.memory.reader_loaded

    def sync(self, progress: Progress | None = None) -> SyncReport:
        """`rawrag sync`: the lock only around each file's transaction and each embedding
        commit, so searches run while it reads the sources."""
        return self.memory.syncing().run(progress=progress, lock=self._lock)

    def delete_conversation(self, conversation_id: int) -> dict[str, int]:
        with self._lock:
            return self.memory.delete_conversation(conversation_id)

    def delete_source(self, source_id: int) -> dict[str, int]:
        with self._lock:
            return self.memory.delete_source(source_id)

    def warm_up(self) -> None:
        """Load the embedder now (about 2 s) so the first search does not pay for it."""
        with self._lock:
            if self.memory.counts()["windows"]:
                self.memory.embedder  # noqa: B018 - the property loads the model

    def close(self) -> None:
        """Close the memory once the lock is free: an import cancelled on quit finishes rolling back first."""
        with self._lock:
            self.memory.close()

    # -- the lock ------------------------------------------------------------------

    def hold(self) -> threading.RLock:
        """The lock itself, for a caller that must keep the store still (``with gate.hold(): ...``)."""
        return self._lock

    @property
    def busy(self) -> bool:
        if self._lock.acquire(blocking=False):
            self._lock.release()
            return False
        return True


def ask(memory: Memory, question: str, on_piece: Callable[[str], None],
        on_evidence: Callable[[Any], None] | None = None,
        on_progress: Callable[[str, int, int | None], None] | None = None) -> Answer:
    """``memory.ask``, streaming: ``on_evidence`` gets the packed evidence
    before the reader starts, ``on_progress`` the prompt being read, then
    ``on_piece`` the answer as it is written. A build without the reader
    raises its one-line ModelError here, like any other reader failure."""
    return memory.ask(question, on_token=on_piece, on_evidence=on_evidence, on_progress=on_progress)


def citation_target(answer: Answer, citation: Citation) -> tuple[int, int] | None:
    """(conversation_id, message_id) of the evidence message ``[n]`` cites, or None when out of range."""
    if 1 <= citation.n <= len(answer.evidence):
        m = answer.evidence[citation.n - 1]
        return m.conversation_id, m.message_id
    return None


