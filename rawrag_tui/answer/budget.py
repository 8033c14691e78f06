"""The evidence budget: how much evidence a reader reads within the first-token wait.

The reader reads the prompt's fixed instructions first (the same for every
question, cached across processes), which measures this machine's prompt
speed at no extra cost; the evidence is then sized to what it reads in
``reader.first_token_seconds``, between a floor and the profile's ceiling.
"""

from __future__ import annotations

from collections.abc import Callable

from ..models.protocols import Warmed
from .prompts import fixed_prefix

#: Share of the first-token wait the evidence may fill; the rest absorbs a
#: prompt speed measured a little high and the first token's own step.
_WAIT_SHARE = 0.9
#: Tokens the chat template adds after the user's text (its end-of-turn and
#: the assistant's cue), never cached ahead.
TEMPLATE_TAIL = 8


def after_prefix(frame_tokens: int, count_tokens: Callable[[str], int], style: str) -> int:
    """Prompt tokens besides the evidence still to read once the fixed prefix
    is cached: of ``frame_tokens`` (the prompt with no evidence), the date,
    the question and the template's tail."""
    return frame_tokens - count_tokens(fixed_prefix(style)) + TEMPLATE_TAIL


def timed_budget(budget: int, warmed: Warmed, seconds: float, floor: int, rest_tokens: int) -> int:
    """The evidence a reader reading ``warmed.rate`` prompt tokens/s gets
    through in ``seconds`` from the start of reading, after what it already
    spent on the prefix and the ``rest_tokens`` of prompt it must still read
    besides the evidence (date, question, template tail). Never below
    ``floor`` (a slower machine waits longer rather than answer from almost
    nothing), never above ``budget``; ``budget`` itself when the speed is
    unknown."""
    if warmed.rate <= 0:
        return budget
    affordable = int(warmed.rate * (seconds * _WAIT_SHARE - warmed.seconds)) - rest_tokens
    return min(budget, max(floor, affordable))
