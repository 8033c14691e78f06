"""One prepared view per evidence message, built once per question.

Evidence selection, packing and every answer check read the same few things
of a message: its words (text plus shared-image captions), their stems, its
speaker's stems, its text with relative times resolved, and the
dates it states. Each used to compute them itself, so one message was
annotated up to three times per question. :class:`EvidenceViews` keeps one
:class:`MessageView` per message, each field computed the first time it is
read, and is handed from selection to the checks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from functools import cached_property

from .. import lang
from ..lang import query_terms, subject_terms
from ..search.types import EvidenceMessage
from ..words import word_stems
from .dates import annotate, dates_in, planned_dates


class MessageView:
    """What the answer path reads of one evidence message; each field on first use."""

    def __init__(self, message: EvidenceMessage):
        self.message = message

    @cached_property
    def text(self) -> str:
        """The words a question is matched against: the text and its captions."""
        m = self.message
        return f"{m.text} {' '.join(m.captions)}"

    @cached_property
    def stems(self) -> frozenset[str]:
        return frozenset(word_stems(self.text))

    @cached_property
    def speaker_stems(self) -> frozenset[str]:
        return frozenset(word_stems(self.message.speaker))

    @cached_property
    def annotated(self) -> str:
        """The text with each relative time followed by the date it meant."""
        return annotate(self.message.text, self.message.timestamp)

    @cached_property
    def supporting_stems(self) -> frozenset[str]:
        """The stems an answer is matched against: speaker, text with relative
        times resolved ("yesterday (7 May 2023)" supports "7 May 2023"), the
        dates it states with their year ("Saturday 3 May", sent in April 2026,
        supports "3 May 2026"; "2月14日" sent in January 2025, "2025年2月14日"),
        captions."""
        stated = " ".join(self.stated_dates)
        return self.speaker_stems | word_stems(f"{self.annotated} {stated} {' '.join(self.message.captions)}")

    @cached_property
    def body(self) -> str:
        """The message as the reader reads it: text plus shared-image captions, on
        one line, relative times followed by the date they meant."""
        body = annotate(" ".join(self.message.text.split()), self.message.timestamp)
        for caption in self.message.captions:
            body += f" [shares {caption}]"
        return body

    @cached_property
    def stated_dates(self) -> tuple[str, ...]:
        """The dates the text states, each with its year (:func:`~.dates.dates_in`)."""
        return tuple(dates_in(self.message.text, self.message.timestamp, self.annotated))

    @cached_property
    def stated_days(self) -> frozenset:
        """The days of :attr:`stated_dates` and of the dates written inside them
        (:func:`~rawrag_tui.lang.stated_days`)."""
        return lang.stated_days(self.message.text, self.stated_dates)

    @cached_property
    def planned_dates(self) -> tuple[str, ...]:
        """The stated dates that lie after the day the message was sent (plans, :func:`~.dates.planned_dates`)."""
        return tuple(planned_dates(self.message.text, self.message.timestamp, stated=self.stated_dates))

    @cached_property
    def planned_days(self) -> tuple[dt.date, ...]:
        """The days of :attr:`planned_dates` (a week or a month: its first day)."""
        language = lang.of(self.message.text)
        return tuple(day for d in self.planned_dates if (day := language.day_of(d)) is not None)


class EvidenceViews:
    """Message id -> its :class:`MessageView`, made on first request; and which
    conversations are between the same people (``same_people``, the home's
    history: answer/history.py), for the checks that compare a message only
    with the later ones of its own conversation."""

    def __init__(self, same_people: Callable[[int], frozenset[int]] | None = None) -> None:
        self._views: dict[int, MessageView] = {}
        self._same_people = same_people
        self._circles: dict[int, int] = {}

    def circle(self, message: EvidenceMessage) -> int:
        """One id for ``message``'s conversation and every other between the
        same people (the smallest of them): a ChatGPT export's threads are one
        person's, so a later thread's date moves an earlier thread's plan; a
        chat with someone else is another event."""
        conversation = message.conversation_id
        if conversation not in self._circles:
            kin = self._same_people(conversation) if self._same_people else frozenset()
            self._circles[conversation] = min(kin | {conversation})
        return self._circles[conversation]

    def __call__(self, message: EvidenceMessage) -> MessageView:
        view = self._views.get(message.message_id)
        if view is None:
            view = self._views[message.message_id] = MessageView(message)
        return view

    def speakers(self, messages: Iterable[EvidenceMessage], question: str | None = None) -> set[str]:
        """The stems of every speaker's name among ``messages``: they match every
        line a person wrote, so they never name a subject. Each name is cut by
        its own language and, given ``question``, by the question's: "Jonas"
        alone reads as English ("jona"), in a German question it is "jonas"."""
        stems = set().union(*(self(m).speaker_stems for m in messages))
        if question is not None:
            stems |= set().union(*(_terms_as_in(question, name) for name in {m.speaker for m in messages}))
        return stems

    def named(self, question: str, messages: Iterable[EvidenceMessage]) -> tuple[set[str], set[str]]:
        """The speakers among ``messages`` whom ``question`` names, and the stems
        that name them in a message (the question's, and the same words as a
        message in another language stems them)."""
        asked = query_terms(question)
        language = lang.of(question)
        names: set[str] = set()
        stems: set[str] = set()
        for name in {m.speaker for m in messages}:
            for _, _, word, term in language.tokens(name):
                forms = language.name_forms(word) | {term}
                if forms & asked:
                    names.add(name)
                    stems |= forms | word_stems(word)
        return names, stems

    def subject(self, question: str, messages: Iterable[EvidenceMessage],
                not_subject: Iterable[str] = ()) -> set[str]:
        """The question's content stems (and its compounds' parts) that can name a subject:
        not a speaker among ``messages``, not one of ``not_subject`` (a check's question words)
        and not a word that only asks whether a state goes on (its language's
        ``continuation_terms``: "currently", 现在): a line saying "currently" or 现在 is
        on no subject the question asks about for it."""
        return (subject_terms(question) - self.speakers(messages, question) - set(not_subject)
                - lang.of(question).continuation_terms(question))


def _terms_as_in(question: str, name: str) -> set[str]:
    """``name``'s terms as ``question``'s language cuts them, its possessive forms included."""
    return lang.of(question).name_terms(name)
