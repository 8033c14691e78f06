"""Which words of a message match the query: for highlighting and for picking
the lines of a hit worth showing first (demo, TUI).

Deliberately lexical and cheap: it explains a hit to a person, it does not
rank windows (the pipeline does that).
"""

from __future__ import annotations

import re

from .types import EvidenceMessage, SearchResult

_WORD = re.compile(r"\w+", re.UNICODE)
STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have he her his how i in is it its me my now of on or "
    "our she so that the their them they this to was we were what when where which who why will with you your".split()
)


#: Endings taken off before the prefix is cut, longest first; what is left
#: keeps at least three letters ("news" stays a word, "bus" is not "bu").
_SUFFIXES = ("ings", "ing", "edly", "ed", "ies", "es", "ly", "s", "e")


def _stem(word: str) -> str:
    """A light English stem: common endings off, a doubled last consonant
    undone, then the first five letters. "live", "lived" and "living" meet
    ("liv"), as do "move"/"moving", "aim"/"aiming", "run"/"running" and
    "wedding"/"weddings"; a five-letter prefix alone kept "live" and
    "livin" apart, and a question about where someone lives found no
    message saying "Living in Lisbon" (issue 11)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            if suffix in ("ing", "ings", "ed", "edly") and len(word) > 3 and word[-1] == word[-2] \
                    and word[-1] not in "lsz":
                word = word[:-1]
            break
    return word[:5]


def query_terms(query: str) -> set[str]:
    """The query's content words, stemmed (single letters, such as the "s" of "Maya's", are not words;
    single digits are)."""
    return {_stem(w) for w in (t.lower() for t in _WORD.findall(query))
            if w not in STOPWORDS and (len(w) > 1 or w.isdigit())}


def word_stems(text: str) -> set[str]:
    return {_stem(w.lower()) for w in _WORD.findall(text)}


def term_spans(terms: set[str], text: str) -> list[tuple[int, int]]:
    """Character spans of the words of ``text`` whose stem is one of ``terms``."""
    return [(m.start(), m.end()) for m in _WORD.finditer(text) if _stem(m.group().lower()) in terms]


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
