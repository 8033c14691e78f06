"""Yes-or-no questions about now: read again over the latest statement alone.

Asked "Does Hannah still live in York?", "Is Sam still working at Aer
Lingus?" or "Does Daniel still support Chelsea?" over evidence that holds
the move, the new job and the switch, the bundled 0.5B reader answered with
the state the question names ("Yes", "Sam is still working at Aer Lingus.")
on 10 of the 12 such questions of bench/data/yes-no.json about a state that
had changed, and the 1.5B Coder on 11: a small reader agrees with the
question. Asked the same question over the message that says how things
stand now, alone, it answered from it 3 times of 4 in a probe ("Hannah
lives in Manchester.", "Daniel does not support Chelsea.").

So, for a question its language's module calls yes-or-no about how things
stand (``lang.asks_yes_no``: a present or future auxiliary first in English,
not "Would ...?"; a question without a question word in German and Japanese;
吗 or an A-不-A form in Chinese) and that does not ask about the past, once
the reader has answered without saying no (``lang.denies``) it reads the
question again over one message: of the evidence messages of the
conversation (or of another between the same people) that first names what
the question names (shares a subject term with it: its people's names, the
words that only ask whether a state goes on, "still", "noch", 还, まだ, and
terms most of the evidence holds left out), sent on a later day than that
first message, the one closest to the question in meaning (the home's
embedder, names left out, at least :data:`FLOOR`), unless it already holds
the first answer's own words ("Jordan lives in Lisbon.", asked whether
Jordan still lives in Berlin). The second answer replaces the first where it
is an answer (not empty, not "not in your history", not only a chat member's
name, the conversation's title or the question's own names, not about
another person of the chat than the one asked about) and differs from it;
the first stays in the note.

Where that message is the newest on its subject (marked latest by the
timeline: it replaced an earlier statement) and names nothing the question
names, the state the question names is no longer the one stated: the answer
is no, in the question's language (``lang.says_no``), unless the second
reading says no itself or says what that message says (its own words, beyond
the question's: "Sam lives in Galway."). Read again over "Obviously. I'm
already planning the vegan canapés.", asked whether Priya is still
vegetarian, the bundled reader answered "Priya is vegetarian.": it agreed
with the question over a message that does not say it.

Before any second reading: where the newest evidence message naming what the
question names says that state ended, in the words of the question's language
module or its own (``lang.ends``: "Sofia and I split up, the engagement is
off", "I left Aer Lingus in January", "Ich hab bei Siemens gekündigt",
"任天堂辞めて"), the answer is no (:func:`ended_statement`: what ended was said
before that message, and it is a later statement on the subject). Read
again over "Sofia and I split up", the bundled reader answered "Yes, Tiago
is still dating Sofia.": a small reader does not read an ending it is asked
about; the language module's words for one are all this step reads of a
language.

An answer the ``repeats_question`` check turned
into "not in your history" ("Biscuit", asked whether her cat is still called
Biscuit) is read again the same way, and stays unknown unless the second
reading answers.

Beyond those words for an ending, no word of any language is read here: which
messages are later is their send time, the subject terms and the question's
form are each language's own (rawrag_tui/lang). Turned off by leaving ``yes_no_reading`` out of
``[answer] checks``. Measured in docs/answers.md ("Yes-or-no questions about
a changed fact").
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np

from .. import lang
from ..lang import query_terms
from ..search.types import EvidenceMessage
from .checks.repeats_question import repeats_question
from .checks.support import match_sources
from .evidence import EvidenceViews
from .history import sent_day
from .later_reading import alone, only_people, same_answer
from .packing import render
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "yes_no_reading"
#: The share of the evidence's messages a term may be in and still name what a question asks.
COMMON = 0.25
#: How many messages a term may be in, whatever the share, in a short evidence.
FEW = 3
#: The least cosine with the question the latest statement needs to be read.
FLOOR = 0.25


@dataclass(frozen=True)
class YesNoReading:
    """The second answer and the messages (1-based, the evidence's numbering) it was read from."""

    text: str
    messages: list[int]
    #: Where the answer is no because the latest statement no longer names what the question
    #: does: what the reader said over it, and the question's words it does not name.
    said: str = ""
    unnamed: tuple[str, ...] = ()
    #: Where the answer is no because the newest message naming what is asked says it ended.
    ended: bool = False


def _first_naming(terms: set[str], messages: Sequence[EvidenceMessage], views: EvidenceViews,
                  same_people: Callable[[int], frozenset[int]]) -> tuple[EvidenceMessage, set[int]] | None:
    """The first of ``messages`` (by send time) naming one of ``terms``, and its circle:
    its conversation and those between the same people; None where none names one."""
    naming = [m for m in messages if m.timestamp and terms & views(m).stems]
    if not naming:
        return None
    first = min(naming, key=lambda m: m.timestamp or "")
    return first, {first.conversation_id, *same_people(first.conversation_id)}


def latest_statement(question: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                     closeness: Callable[[list[EvidenceMessage]], np.ndarray],
                     same_people: Callable[[int], frozenset[int]] = alone,
                     terms: set[str] | None = None) -> int | None:
    """The 1-based number of the evidence message a yes-or-no ``question`` is read
    again over (see the module's doc), or None. ``terms``: :func:`asked_terms`, where
    the caller has them."""
    found = _first_naming(asked_terms(question, messages, views) if terms is None else terms, messages, views,
                          same_people)
    if found is None:
        return None
    first, circle = found
    later = [n for n, m in enumerate(messages, 1)
             if m.conversation_id in circle and m.timestamp and sent_day(m) > sent_day(first)]
    if not later:
        return None
    near = closeness([messages[n - 1] for n in later])
    best = int(np.argmax(near))
    return later[best] if float(near[best]) >= FLOOR else None


def asked_terms(question: str, messages: Sequence[EvidenceMessage], views: EvidenceViews) -> set[str]:
    """The terms of ``question`` that name what it asks about (see the module's doc)."""
    terms = views.subject(question, messages)  # "still" and the other continuation words left out
    # A term most messages hold names nothing (a CJK bigram of a verb ending: "ます").
    return {t for t in terms if sum(t in views(m).stems for m in messages) <= max(len(messages) * COMMON, FEW)}


def read_yes_no(question: str, first: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                read: Callable[[str], str], closeness: Callable[[list[EvidenceMessage]], np.ndarray],
                latest: Collection[int] = (),
                same_people: Callable[[int], frozenset[int]] = alone,
                replaced: Sequence[EvidenceMessage] = ()) -> YesNoReading | None:
    """The reader's answer to a yes-or-no ``question`` from the latest statement
    of ``messages`` where it stands (see the module's doc), else None. ``read``
    answers an evidence block (the same prompt as the first reading, other
    messages); ``closeness``: each message's cosine with the question (the home's
    embedder, names left out); ``latest``: ids marked newest on their subject;
    ``replaced``: the messages the selection left out as superseded."""
    if not lang.asks_yes_no(question) or lang.denies(question, first):
        return None  # a "No" disagrees with the question already: the reader did not just agree
    no = lang.says_no(question)
    terms = asked_terms(question, messages, views)
    ended = ended_statement(question, messages, views, closeness, latest, replaced, same_people, terms) if no else None
    if ended is not None:
        return YesNoReading(no, [ended], ended=True)
    number = latest_statement(question, messages, views, closeness, same_people, terms)
    if number is None:
        return None
    chosen = [messages[number - 1]]
    if match_sources(first, question, chosen, views):
        return None  # the first answer already says what that message says ("Jordan lives in Lisbon.")
    text, _ = render(chosen, {m.message_id: views(m).body for m in chosen}, set(latest))
    second = read(text).strip()
    if (no and chosen[0].message_id in latest and not terms & views(chosen[0]).stems
            and not lang.denies(question, second) and not match_sources(second, question, chosen, views)):
        # The newest statement on the subject names none of it: the state asked about is gone.
        return YesNoReading(no, [number], second,
                            _words_of(question, terms, {m.speaker for m in messages if m.speaker}))
    if (not second or is_abstention(second) or same_answer(second, first, " .!") or only_people(second, messages)
            or about_someone_else(question, second, messages) or same_answer(second, chosen[0].conversation, " .!")
            or repeats_question(question, second)):
        return None
    return YesNoReading(second, [number])


def ended_statement(question: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                    closeness: Callable[[list[EvidenceMessage]], np.ndarray],
                    latest: Collection[int] = (), replaced: Sequence[EvidenceMessage] = (),
                    same_people: Callable[[int], frozenset[int]] = alone,
                    terms: set[str] | None = None) -> int | None:
    """The 1-based number of the newest evidence message naming what ``question``
    names (:func:`asked_terms`) where it says that state ended, in the question's
    language or its own (``lang.ends``: "Sofia and I split up", "I left Aer
    Lingus", "任天堂辞めて"), else None. What ended must have been said before:
    every term it shares with the question is in an earlier message (of the
    evidence, or ``replaced``: those the selection left out as superseded); the
    line that first names the new state may say the old one ended ("任天堂辞めてソニーに
    転職", asked whether 健太 works at Sony now). And it must be a later statement on
    the subject: marked latest by the timeline, or sent on a later day than the first
    message naming it and as close to the question as :data:`FLOOR`. Only the
    conversations of the first message naming it count (and those between the same
    people, ``same_people``), as :func:`latest_statement` reads them."""
    terms = asked_terms(question, messages, views) if terms is None else terms
    found = _first_naming(terms, messages, views, same_people)
    if found is None:
        return None
    first, circle = found
    naming = [n for n, m in enumerate(messages, 1)
              if m.conversation_id in circle and m.timestamp and terms & views(m).stems]
    newest = max(naming, key=lambda n: messages[n - 1].timestamp or "")
    m = messages[newest - 1]
    if not lang.ends(m.text, question):
        return None
    before = [x for x in (*messages, *replaced) if x.timestamp and x.timestamp < (m.timestamp or "")]
    if not all(any(t in views(x).stems for x in before) for t in terms & views(m).stems):
        return None
    if m.message_id in latest:
        return newest
    return newest if sent_day(m) > sent_day(first) and float(closeness([m])[0]) >= FLOOR else None


def about_someone_else(question: str, answer: str, messages: Sequence[EvidenceMessage]) -> bool:
    """Whether ``answer`` names a person of the chat the question does not and none it
    does: asked whether Hannah still works at Boots, "Marcus is still working at Boots."
    """
    people = {m.speaker for m in messages if m.speaker}
    asked = {p for p in people if query_terms(p) & query_terms(question)}
    said = {p for p in people if query_terms(p) & query_terms(answer)}
    return bool(asked and said) and not said & asked


def _words_of(question: str, terms: Collection[str], people: Collection[str]) -> tuple[str, ...]:
    """The words of ``question`` whose terms are ``terms``, as written, once each, in order
    (the overlapping bigrams of a CJK run joined into one run; none that overlaps a name of
    ``people``: "娜早" of "李娜早上")."""
    folded = question.casefold()
    named = [(at, at + len(p)) for p in people if p
             for at in range(len(folded)) if folded.startswith(p.casefold(), at)]
    spans: list[list[int]] = []
    for start, end, _, term in lang.of(question).tokens(question):
        if term not in terms or any(start < b and a < end for a, b in named):
            continue
        if spans and start < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return tuple(dict.fromkeys(question[start:end] for start, end in spans))


def explain(first: str, reading: YesNoReading) -> str:
    """The note under the answer: what the reader said first, and the message it read again."""
    n = reading.messages[0]
    if reading.ended:
        return f'the reader said "{first}"; [{n}], the latest message on this, says it ended'
    if reading.unnamed:
        named = ", ".join(f'"{w}"' for w in reading.unnamed)
        again = f' (read again from it, the reader said "{reading.said}")' if reading.said else ""
        return f'the reader said "{first}"; [{n}], the latest message on this, no longer names {named}{again}'
    return f'the reader said "{first}"; read again from the latest message on this, [{n}]'
