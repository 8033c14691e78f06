"""The sources of an answer the reader did not cite.

A reader too small to cite (prompt "plain") answers in words; the evidence
messages that share the answer's words are shown as its sources, and an
answer no message supports is flagged as a possible guess.

Words are matched the way each text's language writes them (rawrag_tui/lang):
English by stem, Chinese and Japanese by character bigrams (a one-character
answer, "猫", by the character itself), so a CJK answer is not flagged for
being CJK: "小白" is supported by "我的猫叫小白".
"""

from __future__ import annotations

from collections.abc import Sequence

from ...lang import query_terms
from ...search.types import EvidenceMessage
from ..evidence import EvidenceViews

#: At most this many messages are matched to an uncited answer.
MATCHED_SOURCES = 2


def naming(answer: str, question: str, messages: Sequence[EvidenceMessage],
           views: EvidenceViews | None = None) -> list[tuple[int, int, int]]:
    """``(n, answer words, question words)`` for each evidence message (1-based
    ``n``) that names ``answer``: shares one of its words beyond the
    question's and holds every number it states; with how many of the
    answer's and the question's words (speaker included) it holds."""
    views = views or EvidenceViews()
    asked = query_terms(question)
    said = query_terms(answer) - asked
    if not said:
        return []
    numbers = {w for w in said if w.isdigit()}
    # A CJK run of one character is its own term; a message's bigrams never are.
    single = {w for w in said if len(w) == 1 and not w.isascii()}
    found = []
    for n, m in enumerate(messages, 1):
        # Relative times resolved: "yesterday (7 May 2023)" supports "7 May 2023".
        words = views(m).supporting_stems | {w for w in single if w in views(m).text}
        if words & said and numbers <= words:
            found.append((n, len(words & said), len(words & asked)))
    return found


def match_sources(answer: str, question: str, messages: list[EvidenceMessage],
                  views: EvidenceViews | None = None) -> list[int]:
    """1-based numbers of the evidence messages that best support ``answer``.

    Ranked by the answer's own words (those not already in the question),
    then by the question's words (speaker included), then recency: the newer
    message wins a tie, as the newer state of a changing fact should. A
    message must hold every number the answer states: "4 May" is not
    supported by a message that says "3 May", and such a message is never
    shown as the answer's source (:func:`naming`).
    """
    best = sorted(naming(answer, question, messages, views), key=lambda s: (-s[1], -s[2], -s[0]))[:MATCHED_SOURCES]
    return sorted(n for n, *_ in best)
