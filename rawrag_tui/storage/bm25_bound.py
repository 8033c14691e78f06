"""How much a query term can add to a window's BM25 score, as FTS5's ``bm25()`` computes it.

FTS5 scores every window any query term matches before it keeps the best N: a
question's everyday words ("go", "family") match tens of thousands of windows
at a heavy user's scale, and the score, not the match, is the cost (~20x a
bare count). Each term adds ``idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * D / avgdl))``
(fts5_aux.c, k1 = 1.2, b = 0.75, column weights 1), which stays below
``idf * (k1 + 1)`` whatever the term's count and the window's length. So when
the N-th best window among those holding a rarer term scores at least the sum
of the common terms' bounds, no window holding only common terms can enter the
top N, and only the rarer terms' windows need a score (MaxScore pruning: the
same top N, in the same order, as scoring every match).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

K1 = 1.2  # FTS5's bm25() constants (fts5_aux.c)


def idf(docs: int, rows: int) -> float:
    """FTS5's IDF for a term in ``docs`` of ``rows`` windows (1e-6 where the log is not positive)."""
    value = math.log((rows - docs + 0.5) / (docs + 0.5))
    return value if value > 0 else 1e-6


def term_bound(docs: int, rows: int) -> float:
    """More than the term can add to any window's score. ``rows`` may be an upper bound of the
    window count (IDF only grows with it), ``docs`` must be the term's exact window count."""
    return idf(docs, rows) * (K1 + 1.0)


def order(docs: Sequence[int | None]) -> list[int]:
    """The terms rarest first, those of unknown count (a phrase, a CJK term) before all."""
    return sorted(range(len(docs)), key=lambda i: (docs[i] is not None, docs[i] or 0))


def splits(docs: Sequence[int | None], rows: int, n: int) -> list[tuple[int, float]]:
    """Ways to score fewer windows, cheapest first, for terms already in :func:`order`: (how many
    of the first terms have their windows scored, the bound on what the other terms can add
    together). A split is offered only when its terms can hold ``n`` windows and every term it
    leaves out has a known count."""
    out = []
    for j in range(1, len(docs)):
        rest = docs[j:]
        if any(d is None for d in rest):
            continue
        if sum(d or 0 for d in docs[:j]) < n:  # their windows cannot hold n: take more terms
            continue
        out.append((j, sum(term_bound(d or 0, rows) for d in rest)))
    return out
