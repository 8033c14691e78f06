"""Japanese: stated dates (3月21日), "when" questions, questions about now.

Runs only on text :func:`~rawrag_tui.lang.detect` takes for Japanese (any
kana). Words are the CJK bigrams every language module shares (lang/base.py).
Relative dates (昨日, 先週, 来月) are not resolved: that was not measured to help.
"""

from __future__ import annotations

import re

from .base import EMAIL, PHONE
from .cjk import CjkLanguage, grams

#: "3月21日", "2026年3月21日".
_DATE = re.compile(r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日"
                   r"(?:\s*[（(]\s*(?P<wd>[月火水木金土日])(?:曜日?)?\s*[)）]|\s*(?P<wd2>[月火水木金土日])曜)?")
_WHEN = re.compile(r"いつ|何日|何月何日|何曜日|日にち|日付")
_NOW = re.compile(r"今日|今夜|昨日|明日|一昨日|[一二三四五六七八九十何\d]+(?:日|週間|か月|ヶ月|年)前|"
                  r"どのくらい|どれくらい|[先来今]週|[先来今]月|今年|去年|来年|最近")

#: "前" after a verb or の ("引っ越す前", "前の"), not in 名前 (name) or 午前 (morning).
_PAST = re.compile(r"以前|(?<![名午])前[にのはで、]|最初|元々|もともと|当初|初めは|はじめは|かつて")
#: A plan called off: "今回は中止にします", "キャンセルになった", "取りやめ".
_CANCEL = re.compile(r"中止|キャンセル|取りやめ|取り止め|取り消|なしになった")
#: A question asking for a phone number ("電話番号", "携帯") or an e-mail address ("メールアドレス", "メアド").
_KINDS = {PHONE: re.compile(r"電話|番号|携帯|ケータイ"), EMAIL: re.compile(r"メール|メアド|アドレス|e-?mail", re.I)}


class Japanese(CjkLanguage):
    code = "ja"
    when_words = grams("いつ", "何日", "日にち", "日付", "時間")
    value_words = grams("何時", "いくら", "番号", "何")

    date_pattern, when_pattern, now_pattern, earlier_pattern = _DATE, _WHEN, _NOW, _PAST
    cancel_pattern, cancelled = _CANCEL, "中止"
    kind_patterns = _KINDS
    weekdays = "月火水木金土日"  # 月曜日 is Monday


LANGUAGE = Japanese()
