"""Relative times in a message, resolved against the message's own date.

"I lost my job yesterday", written on 20 January 2023, means 19 January 2023.
A small reader copies "yesterday" into its answer instead of working that
out, so the evidence says it for it: the phrase keeps its words and gains the
date it meant, in brackets (``yesterday [19 January 2023]``). The forms follow
the way people (and LoCoMo's gold answers) state such dates: an exact day
where the phrase names one, "the week before 8 May 2023" where it names a
week, a month or a year where it names those.

The raw text in the store is never changed: this runs only on the copy a
reader is shown.
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
