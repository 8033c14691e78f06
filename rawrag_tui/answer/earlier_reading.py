"""Reading again from the earlier messages: "before she moved to Leeds", answered "Leeds".

Asked for a state before the one the question names ("Which city did Hannah
live in before she moved to Leeds?", "李娜搬去杭州之前住在哪个城市？"), the
bundled 0.5B reader answers with the name the question gives, the state
*after*: "Leeds", "杭州". The check repeats_question turns such an answer
into "not in your history", which is honest but wrong: the history holds the
earlier state, written before the new one was ever mentioned.

So where the reader's answer only repeats the question's names and the
question asks about an earlier state (answer/timeline.py), the reader reads
again: the same question over only the evidence messages of that
conversation sent before the first message that names its answer. What was
true before the new state is what was said before anyone wrote of it. The
second answer stands only where: a message of that earlier part supports it
(shares its words: answer/checks/support.py); it is no abstention and does
not itself repeat the question; it is not only the name of a person in the
chat; and the message it is taken from is the one of that earlier part
closest in meaning to the question (the home's embedder, names left out, as
answer/later_reading.py compares): asked in Chinese which company Chen Hao
worked for before his new one, the reader read again named the city of an
unrelated line, the sixth closest, where the two right answers measured
came from the closest. Otherwise the answer stays "not in your history".

No word of any language is read: which message names the answer is by its
language's terms (stems, CJK characters), earlier is send time, closeness is
the embedder. Turned off by leaving ``earlier_reading`` out of ``[answer]
checks``. Measured in docs/answers.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..lang import query_terms
from ..search.types import EvidenceMessage
from ..storage.cjk import has_cjk
from .checks.repeats_question import repeats_question
from .checks.support import match_sources
from .evidence import EvidenceViews
from .later_reading import only_people
from .packing import render
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "earlier_reading"


@dataclass(frozen=True)
class EarlierReading:
    """The second answer: ``messages`` (1-based, the evidence's numbering)
    support it; ``named`` is the first message that names the reader's first
    answer, the one read before."""

    text: str
    messages: list[int]
    named: int
    read: int  #: how many earlier messages were read


def names(message: EvidenceMessage, answer: str, views: EvidenceViews) -> bool:
    """Whether ``message`` names ``answer``: shares its terms (its language's
    stems), or, in CJK text, holds it character for character."""
    if has_cjk(answer):
        return answer.strip() in views(message).text
    return bool(query_terms(answer) & views(message).supporting_stems)


def before_first_naming(answer: str, messages: Sequence[EvidenceMessage], views: EvidenceViews) -> tuple[int, list[int]]:
    """The first message (by send time) that names ``answer``, and the
    messages of its conversation sent before it (1-based); (0, []) where no
    dated message names it."""
    naming = [n for n, m in enumerate(messages, 1) if m.timestamp and names(m, answer, views)]
    if not naming:
        return 0, []
    first = min(naming, key=lambda n: messages[n - 1].timestamp or "")
    anchor = messages[first - 1]
    until = anchor.timestamp or ""
    return first, [n for n, m in enumerate(messages, 1)
                   if m.conversation_id == anchor.conversation_id and m.timestamp and m.timestamp < until]


def read_earlier(question: str, first: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                 read: Callable[[str], str], closeness: Callable[[list[EvidenceMessage]], np.ndarray]
                 ) -> EarlierReading | None:
    """The reader's answer from the messages before the first that names its
    answer ``first``, where it stands (see the module's doc), else None. The
    caller asks only for a question about an earlier state; ``read`` and
    ``closeness`` are as for :func:`~.later_reading.read_later`."""
    if not repeats_question(question, first):
        return None
    named, earlier = before_first_naming(first, messages, views)
    if not earlier:
        return None
    chosen = [messages[n - 1] for n in earlier]
    text, numbered = render(chosen, {m.message_id: views(m).body for m in chosen})
    second = read(text).strip()
    if (not second or is_abstention(second) or repeats_question(question, second)
            or only_people(second, messages)):
        return None
    supported = match_sources(second, question, numbered, views)
    if not supported:
        return None
    near = closeness(numbered)
    if int(np.argmax(near)) + 1 not in supported:
        return None  # not taken from the earlier message most about the question
    back = {m.message_id: earlier[i] for i, m in enumerate(chosen)}
    return EarlierReading(second, sorted(back[numbered[n - 1].message_id] for n in supported), named, len(earlier))


def explain(first: str, reading: EarlierReading) -> str:
    """The note under the answer: what the reader said first, and from what it read again."""
    now = ", ".join(f"[{n}]" for n in reading.messages)
    return (f'the reader said "{first}", which the question names; read again from the {reading.read} '
            f"message{'s' if reading.read != 1 else ''} of that conversation before [{reading.named}], "
            f"the first that names it, it answered from {now}")
