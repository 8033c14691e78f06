"""Conversations between the same people are one history: a ChatGPT or Claude
export keeps one thread per topic, all between the user and the assistant, and
a fact told in one thread changes in a later one. The answer checks that
compare a message with the later ones of its conversation take the later
threads of the same people too (``EvidenceViews.circle``); a chat with someone
else stays another event."""

from __future__ import annotations

from rawrag_tui.answer.checks import cancelled_plans, later_values, stated_dates
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.search.types import EvidenceMessage

#: Conversations 1 and 2 are threads between the user and the assistant; 3 is Bea's chat with the user.
CIRCLES = {1: frozenset({1, 2}), 2: frozenset({1, 2}), 3: frozenset({3})}


def msg(mid, conv, text, ts, speaker="User"):
    return EvidenceMessage(mid, f"m{mid}", conv, f"thread {conv}", mid, ts, speaker, "user", text)


def views():
    return EvidenceViews(lambda c: CIRCLES[c])


DENTIST = [
    msg(1, 1, "My dentist check-up is on 13 February, remind me to ask about whitening.", "2026-01-08T10:30:00"),
    msg(2, 1, "Noted: dentist, 13 February.", "2026-01-08T10:31:00", "ChatGPT"),
    msg(3, 2, "They've moved the dentist check-up, it's 3 March now.", "2026-01-29T18:10:00"),
]


def test_circles_join_the_threads_of_the_same_people_only():
    v = views()
    assert v.circle(DENTIST[0]) == v.circle(DENTIST[2]) == 1
    assert v.circle(msg(9, 3, "hi", "2026-01-01T00:00:00", "Bea")) == 3
    assert EvidenceViews().circle(DENTIST[2]) == 2  # without a history each conversation is its own


def test_a_later_thread_moves_the_date_an_earlier_one_planned():
    fixed = stated_dates.check("When is the user's dentist check-up?", "13 February", DENTIST, views())
    assert fixed is not None and fixed.text.startswith("3 March") and fixed.message == 3
    # The same messages with no history to say who talks where: another chat's date is another event.
    assert stated_dates.check("When is the user's dentist check-up?", "13 February", DENTIST, EvidenceViews()) is None


def test_a_later_thread_holds_the_newer_number():
    messages = [msg(1, 1, "Phone 07700 900555 goes on my CV.", "2025-01-26T20:15:00"),
                msg(2, 2, "New contract, my phone number is now 07700 900777.", "2025-08-30T10:10:00")]
    fixed = later_values.check("What is the user's phone number?", "07700 900555", messages, views())
    assert fixed is not None and fixed.text == "07700 900777"
    bea = [messages[0], msg(2, 3, "New contract, my phone number is now 07700 900777.", "2025-08-30T10:10:00",
                            "Bea")]
    assert later_values.check("What is the user's phone number?", "07700 900555", bea, views()) is None


def test_a_later_thread_calls_off_the_trip():
    messages = [msg(1, 1, "We're going to Iceland on 17 February for a week!", "2025-11-08T20:40:00"),
                msg(2, 2, "Bad news, we've cancelled Iceland.", "2026-01-20T19:55:00")]
    fixed = cancelled_plans.check("When is the user going to Iceland?", "17 February", messages, views())
    assert fixed is not None and fixed.message == 2
    assert cancelled_plans.check("When is the user going to Iceland?", "17 February", messages,
                                 EvidenceViews()) is None
