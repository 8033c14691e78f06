"""What Chinese and Japanese share: dates written with 年/月/日, words as CJK bigrams, relative dates resolved.

A CJK language module gives its patterns (a stated date, a "when" question,
a question about now, one about an earlier state, the relative times its
people write) and its question words; :class:`CjkLanguage` does the rest the
same way for both.

Relative times are resolved the way the English module resolves
"yesterday" (lang/en.py): against the day the message was sent, written
after the words in the text's own form and full-width brackets ("下周三"
is followed by 2025年3月19日 in them, sent on 10 March 2025). A day
("昨天", "先週の水曜日", "下个月5号", "三天前") gets its date, a month
("下个月", "来月") its month, a year ("去年") its year. A week named
without a day ("上周", "来週") is left as it is: no one date is meant, and a
date written after it would be read as one (the stated-dates check). So is
the day, month or year the message was sent in ("今天", "今日", "今年"): the
evidence's day line already says it, and written again inside the message
it was a date the bundled reader gave for a question about another day
(asked when 陈浩's visa interview was first booked, the day of "今天是我在字节跳动的第一天";
measured: docs/answers.md). Weeks
are calendar weeks from Monday, as both languages count them: 下周三 sent
on a Monday is the Wednesday nine days on, not two.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field

from .base import Language, cjk_grams, shift_month, stated_day, written_after

#: A date as :func:`cjk_dates` writes it back.
_WRITTEN = re.compile(r"(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日")
#: A resolved time right after what it resolves (:meth:`RelativeTimes.annotate`): the stated date
#: before it is the same day.
_ANNOTATION = re.compile(r"（\d{4}年")
_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9}
#: A number as both languages write a small one: digits (full-width too) or 一..九十九.
NUMBER = r"[0-9０-９]{1,2}|[一二两兩三四五六七八九]?十[一二三四五六七八九]?|[一二两兩三四五六七八九]"


def number(text: str) -> int | None:
    """The value of a :data:`NUMBER` ("3", its full-width form, "十五", "二十", "两"); None for anything else."""
    text = unicodedata.normalize("NFKC", text)
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        t, o = (_DIGITS.get(tens) if tens else 1), (_DIGITS.get(ones) if ones else 0)
        return None if t is None or o is None else t * 10 + o
    return _DIGITS.get(text)


def written_day(d: dt.date) -> str:
    return f"{d.year}年{d.month}月{d.day}日"


def written_month(year: int, month: int) -> str:
    return f"{year}年{month}月"


def _alternatives(words: dict[str, int]) -> str:
    """A regex alternation of ``words``, longest first (大前天 before 前天, 一昨日 before 昨日)."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@dataclass(frozen=True)
