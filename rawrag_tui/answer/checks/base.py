"""What an answer check returns, and the shape every check module has."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ...search.types import EvidenceMessage
from ..evidence import EvidenceViews


@dataclass(frozen=True)
class Correction:
    """What a check answers with instead of the reader's words."""

    #: 1-based number of the evidence message that states it.
    message: int
    #: The replacement answer, as the message states it ("3 May 2026", "1:50").
    text: str


class Check(Protocol):
    """An answer check: a module with these two functions (see ``checks/__init__.py``)."""

    def check(self, question: str, said: str, messages: Sequence[EvidenceMessage],
              views: EvidenceViews | None = None) -> Correction | None:
        """The correction for the reader's answer ``said`` (its citations removed), or None to keep it."""

    def explain(self, answer: str, correction: Correction) -> str:
        """Why ``answer`` was replaced, in words the faces show after it."""
