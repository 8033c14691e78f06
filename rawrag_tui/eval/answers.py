"""The reader's side of an evaluation: ask through ``Memory.ask`` and score.

Kept thin on purpose: answering lives in the facade and the metric in
:mod:`rawrag_tui.eval.metrics` (LoCoMo's token F1); this module only adapts
them. What is scored is the answer's plain text: the reader's ``[n]``
citation markers are metadata, and ``[2]`` would otherwise count as a token
"2" in the F1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from .. import toolkit
from ..memory import Memory
from ..search.types import SearchResult
from . import metrics

Scorer = Callable[[str, object, int], float]

#: Ways a reader says the history does not hold the answer, besides the prompt's own sentence.
_ABSTAINS = re.compile(
    r"not in your history|nothing in your history|no information|not mentioned|isn't mentioned|"
    r"is not mentioned|never mentioned|do(?:es)? not (?:know|mention|say|contain)|don't (?:know|mention)|"
    r"can ?not (?:be )?(?:determine|determined|answer|find|tell)|can't (?:determine|answer|tell)|"
    r"not enough information|no (?:record|mention|evidence)",
    re.IGNORECASE,
)


class Read(NamedTuple):
    """One question read: the answer's plain text and the reader's seconds."""

    text: str
    read_s: float  # from the start of reading to the last token
    first_token_s: float  # from the start of reading to the first streamed piece


def load_scorer() -> Scorer:
    """LoCoMo's answer metric ``(prediction, answer, category) -> float``."""
    return metrics.locomo_score


def require_reader() -> None:
    """Fail with one line (a ModelError) before any history is imported when
    llama-cpp-python, which every reader runs on, is not installed."""
    toolkit.require_reader()


def ask(memory: Memory, question: str, date: str | None, result: SearchResult | None = None) -> Read:
    """The reader's answer to ``question`` (from ``result``, a search already made, when given)."""
    answer = memory.ask(question, date=date, result=result)
    read_s = answer.timings["read"]
    # A question with no evidence is answered without reading: no token was streamed.
    return Read(answer.plain_text(), read_s, answer.timings.get("first_token", read_s))


def abstains(text: str) -> bool:
    """Whether an answer declines ("Not in your history.", "not mentioned", ...)."""
    return toolkit.is_abstention(text) or bool(_ABSTAINS.search(text))
