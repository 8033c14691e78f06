"""What Chinese and Japanese share: dates written with 年/月/日, words as CJK bigrams.

A CJK language module gives its patterns (a stated date, a "when" question,
a question about now, one about an earlier state) and its question words;
:class:`CjkLanguage` does the rest the same way for both.
"""

from __future__ import annotations

import datetime as dt
import re

from .base import Language, cjk_grams, stated_day

#: A date as :func:`cjk_dates` writes it back.
_WRITTEN = re.compile(r"(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日")


def cjk_dates(pattern: re.Pattern[str], body: str, sent: dt.date | None, weekdays: str = "") -> list[tuple[int, str]]:
    """(position, date) for each match of a 年/月/日 ``pattern``, written back the same way, with its year;
    the weekday the pattern's ``wd`` (or ``wd2``) group captures is the character's place in
    ``weekdays`` (Monday first; past Sunday, Sunday again), and can settle the year (lang/base.py)."""
    found = []
    for m in pattern.finditer(body):
        groups = m.groupdict()
        written = groups.get("wd") or groups.get("wd2")
        weekday = min(weekdays.index(written), 6) if written and written in weekdays else None
        day = stated_day(int(m["d"]), int(m["m"]), m["y"], sent, weekday)
        if day is not None:
            found.append((m.start(), f"{day.year}年{day.month}月{day.day}日"))
    return found


def grams(*words: str) -> frozenset[str]:
    return frozenset(g for w in words for g in cjk_grams(w))


class CjkLanguage(Language):
    """A language written in CJK characters, told by its own patterns (a subclass sets them)."""

    #: A stated date, with the named groups ``y`` (optional), ``m`` and ``d``, and
    #: optionally ``wd``/``wd2``: the character naming its weekday.
    date_pattern: re.Pattern[str]
    #: The weekday characters ``wd`` captures, Monday first.
    weekdays: str = ""

    def stated_dates(self, body: str, sent: dt.date | None) -> list[tuple[int, str]]:
        return cjk_dates(self.date_pattern, body, sent, self.weekdays)

    def day_of(self, stated: str) -> dt.date | None:
        m = _WRITTEN.fullmatch(stated.strip())
        if m is None:
            return super().day_of(stated)
        try:
            return dt.date(int(m["y"]), int(m["m"]), int(m["d"]))
        except ValueError:
            return None
