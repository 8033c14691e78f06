"""Words: the one stop-word list and the light stem every layer matches words with.

The lexical channel leaves stop words out of a query: a question is mostly
such words ("when is the wedding at the mill"), and each matches nearly
every window, so "the" alone makes a query over 200,000 windows read
200,000 rows while BM25 gives it almost no weight (docs/benchmarks.md,
search at scale). Highlighting, evidence selection and the answer checks
drop the same words when they look for a question's subject.
"""

from __future__ import annotations

import re

WORD = re.compile(r"\w+", re.UNICODE)

STOPWORDS = frozenset("""
a about above after again all am an and any are as at be been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers
herself him himself his how i if in into is it its itself just me more most my myself no nor not now of
off on once only or other our ours ourselves out over own same she should so some such than that the
their theirs them themselves then there these they this those through to too under until up very was we
were what when where which while who whom why will with would you your yours yourself yourselves
s t d ll m re ve
""".split())


def content_words(words: list[str]) -> list[str]:
    """``words`` without the stop words, unless that would leave none."""
    kept = [w for w in words if w not in STOPWORDS]
    return kept or words


#: Endings taken off before the prefix is cut, longest first; what is left
#: keeps at least three letters ("news" stays a word, "bus" is not "bu").
_SUFFIXES = ("ings", "ing", "edly", "ed", "ies", "es", "ly", "s", "e")


def stem(word: str) -> str:
    """A light English stem: common endings off, a doubled last consonant
    undone, then the first five letters. "live", "lived" and "living" meet
    ("liv"), as do "move"/"moving", "aim"/"aiming", "run"/"running" and
    "wedding"/"weddings"; a five-letter prefix alone kept "live" and
    "livin" apart, and a question about where someone lives found no
    message saying "Living in Lisbon"."""
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
    return {stem(w) for w in (t.lower() for t in WORD.findall(query))
            if w not in STOPWORDS and (len(w) > 1 or w.isdigit())}


def word_stems(text: str) -> set[str]:
    return {stem(w.lower()) for w in WORD.findall(text)}


def term_spans(terms: set[str], text: str) -> list[tuple[int, int]]:
    """Character spans of the words of ``text`` whose stem is one of ``terms``."""
    return [(m.start(), m.end()) for m in WORD.finditer(text) if stem(m.group().lower()) in terms]
