"""The app's side of the Memory facade: one lock, cancellation, the reader adapter.

Kept free of textual so the rules it encodes (how calls are serialised, how an
import is cancelled, how an answer's citations map back to messages) can be
tested and read on their own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..errors import UserError
from ..progress import Cancelled, ProgressMeter, human_duration  # noqa: F401  (the screens use them)

NO_READER = "No reader is installed in this build: install the reader extra (pip install 'rawrag-tui[reader]')."


class MemoryGate:
    """Serialises every facade call behind one lock.

    The store is one apsw connection; workers run on several threads, and an
    import's transaction must not interleave with a search or a delete.
    A call made while an import runs simply waits for it.
    """

    def __init__(self, memory: Any):
        self.memory = memory
        self._lock = threading.RLock()

    def __call__(self, method: str, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return getattr(self.memory, method)(*args, **kwargs)

    def warm_up(self) -> None:
        """Load the embedder now (about 2 s) so the first search does not pay for it."""
        with self._lock:
            if self.memory.store.counts()["windows"]:
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


def ask(memory: Any, question: str, on_piece: Callable[[str], None],
        on_evidence: Callable[[Any], None] | None = None,
        on_progress: Callable[[str, int, int | None], None] | None = None) -> Any:
    """``memory.ask``, streaming: ``on_evidence`` gets the packed evidence
    before the reader starts, ``on_progress`` the prompt being read, then
    ``on_piece`` the answer as it is written."""
    ask_fn = getattr(memory, "ask", None)
    if ask_fn is None:
        raise UserError(NO_READER)
    return ask_fn(question, on_token=on_piece, on_evidence=on_evidence, on_progress=on_progress)


def field(obj: Any, name: str, default: Any = None) -> Any:
    """An attribute of a dataclass or a key of a dict: citations come as either."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def citation_target(answer: Any, citation: Any) -> tuple[int, int] | None:
    """(conversation_id, message_id) a citation points at, or None when unknown."""
    cid, mid = field(citation, "conversation_id"), field(citation, "message_id")
    if cid is not None and mid is not None:
        return int(cid), int(mid)
    evidence = field(answer, "evidence") or []
    n = field(citation, "n")
    if isinstance(n, int) and 1 <= n <= len(evidence):
        m = evidence[n - 1]
        return int(field(m, "conversation_id")), int(field(m, "message_id"))
    return None


