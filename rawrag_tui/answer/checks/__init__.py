"""Checks run on the reader's answer once it has streamed, none needing a model.

A small reader takes the first value of the kind it wants and stops, even
where a later message changed it. Each module here is one check with the
:class:`~.base.Check` shape: ``check`` finds a correction (or None) from the
numbered evidence, ``explain`` says why in words the faces show. They run in
the order of :data:`CHECKS`; the first that corrects the answer wins, and the
reader's own words are kept beside the correction. ``support`` runs after
them: it finds the sources of an answer the reader did not cite.

A new check is a new module and one entry in :data:`CHECKS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...search.types import EvidenceMessage
from ..evidence import EvidenceViews
from ..prompts import is_abstention
from . import later_values, stated_dates
from .base import Check, Correction

#: The correcting checks, in the order they run.
CHECKS: tuple[Check, ...] = (stated_dates, later_values)


@dataclass(frozen=True)
class Corrected:
    """A correction and why it was made."""

    correction: Correction
    why: str


def first_correction(question: str, answer: str, said: str, messages: Sequence[EvidenceMessage],
                     views: EvidenceViews) -> Corrected | None:
    """The first of :data:`CHECKS` to correct the reader's ``answer`` (``said``:
    the same without its citations); None keeps it. An abstention is never corrected."""
    if is_abstention(answer):
        return None
    for each in CHECKS:
        correction = each.check(question, said, messages, views)
        if correction is not None:
            return Corrected(correction, each.explain(answer, correction))
    return None
