"""The later-value pass: a value answer an earlier message gave, changed by a
later message on the same subject, gives way to the later value
(answer/checks/later_values.py)."""

from __future__ import annotations

from rawrag_tui.answer.checks import first_correction
from rawrag_tui.answer.checks.later_values import answer_value
from rawrag_tui.answer.checks.later_values import check as later_value
from rawrag_tui.answer.checks.later_values import explain as later_value_explain
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult
from tests.test_stated_dates import OneAnswer


def msg(mid, text, ts, speaker="Sam"):
    return EvidenceMessage(mid, f"m{mid}", 1, "Half-marathon plan", mid, ts, speaker, "user", text)


# The demo's running chat: a first plan (2 hours, 5:41 per km), then a faster goal.
RUN = [
    msg(28, "I signed up for the Lisbon half marathon on 25 October. Can you help me plan training?",
        "2026-03-22T09:00:00Z"),
    msg(29, "A realistic first goal is finishing in around 2 hours, which is a pace of about 5:41 per km.",
        "2026-03-22T09:00:30Z", "Assistant"),
    msg(31, "Training update: I ran 16 km last Sunday at 5:20 per km and felt good.", "2026-07-30T20:15:00Z"),
    msg(32, "That long run suggests you can aim faster. A 1:50 finish needs a pace of about 5:13 per km.",
        "2026-07-30T20:15:30Z", "Assistant"),
    msg(33, "OK, new goal: 1:50. Tempo runs on Wednesdays.", "2026-07-30T20:18:00Z"),
]
QUESTION = "What finish time is Sam aiming for in the half marathon?"


def test_values_of_each_kind_are_recognised():
    assert answer_value("5:41 per km") == ("clock", "5:41")
    assert answer_value("call 07700 900461") == ("phone", "07700 900461")
    assert answer_value("Priya.nair@proton.me") == ("email", "Priya.nair@proton.me")
    assert answer_value("about £1,200 a month") == ("money", "£1,200")
    assert answer_value("Lisbon") is None and answer_value("3 May 2026") is None  # words and dates: not this pass


def test_an_earlier_value_gives_way_to_the_later_one_nearest_the_subject():
    stated = later_value(QUESTION, "5:41", RUN[:4])
    assert stated is not None and (stated.message, stated.text) == (4, "1:50")  # not 5:13, the pace beside it
    # The pace of the later message, replied to with the goal itself (a reply is on its message's subject).
    stated = later_value(QUESTION, "5:13", RUN)
    assert stated is not None and (stated.message, stated.text) == (5, "1:50")
    assert later_value(QUESTION, "1:50", RUN) is None  # the latest value: kept
    assert later_value(QUESTION, "4:30", RUN) is None  # stated nowhere: a guess, not this pass's to correct
    assert later_value(QUESTION, "Lisbon", RUN) is None
    assert later_value(QUESTION, "5:41", RUN[:2]) is None  # nothing later changed it


def test_a_later_value_off_the_subject_changes_nothing():
    numbers = [msg(1, "My number is 07700 900111.", "2026-01-01T10:00:00Z"),
               msg(2, "The plumber's number is 07700 900222.", "2026-02-01T10:00:00Z", "Alex"),
               msg(3, "New phone! My number is now 07700 900333.", "2026-03-01T10:00:00Z")]
    question = "What is Sam's phone number?"  # subject: "phone"
    assert later_value(question, "07700 900111", numbers).text == "07700 900333"
    assert later_value(question, "07700 900111", numbers[:2]) is None  # the plumber's is another subject
    other_chat = EvidenceMessage(9, "m9", 2, "Jess & Naomi", 9, "2026-04-01T10:00:00Z", "Jess", "user",
                                 "My new phone number is 07700 900999.")
    assert later_value(question, "07700 900111", [*numbers[:2], other_chat]) is None  # another chat: another person


def test_a_number_asked_for_is_its_writer_s_and_a_made_up_one_gives_way_to_theirs():
    # The question asks for a phone number: Sam's later number is on the subject though it names none.
    numbers = [msg(1, "有急事直接打我电话13812345678", "2025-03-03T21:05:00Z", "陈浩"),
               msg(2, "好，存了", "2025-03-03T21:06:00Z", "李娜"),
               msg(3, "以后有事打我这个号：15906571234", "2025-06-15T22:15:00Z", "陈浩")]
    question = "陈浩的手机号码是多少？"
    moved = later_value(question, "13812345678", numbers)
    assert moved is not None and (moved.message, moved.text, moved.superseded) == (3, "15906571234", True)
    # Another writer's later number is not the asked person's, and a question not asking for a
    # number of its kind keeps the subject rule (no later message names the subject).
    other = [*numbers[:2], msg(4, "记一下我的：15900000000", "2025-06-15T22:15:00Z", "李娜")]
    assert later_value(question, "13812345678", other) is None
    assert later_value("陈浩的生日是哪天？", "13812345678", numbers) is None
    # A number no message states is the reader's invention: the named person's latest one instead.
    made_up = later_value(question, "1311111111", numbers)
    assert made_up is not None and (made_up.message, made_up.text, made_up.superseded) == (3, "15906571234", False)
    assert "which no message says" in later_value_explain("1311111111", made_up)
    assert later_value("李娜的手机号码是多少？", "1311111111", numbers) is None  # she wrote none
    # About an earlier state, an invention gives way to the earliest of theirs.
    first = later_value(question, "1311111111", numbers, earlier=True)
    assert first is not None and (first.message, first.text, first.earlier) == (1, "13812345678", True)
    assert "[1], the earliest message of the person asked about" in later_value_explain("1311111111", first)


