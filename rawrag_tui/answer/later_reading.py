"""Reading again from the later messages: the state now, where a small reader took the first one.

The bundled 0.5B reader answers with the first value of the kind it wants
that it reads, and the evidence is in time order: asked "Where does Amir
live?" it answers "Bristol" (April 2025) though the same chat's later
messages are about his life in Glasgow; asked "What diet does Priya follow?",
"oat ice cream" where a later line plans "vegan canapés". The checks in
answer/checks correct what they can recognise without a model (dates, clock
times, numbers, addresses); a city, a team, a diet or a partner's name no
rule can pick out of a message without a word list.

So, for a question about now, once the reader has answered and no check has
corrected it, the reader reads again: the same question over only the
evidence messages of the answer's conversation (and of the others between
the same people: a ChatGPT export's later threads) that are later than every
message supporting its answer (the ones it cited, or that share its words).
Not where a later message still says the first answer (shares its words and
holds its numbers, answer/checks/support.py): then nothing later changed
it; unless the later messages hold statements the timeline marks as the
latest on a subject of the question (answer/timeline.py) that do not say
it: those alone are read ("And how did Biscuit cope with the move?" names
the cat's first name, asking; "We've changed her name ... she's Miso now" is
the statement). The second answer replaces the first only where it is an answer a later
message supports, differs from the first, is no restatement of the question
(it shares none of the question's terms: "Priya's job is a bus driver."),
is not only the name of a person in the chat (asked for Hannah's cat, the
reader named Marcus, whom she writes to), and where the message it is taken
from is as close to the question in meaning as the first answer's source or
closer (within :data:`SAME_CLOSENESS`; the home's embedder, as the timeline
compares subjects): a later
message that changes the answer speaks of what is asked at least as much,
where the reader's second pick among unrelated later lines does not
(asked in Chinese which company Chen Hao works for now: his new employer,
right, read again the province of a trip a later line cancels; LoCoMo's
"What activities does Melanie partake in?": "Learning and growing"); and
where not every message it is taken from is the person asked about asking
(:func:`only_asked`: asked where Tamsin lives, the reader read again took
"Krakow" from her "Are we rebooking Krakow for spring then?", a trip); and
where one of them is about the person asked (:func:`about_asked`: theirs,
or written to them or naming them; asked where Aroha lives, "Brisbane" came
from her brother's "yeah she's been in Brisbane since August", a cousin's).
Otherwise the first stands. No word of any language is read:
terms are each language's own (lang), and which message is later is its
send time.

Not for a question about the past (answer/timeline.py: "before she moved",
the simple past, an earlier year), where the first version may be the one
asked for, nor for an abstention; nor for a "when" question or an answer
that is a clock time, number, address or amount (answer/values.py): the
checks own those, by the dates and values the messages state, and a second
reading of later lines turns "Sunday 11 October" into the day after the
wedding. Turned off by leaving ``later_reading`` out of ``[answer] checks``.
Measured in docs/answers.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .. import lang
from ..lang import query_terms
from ..search.types import EvidenceMessage
from .checks.later_values import answer_value
from .checks.support import match_sources
from .evidence import EvidenceViews
from .packing import render
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "later_reading"
#: The role a person writes in (an import's "assistant", "system", "tool", and "other" for a
#: bot or an unknown sender, are no one's life): answer/someone_else.py reads it too.
PERSON_ROLES = frozenset({"user"})
#: Cosines closer than this are "as close" (the gate in :func:`read_later`):
#: "Horizontal rain. I genuinely love it here though." scored 0.200 against
#: 0.201 for "Bristol life is the same as ever" asked where Amir lives; the
#: later lines the gate stopped were 0.06 to 0.17 below.
SAME_CLOSENESS = 0.01


@dataclass(frozen=True)
class LaterReading:
    """The second answer and where it stands: ``messages`` (1-based, the
    evidence's numbering) are the later messages that support it, ``sources``
    those that supported the first."""

    text: str
    messages: list[int]
    sources: list[int]
    read: int  #: how many later messages were read
    elsewhere: bool = False  #: whether any was in another conversation between the same people


def alone(conversation_id: int) -> frozenset[int]:
    """Each conversation its own people: where no history says who talks where."""
    return frozenset({conversation_id})


def later_than_sources(sources: Sequence[int], messages: Sequence[EvidenceMessage],
                       same_people: Callable[[int], frozenset[int]] = alone) -> list[int]:
    """1-based numbers of the messages of the ``sources``' conversations, and of
    the conversations between the same people (``same_people``: a ChatGPT
    export's other threads), sent after every source; none where a source has
    no send time."""
    cited = [messages[n - 1] for n in sources if 0 < n <= len(messages)]
    if not cited or any(not m.timestamp for m in cited):
        return []
    conversations = {c for m in cited for c in (m.conversation_id, *same_people(m.conversation_id))}
    until = max(m.timestamp or "" for m in cited)
    return [n for n, m in enumerate(messages, 1)
            if m.conversation_id in conversations and m.timestamp and m.timestamp > until]


def restates(question: str, answer: str, first: str = "") -> bool:
    """Whether ``answer`` shares a term with ``question`` (its language's terms:
    stems, CJK bigrams) that ``first`` does not: "Sam's job is job hunting." is
    the question said back, where "Fulford School" after "Roundhay School",
    asked which school, is an answer of the same form."""
    return bool((query_terms(question) & query_terms(answer)) - query_terms(first))


def read_later(question: str, first: str, sources: Sequence[int], messages: Sequence[EvidenceMessage],
               views: EvidenceViews, read: Callable[[str], str],
               closeness: Callable[[list[EvidenceMessage]], np.ndarray],
               latest: frozenset[int] | set[int] = frozenset(),
               same_people: Callable[[int], frozenset[int]] = alone) -> LaterReading | None:
    """The reader's answer from the messages later than ``sources``, where it
    stands (see the module's doc), else None. ``read`` answers an evidence
    block (the same prompt as the first reading, other messages);
    ``closeness``: each message's cosine with the question (the home's
    embedder, names left out: answer/history.py); ``latest``: ids marked
    newest on their subject, marked again; ``same_people``: the conversations
    between the same people as one (answer/history.py), whose later messages
    count too."""
    if lang.asks_when(question) or answer_value(first) is not None:
        return None
    later = later_than_sources(sources, messages, same_people)
    if not later:
        return None
    chosen = [messages[n - 1] for n in later]
    first_sources = [messages[n - 1] for n in sources if 0 < n <= len(messages)]
    cited_in = {m.conversation_id for m in first_sources}
    still = match_sources(first, question, chosen, views)
    if still:
        # Still said later: nothing changed it; unless the latest line saying it is in a later
        # thread of the same people, which may name it beside what replaced it ("Sold the Fiesta
        # at last and bought a second-hand Nissan Leaf"): that line alone is read again.
        # It names the first answer, so it is on its subject: the closeness gate below, which
        # stops the reader's pick among later lines about something else, is not asked.
        last = max((chosen[n - 1] for n in still), key=lambda m: m.timestamp or "")
        if last.conversation_id in cited_in:
            # In the same chat, a later line naming it may only ask about it ("And how did
            # Biscuit cope with the move?"): the later statements the timeline marks latest
            # that do not name it are read alone, if any ("We've changed her name ... she's Miso
            # now"). The timeline found each on a subject of the question, so the gate is not
            # asked here either ("We're calling her Biscuit" is closer to the question).
            marked = [i for i, m in enumerate(chosen, 1) if m.message_id in latest and i not in still]
            if not marked:
                return None
            later, chosen = [later[i - 1] for i in marked], [chosen[i - 1] for i in marked]
        else:
            later, chosen = [later[chosen.index(last)]], [last]
    text, numbered = render(chosen, {m.message_id: views(m).body for m in chosen}, latest)
    second = read(text).strip()
    if (not second or is_abstention(second) or same_answer(second, first) or restates(question, second, first)
            or only_people(second, messages)):
        return None
    supported = match_sources(second, question, numbered, views)
    if not supported:
        return None
    said_by = [numbered[n - 1] for n in supported]
    if only_asked(question, second, said_by, messages, views):
        return None  # the person asked about asking, not saying: "Are we rebooking Krakow for spring then?"
    if not any(about_asked(question, second, m, messages, views) for m in said_by):
        return None  # another's life: "she's been in Brisbane since August", asked where Aroha lives
    near = closeness([*first_sources, *said_by]) if not still else None
    if near is not None and (float(max(near[len(first_sources):]))
                             < float(max(near[: len(first_sources)])) - SAME_CLOSENESS):
        return None  # what it took the second answer from is less about the question than the first's source
    back = {m.message_id: later[i] for i, m in enumerate(chosen)}
    return LaterReading(second, sorted(back[m.message_id] for m in said_by), list(sources), len(later),
                        any(m.conversation_id not in cited_in for m in chosen))


#: A sentence, up to and with what ends it (any script's full stop, exclamation or question mark).
SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
#: What ends a question, in the scripts of the language modules.
_ASKING = ("?", "？")


def only_asked(question: str, answer: str, sources: Sequence[EvidenceMessage],
               messages: Sequence[EvidenceMessage], views: EvidenceViews) -> bool:
    """Whether every one of ``sources`` is a person ``question`` asks about
    asking: written by one of them, and each of its sentences that names
    ``answer`` (a term of it beyond the question's) ends in a question mark.
    Asked where Tamsin lives, her "Are we rebooking Krakow for spring then?"
    says nothing of where she lives; Jess's "How's Glasgow in March?",
    asked where Amir lives, is written to him about his city, and counts."""
    named, _ = views.named(question, messages)
    said = query_terms(answer) - query_terms(question)
    if not named or not said or not sources:
        return False
    return all(m.speaker in named and only_asking(m.text, said) for m in sources)


def only_asking(text: str, said: set[str]) -> bool:
    """Whether ``text`` names ``said`` (terms) and every sentence of it that does is a question."""
    naming = [s.strip() for s in SENTENCE.findall(text) if query_terms(s) & said]
    return bool(naming) and all(s.endswith(_ASKING) for s in naming)


def about_asked(question: str, answer: str, line: EvidenceMessage, messages: Sequence[EvidenceMessage],
                views: EvidenceViews) -> bool:
    """Whether ``line``, which names ``answer``, may be about a person ``question`` asks
    about: written by them, not only asking about it (:func:`only_asked`); or written by
    someone else to them (its language's word for the one written to: "How's Glasgow in
    March?" is not, "How's your flat in Glasgow?" is) or naming them. Read again for
    where Aroha lives now, the bundled reader took "Brisbane" from her brother's "yeah
    she's been in Brisbane since August" (her friend's cousin) after her own "Did
    Leilani's cousin end up going to Brisbane?"; asked where Ingrid works, "Accra" from
    Chidi's line about his own life. True where the question names no one of the chat,
    for a line no person wrote (an assistant's reply drafts the user's own words), and
    for a line in a language whose module knows no pronouns."""
    named, people = views.named(question, messages)
    if not named or line.role not in PERSON_ROLES or not lang.knows_pronouns(line.text):
        return True
    if line.speaker in named:
        return not only_asked(question, answer, [line], messages, views)
    return bool(views(line).stems & people) or lang.speaks_to(line.text)


def only_people(answer: str, messages: Sequence[EvidenceMessage]) -> bool:
    """Whether ``answer`` is made only of the evidence's speakers' names: asked
    for Hannah's cat, the reader named the friend she writes to."""
    terms = query_terms(answer)
    people: set[str] = set()
    for m in messages:
        people |= query_terms(m.speaker or "")
    return bool(terms) and terms <= people


def explain(first: str, reading: LaterReading) -> str:
    """The note under the answer: what the reader said first, and from what."""
    said = ", ".join(f"[{n}]" for n in reading.sources)
    now = ", ".join(f"[{n}]" for n in reading.messages)
    again = (f'the reader said "{first}" from {said}; read again from the {reading.read} later '
             f"message{'s' if reading.read != 1 else ''}")
    if reading.elsewhere:
        return f"{again} of the same people's conversations, it answered from {now}"
    return f"{again} of that conversation, it answered from {now}"


def same_answer(a: str, b: str, ends: str = " .") -> bool:
    """Whether two answers are the same words, case, spacing and the ``ends`` around them aside."""
    return " ".join(a.casefold().split()).strip(ends) == " ".join(b.casefold().split()).strip(ends)
