"""Chinese: stated dates (3月21日, 2026年3月21日), "when" questions, questions about now.

Runs only on text :func:`~rawrag_tui.lang.detect` takes for Chinese (Han
characters without kana). Words are the CJK bigrams every language module
shares (lang/base.py). Relative dates (昨天, 上周) are not resolved: that was
not measured to help.
"""

from __future__ import annotations

import datetime as dt
import re

from .base import Language, cjk_grams, year_near

#: "3月21日", "3月21号", "2026年3月21日".
_DATE = re.compile(r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号號]")
_WHEN = re.compile(r"什么时候|什麼時候|哪天|哪一天|几号|幾號|几月几|何时|何時|哪个日子|日期是")
_NOW = re.compile(r"今天|今晚|昨天|明天|前天|后天|多久|多长时间|[一二两三四五六七八九十几\d]+(?:天|周|个月|年)前|"
                  r"[上下这本]周|[上下这本]个?月|今年|去年|明年|最近|现在几")


def cjk_dates(pattern: re.Pattern[str], body: str, sent: dt.date | None) -> list[tuple[int, str]]:
    """(position, date) for each match of a 年/月/日 ``pattern``, written back the same way, with its year."""
    found = []
    for m in pattern.finditer(body):
        month, day = int(m["m"]), int(m["d"])
        if m["y"]:
            year = int(m["y"])
        elif sent is not None:
            near = year_near(day, month, sent)
            if near is None:
                continue
            year = near.year
        else:
            continue
        try:
            dt.date(year, month, day)
        except ValueError:
            continue
        found.append((m.start(), f"{year}年{month}月{day}日"))
    return found


def grams(*words: str) -> frozenset[str]:
    return frozenset(g for w in words for g in cjk_grams(w))


class Chinese(Language):
    code = "zh"
    when_words = grams("什么时候", "哪天", "哪一天", "几号", "日期", "时间")
    value_words = grams("什么", "多少", "几点", "号码")

    def stated_dates(self, body: str, sent: dt.date | None) -> list[tuple[int, str]]:
        return cjk_dates(_DATE, body, sent)

    def asks_when(self, question: str) -> bool:
        return bool(_WHEN.search(question))

    def asks_about_now(self, question: str) -> bool:
        return bool(_NOW.search(question))


LANGUAGE = Chinese()
