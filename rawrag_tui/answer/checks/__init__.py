"""Checks run on the reader's answer once it has streamed, none needing a model.

A small reader takes the first value of the kind it wants and stops, even
where a later message changed it. Each module here is one check with the
:class:`~.base.Check` shape: ``check`` finds a correction (or None) from the
numbered evidence, ``explain`` says why, in the note the faces show under
the answer. The checks a home runs, and their order, are the setting
``[answer] checks`` (settings.py; ``[]`` turns them all off); the first that
corrects the answer wins: its value *is* the answer, and the reader's own
words are kept in the note. ``support`` always runs after them: it finds the
sources of an answer the reader did not cite, and changes no answer.

A new check is a new module, one entry in :data:`BY_NAME` and its name in
settings.py's ``ANSWER_CHECKS``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ...search.types import EvidenceMessage
from ...settings import ANSWER_CHECKS
from ..evidence import EvidenceViews
from ..prompts import is_abstention, parse_question_date
from . import cancelled_plans, later_values, repeats_question, stated_dates
from .base import Check, Correction

#: Every check, by the name ``[answer] checks`` gives it.
BY_NAME: dict[str, Check] = {cancelled_plans.NAME: cancelled_plans, stated_dates.NAME: stated_dates,
                             later_values.NAME: later_values, repeats_question.NAME: repeats_question}
#: The correcting checks, in the order they run by default.
CHECKS: tuple[Check, ...] = tuple(BY_NAME[name] for name in ANSWER_CHECKS if name in BY_NAME)


@dataclass(frozen=True)
class Corrected:
    """A correction and why it was made."""

    correction: Correction
    why: str


def first_correction(question: str, answer: str, said: str, messages: Sequence[EvidenceMessage],
                     views: EvidenceViews, names: Sequence[str] | None = None,
                     date: str | dt.date | None = None, earlier: bool = False,
                     latest: Collection[int] = (), replaced: Sequence[EvidenceMessage] = ()) -> Corrected | None:
    """The first of the checks ``names`` (default: all, in their order) to correct the
    reader's ``answer`` (``said``: the same without its citations; ``date``: the day
    the question is asked, default today; ``earlier``: the question names an earlier
    state, where the latest statement is the wrong answer; ``latest``: the messages
    marked as the newest on their subject; ``replaced``: the messages the evidence
    left out as superseded, never cited); None keeps it. An
    abstention is never corrected."""
    if is_abstention(answer):
        return None
    today = parse_question_date(date)
    for name in ANSWER_CHECKS if names is None else names:
        each = BY_NAME.get(name)
        if each is None:  # not a check of the text: a second reading (answer/later_reading.py, earlier_reading.py)
            continue
        correction = each.check(question, said, messages, views, today, earlier, latest, replaced)
        if correction is not None:
            return Corrected(correction, each.explain(said.strip(), correction))
    return None
