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
    from ..memory import Memory


class MemoryGate:
    """Serialises every facade call behind one lock.

    The store is one apsw connection; workers run on several threads, and an
    import's transaction must not interleave with a search or a delete.
    A call made while an import runs simply waits for it.
    """

    def __init__(self, memory: Memory):
        self.memory = memory
        self._lock = threading.RLock()

    def __call__(self, method: str, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return getattr(self.memory, method)(*args, **kwargs)

    def warm_up(self) -> None:
        """Load the embedder now (about 2 s) so the first search does not pay for it."""
        with self._lock:
            if self.memory.counts()["windows"]:
                self.memory.embedder  # noqa: B018 - the property loads the model

    def hold(self) -> threading.RLock:
        """The lock itself, for a call that streams (``with gate.hold(): ...``)."""
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


