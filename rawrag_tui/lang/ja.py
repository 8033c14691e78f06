"""Japanese: stated dates (3月21日), "when" questions, questions about now.

Runs only on text :func:`~rawrag_tui.lang.detect` takes for Japanese (any
kana). Words are the CJK bigrams every language module shares (lang/base.py).
Relative times (昨日, 来週の水曜日, 来月5日, 三日前) are resolved against the
day the message was sent (lang/cjk.py).
"""

from __future__ import annotations

import re

from .base import EMAIL, PHONE
from .cjk import CjkLanguage, RelativeTimes, grams

#: "3月21日", "2026年3月21日".
_DATE = re.compile(r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日"
                   r"(?:\s*[（(]\s*(?P<wd>[月火水木金土日])(?:曜日?)?\s*[)）]|\s*(?P<wd2>[月火水木金土日])曜)?")
_WHEN = re.compile(r"いつ|何日|何月何日|何曜日|日にち|日付")
_NOW = re.compile(r"今日|今夜|昨日|明日|一昨日|[一二三四五六七八九十何\d]+(?:日|週間|か月|ヶ月|年)前|"
                  r"どのくらい|どれくらい|[先来今]週|[先来今]月|今年|去年|来年|最近")

#: "前" after a verb or の ("引っ越す前", "前の"), not in 名前 (name) or 午前 (morning).
_PAST = re.compile(r"以前|(?<![名午])前[にのはで、]|最初|元々|もともと|当初|初めは|はじめは|かつて")
#: A yes-or-no question: it ends in か (or の) and asks no question word ("健太はまだ東京に住んでいますか").
_YES_NO = re.compile(r"^(?!.*(?:何|なに|なん|いつ|どこ|どちら|どっち|どれ|どの|どう|どんな|誰|だれ|なぜ|どうして|"
                     r"いくら|いくつ)).*[かの][？?]?\s*$", re.DOTALL)
#: A plan called off: "今回は中止にします", "キャンセルになった", "取りやめ".
_CANCEL = re.compile(r"中止|キャンセル|取りやめ|取り止め|取り消|なしになった")
#: A question asking for a phone number ("電話番号", "携帯") or an e-mail address ("メールアドレス", "メアド").
_KINDS = {PHONE: re.compile(r"電話|番号|携帯|ケータイ"), EMAIL: re.compile(r"メール|メアド|アドレス|e-?mail", re.I)}

_RELATIVE = RelativeTimes(
    days={"今日": 0, "今朝": 0, "今夜": 0, "今晩": 0, "昨日": -1, "きのう": -1, "昨夜": -1, "昨晩": -1,
          "一昨日": -2, "おととい": -2, "明日": 1, "あした": 1, "明朝": 1, "明後日": 2, "あさって": 2},
    weeks={"先々週": -2, "先週": -1, "今週": 0, "来週": 1, "再来週": 2},
    months={"先々月": -2, "先月": -1, "今月": 0, "来月": 1, "再来月": 2},
    years={"一昨年": -2, "おととし": -2, "去年": -1, "昨年": -1, "今年": 0, "来年": 1, "再来年": 2},
    units={"日": "day", "か月": "month", "ヶ月": "month", "カ月": "month", "ケ月": "month", "箇月": "month",
           "年": "year"},
    ago="前", later="後",
    # "来週の水曜日", "来週水曜": the weekday is written with 曜.
    week_to_day="(?:の)?", weekdays="月火水木金土日", after_weekday="曜日?",
    day_suffix="日", month_part="末|初め|上旬|中旬|下旬",
)


class Japanese(CjkLanguage):
    code = "ja"
    when_words = grams("いつ", "何日", "日にち", "日付", "時間")
    value_words = grams("何時", "いくら", "番号", "何")
    name_words = grams("名前", "呼ばれ", "何という")

    date_pattern, when_pattern, now_pattern, earlier_pattern = _DATE, _WHEN, _NOW, _PAST
    yes_no_pattern = _YES_NO
    continuation = frozenset({"まだ", "今も", "今", "現在"})
    negation_pattern = re.compile(r"いいえ|いや|ない|ません|違")
    cancel_pattern, cancelled = _CANCEL, "中止"
    first_pattern = re.compile(r"最初|もともと|元々|当初|はじめ|初め")
    hedge_pattern = re.compile(r"かも|たぶん|多分|もしかしたら|未定")
    #: A state that ended ("任天堂辞めて", "あかりと別れた", "大阪離れる", "もう飲んでない"), or a thing done
    #: instead of another ("代わりに", "じゃなくて").
    end_pattern = re.compile(r"辞め|退職|転職|別れ|離婚|引っ越|離れ|やめ|止め|卒業|もう.{0,8}(?:ない|ません)|"
                             r"代わりに|じゃなくて|ではなく")
    no = "いいえ"
    self_pattern = re.compile(r"私(?!たち|達)|僕(?!ら|たち)|俺(?!ら|たち)|あたし|わたし")
    addressee_pattern = re.compile(r"あなた|君|きみ|お前|おまえ")
    kind_patterns = _KINDS
    weekdays = "月火水木金土日"  # 月曜日 is Monday
    relative_times = _RELATIVE


LANGUAGE = Japanese()
