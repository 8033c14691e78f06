"""What the answer path reads of the whole history beyond the search's hits.

Two questions need more than the kept windows: which *later* messages of a
conversation speak of the same subject as the evidence (answer/timeline.py),
and whether a name the question asks about occurs anywhere at all (if not,
the answer is "not in your history" before any reader is loaded). Both are
answered from what a home already has: the store and the embedder that
indexed it. :class:`StoreHistory` is that; a caller without a store passes
nothing and the answer path does without.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from ..models.protocols import Embedder
from ..search.types import EvidenceMessage
from ..storage.store import Store

#: Message vectors kept between questions (384 floats each: ~6 MB at the cap).
CACHE_LIMIT = 4096


class History(Protocol):
    def embed(self, messages: Sequence[EvidenceMessage]) -> np.ndarray:
        """One L2-normalised vector per message (as a document)."""
        ...

    def embed_question(self, question: str) -> np.ndarray: ...

    def last_messages(self, conversation_id: int, after_seq: int, limit: int) -> list[EvidenceMessage]:
        """The latest ``limit`` main-branch messages of a conversation after ``after_seq``, in order."""
        ...

    def mentions(self, word: str) -> bool:
        """Whether any message holds ``word`` (or a word it starts, for inflected forms)."""
        ...


def message_text(m: EvidenceMessage) -> str:
    """What a message is embedded as: who said it and what, with image captions."""
    return f"{m.speaker}: {' '.join(m.text.split())} {' '.join(m.captions)}".strip()


class StoreHistory:
    """:class:`History` over a home's store and embedder (loaded only when asked)."""

    def __init__(self, store: Store, embedder: Callable[[], Embedder]):
        self._store = store
        self._embedder = embedder
        self._vectors: dict[tuple[int, str], np.ndarray] = {}

    def embed(self, messages: Sequence[EvidenceMessage]) -> np.ndarray:
        keys = [(m.message_id, message_text(m)) for m in messages]
        missing = list({k: None for k in keys if k not in self._vectors})
        if missing:
            if len(self._vectors) + len(missing) > CACHE_LIMIT:
                self._vectors.clear()
            vectors = self._embedder().embed([text for _, text in missing], kind="document")
            self._vectors.update(zip(missing, vectors))
        if not keys:
            return np.zeros((0, 1), dtype=np.float32)
        return np.stack([self._vectors[k] for k in keys])

    def embed_question(self, question: str) -> np.ndarray:
        return self._embedder().embed([question], kind="query")[0]

    def last_messages(self, conversation_id: int, after_seq: int, limit: int) -> list[EvidenceMessage]:
        conversation = self._store.conversation(conversation_id)
        if conversation is None:
            return []
        rows = self._store.messages(conversation_id, max(0, int(conversation["messages"]) - limit), limit)
        return [
            EvidenceMessage(
                message_id=r["id"], external_id=r["external_id"], conversation_id=conversation_id,
                conversation=conversation["title"], seq=r["seq"], timestamp=r["ts"], speaker=r["speaker"],
                role=r["role"], text=r["text"], captions=tuple(json.loads(r["captions"])),
                attachments=tuple(json.loads(r["attachments"])),
            )
            for r in rows if r["seq"] > after_seq and r["on_main_branch"]
        ]

    def mentions(self, word: str) -> bool:
        return self._store.mentions(word)
