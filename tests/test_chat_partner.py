"""An answer that is only the name of the other person of the chat becomes "not in your history"
(answer/chat_partner.py): the rules on scripted evidence, through ``answer_question`` with a
scripted reader, and the bundled reader on a real store at the end."""

from __future__ import annotations

import dataclasses

import pytest

from rawrag_tui.answer import chat_partner
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.prompts import NOT_IN_HISTORY
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.settings import ANSWER_CHECKS
from tests.conftest import SECOND_CHATS, needs_bundled_reader
from tests.test_later_reading import Answers, msg, result

LANDLORD = "What is the name of Tamsin's landlord?"
CHAT = [
    msg(1, "Found one! Tiny place above a bakery in Bath. I sign on Friday.", "2025-06-15T19:00:00", "Tamsin"),
    msg(2, "Amazing!! When's the big day?", "2025-06-15T19:02:00", "Rohan"),
    msg(3, "Ro, the boiler's broken again and nobody answers the phone.", "2025-11-30T18:00:00", "Tamsin"),
    msg(4, "Tamsin! Kettle and a hot water bottle, classic.", "2025-11-30T18:05:00", "Rohan"),
]


def partner(question, answer, evidence=CHAT):
    return chat_partner.partner_named(question, answer, evidence, EvidenceViews())


def test_only_the_other_speakers_name_is_no_answer():
    assert partner(LANDLORD, "Rohan") == "Rohan"
    # The question's own words around it change nothing: all it adds is the name.
    assert partner("Who is Tamsin's landlord?", "Tamsin's landlord is Rohan.") == "Rohan"
    # Anything else in the answer, the asked person, no person of the chat: not this check's.
    assert partner(LANDLORD, "Rohan and his brother") is None
    assert partner(LANDLORD, "Tamsin") is None
    assert partner(LANDLORD, "Mr Pike") is None
    # A question naming no one of the chat, or a yes-or-no question: left alone.
    assert partner("What is the name of Zoe's landlord?", "Rohan") is None
    assert partner("Is Rohan Tamsin's landlord?", "Yes") is None


def test_a_line_of_theirs_on_the_subject_keeps_it():
    # Rohan writes of the subject: he may be the answer.
    his = dataclasses.replace(CHAT[3], text="As your landlord I promise the boiler gets fixed this week.")
    assert partner(LANDLORD, "Rohan", [*CHAT[:3], his]) is None
    # So does a line that names him and speaks of it, whoever writes it.
    naming = dataclasses.replace(CHAT[2], text="Rohan, you're the worst landlord I've ever had.")
    assert partner(LANDLORD, "Rohan", [*CHAT[:2], naming, CHAT[3]]) is None
    # A line naming him on another subject does not ("Tamsin! Kettle and..." names her, not the landlord).
    assert partner(LANDLORD, "Rohan", [*CHAT, msg(5, "Rohan, happy birthday!", "2025-12-01T09:00:00", "Tamsin")]) \
        == "Rohan"


def test_the_words_asking_for_a_name_are_no_subject():
    # "called" asks for a name: Rohan's "Call me when you're back" says nothing of a husband.
    called = [*CHAT, msg(5, "Call me when you're back from Bath!", "2025-12-01T09:00:00", "Rohan")]
    assert partner("What is Tamsin's husband called?", "Rohan", called) == "Rohan"
    assert partner("What is the name of Tamsin's husband?", "Rohan",
                   [*CHAT, msg(5, "Name the day and I'm there.", "2025-12-01T09:00:00", "Rohan")]) == "Rohan"
    assert partner("Wie heißt Tamsins Mann?", "Rohan",
                   [*CHAT, msg(5, "Ich heiße Rohan, falls du es vergessen hast.", "2025-12-01T09:00:00",
                               "Rohan")]) == "Rohan"


def test_cjk_names_and_subjects():
    chat = [msg(1, "我搬到杭州了，新公司挺好。", "2025-06-01T10:00:00", "李娜"),
            msg(2, "恭喜！杭州的房子找好了吗？", "2025-06-01T10:02:00", "陈浩")]
    assert partner("李娜的弟弟叫什么名字？", "陈浩", chat) == "陈浩"
    assert partner("李娜的弟弟叫什么名字？", "李娜的弟弟叫陈浩", chat) == "陈浩"
    # 陈浩 writes of 杭州: asked who helped her find a flat in Hangzhou, he may be the answer.
    assert partner("谁帮李娜在杭州找房子？", "陈浩", chat) is None


def test_the_answer_becomes_not_in_your_history_with_the_readers_words_in_the_note():
    ans = answer_question(LANDLORD, result(*CHAT), lambda: Answers("Rohan"), date="2026-01-01",
                          prompt_style="plain")
    assert ans.answer == NOT_IN_HISTORY and ans.reader_said == "Rohan" and ans.citations == []
    assert ans.correction == ('the reader said "Rohan": only the name of Rohan, who writes in the evidence; '
                              "nothing Rohan writes or is told there is about what was asked")
    # Off, the reader's words stand.
    without = tuple(c for c in ANSWER_CHECKS if c != chat_partner.NAME)
    ans = answer_question(LANDLORD, result(*CHAT), lambda: Answers("Rohan"), date="2026-01-01",
                          prompt_style="plain", checks=without)
    assert ans.answer == "Rohan" and ans.correction == ""


@needs_bundled_reader
def test_the_bundled_reader_on_a_landlord_the_history_never_mentions(open_memory):
    # The second unseen English set (bench/data): Tamsin never writes of a landlord; the reader
    # answers with the name of the friend she writes to.
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0, "evidence_tokens": 1024})
    mem.import_path(SECOND_CHATS, "locomo")
    answer = mem.ask(LANDLORD, date="2026-02-08")
    if answer.reader_said != "Rohan":
        # The 0.5B's first reading differs between CPUs (the embedder's int8 kernels move the
        # evidence): on the 2-core AMD EPYC VM of 2026-12-07 it said "Tamsin", a path
        # tests/test_nearest_reading.py covers. This test is about the chat partner's name.
        pytest.skip(f"the bundled reader first said {answer.reader_said!r} here, not the chat partner's name")
    assert answer.answer == NOT_IN_HISTORY, (answer.answer, answer.correction)
    assert "only the name of Rohan" in answer.correction
