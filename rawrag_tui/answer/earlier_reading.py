"""Reading again from the earlier messages: "before she moved to Leeds", answered "Leeds".

Asked for a state before the one the question names ("Which city did Hannah
live in before she moved to Leeds?", or in Chinese where Li Na lived before
she moved to Hangzhou), the bundled 0.5B reader answers with the name the
question gives, the state *after*: "Leeds", Hangzhou. The check
repeats_question turns such an answer into "not in your history", which is
honest but wrong: the history holds the earlier state, written before the
new one was ever mentioned.

So where the reader's answer only repeats the question's names and the
question asks about an earlier state (answer/timeline.py), the reader reads
again: the same question over only the messages of that conversation (and
of the same people's other conversations: a ChatGPT export's earlier
threads) sent before the first evidence message that names its answer.
What was true before the new state is what was said before anyone wrote of
it. Those messages are the evidence's, which the search chose for the
question; where it holds none (the search keeps the messages that share the
question's words, which name the new state), or their reading gives no
answer that stands, the store's just before that message, as many as the
reader's evidence budget holds, in a reading of their own. Not both together: measured, the 24
messages before Hannah's move to Leeds beside the evidence's 7 led the
reader to the city of a cancelled trip, where the 7 alone gave the right
one. The second answer stands only where: a message of that earlier part supports it
(shares its words: answer/checks/support.py); it is no abstention and does
not itself repeat the question; it is not only the name of a person in the
chat; and a message it is taken from is one of the three of that earlier
part closest in meaning to the question (the home's embedder, names left
out, as answer/later_reading.py compares): asked in Chinese which company
Chen Hao worked for before his new one, the reader read again named the city
of an unrelated line, the sixth closest, where the right answers measured
came from the closest or the second closest (a friend's "London is just
grey" was closer to "which city did she live in" than her "Durham is
freezing"), or one of the three closest of the lines written by the person
the question names: a fact of one's life is most often one's own line, and
a friend's questions are closer to the question than its answer (before
Morag's move to Oban, Thandi's "MORAG!!! where are you going??" and small
talk came first, her own "It's blowing a gale here in Inverness" fifth of
six; before Grady's new job, his "Five years at Northmoss Software" was
outside the three closest of 17; the city of the Chinese line above was
the friend's own). Where neither reading gives an answer that stands, the last try
reads only the three of all those earlier messages closest to the question
(answer/nearest_reading.py): asked where Amir lived before he moved to
Glasgow, the 14 messages before it gave a school's name, their three
closest "Bristol life is the same as ever". Where that does not stand
either, the very last try reads the message that first names the answer and
the one after it in its conversation, alone: where a state changes, people
say what it changed from, in the same line or in the reply to it ("I'm a
data engineer at Corrib Labs now ... I left Aer Lingus in January."; "今天是我在字节跳动的第一天"
answered "你不是在华为吗"), and the old state may have been said too far back for
the messages just before to hold it (Sam's Aer Lingus was eight months and
five sessions earlier). That answer must be supported by one of the two,
and must neither repeat the question nor name the first answer. Otherwise
the answer stays "not in your history".

An answer that does not repeat the question but is a newer state is read
again the same way: one first named by a message the timeline found on an
anchor's subject, later than the anchor (answer/timeline.py,
``PackedEvidence.followed``), is what that subject became, not what it was
before. Asked what Ewan's rabbit was called before he was renamed, the
reader answered "Stroopwafel", first named where the nephew renamed him, a
message the timeline had joined to "Sanne named him Snowball"; read again
from the messages before it, "Snowball". Such an answer stays where no
reading stands (it is no repeat of the question).

No word of any language is read: which message names the answer is by its
language's terms (stems, CJK characters), earlier is send time, closeness is
the embedder. Turned off by leaving ``earlier_reading`` out of ``[answer]
checks``. Measured in docs/answers.md.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np

from ..lang import query_terms
from ..search.types import EvidenceMessage
from ..storage.cjk import has_cjk
from .checks.repeats_question import repeats_question
from .checks.support import match_sources
from .evidence import EvidenceViews
from .history import in_time_order
from .later_reading import only_people
from .nearest_reading import NEAREST, closest, read_nearest
from .packing import render
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "earlier_reading"
#: How many messages before the first that names the answer are read again at
#: most (fewer where they do not fit the evidence budget).
EARLIER_MESSAGES = 24


@dataclass(frozen=True)
class EarlierReading:
    """The second answer: ``said_by`` are the messages read again that support
    it; ``named`` is the first evidence message (1-based) that names the
    reader's first answer, the one read before."""

    text: str
    said_by: list[EvidenceMessage]
    named: int
    read: int  #: how many earlier messages were read
    #: Whether some were of other conversations between the same people (a ChatGPT export's earlier threads).
    elsewhere: bool = False
    #: Whether only the :data:`NEAREST` of them closest to the question were read (the last try).
    nearest: bool = False
    #: Whether the first answer was read again as a newer state (first named by a
    #: message the timeline found later on a subject) rather than as the question's own name.
    newer: bool = False
    #: Whether only the message that first names the first answer and the one after it
    #: were read (the very last try).
    at_change: bool = False


