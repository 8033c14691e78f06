"""The steps' fixes from the misses of the sets written after the work (bench/data/changed-facts-{fourth,zh3}.json).

Each case is the line shape that misled a step on those sets, cut down to the messages that matter,
with a reader double where a step reads again: which line a second answer may come from, what a
call-off line plans, what an ending line ended, and whose life a question tells of.
"""

from __future__ import annotations

import numpy as np

from rawrag_tui import lang
from rawrag_tui.answer import ended_reading, later_reading, someone_else
from rawrag_tui.answer.checks.cancelled_plans import check
from rawrag_tui.answer.evidence import EvidenceViews
from tests.test_later_reading import Answers, msg, read_by

AROHA = [
    msg(1, "Fortnight in Dunedin done. The flat is freezing", "2025-04-20T10:00:00", "Aroha"),
    msg(2, "told you. get a heat pump", "2025-04-20T10:05:00", "Wiremu"),
    msg(3, "Moving on. Did Leilani's cousin end up going to Brisbane?", "2025-10-19T10:00:00", "Aroha"),
    msg(4, "yeah she's been in Brisbane since August, loves it", "2025-10-19T10:05:00", "Wiremu"),
]
WHERE_AROHA = "Which city does Aroha live in these days?"


def test_a_second_answer_from_another_persons_news_is_not_the_asked_persons_state():
    views = EvidenceViews()
    assert not later_reading.about_asked(WHERE_AROHA, "Brisbane", AROHA[3], AROHA, views)  # a cousin's
    assert not later_reading.about_asked(WHERE_AROHA, "Brisbane", AROHA[2], AROHA, views)  # Aroha asking
    assert later_reading.about_asked(WHERE_AROHA, "Dunedin", AROHA[0], AROHA, views)  # her own line
    to_her = msg(5, "How's your flat in Brisbane?", "2025-10-20T10:00:00", "Wiremu")
    assert later_reading.about_asked(WHERE_AROHA, "Brisbane", to_her, [*AROHA, to_her], views)
    naming = msg(6, "Aroha's in Brisbane now", "2025-10-20T10:00:00", "Wiremu")
    assert later_reading.about_asked(WHERE_AROHA, "Brisbane", naming, [*AROHA, naming], views)
    # The reading again: "Brisbane" over the later lines does not replace "Dunedin".
    later = later_reading.read_later(WHERE_AROHA, "Dunedin", [1], AROHA, views, read_by(Answers("Brisbane")),
                                     lambda ms: np.ones(len(ms)))
    assert later is None


def test_a_call_off_line_with_a_deadline_and_a_year_plans_no_new_day():
    question = "When are Fatima and Darek going to Barcelona?"
    trip = [
        msg(1, "Barcelona in May? The festival is on 8 May", "2025-03-02T10:00:00", "Darek"),
        msg(2, "Book it!! 8 May, I'm in", "2025-03-02T10:05:00", "Fatima"),
        msg(3, "it's fine, the hostel refunds until tomorrow. Barcelona's cancelled, next year for sure",
            "2025-05-04T10:00:00", "Darek"),
    ]
    called_off = check(question, "2026", trip)
    assert called_off is not None and (called_off.message, called_off.text) == (3, "Cancelled")
    # A new day after the plan is a new plan, called off or not.
    moved = [*trip[:2], msg(3, "Barcelona's cancelled for May, we go on 20 June instead", "2025-05-04T10:00:00",
                            "Darek")]
    assert check(question, "20 June", moved) is None


CHEN = [
    msg(1, "你在深圳还好吧", "2025-05-11T10:00:00", "方琳"),
    msg(2, "腾讯哪有不加班的", "2025-05-11T10:05:00", "许晨"),
    msg(3, "东莞那边的工作定了，下个月去", "2025-06-22T10:00:00", "许晨"),
    msg(4, "搬完了！深圳的房子也退了，东莞这边走路十分钟就到公司，爽", "2025-09-29T10:00:00", "许晨"),
]


def test_what_an_ending_line_ended_is_no_new_state():
    views = EvidenceViews()
    # 深圳 is named before and only where the line says a state ended: the old city.
    assert ended_reading._what_ended(CHEN[3], "深圳", "许晨住在哪个城市？", CHEN, views)
    assert not ended_reading._what_ended(CHEN[3], "东莞", "许晨住在哪个城市？", CHEN, views)
    # "switched to Brighton" names the new team with the change, and no earlier line names it.
    daniel = [msg(1, "Chelsea kick off in ten", "2025-03-02T18:00:00", "Daniel"),
              msg(2, "I've switched to Brighton. Chelsea broke my heart.", "2025-09-14T20:00:00", "Daniel")]
    assert not ended_reading._what_ended(daniel[1], "Brighton", "Which team does Daniel support?", daniel, views)


def test_a_line_that_only_asks_about_the_answer_is_not_its_writers_own_life():
    views = EvidenceViews()
    lines = [msg(1, "陈一鸣是谁？？？我错过了什么", "2025-10-12T10:00:00", "韩东"),
             msg(2, "嘿嘿 我男朋友 同事介绍的", "2025-10-12T10:01:00", "程露")]
    assert not someone_else.others_own("程露的男朋友是谁？", "陈一鸣", lines[:1], lines, views)
    told = [msg(1, "我跟陈一鸣分手了", "2025-10-12T10:00:00", "韩东"), lines[1]]
    assert someone_else.others_own("程露的男朋友是谁？", "陈一鸣", told[:1], told, views)


def test_chinese_words_for_the_first_of_all_ask_about_an_earlier_state():
    assert lang.asks_about_past("外婆的寿宴一开始定在哪天？")
    assert lang.asks_about_past("大学同学聚会最早定在哪天？")
    assert not lang.asks_about_past("外婆的寿宴是哪天？")
