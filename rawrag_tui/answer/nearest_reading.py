"""Reading again from the three messages most about the question, where the answer only repeated it.

Asked "Which neighbourhood of Utrecht does Ewan currently live in?" over 24
evidence messages, the tenth of them "We moved out to Leidsche Rijn on
Saturday", the bundled 0.5B reader answered "Utrecht": the question's own
name, which the check repeats_question turns into "not in your history".
The answer was in the evidence; among 24 lines of small talk the small
reader did not find it. Asked the same question over only the three
evidence messages closest to it in meaning (the home's embedder, names
left out, as answer/later_reading.py compares), in time order, it answered
"Leidsche Rijn". (Since the latest mark went on his move's statement rather
than on a short reply after it, answer/timeline.py, its first reading
answers that; no question about now of the sets needs this reading today.)

So, for a question about now (not about the past: answer/timeline.py; not
yes-or-no: answer/yes_no_reading.py reads those) whose answer only repeated
the question, the reader reads the question again over those three. The
second answer is the answer only where one of the three supports it (shares
its words: answer/checks/support.py), it is no abstention, does not itself
repeat the question and is not only the name of a person in the chat;
otherwise "not in your history" stands. A question about something the
history never mentions keeps its abstention that way: asked the name of
Mehmet's dog, read again, the reader named Mehmet again; asked in Chinese
for Chen Hao's dog's name, it said the dog is called Chen Hao.

:func:`read_nearest` is also the last try of answer/earlier_reading.py, over
the messages before the first that names the answer: asked where Amir lived
before he moved to Glasgow, the 14 messages before it read together gave a
school's name, the three closest alone "Bristol life is the same as ever".

No word of any language is read: closeness is the embedder, support is each
language's terms (stems, CJK characters). Turned off by leaving
``nearest_reading`` out of ``[answer] checks`` (the earlier reading's last
try goes with ``earlier_reading``). Measured in docs/answers.md ("An answer
that repeats the question, read again from the closest messages").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..search.types import EvidenceMessage
from .checks.repeats_question import repeats_question
from .checks.support import match_sources
from .evidence import EvidenceViews
from .later_reading import only_people
from .packing import render
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "nearest_reading"
#: How many messages are read again: the closest to the question. Three, as
#: answer/earlier_reading.py takes an answer only from its three closest;
#: with five, and with each of the three's neighbours, the English sets'
#: answers were the same (docs/answers.md).
NEAREST = 3


@dataclass(frozen=True)
class NearestReading:
    """The second answer and the messages read again that support it."""

    text: str
    said_by: list[EvidenceMessage]
    messages: list[EvidenceMessage]  #: those read again, in time order

    @property
    def read(self) -> int:
        return len(self.messages)


def closest(messages: Sequence[EvidenceMessage], closeness: Callable[[list[EvidenceMessage]], np.ndarray],
            n: int = NEAREST) -> list[EvidenceMessage]:
    """The ``n`` of ``messages`` closest to the question (``closeness``), in their own order."""
    ranked = np.argsort(-closeness(list(messages)), kind="stable")[:n]
    keep = {int(i) for i in ranked}
    return [m for i, m in enumerate(messages) if i in keep]


def read_nearest(question: str, pool: Sequence[EvidenceMessage], messages: Sequence[EvidenceMessage],
                 views: EvidenceViews, read: Callable[[str], str],
                 closeness: Callable[[list[EvidenceMessage]], np.ndarray], earlier: bool = False,
                 latest: frozenset[int] | set[int] = frozenset()) -> NearestReading | None:
    """The reader's answer to ``question`` from the :data:`NEAREST` messages of
    ``pool`` closest to it, where it stands (the module's doc), else None.
    ``read`` answers an evidence block (the first reading's prompt, other
    messages); ``closeness``: each message's cosine with the question (names
    left out); ``messages``: the evidence, whose speakers are the chat's people;
    ``earlier``: the question asks about an earlier state, where any of its
    words said back repeats it; ``latest``: ids marked newest on their subject,
    marked again."""
    chosen = closest(pool, closeness)
    if not chosen:
        return None
    text, numbered = render(chosen, {m.message_id: views(m).body for m in chosen}, latest)
    second = read(text).strip()
    if (not second or is_abstention(second) or repeats_question(question, second, earlier)
            or only_people(second, messages)):
        return None
    supported = match_sources(second, question, numbered, views)
    if not supported:
        return None
    return NearestReading(second, [numbered[n - 1] for n in supported], numbered)


def read_repeated(question: str, first: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                  read: Callable[[str], str], closeness: Callable[[list[EvidenceMessage]], np.ndarray],
                  latest: frozenset[int] | set[int] = frozenset()) -> NearestReading | None:
    """For a question about now whose answer ``first`` only repeats it: the
    reading of the evidence's closest messages (:func:`read_nearest`), else
    None. The caller asks only where no other step reads the question again."""
    if not repeats_question(question, first):
        return None
    return read_nearest(question, messages, messages, views, read, closeness, latest=latest)


def explain(first: str, reading: NearestReading, numbers: Sequence[int]) -> str:
    """The note under the answer (``numbers``: the evidence numbers of ``reading.said_by``)."""
    now = ", ".join(f"[{n}]" for n in numbers)
    return (f'the reader said "{first}", which only repeats the question; read again from the {reading.read} '
            f"message{'s' if reading.read != 1 else ''} closest to it, it answered from {now}")