def names(message: EvidenceMessage, answer: str, views: EvidenceViews) -> bool:
    """Whether ``message`` names ``answer``: holds every one of its terms (its
    language's stems: "my first half marathon" does not name the Berlin
    Marathon), or, in CJK text, holds it character for character."""
    if has_cjk(answer):
        return answer.strip() in views(message).text
    terms = query_terms(answer)
    return bool(terms) and terms <= views(message).supporting_stems


def first_naming(answer: str, messages: Sequence[EvidenceMessage], views: EvidenceViews) -> int:
    """The first evidence message (1-based, by send time) that names ``answer``; 0: no dated one does."""
    naming = [n for n, m in enumerate(messages, 1) if m.timestamp and names(m, answer, views)]
    return min(naming, key=lambda n: messages[n - 1].timestamp or "") if naming else 0


def read_earlier(question: str, first: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                 read: Callable[[str], str], closeness: Callable[[list[EvidenceMessage]], np.ndarray],
                 before: Callable[[EvidenceMessage], list[EvidenceMessage]] = lambda anchor: [],
                 fits: Callable[[str], bool] = lambda text: True,
                 followed: Collection[int] = (),
                 after: Callable[[EvidenceMessage], list[EvidenceMessage]] = lambda anchor: [],
                 ) -> EarlierReading | None:
    """The reader's answer from the messages before the first that names its
    answer ``first``, where it stands (see the module's doc), else None. The
    caller asks only for a question about an earlier state; ``read`` and
    ``closeness`` are as for :func:`~.later_reading.read_later`. The messages
    read are the evidence's of that conversation (or another between the same
    people, ``views.circle``) sent before it, or where it
    holds none, those ``before`` gives (the history's, just before it), the
    latest of them that ``fits`` the reader's budget; where neither reading
    stands, the three of both closest to the question, alone; where that
    does not stand either, the message that names it first and those
    ``after`` gives (the history's next message of its conversation).
    ``followed``: the ids of the messages found later on a subject (an
    answer one of them names first is a newer state, read again too)."""
    named = first_naming(first, messages, views)
    if not named:
        return None
    anchor = messages[named - 1]
    newer = anchor.message_id in followed
    if not (newer or repeats_question(question, first, earlier=True)):
        return None
    until = anchor.timestamp or ""

    def earlier(ms: Sequence[EvidenceMessage]) -> dict[int, EvidenceMessage]:
        return {m.message_id: m for m in ms
                if views.circle(m) == views.circle(anchor) and m.timestamp and m.timestamp < until}

    read_first = earlier(messages)
    found = None
    if read_first:
        found = _read_part(question, read_first, messages, views, read, closeness, fits)
    stored: dict[int, EvidenceMessage] = {}
    if found is None:
        stored = earlier(before(anchor))
        if set(stored) - set(read_first):  # more than the evidence held
            found = _read_part(question, stored, messages, views, read, closeness, fits)
    nearest = False
    if found is None:
        # The last try: the three of them closest to the question, alone (answer/nearest_reading.py).
        pool = in_time_order({**read_first, **stored}.values())
        if len(pool) > NEAREST:
            again = read_nearest(question, pool, messages, views, read, closeness, earlier=True)
            if again is not None:
                found, nearest = (again.text, again.said_by, again.messages), True
    at_change = False
    if found is None:
        # The very last try: where the state changed, the line that says so and the reply to it.
        found = _read_change(question, first, [anchor, *after(anchor)], messages, views, read)
        at_change = found is not None
    if found is None:
        return None
    text, said_by, chosen = found
    return EarlierReading(text, said_by, named, len(chosen),
                          any(m.conversation_id != anchor.conversation_id for m in chosen), nearest, newer,
                          at_change)


