"""recall -> fuse -> rerank -> keep K -> expand: the RAW-RAG search path.

Dense recall is the paper's: the raw question embedded, cosine top-N windows.
The lexical (FTS5 BM25) channel and reciprocal-rank fusion are our additions,
measured on LoCoMo before becoming the default (docs/benchmarks.md). With no reranker the
fused order passes through to the top-K cut.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..models.protocols import Embedder, Reranker
from ..settings import RetrievalSettings
from ..storage.store import Store
from ..storage.vector_matrix import DensePlan
from .filters import Scope
from .types import EvidenceMessage, Hit, SearchResult

MODES = ("dense", "lexical", "hybrid")


@dataclass
class Candidate:
    window_id: int
    scores: dict
    ranks: dict


def rrf(channels: dict[str, list[tuple[int, float]]], k: int) -> list[Candidate]:
    """Reciprocal-rank fusion: sum of 1/(k + rank) over the channels a window is in."""
    merged: dict[int, Candidate] = {}
    for name, ranked in channels.items():
        for rank, (wid, score) in enumerate(ranked, start=1):
            c = merged.setdefault(wid, Candidate(wid, {}, {}))
            c.scores[name] = float(score)
            c.ranks[name] = rank
            c.scores["fused"] = c.scores.get("fused", 0.0) + 1.0 / (k + rank)
    return sorted(merged.values(), key=lambda c: (-c.scores["fused"], c.window_id))


class Meaning:
    """The dense channel's work that reads no SQL: embed the query, then, with a matrix plan,
    the product that finds the nearest vectors (:meth:`Store.dense_plan`)."""

    def __init__(self, embedder: Embedder, query: str, plan: DensePlan | None):
        self.embedder, self.query, self.plan = embedder, query, plan
        self.vector: np.ndarray = np.zeros(0, dtype=np.float32)
        self.found: tuple[np.ndarray, np.ndarray] | None = None
        self.timings: dict[str, float] = {}

    def __call__(self) -> None:
        t = time.perf_counter()
        self.vector = self.embedder.embed([self.query], kind="query")[0]
        self.timings["embed_query"] = time.perf_counter() - t
        if self.plan is not None:
            t = time.perf_counter()
            self.found = self.plan.nearest(self.vector)
            self.timings["dense"] = time.perf_counter() - t


_POOL: ThreadPoolExecutor | None = None


def _meaning_thread() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rawrag-meaning")
    return _POOL


def search(
    store: Store,
    query: str,
    settings: RetrievalSettings,
    embedder: Embedder | None,
    reranker: Reranker | None = None,
    mode: str | None = None,
    limit: int | None = None,
    candidates: int | None = None,
    scope: Scope | None = None,
) -> SearchResult:
    """``scope``: filters already laid out (:meth:`Scope.lay_out`): both channels search only
    its windows, and a hit shows only the messages that pass them."""
    mode = mode or settings.mode
    if mode not in MODES:
        from ..errors import UserError

        raise UserError(f"unknown search mode {mode!r}; choose one of {', '.join(MODES)}")
    k = limit or settings.top_k
    n = candidates or settings.candidates
    timings: dict[str, float] = {}
    channels: dict[str, list[tuple[int, float]]] = {}

    meaning: Meaning | None = None
    if mode in ("dense", "hybrid") and embedder is not None:
        space = store.space_id(embedder.fingerprint)
        plan = (store.dense_plan(space, embedder.dims, n, None if scope is None else scope.windows,
                                 settings.vector_cache_mb << 20, settings.oversample)
                if space is not None else None)
        meaning = Meaning(embedder, query, plan)
        # Hybrid: the query's embedding and the matrix product (neither reads SQL, both
        # release the GIL) run beside the lexical channel's SQL on this thread.
        running = _meaning_thread().submit(meaning) if mode == "hybrid" else None
        if running is None:
            meaning()
    if mode in ("lexical", "hybrid"):
        t = time.perf_counter()
        channels["lexical"] = store.lexical_search(query, n, settings.common_word_share, scope is not None,
                                                   settings.lexical_cache_mb << 20)
        timings["lexical"] = time.perf_counter() - t
    if meaning is not None:
        if running is not None:
            running.result()
        timings.update(meaning.timings)
        t = time.perf_counter()
        if meaning.plan is not None and meaning.found is not None:
            hits = store.dense_windows(meaning.plan, meaning.vector, meaning.found)
        elif space is not None:  # the space is too large to hold in memory: the SQL paths
            hits = store.dense_search(space, meaning.vector, n, settings.exact_below, settings.oversample,
                                      None if scope is None else scope.windows)
        else:
            hits = []
        channels["dense"] = [(wid, 1.0 - dist) for wid, dist in hits]  # cosine similarity
        timings["dense"] = timings.get("dense", 0.0) + time.perf_counter() - t
    words_found = bool(channels["lexical"]) if "lexical" in channels else None
    if words_found is False and "dense" in channels:
        # No message holds the words: the dense channel's nearest neighbours
        # are all that is left, and below the floor they are noise (bot
        # messages, logs), not an answer. Shown as "nearest by meaning".
        channels["dense"] = [(wid, s) for wid, s in channels["dense"] if s >= settings.meaning_floor]

    # Dense first, as before the channels ran side by side: the order a window is
    # first met in breaks fusion's ties, and the faces list the channels in it.
    channels = {name: channels[name] for name in ("dense", "lexical") if name in channels}
    fused = rrf(channels, settings.rrf_k)
    rows: dict[int, dict] = {}
    if reranker is not None and fused:
        t = time.perf_counter()
        pool = fused[: settings.rerank_depth or len(fused)]
        rows = store.windows_by_id([c.window_id for c in pool])
        scores = reranker.score(query, [rows[c.window_id]["text"] for c in pool])
        for c, s in zip(pool, scores):
            c.scores["rerank"] = float(s)
        fused = sorted(pool, key=lambda c: (-c.scores["rerank"], c.window_id))
        timings["rerank"] = time.perf_counter() - t

    t = time.perf_counter()
    kept = fused[:k]
    if not rows:  # with a reranker, the pool's rows already hold every kept window
        rows = store.windows_by_id([c.window_id for c in kept])
    result_hits = []
    for rank, c in enumerate(kept, start=1):
        w = rows[c.window_id]
        msgs = expand(store, w, *(scope.shown if scope else ())) if settings.expand else []
        result_hits.append(
            Hit(c.window_id, w["conversation_id"], w["conversation"], rank, w["text"], c.scores, c.ranks, msgs)
        )
    timings["expand"] = time.perf_counter() - t
    return SearchResult(query, mode, result_hits, timings, channels=list(channels), words_found=words_found)


def expand(store: Store, window: dict, where: str = "1", args: list | tuple = ()) -> list[EvidenceMessage]:
    """The full original messages a window overlaps, in time order (those that meet ``where``)."""
    return [
        EvidenceMessage(
            message_id=m["id"], external_id=m["external_id"], conversation_id=m["conversation_id"],
            conversation=m["conversation"], seq=m["seq"], timestamp=m["ts"], speaker=m["speaker"],
            role=m["role"], text=m["text"], captions=_json_list(m["captions"]),
            attachments=_json_list(m["attachments"]),
        )
        for m in store.messages_between(window["conversation_id"], window["first_seq"], window["last_seq"], where, args)
    ]


def _json_list(stored: str) -> tuple:
    """A stored JSON list; most messages have none, and skipping the parser for them saves
    ~1.5 ms CPU a search at load 11 (two lists for each of ~90 messages)."""
    return () if stored == "[]" else tuple(json.loads(stored))
