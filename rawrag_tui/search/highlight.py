"""Which words of a message match the query: for highlighting and for picking
the lines of a hit worth showing first (demo, TUI).

Deliberately lexical and cheap: it explains a hit to a person, it does not
rank windows (the pipeline does that).
"""

from __future__ import annotations

from ..words import query_terms, term_spans, word_stems
from .types import EvidenceMessage, SearchResult


def match_spans(query: str, text: str) -> list[tuple[int, int]]:
    """Character spans of ``text`` whose word shares a stem with a query term, and, for a
    Chinese/Japanese/Korean query, where its bigrams occur (such text has no spaces between
    words: the full-text index matches it by bigrams, see storage/cjk.py)."""
    spans = term_spans(query_terms(query), text) + _cjk_spans(query, text)
    if not spans:
        return []
    merged = [min(spans)]
    for start, end in sorted(spans)[1:]:
        if start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _cjk_spans(query: str, text: str) -> list[tuple[int, int]]:
    from ..storage.cjk import CJK_RUN

    grams = {run[i : i + 2] for run in CJK_RUN.findall(query) for i in range(max(len(run) - 1, 1))}
    if not grams:
        return []
    spans: list[tuple[int, int]] = []
    for found in CJK_RUN.finditer(text):
        run, base = found.group(), found.start()
        for i in range(len(run)):
            spans.extend((base + i, base + i + len(g)) for g in grams if run.startswith(g, i))
    return spans


def best_messages(result: SearchResult, n: int) -> list[EvidenceMessage]:
    """The ``n`` messages with the most matching terms, earlier hits winning ties."""
    terms = query_terms(result.query)
    scored: dict[int, tuple[int, int, EvidenceMessage]] = {}
    for hit in result.hits:
        for m in hit.messages:
            words = word_stems(m.text + " " + " ".join(m.captions))
            score = len(words & terms)
            if m.message_id not in scored:
                scored[m.message_id] = (score, hit.rank, m)
    ranked = sorted(scored.values(), key=lambda s: (-s[0], s[1], s[2].seq))
    return [m for _, _, m in ranked[:n]]