def test_the_answer_says_what_was_replaced_and_cites_the_later_message():
    result = SearchResult(QUESTION, "hybrid", [Hit(1, 1, "Half-marathon plan", 1, "", messages=RUN)], {"total": 0.0})
    answer = answer_question(QUESTION, result, lambda: OneAnswer("5:41"), prompt_style="plain")
    assert answer.answer == "1:50" and answer.reader_said == "5:41"
    assert [(c.how, c.external_id) for c in answer.citations] == [("stated", "m33")]
    assert answer.correction == ('the reader said "5:41", what an earlier message said; [5], '
                                 "the latest message on this, says 1:50")
    assert answer.to_json()["correction"] == answer.correction
    kept = answer_question(QUESTION, result, lambda: OneAnswer("1:50"), prompt_style="plain")
    assert kept.answer == "1:50" and kept.reader_said == "" and kept.correction == ""


def test_a_message_marked_latest_is_on_the_subject_where_the_message_it_answered_is_left_out():
    # The demo's evidence: the goal itself names no subject word, and the
    # assistant's "A 1:50 finish needs..." it replied to was left out (it states
    # the same value, so the timeline dropped it as superseded).
    shown = [msg(29, RUN[1].text, "2026-03-22T09:00:30Z", "Assistant"),
             msg(30, "Two hours sounds right. Let's plan for 2:00.", "2026-03-22T09:03:00Z"),
             RUN[2], RUN[4]]
    assert later_value(QUESTION, "2:00", shown) is None
    stated = later_value(QUESTION, "2:00", shown, latest={33})
    assert stated is not None and (stated.message, stated.text) == (4, "1:50")
    fixed = first_correction(QUESTION, "2:00", "2:00", shown, EvidenceViews(), latest={33})
    assert fixed is not None and fixed.correction.text == "1:50"
    # Marked latest but stating the value the reader gave: kept.
    assert later_value(QUESTION, "1:50", shown, latest={33}) is None


# Kenta's e-mail, changed once (tests/data: the Japanese changed-facts chat's shape).
MAIL = [
    EvidenceMessage(1, "m1", 1, "健太 & 美咲", 1, "2025-01-10T10:00:00Z", "健太", "user",
                    "メールアドレスは kenta.n@docomo.ne.jp だよ"),
    EvidenceMessage(2, "m2", 1, "健太 & 美咲", 2, "2025-06-02T10:00:00Z", "健太", "user",
                    "メールアドレス変えた。これからは kenta.nakamura@gmail.com で"),
]


def test_a_question_naming_an_earlier_state_gets_the_earliest_value_not_the_latest():
    question = "健太が前に使っていたメールアドレスは何ですか？"
    # The reader's earlier value is the answer asked for: before, the check replaced it with the latest.
    assert later_value(question, "kenta.n@docomo.ne.jp", MAIL, earlier=True) is None
    # The latest value, for a question about before it: the earliest statement instead.
    stated = later_value(question, "kenta.nakamura@gmail.com", MAIL, earlier=True)
    assert stated is not None and (stated.message, stated.text, stated.earlier) == (1, "kenta.n@docomo.ne.jp", True)
    assert later_value(question, "kenta.nakamura@gmail.com", MAIL[1:], earlier=True) is None  # no earlier one
    # The same answers to a question about now: the latest wins.
    assert later_value(question, "kenta.n@docomo.ne.jp", MAIL).text == "kenta.nakamura@gmail.com"
    assert later_value(question, "kenta.nakamura@gmail.com", MAIL) is None


def test_the_question_s_own_words_turn_the_check_round_through_answer_question():
    question = "健太が前に使っていたメールアドレスは何ですか？"
    result = SearchResult(question, "hybrid", [Hit(1, 1, "健太 & 美咲", 1, "", messages=MAIL)], {"total": 0.0})
    kept = answer_question(question, result, lambda: OneAnswer("kenta.n@docomo.ne.jp"), prompt_style="plain")
    assert kept.answer == "kenta.n@docomo.ne.jp" and kept.correction == ""
    fixed = answer_question(question, result, lambda: OneAnswer("kenta.nakamura@gmail.com"), prompt_style="plain")
    assert fixed.answer == "kenta.n@docomo.ne.jp" and fixed.reader_said == "kenta.nakamura@gmail.com"
    assert fixed.correction == ('the reader said "kenta.nakamura@gmail.com", what the latest message on this says; '
                                "the question asks about before it, and [1], the earliest, says kenta.n@docomo.ne.jp")
    now = "健太のメールアドレスは何ですか？"
    latest = answer_question(now, SearchResult(now, "hybrid", result.hits, {"total": 0.0}),
                             lambda: OneAnswer("kenta.n@docomo.ne.jp"), prompt_style="plain")
    assert latest.answer == "kenta.nakamura@gmail.com"