def _read_change(question: str, first: str, change: list[EvidenceMessage], messages: Sequence[EvidenceMessage],
                 views: EvidenceViews,
                 read: Callable[[str], str]) -> tuple[str, list[EvidenceMessage], list[EvidenceMessage]] | None:
    """One reading of ``change`` (the message that first names ``first`` and
    the one after it): the answer, the messages that support it and those
    read, where it stands: supported by one of them, no abstention, no
    repeat of the question or of ``first``, not only a person's name."""
    bodies = {m.message_id: views(m).body for m in change}
    text, numbered = render(change, bodies)
    second = read(text).strip()
    if (not second or is_abstention(second) or repeats_question(question, second, earlier=True)
            or only_people(second, messages) or names_answer(second, first)):
        return None
    supported = match_sources(second, question, numbered, views)
    if not supported:
        return None
    return second, [numbered[n - 1] for n in supported], change


def names_answer(second: str, first: str) -> bool:
    """Whether ``second`` names ``first`` again (all its terms; in CJK, its characters)."""
    if has_cjk(first):
        return first.strip() in second
    terms = query_terms(first)
    return bool(terms) and terms <= query_terms(second)


def _read_part(question: str, pool: dict[int, EvidenceMessage], messages: Sequence[EvidenceMessage],
               views: EvidenceViews, read: Callable[[str], str],
               closeness: Callable[[list[EvidenceMessage]], np.ndarray],
               fits: Callable[[str], bool]) -> tuple[str, list[EvidenceMessage], list[EvidenceMessage]] | None:
    """One reading of the latest of ``pool`` that fit: the answer, the
    messages read that support it and those read, where it stands."""
    chosen = in_time_order(pool.values())[-EARLIER_MESSAGES:]
    if not chosen:
        return None
    bodies = {m.message_id: views(m).body for m in chosen}
    text, numbered = render(chosen, bodies)
    while len(chosen) > 1 and not fits(text):
        chosen = chosen[1:]
        text, numbered = render(chosen, bodies)
    second = read(text).strip()
    if (not second or is_abstention(second) or repeats_question(question, second, earlier=True)
            or only_people(second, messages)):
        return None
    supported = match_sources(second, question, numbered, views)
    if not supported:
        return None
    if not set(supported) & _closest(question, numbered, messages, views, closeness):
        return None  # not taken from one of the earlier messages most about the question
    return second, [numbered[n - 1] for n in supported], chosen


def _closest(question: str, numbered: Sequence[EvidenceMessage], messages: Sequence[EvidenceMessage],
             views: EvidenceViews, closeness: Callable[[list[EvidenceMessage]], np.ndarray]) -> set[int]:
    """The numbers (1-based) of the :data:`NEAREST` of ``numbered`` closest to
    the question, and of the :data:`NEAREST` closest among those the person
    it asks about writes (a speaker of ``messages`` it names)."""
    named, _ = views.named(question, messages)
    own = [m for m in numbered if m.speaker in named]
    chosen = {m.message_id for m in [*closest(numbered, closeness), *(closest(own, closeness) if own else [])]}
    return {n for n, m in enumerate(numbered, 1) if m.message_id in chosen}


def explain(first: str, reading: EarlierReading, numbers: Sequence[int]) -> str:
    """The note under the answer: what the reader said first, and from what it
    read again (``numbers``: the evidence numbers of ``reading.said_by``)."""
    now = ", ".join(f"[{n}]" for n in numbers)
    which = f", the {reading.read} closest to the question" if reading.nearest else ""
    named_by = f"[{reading.named}], a later message on its subject, first" if reading.newer else None
    if reading.at_change:
        return (f'the reader said "{first}", which {named_by or "the question"} names; read again from '
                f"[{reading.named}], the first message that names it, and the message after it, "
                f"it answered from {now}")
    return (f'the reader said "{first}", which {named_by or "the question"} names; read again from the {reading.read} '
            f"message{'s' if reading.read != 1 else ''} of "
            f"{'conversations between the same people' if reading.elsewhere else 'that conversation'} "
            f"before [{reading.named}], "
            f"the first that names it{which}, it answered from {now}")
