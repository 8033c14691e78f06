"""The three model roles, as small protocols the pipeline depends on.

Concrete runtimes (ONNX Runtime, llama.cpp) live in sibling modules and are
imported lazily, so nothing outside ``models/`` ever imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

EmbedKind = Literal["query", "document"]


@runtime_checkable
class Embedder(Protocol):
    #: Identifies the vectors this embedder makes (model id + dims + weights
    #: hash); vectors of two fingerprints are never mixed in one search.
    fingerprint: str
    dims: int

    def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> np.ndarray:
        """L2-normalised float32 array of shape (len(texts), dims)."""
        ...


@runtime_checkable
class Reranker(Protocol):
    name: str

    def score(self, query: str, docs: Sequence[str]) -> list[float]:
        """One relevance score per doc; higher is more relevant."""
        ...


@dataclass(frozen=True)
class Warmed:
    """What reading the fixed start of the prompt ahead of the evidence told."""

    #: Prompt tokens per second this reader reads on this machine, measured
    #: on its own prompt reads (0.0: it cannot tell, e.g. a test double).
    rate: float
    #: Tokens of the prompt now in the reader's cache.
    cached: int
    #: Seconds this call spent reading (0.0 when the prefix was already cached).
    seconds: float


@runtime_checkable
class Reader(Protocol):
    name: str

    @property
    def context_tokens(self) -> int:
        """Tokens a prompt and its answer may take together (read-only: the process reader reports its child's)."""
        ...

    def count_tokens(self, text: str) -> int: ...

    def answer(self, prompt: str, max_tokens: int = 256,
               on_progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
        """Streams the answer's text pieces (temperature 0); ``on_progress(done,
        total)`` reports prompt tokens read before the first piece."""
        ...

    def warm(self, prefix: str, room: int) -> Warmed:
        """Read ``prefix`` (the start every prompt shares) into the cache now,
        in a context with ``room`` tokens, and say how fast prompts are read:
        the evidence is sized to that speed before the rest is read."""
        ...

    def close(self) -> None:
        """Frees the model (its memory, or its child process) when Memory swaps or closes it."""
        ...


@runtime_checkable
class AvoidingReader(Protocol):
    """A reader that may be told which words not to write (a logit bias on
    their tokens, models/avoided.py); answer/avoided_reading.py reads again
    with it. ``can_avoid``: whether it can here (the bundled llama.cpp
    reader always; a server only where it says its token ids)."""

    @property
    def can_avoid(self) -> bool: ...

    def answer_avoiding(self, prompt: str, avoid: Sequence[str], max_tokens: int = 256) -> Iterator[str]:
        """Streams the answer to ``prompt`` (temperature 0) with no token of
        any of ``avoid`` (as written or after a space) written."""
        ...
