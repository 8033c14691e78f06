"""What an answer check returns, and the shape every check module has."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from ...search.types import EvidenceMessage
from ..evidence import EvidenceViews


@dataclass(frozen=True)
class Correction:
    """What a check answers with instead of the reader's words."""

    #: 1-based number of the evidence message that states it (0: none does;
    #: the replacement is then "not in your history").
    message: int
    #: The replacement answer, as the message states it ("3 May 2026", "1:50").
    text: str
    #: Whether it is an earlier statement than the reader's, for a question
    #: about the past (the reader gave the latest), rather than the latest.
    earlier: bool = False
    #: Whether an earlier message on the subject states the reader's answer
    #: (a value the replacement's later message changed), rather than none.
    superseded: bool = False
    #: Whether the reader's answer is part of the value given instead ("hattiedraws.es"
    #: of the e-mail address "hello@hattiedraws.es"), rather than another value.
    part: bool = False
    #: Whether a message says the day it cites came, and the later dates stated on the
    #: subject are other events, rather than it being the latest date stated on it.
    happened: bool = False


class Check(Protocol):
    """An answer check: a module with its setting's name and these two functions (see ``checks/__init__.py``)."""

    NAME: str

    def check(self, question: str, said: str, messages: Sequence[EvidenceMessage],
              views: EvidenceViews | None = None, today: dt.date | None = None,
              earlier: bool = False, latest: Collection[int] = (),
              replaced: Sequence[EvidenceMessage] = ()) -> Correction | None:
        """The correction for the reader's answer ``said`` (its citations removed; ``today``: the
        day the question is asked; ``earlier``: the question names a state earlier than the
        latest, answer/timeline.py; ``latest``: the ids of the messages the evidence marks as
        the newest on an anchor's subject; ``replaced``: the messages the evidence left out as
        superseded by a shown one, in time order, which no correction may cite), or None to keep it."""

    def explain(self, answer: str, correction: Correction) -> str:
        """The note the faces show under the corrected answer: what the reader
        said, and which message says otherwise."""
