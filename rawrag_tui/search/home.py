"""A search over one home as it stands: which channels can run, and what the result says about it.

An import that just landed has windows and no vectors yet: such a store is
searched by words now and by meaning once indexed, and the result says how
many windows the meaning channel cannot see yet and what continues them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..models.protocols import Embedder, Reranker
from ..settings import RetrievalSettings
from ..storage.store import Store
from . import pipeline
from .filters import Scope
from .types import SearchResult


def what_is_searchable(store: Store, query: str, retrieval: RetrievalSettings, mode: str | None,
                       limit: int | None, candidates: int | None, embedder: Callable[[], Embedder],
                       reranker: Reranker | None, auto_depth: Callable[[], int],
                       scope: Scope | None = None) -> SearchResult:
    """``pipeline.search`` with the channels this store can serve now; ``embedder``
    is called only when the meaning channel runs (loading it takes seconds).
    ``scope``: the checked filters; when no message passes them the result is empty and says so."""
    mode = mode or retrieval.mode
    if scope is not None and not scope.lay_out(store):
        return SearchResult(query, mode, [], nothing_passes=scope.nothing_passes())
    model = embedder() if mode in ("dense", "hybrid") and store.has_windows() else None
    space = store.space_id(model.fingerprint) if model is not None else None
    pending = store.pending_count(space) if model is not None and store.any_pending(space) else 0
    run_mode = mode
    if model is not None and not store.has_vectors(space):
        # Nothing embedded yet (an import just landed): words now, meaning once indexed.
        run_mode, model = "lexical", None
    if reranker is not None and retrieval.rerank_depth == 0:
        retrieval = replace(retrieval, rerank_depth=auto_depth())
    result = pipeline.search(store, query, retrieval, model, reranker,
                             mode=run_mode, limit=limit, candidates=candidates, scope=scope)
    result.mode, result.pending_embeddings = mode, pending
    if result.lexical_only:
        result.notes.append(f"results come from the lexical channel alone: {pending:,} windows are still "
                            "waiting for embeddings (`rawrag index` continues them)")
    elif pending:
        result.notes.append(f"{pending:,} windows are not embedded yet, so search by meaning cannot see them: "
                            "run `rawrag index`")
    return result
