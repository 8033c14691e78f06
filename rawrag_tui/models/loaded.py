"""The models one home's memories use, each loaded once, on first use, whichever thread asks first.

A server that runs calls side by side gives each its own SQLite connection
(a :meth:`Memory.sibling <rawrag_tui.memory.Memory.sibling>`), but a second
copy of the embedder or the reranker would only cost memory and load time:
the siblings share one ``LoadedModels``. The lock makes the first use from
two threads load a model once; the models themselves are safe to call from
several threads (ONNX Runtime sessions and the tokenizers keep no state
between calls).
"""

from __future__ import annotations

import threading

from ..settings import Settings
from .protocols import Embedder, Reranker


class LoadedModels:
    def __init__(self, settings: Settings, embedder: Embedder | None = None, reranker: Reranker | None = None):
        self.settings = settings
        self._embedder = embedder
        self._reranker = reranker
        self._reranker_loaded = reranker is not None
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                from . import load_embedder

                self._embedder = load_embedder(self.settings)
            return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        """The profile's reranker, or None when it has none (asked once)."""
        with self._lock:
            if not self._reranker_loaded:
                from . import load_reranker

                self._reranker = load_reranker(self.settings)
                self._reranker_loaded = True
            return self._reranker
