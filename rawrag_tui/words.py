"""Words: the stop words and the stem every layer matches words with.

A question is mostly function words ("when is the wedding at the mill").
The lexical channel leaves them out of a query: each matches nearly every
window, so "the" alone makes a query over 200,000 windows read 200,000 rows
while BM25 gives it almost no weight (docs/benchmarks.md, search at scale).
Highlighting, evidence selection and the answer checks leave out the core
of the same list when they look for a question's subject.

The words themselves are English and live in the English module
(lang/en.py); matching (:func:`query_terms`, :func:`word_stems`,
:func:`term_spans`) is per language: English stems, CJK bigrams, a plain
prefix elsewhere (rawrag_tui/lang).
"""

from __future__ import annotations

from .lang import query_terms, term_spans, word_stems
from .lang.base import WORD
from .lang.en import LEXICAL_STOPWORDS, STOPWORDS, stem

__all__ = ["LEXICAL_STOPWORDS", "STOPWORDS", "WORD", "content_words", "query_terms", "stem", "term_spans",
           "word_stems"]


def content_words(words: list[str]) -> list[str]:
    """``words`` without the lexical channel's stop words, unless that would leave none."""
    kept = [w for w in words if w not in LEXICAL_STOPWORDS]
    return kept or words
