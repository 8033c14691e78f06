"""The reader's side of an evaluation: ask through ``Memory.ask`` and score.

Kept thin on purpose: answering lives in the facade and the metric in
:mod:`rawrag_tui.eval.metrics` (LoCoMo's token F1); this module only adapts
them and fails with one clear line when the reader is not installed.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable

from ..errors import UserError

Scorer = Callable[[str, object, int], float]

NOT_INSTALLED = "the reader is not installed (install rawrag with the `reader` extra)"

#: Ways a reader says the history does not hold the answer, besides the prompt's own sentence.
_ABSTAINS = re.compile(
    r"not in your history|nothing in your history|no information|not mentioned|isn't mentioned|"
    r"is not mentioned|never mentioned|do(?:es)? not (?:know|mention|say|contain)|don't (?:know|mention)|"
    r"can ?not (?:be )?(?:determine|determined|answer|find|tell)|can't (?:determine|answer|tell)|"
    r"not enough information|no (?:record|mention|evidence)",
    re.IGNORECASE,
)


def load_scorer() -> Scorer:
    """LoCoMo's answer metric ``(prediction, answer, category) -> float``."""
    try:
        from . import metrics
    except ImportError:
        raise UserError(NOT_INSTALLED) from None
    scorer = getattr(metrics, "locomo_f1", None) or getattr(metrics, "locomo_score", None)
    if scorer is None:
        raise UserError(NOT_INSTALLED)
    return scorer


def require_reader(memory: Any) -> None:
    if not callable(getattr(memory, "ask", None)):
        raise UserError(NOT_INSTALLED)


def answer_text(answer: Any) -> str:
    if isinstance(answer, str):
        return answer
    if isinstance(answer, dict):
        return str(answer.get("answer", ""))
    return str(getattr(answer, "answer", answer))


def ask(memory: Any, question: str, date: str | None) -> tuple[str, float]:
    """The reader's answer and the seconds it spent reading (wall time when it does not say)."""
    started = time.perf_counter()
    answer = memory.ask(question, date=date)
    elapsed = time.perf_counter() - started
    timings = getattr(answer, "timings", None) or (answer.get("timings") if isinstance(answer, dict) else None) or {}
    return answer_text(answer), float(timings.get("read", elapsed))


def abstains(text: str) -> bool:
    """Whether an answer declines ("Not in your history.", "not mentioned", ...)."""
    try:
        from ..retrieval.prompts import is_abstention
    except ImportError:
        is_abstention = None
    if is_abstention is not None and is_abstention(text):
        return True
    return bool(_ABSTAINS.search(text))