def test_part_of_a_value_asked_for_is_the_whole_value_that_holds_it():
    # Asked for Hattie's e-mail address, the 1.5B Coder answered "hattiedraws.es" (bench, fresh-3).
    mail = [msg(1, "New e-mail for work stuff: hello@hattiedraws.es", "2025-06-29T13:40:00Z", "Hattie"),
            msg(2, "Saved it!", "2025-06-29T13:41:00Z", "Kofi")]
    question = "What is Hattie's email address?"
    whole = later_value(question, "hattiedraws.es.", mail)
    assert whole is not None and (whole.message, whole.text, whole.part) == (1, "hello@hattiedraws.es", True)
    assert later_value_explain("hattiedraws.es", whole) == (
        'the reader said "hattiedraws.es", part of what [1] gives: hello@hattiedraws.es')
    # Not a question asking for an address, too short a part, or a part of two addresses: left alone.
    assert later_value("Where does Hattie live?", "hattiedraws.es", mail) is None
    assert later_value(question, "es", mail) is None
    two = [*mail, msg(3, "Or the old one, hola@hattiedraws.es", "2025-07-01T10:00:00Z", "Hattie")]
    assert later_value(question, "hattiedraws.es", two) is None
    assert later_value(question, "hello@hattiedraws.es", mail) is None  # the whole value: kept


def test_part_of_a_value_a_later_message_changed_gives_way_to_the_later_value():
    numbers = [msg(1, "My number is 07700 900111.", "2026-01-01T10:00:00Z"),
               msg(2, "New phone! My number is now 07700 900333.", "2026-03-01T10:00:00Z")]
    question = "What is Sam's phone number?"
    later = later_value(question, "900111", numbers)
    assert later is not None and (later.message, later.text, later.superseded) == (2, "07700 900333", True)
    # About the earlier state, the part is the earliest value that holds it.
    first = later_value(question, "900111", numbers, earlier=True)
    assert first is not None and (first.message, first.text) == (1, "07700 900111")
    # Through the whole answer path: the completed value is the answer, the reader's words in the note.
    result = SearchResult(question, "hybrid", [Hit(1, 1, "Sam", 1, "", messages=numbers)], {"total": 0.0})
    answer = answer_question(question, result, lambda: OneAnswer("900333"), prompt_style="plain")
    assert answer.answer == "07700 900333" and answer.reader_said == "900333"
    assert [c.external_id for c in answer.citations] == ["m2"]


def zh(mid, text, ts, speaker="邓凯"):
    return EvidenceMessage(mid, f"z{mid}", 7, "许悦 & 邓凯", mid, ts, speaker, "user", text)


# The unseen Chinese set: the line giving the new number names the old one too.
NUMBERS = [
    zh(1, "你手机号多少来着？给你寄点老友粉，快递要填电话", "2025-03-02T10:00:00Z", "许悦"),
    zh(2, "13925714406，谢谢老板！", "2025-03-02T10:01:00Z"),
    zh(3, "对了我手机号换了，以后打18820396617，原来那个13925714406月底就停了", "2025-06-08T10:00:00Z"),
    zh(4, "好，备注改了", "2025-06-08T10:01:00Z", "许悦"),
]


def test_a_line_bringing_in_a_new_value_beside_the_old_one_replaces_it():
    fixed = later_value("邓凯的手机号是多少？", "13925714406", NUMBERS)
    assert fixed is not None and (fixed.message, fixed.text, fixed.superseded) == (3, "18820396617", True)
    assert later_value("邓凯的手机号是多少？", "18820396617", NUMBERS) is None
    # The same in English, where the new number is not the one nearest the question's words.
    english = [msg(1, "My number is 07700 900877 if you need it.", "2025-01-05T10:00:00Z"),
               msg(2, "Phone news: 07700 900877 is dead, lost the SIM. Use 07700 900461 from now on.",
                   "2025-06-01T10:00:00Z")]
    fixed = later_value("What is Sam's phone number?", "07700 900877", english)
    assert fixed is not None and fixed.text == "07700 900461"


def test_a_line_writing_the_value_beside_one_already_written_states_it_again():
    # Both numbers were written before: the line brings in nothing new, and the value stands.
    listed = [*NUMBERS[:3], zh(5, "两个号都记着吧：13925714406 和 18820396617", "2025-07-01T10:00:00Z")]
    assert later_value("邓凯的手机号是多少？", "18820396617", listed) is None
    # With no earlier message writing the value, a line writing two new ones replaces nothing.
    first = [zh(6, "我有两个号：13925714406 和 18820396617", "2025-03-02T10:00:00Z")]
    assert later_value("邓凯的手机号是多少？", "13925714406", first) is None
