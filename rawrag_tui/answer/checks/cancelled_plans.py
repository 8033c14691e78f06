"""Plans a later message called off, for "when" questions a small reader answers with the old date.

Asked "When is Amir's 40th birthday party?", the bundled 0.5B reader gives
the date the invitation named, though a later message in the same chat says
"I've called off the 40th"; the stated-date check would even fill in that old
date for an unstated answer. So, before it:

- a "when" question about now (not about the past or an earlier state:
  answer/timeline.py, rawrag_tui/lang);
- an earlier message on the question's subject (sharing a subject word with
  it, or replying to one that does) states a date as a plan (after the day
  it was sent, as in the stated-date check), whether the evidence shows it
  or left it out as superseded by a later message (answer/selection.py: a
  question about now reads the message calling the plan off *instead of*
  the plan);
- the latest message on the subject in that conversation that plans a date
  or calls a plan off (talk about it after settles nothing: "Don't even
  think about the party"; nor does a day only floated, hedged in its
  language's words, ``Language.hedge_pattern``: "Let me see what leave I
  get. May, maybe.", "Maybe we finally do the Pyrenees the week after")
  calls it off in its own language's words
  (``Language.cancel_pattern``: "called off", "absagen", "取消", "中止"; only
  the language modules hold them) and plans no new day: none outside the
  days the earlier plans span ("the pitch lands the week of 19 May, so I've
  had to cancel Lisbon", booked for 17 to 21 May, names the clash, not a
  new date); where the evidence holds no earlier plan (the selection kept
  only the question that led to it: "Krakow! Are we actually doing this?"),
  a message on the subject before it is enough, and the call-off must plan
  no day at all;

then the answer is that it was called off, in the question's language
(``Language.cancelled``: "Cancelled", "中止"), cited to that message, with the
reader's words in the note. An answer that already says so is left alone,
and so is any answer where the question's language has no word for it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence

from ... import lang
from ...search.types import EvidenceMessage
from ..evidence import EvidenceViews, MessageView
from .base import Correction

#: The setting's name for this check (``[answer] checks``).
NAME = "cancelled_plans"
#: A stated date that is a year and nothing more ("2026", "2026年"): one number of four digits.
_BARE_YEAR = re.compile(r"\D*\d{4}\D*")


def check(question: str, said: str, messages: Sequence[EvidenceMessage],
          views: EvidenceViews | None = None, today: dt.date | None = None,
          earlier: bool = False, latest: Collection[int] = (),
          replaced: Sequence[EvidenceMessage] = ()) -> Correction | None:
    """The called-off answer instead of ``said``, or None to keep the reader's
    (``today`` and ``latest`` are not used; ``earlier``: the question names an earlier state;
    ``replaced``: the messages the evidence left out as superseded, where the plan a shown
    message calls off often is: they count as earlier messages, never as the one cited)."""
    answer = lang.cancelled(question)
    if (not said.strip() or not answer or earlier or not lang.asks_when(question)
            or lang.asks_about_past(question) or lang.calls_off(said)):
        return None
    views = views or EvidenceViews()
    subject = views.subject(question, messages, lang.when_words(question))
    if not subject:
        return None
    on_subject: dict[int, list[tuple[str, int, EvidenceMessage]]] = {}
    numbered = [*enumerate(messages, 1), *((0, m) for m in replaced)]  # 0: not in the evidence
    naming = {(m.conversation_id, m.seq) for _, m in numbered if subject & views(m).stems}
    for n, m in numbered:
        # The reply to a message naming the subject is on it: "Wollen wir im Sommer an den
        # Gardasee?" - "Ja, unbedingt! Abfahrt am 2. August" plans the trip without naming it.
        if m.timestamp and ((m.conversation_id, m.seq) in naming or (m.conversation_id, m.seq - 1) in naming):
            on_subject.setdefault(views.circle(m), []).append((m.timestamp, n, m))
    found: list[tuple[str, int]] = []
    for group in on_subject.values():
        # What settles a plan: a message planning a date, or one calling it off; talk about
        # it after ("Don't even think about the party") settles nothing.
        # A day only floated ("Let me see what leave I get. May, maybe.") is no new plan.
        settling = sorted((s for s in group if (views(s[2]).planned_dates and not lang.hedges(s[2].text))
                           or lang.calls_off(s[2].text)),
                          key=lambda s: (s[0], s[2].seq))
        if not settling:
            continue
        (sent, n, last), before = settling[-1], settling[:-1]
        planned = [day for _, _, m in before for day in views(m).planned_days]
        if not n or not lang.calls_off(last.text):
            continue
        # Where no plan before it is in view, the subject must have been talked of before it (the
        # selection may keep only the question that led to the plan, "Krakow! Are we actually doing
        # this?"), and it must plan no day itself.
        if planned:
            if _new_plan(_plan_days(views(last)), planned):
                continue
        elif views(last).planned_days or not any(at < sent for at, _, _ in group):
            continue
        found.append((sent, n))
    if not found:
        return None
    return Correction(max(found)[1], answer)


def _plan_days(view: MessageView) -> list[dt.date]:
    """The days a message plans that could be a new day for a plan: not a year
    alone ("Barcelona's cancelled, next year (2026) for sure" floats no day)."""
    language = lang.of(view.message.text)
    return [day for date in view.planned_dates
            if not _BARE_YEAR.fullmatch(date) and (day := language.day_of(date)) is not None]


def _new_plan(days: Sequence[dt.date], planned: Sequence[dt.date]) -> bool:
    """Whether a message calling a plan off plans a new day: one after the days
    the earlier plans span. A day inside them is the plan's own, or what clashes
    with it ("the pitch lands the week of 19 May ... I've had to cancel Lisbon",
    booked 17 to 21 May); one before them all is no new day for it either, but a
    deadline ("the hostel refunds until tomorrow (5 May 2025). Barcelona's
    cancelled", booked for 8 May); "it's now on 22 November", after 15 November, is new."""
    return any(day > max(planned) for day in days)


def explain(answer: str, correction: Correction) -> str:
    return f'the reader said "{answer}"; [{correction.message}], the latest message on this, calls it off'