class RelativeTimes:
    """The relative times one language writes, each with how far from the day
    it was written it lies (days, calendar weeks, months, years), and what
    may stand around them: a weekday after a week, a day after a month, a
    count before a unit. :meth:`resolve` is the same arithmetic for both
    languages."""

    days: dict[str, int]  #: 昨天: -1
    weeks: dict[str, int]  #: 下周: 1 (resolved only with a weekday after it)
    months: dict[str, int]  #: 下个月: 1
    years: dict[str, int]  #: 去年: -1
    #: A count's units and what each counts ("天": day, "个月": month, "年": year), and the
    #: words after the unit for before and after ("前", "后").
    units: dict[str, str]
    ago: str
    later: str
    #: What stands between a week and its weekday ("的", "の", "星期"); the weekday
    #: characters, Monday first; what follows a weekday ("曜日", or what must not: "一起").
    week_to_day: str
    weekdays: str
    after_weekday: str
    day_suffix: str  #: after a day of the month ("号", "日")
    month_part: str = ""  #: a part of a month written after it ("底", "末"): the month is meant
    after_day: str = ""  #: what must not follow a day word: "前天天加班" is 前 and 天天 (every day)
    before_month: str = ""  #: what must not come before a month word: "马上月底" is 马上 and 月底
    #: All of the above as one pattern (compiled once, from the fields).
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", self._compiled())

    def annotate(self, text: str, sent: dt.date) -> str:
        """``text`` with each relative time followed by the date it meant, in full-width brackets."""
        return written_after(text, [(m.end(), meaning) for m in self.pattern.finditer(text)
                                    if (meaning := self.resolve(m, sent))], "（{}）")

    def _compiled(self) -> re.Pattern[str]:
        n = rf"(?<![0-9０-９月])(?:{NUMBER})"  # not "2025年前" nor "3月5日前" (before 5 March)
        parts = [
            rf"(?P<n>{n})(?P<unit>{_alternatives(dict.fromkeys(self.units, 0))})(?P<dir>{self.ago}|{self.later})",
            rf"(?P<week>{_alternatives(self.weeks)}){self.week_to_day}(?P<wd>[{self.weekdays}]){self.after_weekday}",
            rf"{self.before_month}(?P<month>{_alternatives(self.months)})(?:(?P<mday>{NUMBER}){self.day_suffix}"
            + (rf"|(?:{self.month_part}))?" if self.month_part else ")?"),
            rf"(?P<year>{_alternatives(self.years)})(?:(?P<ymonth>{NUMBER})月(?:(?P<yday>{NUMBER}){self.day_suffix})?)?",
            rf"(?P<day>{_alternatives(self.days)}){self.after_day}",
        ]
        return re.compile("|".join(f"(?:{p})" for p in parts))

    def resolve(self, m: re.Match[str], sent: dt.date) -> str | None:
        """What the match ``m`` of :attr:`pattern` in a message sent on ``sent`` meant, written out."""
        try:
            if m["n"]:
                return self._counted(m, sent)
            if m["week"]:
                monday = sent - dt.timedelta(days=sent.weekday())
                weekday = min(self.weekdays.index(m["wd"]), 6)  # 日 and 天 are both Sunday
                return written_day(monday + dt.timedelta(weeks=self.weeks[m["week"]], days=weekday))
            if m["month"]:
                shift = self.months[m["month"]]
                if not shift and not m["mday"]:
                    return None  # this month: the day line says it
                first = shift_month(sent, shift)
                return _day_or_month(first.year, first.month, m["mday"])
            if m["year"]:
                year = sent.year + self.years[m["year"]]
                if not m["ymonth"]:
                    return f"{year}年" if year != sent.year else None
                month = number(m["ymonth"])
                return _day_or_month(year, month, m["yday"]) if month else None
            shift = self.days[m["day"]]
            return written_day(sent + dt.timedelta(days=shift)) if shift else None
        except (ValueError, OverflowError):  # "2月30号", a 13th month
            return None

    def _counted(self, m: re.Match[str], sent: dt.date) -> str | None:
        """"三天前", "2か月後": the day, month or year that many units away."""
        n = number(m["n"])
        if n is None:
            return None
        if re.fullmatch(self.ago, m["dir"]):
            n = -n
        kind = self.units[m["unit"]]
        if kind == "day":
            return written_day(sent + dt.timedelta(days=n))
        if kind == "month":
            shifted = shift_month(sent, n)
            return written_month(shifted.year, shifted.month)
        return f"{sent.year + n}年"


def _day_or_month(year: int, month: int, day: str | None) -> str | None:
    """A month's day where one is written after it, else the month (ValueError for no such date)."""
    if not day:
        dt.date(year, month, 1)
        return written_month(year, month)
    value = number(day)
    return written_day(dt.date(year, month, value)) if value else None


def cjk_dates(pattern: re.Pattern[str], body: str, sent: dt.date | None, weekdays: str = "") -> list[tuple[int, str]]:
    """(position, date) for each match of a 年/月/日 ``pattern``, written back the same way, with its year;
    the weekday the pattern's ``wd`` (or ``wd2``) group captures is the character's place in
    ``weekdays`` (Monday first; past Sunday, Sunday again), and can settle the year (lang/base.py)."""
    found = []
    for m in pattern.finditer(body):
        if _ANNOTATION.match(body, m.end()):
            continue  # "明年3月5日" and its annotation, 2026年3月5日: the annotation says which year
        groups = m.groupdict()
        written = groups.get("wd") or groups.get("wd2")
        weekday = min(weekdays.index(written), 6) if written and written in weekdays else None
        day = stated_day(int(m["d"]), int(m["m"]), m["y"], sent, weekday)
        if day is not None:
            found.append((m.start(), written_day(day)))
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
    #: The relative times its people write ("昨天", "来月"), resolved by :meth:`annotate`.
    relative_times: RelativeTimes | None = None

    def annotate(self, text: str, day: dt.date) -> str:
        return text if self.relative_times is None else self.relative_times.annotate(text, day)

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
