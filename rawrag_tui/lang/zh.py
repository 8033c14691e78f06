"""Chinese: stated dates (3月21日, 2026年3月21日), "when" questions, questions about now.

Runs only on text :func:`~rawrag_tui.lang.detect` takes for Chinese (Han
characters without kana). Words are the CJK bigrams every language module
shares (lang/base.py). Relative times (昨天, 下周三, 下个月5号, 三天前) are
resolved against the day the message was sent (lang/cjk.py).
"""

from __future__ import annotations

import re

from .base import EMAIL, PHONE
from .cjk import CjkLanguage, RelativeTimes, grams

#: "3月21日", "3月21号", "2026年3月21日".
_DATE = re.compile(r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号號]"
                   r"(?:\s*[（(]?\s*(?:星期|周|週|礼拜|禮拜)(?P<wd>[一二三四五六日天])\s*[)）]?)?")
_WHEN = re.compile(r"什么时候|什麼時候|哪天|哪一天|几号|幾號|几月几|何时|何時|哪个日子|日期是")
_NOW = re.compile(r"今天|今晚|昨天|明天|前天|后天|多久|多长时间|[一二两三四五六七八九十几\d]+(?:天|周|个月|年)前|"
                  r"[上下这本]周|[上下这本]个?月|今年|去年|明年|最近|现在几")

#: An earlier state asked about: "之前", "原来"; the first of all too ("一开始定在哪天", "最早定在哪天"), which
#: names no tense in Chinese.
_PAST = re.compile(r"之前|以前|原来|最初|最早|一开始|本来|原本|起初|当初|先前|从前")
#: A yes-or-no question: 吗 at the end, or an "A不A" form ("王芳还住在成都吗", "是不是", "有没有").
_YES_NO = re.compile(r"[吗嗎][？?！!。]?\s*$|是不是|有没有|是否|([\u4e00-\u9fff])[不没]\1")
#: A plan called off: "这次只能取消了", "不去了", "泡汤了".
_CANCEL = re.compile(r"取消|不去了|去不成|去不了了|泡汤|作罢")
#: A question asking for a phone number ("手机号码", "电话") or an e-mail address ("邮箱").
_KINDS = {PHONE: re.compile(r"电话|電話|手机|手機|号码|號碼"), EMAIL: re.compile(r"邮箱|郵箱|邮件|郵件|e-?mail", re.I)}

_RELATIVE = RelativeTimes(
    days={"今天": 0, "今晚": 0, "今早": 0, "今儿": 0, "昨天": -1, "昨晚": -1, "昨儿": -1, "前天": -2,
          "大前天": -3, "明天": 1, "明早": 1, "明晚": 1, "明儿": 1, "后天": 2, "後天": 2, "大后天": 3},
    weeks={"上上周": -2, "上周": -1, "上星期": -1, "上个星期": -1, "上礼拜": -1, "上个礼拜": -1,
           "这周": 0, "本周": 0, "这星期": 0, "这个星期": 0, "这礼拜": 0, "这个礼拜": 0,
           "下周": 1, "下星期": 1, "下个星期": 1, "下礼拜": 1, "下个礼拜": 1, "下下周": 2},
    months={"上上个月": -2, "上个月": -1, "上月": -1, "这个月": 0, "本月": 0, "下个月": 1, "下月": 1,
            "下下个月": 2},
    years={"前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2},
    units={"天": "day", "日": "day", "个月": "month", "個月": "month", "年": "year"},
    ago="前|以前", later="后|後|以后",
    # "下周三", "下星期三", "下周的周三"; not "下周一起" (next week, together) or "这周一定", nor
    # "这周天天加班" (every day this week) or "下周三天假" (three days off): 天 after the weekday
    # counts days, unless it is the weather ("下周三天气").
    week_to_day="(?:的)?(?:星期|周|礼拜)?", weekdays="一二三四五六日天",
    after_weekday="(?![起定直样般些切共次个]|天(?!气))",
    day_suffix="[号日號]", month_part="初|底|末|上旬|中旬|下旬",
    # "上线前天天加班" (before the launch, overtime every day); "前天天气" is the weather.
    after_day="(?!天(?!气))",
    # "马上月底交" (by the end of the month, straight away), "早上月亮": 上 of another word.
    before_month="(?<![马早晚])",
)


class Chinese(CjkLanguage):
    code = "zh"
    when_words = grams("什么时候", "哪天", "哪一天", "几号", "日期", "时间")
    value_words = grams("什么", "多少", "几点", "号码")
    name_words = grams("名字", "叫什么", "称呼")

    date_pattern, when_pattern, now_pattern, earlier_pattern = _DATE, _WHEN, _NOW, _PAST
    yes_no_pattern = _YES_NO
    continuation = frozenset({"还", "仍", "依然", "现在", "目前"})
    negation_pattern = re.compile(r"[不没沒]")
    cancel_pattern, cancelled = _CANCEL, "取消了"
    first_pattern = re.compile(r"最早|最初|一开始|起初|原本|原来|本来|第一次")
    hedge_pattern = re.compile(r"也许|或许|说不定|可能|看情况|再说吧")
    #: A state that ended ("辞职了", "我们分手了", "成都的房子我已经退了", "不再"), or a thing done instead
    #: of another ("而不是", "代替").
    end_pattern = re.compile(r"辞职|辞掉|离职|不干了|跳槽|分手|离婚|分开了|搬走|搬离|搬出|退了|退租|不再|戒了|不.了|"
                             r"而不是|代替")
    no = "不是"
    self_pattern, addressee_pattern = re.compile(r"我(?!们|們)"), re.compile(r"[你您]")
    kind_patterns = _KINDS
    weekdays = "一二三四五六日天"  # 星期一 is Monday; 星期日 and 星期天 are Sunday
    relative_times = _RELATIVE


LANGUAGE = Chinese()
