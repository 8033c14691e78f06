"""Dates in a message's text: relative times resolved, stated dates found.

Relative times are resolved against the message's own date.

"I lost my job yesterday", written on 20 January 2023, means 19 January 2023.
A small reader copies "yesterday" into its answer instead of working that
out, so the evidence says it for it: the phrase keeps its words and gains the
date it meant, in brackets (``yesterday [19 January 2023]``). The forms follow
the way people (and LoCoMo's gold answers) state such dates: an exact day
where the phrase names one, "the week before 8 May 2023" where it names a
week, a month or a year where it names those.

The raw text in the store is never changed: this runs only on the copy a
reader is shown.

:func:`dates_in` finds the dates a message states ("Saturday 3 May", "May
3rd, 2026", "2026-05-03", and what :func:`annotate` resolved), each given its
year from the date the message was sent; the answer checks compare answers
with them.
"""

from __future__ import annotations

import datetime as dt
import re

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3, "couple of": 2, "few": 3}

_AGO = re.compile(
    r"\b(?P<n>\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<unit>day|week|month|year)s?\s+ago\b", re.IGNORECASE)
_PHRASE = re.compile(
    r"\b(?:(?P<fixed>the day before yesterday|yesterday|last night|tonight|today|this morning|this afternoon|"
    r"this evening|tomorrow)"
    r"|(?P<rel>last|next|this|past)\s+(?P<what>week(?:end)?|month|year|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday))\b", re.IGNORECASE)


def long_date(d: dt.date) -> str:
    """``8 May 2023``: the one way dates are written for the reader (evidence
    lines, resolved relative times, the question's date, stated dates)."""
    return f"{d.day} {d.strftime('%B %Y')}"


def _month(d: dt.date) -> str:
    return d.strftime("%B %Y")


def _shift_month(d: dt.date, months: int) -> dt.date:
    index = d.year * 12 + d.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def _fixed(phrase: str, d: dt.date) -> str:
    phrase = phrase.lower()
    if phrase == "the day before yesterday":
        return long_date(d - dt.timedelta(days=2))
    if phrase in ("yesterday", "last night"):
        return long_date(d - dt.timedelta(days=1))
    if phrase == "tomorrow":
        return long_date(d + dt.timedelta(days=1))
    return long_date(d)  # today, tonight, this morning...


def _relative(rel: str, what: str, d: dt.date) -> str | None:
    rel, what = rel.lower(), what.lower()
    if what in _WEEKDAYS:
        target = _WEEKDAYS.index(what)
        if rel in ("last", "past"):
            back = (d.weekday() - target) % 7 or 7
            return long_date(d - dt.timedelta(days=back))
        if rel == "next":
            ahead = (target - d.weekday()) % 7 or 7
            return long_date(d + dt.timedelta(days=ahead))
        ahead = (target - d.weekday()) % 7  # "this Friday": the coming one (or today)
        return long_date(d + dt.timedelta(days=ahead))
    if what == "week":
        return {"last": f"the week before {long_date(d)}", "past": f"the week before {long_date(d)}",
                "next": f"the week after {long_date(d)}", "this": f"the week of {long_date(d)}"}[rel]
    if what == "weekend":
        return {"last": f"the weekend before {long_date(d)}", "past": f"the weekend before {long_date(d)}",
                "next": f"the weekend after {long_date(d)}", "this": f"the weekend of {long_date(d)}"}[rel]
    if what == "month":
        return _month(_shift_month(d, {"last": -1, "past": -1, "next": 1, "this": 0}[rel]))
    if what == "year":
        return str(d.year + {"last": -1, "past": -1, "next": 1, "this": 0}[rel])
    return None


def _ago(n: int, unit: str, d: dt.date) -> str:
    unit = unit.lower()
    if unit == "day":
        return long_date(d - dt.timedelta(days=n))
    if unit == "week":
        return f"the week of {long_date(d - dt.timedelta(weeks=n))}"
    if unit == "month":
        return _month(_shift_month(d, -n))
    return str(d.year - n)


def message_date(timestamp: str | None) -> dt.date | None:
    if not timestamp:
        return None
    try:
        return dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def annotate(text: str, timestamp: str | None) -> str:
    """``text`` with each relative time followed by the date it meant, in parentheses."""
    day = message_date(timestamp)
    if day is None:
        return text
    spans: list[tuple[int, int, str]] = []
    for m in _AGO.finditer(text):
        spans.append((m.start(), m.end(), _ago(_NUMBERS.get(m["n"].lower()) or int(m["n"]), m["unit"], day)))
    for m in _PHRASE.finditer(text):
        if any(s <= m.start() < e for s, e, _ in spans):
            continue
        meaning = _fixed(m["fixed"], day) if m["fixed"] else _relative(m["rel"], m["what"], day)
        if meaning:
            spans.append((m.start(), m.end(), meaning))
    out, last = [], 0
    for _start, end, meaning in sorted(spans):
        out.append(text[last:end] + f" ({meaning})")
        last = end
    out.append(text[last:])
    return "".join(out)


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
#: What :func:`dates.annotate` adds: "(7 May 2023)", "(the week before 9 June 2023)",
#: "(May 2023)", "(2022)".
_RESOLVED = re.compile(r"\((?P<what>(?:the (?:week|weekend) (?:before|after|of) )?(?:\d{1,2} )?"
                       r"(?:[A-Z][a-z]+ )?\d{4})\)")


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
