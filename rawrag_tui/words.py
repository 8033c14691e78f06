"""Words: the stop words and the light stem every layer matches words with.

A question is mostly function words ("when is the wedding at the mill").
The lexical channel leaves them out of a query: each matches nearly every
window, so "the" alone makes a query over 200,000 windows read 200,000 rows
while BM25 gives it almost no weight (docs/benchmarks.md, search at scale).
Highlighting, evidence selection and the answer checks leave out the core
of the same list when they look for a question's subject.
"""

from __future__ import annotations

import re

WORD = re.compile(r"\w+", re.UNICODE)

#: Function words no layer takes for a question's subject: highlighting,
#: evidence selection and the answer checks leave them out of a question.
STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have he her his how i in is it its me my now of on or "
    "our she so that the their them they this to was we were what when where which who why will with you your".split()
)

#: What the lexical channel also leaves out of a query. Its reason is cost,
#: not meaning: FTS5 scores every window a term matches before it takes the
#: best N, so each such word read most of a 200,000-window store. The answer
#: path keeps these: "before", "after", "not", "no longer" and "more" shape
#: which message a question is about (dropping them there changed the
#: evidence of 27 of 398 LoCoMo conv-26 question-and-budget cases).
LEXICAL_STOPWORDS = STOPWORDS | frozenset("""
about above after again all am any been before being below between both but can could d doing down during each
few further having here hers herself him himself if into itself just ll m more most myself no nor not off once
only other ours ourselves out over own re s same should some such t than theirs themselves then there these those
through too under until up ve very while whom would yours yourself yourselves
""".split())


def content_words(words: list[str]) -> list[str]:
    """``words`` without the lexical channel's stop words, unless that would leave none."""
    kept = [w for w in words if w not in LEXICAL_STOPWORDS]
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
