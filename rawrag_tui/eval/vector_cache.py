"""Embed each distinct window text once per evaluation run, across stores.

Benchmarks that give every question its own store (LongMemEval) draw their
haystacks from a shared pool of sessions, so the same session, hence the
same window text, is embedded again in store after store. A session is its
own conversation, so its windows are byte-identical wherever it appears;
this wrapper keeps their vectors in memory (keyed by the text's SHA-256) and
asks the model only for texts it has not seen. Same fingerprint as the model
it wraps: the vectors are the model's own.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ..memory import Embedder, EmbedKind


class CachedEmbedder:
    def __init__(self, inner: Embedder, max_items: int = 100_000):
        self.inner = inner
        self.fingerprint = inner.fingerprint
        self.dims = inner.dims
        self.max_items = max_items  # 100k MiniLM vectors are about 150 MB
        self.hits = 0
        self.misses = 0
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> np.ndarray:
        if kind != "document":  # questions are asked once each: nothing to reuse
            return self.inner.embed(texts, kind=kind)
        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts):
            if key in self._vectors:
                self._vectors.move_to_end(key)
            else:
                missing.setdefault(key, text)
        if missing:
            fresh = self.inner.embed(list(missing.values()), kind=kind)
            for key, vector in zip(missing, fresh):
                self._vectors[key] = np.asarray(vector, dtype=np.float32)
        self.misses += len(missing)
        self.hits += len(texts) - len(missing)
        out = np.stack([self._vectors[k] for k in keys]) if keys else np.zeros((0, self.dims), np.float32)
        while len(self._vectors) > self.max_items:
            self._vectors.popitem(last=False)
        return out
