"""Dates the messages themselves state, for "when" questions a small reader gets wrong.

Asked "When did the Fontainebleau trip happen?", the bundled 0.5B reader
answers with the date a message was *sent* ("What a trip!", 4 May) rather
than the date the messages *say* (the trip moved to Saturday 3 May). Prompt
rules, a "latest plan" line, day headers and hiding the send dates were all
measured and none moved it. So "when" answers get a second pass
that needs no model:

- an answer is **stated** when some message's text (with relative times
  resolved, see :mod:`relative_dates`) holds every number the answer holds;
- a "when" answer that no message states is replaced by the date stated in
  the **latest** message that shares a subject word with the question: the
  latest statement wins, as it does in evidence selection;
- the reader's own words are kept beside it, so the faces can say what was
  replaced and why.

Only dates are touched, and only when the reader's date has no message
behind it: an answer a message states is never overridden.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from ...search.types import EvidenceMessage
from ...words import word_stems
from ..evidence import EvidenceViews
from ..relative_dates import annotate, long_date, message_date
from .base import Correction

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH = r"(?P<{0}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" \
         r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_WEEKDAY = r"(?:(?P<wd>mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?:the\s+)?)?"
_ORD = r"(?:st|nd|rd|th)?"
#: "Saturday 3 May", "3rd of May 2026", "May 3", "May 3rd, 2026", "2026-05-03".
_DATE = re.compile(
    r"\b(?:" + _WEEKDAY + r"(?P<d1>\d{1,2})" + _ORD + r"(?:\s+of)?\s+" + _MONTH.format("m1")
    + r"(?:,?\s+(?P<y1>\d{4}))?"
    + r"|" + _WEEKDAY.replace("wd", "wd2") + _MONTH.format("m2") + r"\s+(?P<d2>\d{1,2})" + _ORD
    + r"(?:,?\s+(?P<y2>\d{4}))?"
    + r"|(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2}))\b",
    re.IGNORECASE,
)
#: What :func:`relative_dates.annotate` adds: "(7 May 2023)", "(the week before 9 June 2023)",
#: "(May 2023)", "(2022)".
_RESOLVED = re.compile(r"\((?P<what>(?:the (?:week|weekend) (?:before|after|of) )?(?:\d{1,2} )?"
                       r"(?:[A-Z][a-z]+ )?\d{4})\)")
_WHEN = re.compile(r"^\s*(?:when\b|on what (?:date|day)|what (?:date|day)|which (?:date|day))", re.IGNORECASE)
#: Question words that name no subject.
_NOT_SUBJECT = word_stems("when date day happen happened happening take place")


def asks_when(question: str) -> bool:
    return bool(_WHEN.search(question))


def _year_near(day: int, month: int, sent: dt.date) -> dt.date | None:
    """The day-month nearest to the date the message was sent (a plan or a memory, within the year around it)."""
    best = None
    for year in (sent.year - 1, sent.year, sent.year + 1):
        try:
            candidate = dt.date(year, month, day)
        except ValueError:
            continue
        if best is None or abs((candidate - sent).days) < abs((best - sent).days):
            best = candidate
    return best


def _month_number(name: str) -> int:
    name = name.lower()
    return next(i for i, full in enumerate(_MONTHS, 1) if full.startswith(name[:3]))


def dates_in(text: str, timestamp: str | None, annotated: str | None = None) -> list[str]:
    """The dates ``text`` states, in the order it states them, each with its year
    (``annotated``: ``text`` with its relative times resolved, when already made)."""
    sent = message_date(timestamp)
    body = annotate(text, timestamp) if annotated is None else annotated
    found: list[tuple[int, str]] = []
    for m in _RESOLVED.finditer(body):
        found.append((m.start(), m["what"]))
    for m in _DATE.finditer(body):
        if any(start <= m.start() < start + len(what) + 2 for start, what in found):
            continue  # inside an annotation already taken whole
        if m["iy"]:
            try:
                day = dt.date(int(m["iy"]), int(m["im"]), int(m["id"]))
            except ValueError:
                continue
            found.append((m.start(), long_date(day)))
            continue
        d, month, year = (m["d1"], m["m1"], m["y1"]) if m["d1"] else (m["d2"], m["m2"], m["y2"])
        number = _month_number(month)
        if year:
            try:
                day = dt.date(int(year), number, int(d))
            except ValueError:
                continue
        elif sent is not None:
            near = _year_near(int(d), number, sent)
            if near is None:
                continue
            day = near
        else:
            continue
        # The weekday a person wrote is not repeated: it can disagree with the
        # calendar ("Saturday 3 May" in 2026, a Sunday), and the day is what counts.
        found.append((m.start(), long_date(day)))
    return [what for _, what in sorted(found)]


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def is_stated(answer: str, messages: Sequence[EvidenceMessage], views: EvidenceViews | None = None) -> bool:
    """Whether some message's text holds every number ``answer`` holds, its
    relative times resolved and its dates given their year ("Saturday 3 May",
    sent in April 2026, states "3 May 2026")."""
    wanted = _numbers(answer)
    if not wanted:
        return True  # nothing checkable: not a date this pass can judge
    views = views or EvidenceViews()
    return any(wanted <= _numbers(" ".join([views(m).annotated, *views(m).stated_dates])) for m in messages)


def latest_stated_date(question: str, messages: Sequence[EvidenceMessage],
                       views: EvidenceViews | None = None) -> Correction | None:
    """The date stated by the latest message on the question's subject, if any states one."""
    views = views or EvidenceViews()
    subject = views.subject(question, messages, _NOT_SUBJECT)
    if not subject:
        return None
    best: tuple[str, int, str] | None = None
    for n, m in enumerate(messages, 1):
        if not m.timestamp or not subject & views(m).stems:
            continue
        dates = views(m).stated_dates
        if dates and (best is None or m.timestamp >= best[0]):
            best = (m.timestamp, n, dates[-1])
    return Correction(best[1], best[2]) if best else None


def check(question: str, said: str, messages: Sequence[EvidenceMessage],
          views: EvidenceViews | None = None) -> Correction | None:
    """The stated date to answer with instead of ``said``, or None to keep the reader's."""
    if not said.strip() or not asks_when(question) or is_stated(said, messages, views):
        return None
    return latest_stated_date(question, messages, views)


def explain(answer: str, correction: Correction) -> str:
    return f"no message says {answer!r}; [{correction.message}], the latest message on this subject, says this"

