"""Plans a later message called off: a "when" answer gives way to "Cancelled", in the
question's language (answer/checks/cancelled_plans.py; the words are the language modules')."""

from __future__ import annotations

from rawrag_tui import lang
from rawrag_tui.answer.checks.cancelled_plans import check, explain
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult
from tests.test_stated_dates import OneAnswer


def msg(mid, text, ts, speaker="Amir", conversation=1):
    return EvidenceMessage(mid, f"m{mid}", conversation, f"chat {conversation}", mid, ts, speaker, "user", text)


PARTY = [
    msg(1, "Also save the date: my 40th birthday party, Saturday 15 November, bowling at Cribbs.",
        "2025-04-06T20:15:00Z"),
    msg(2, "Wouldn't miss it!", "2025-04-06T20:20:00Z", "Jess"),
    msg(3, "Some sad news, I've called off the 40th birthday party. Dad's back in hospital.",
        "2025-10-02T18:00:00Z"),
]
QUESTION = "When is Amir's 40th birthday party?"


def test_a_plan_the_latest_message_calls_off_is_answered_cancelled():
    called_off = check(QUESTION, "15 November", PARTY)
    assert called_off is not None and (called_off.message, called_off.text) == (3, "Cancelled")
    assert explain("15 November", called_off) == \
        'the reader said "15 November"; [3], the latest message on this, calls it off'


def test_a_plan_moved_not_called_off_and_questions_about_the_past_are_left_alone():
    # Cancelled, then rebooked: the new date is the plan (the stated-date check's business).
    rebooked = [*PARTY[:2], msg(3, "I cancelled the 40th birthday party at the bowling, it's now on 22 November "
                                   "at the pub.", "2025-10-02T18:00:00Z")]
    assert check(QUESTION, "15 November", rebooked) is None
    assert check("When was Amir's 40th birthday party first planned for?", "15 November", PARTY,
                 earlier=True) is None
    assert check("When did Amir plan his 40th birthday party?", "6 April 2025", PARTY) is None  # the past
    assert check(QUESTION, "It was cancelled.", PARTY) is None  # already said
    # Nothing planned before it: "cancel" is no plan called off.
    assert check(QUESTION, "15 November", PARTY[2:]) is None
    # Talk about the plan after it was called off settles nothing; a new plan does.
    talk = [*PARTY, msg(4, "Don't even think about the birthday party, we'll do something later.",
                        "2025-10-03T09:00:00Z", "Jess")]
    assert check(QUESTION, "15 November", talk).message == 3
    replanned = [*PARTY, msg(4, "Good news: the 40th birthday party is back on, Saturday 6 December.",
                             "2025-10-20T09:00:00Z")]
    assert check(QUESTION, "15 November", replanned) is None


def test_a_plan_the_evidence_left_out_as_superseded_is_still_the_plan_called_off():
    # A question about now reads the message calling the plan off instead of the plan
    # (answer/selection.py); the plan comes along unnumbered, and is never the one cited.
    called_off = check(QUESTION, "2 October 2025", PARTY[2:], replaced=PARTY[:1])
    assert called_off is not None and (called_off.message, called_off.text) == (1, "Cancelled")
    assert check(QUESTION, "15 November", PARTY[:1], replaced=PARTY[2:]) is None  # the call-off unshown


KRAKOW = [
    msg(1, "Anyway. Krakow! Are we actually doing this?", "2025-03-02T20:10:00Z", "Tamsin"),
    msg(2, "We are. Found flights for 7 November, four nights. Booked!", "2025-03-02T20:12:00Z", "Rohan"),
    msg(3, "Tidewell won't give me leave till January, so I've had to cancel Krakow.", "2025-09-14T19:00:00Z",
        "Rohan"),
    msg(4, "Are we rebooking Krakow for spring then?", "2026-02-08T16:30:00Z", "Tamsin"),
    msg(5, "Let me see what leave I get. May, maybe.", "2026-02-08T16:32:00Z", "Rohan"),
]
KRAKOW_Q = "When are Tamsin and Rohan going to Krakow?"


def test_a_day_only_floated_after_the_call_off_is_no_new_plan():
    assert check(KRAKOW_Q, "7 November", KRAKOW).message == 3
    # Said as a plan, it is one: the trip is rebooked, not cancelled.
    firm = [*KRAKOW[:4], msg(5, "Booked it again: 9 May, same hotel.", "2026-02-08T16:32:00Z", "Rohan")]
    assert check(KRAKOW_Q, "7 November", firm) is None
    # The same in German: "vielleicht" floats the day.
    gardasee = [msg(1, "Gardasee ist gebucht, Abfahrt am 2. August!", "2025-01-19T18:45:00Z", "Lena"),
                msg(2, "Ich muss den Gardasee leider absagen.", "2025-06-01T18:00:00Z", "Jonas"),
                msg(3, "Vielleicht im September, mal sehen.", "2025-06-01T18:05:00Z", "Lena")]
    assert check("Wann fahren Lena und Jonas an den Gardasee?", "2. August", gardasee).text == "Abgesagt"


def test_a_plan_out_of_view_needs_talk_of_the_subject_before_the_call_off():
    # The selection kept the question that led to the plan, not the plan: the call-off stands.
    shown = [KRAKOW[0], *KRAKOW[2:]]
    assert check(KRAKOW_Q, "2026", shown).message == 2
    # Only the call-off, nothing on the subject before it: no plan is known to be called off.
    assert check(KRAKOW_Q, "2026", KRAKOW[2:]) is None
    # A call-off naming a day of its own, with no plan in view to tell a clash from a new day: left alone.
    dated = msg(3, "I've had to cancel Krakow, let's go on 3 May instead.", "2025-09-14T19:00:00Z", "Rohan")
    assert check(KRAKOW_Q, "7 November", [KRAKOW[0], dated]) is None


def test_each_language_says_which_lines_only_float_a_day():
    for text in ("May, maybe.", "Perhaps in the spring", "Vielleicht im Mai", "也许五月吧", "五月かも"):
        assert lang.hedges(text), text
    for text in ("We go on 9 May.", "Wir fahren am 9. Mai.", "我们五月九号出发", "5月9日に行きます"):
        assert not lang.hedges(text), text


LISBON = [msg(1, "Lisbon is booked btw, 17 May out, 21 May back.", "2025-03-23T20:40:00Z", "Marcus"),
          msg(2, "Work has put me on the Heineken pitch and it lands the week of 19 May. There's no way I can "
                 "be away, so I've had to cancel Lisbon.", "2025-04-28T18:05:00Z", "Marcus")]


def test_a_day_the_plan_already_spans_is_the_clash_not_a_new_plan():
    lisbon = "When are Hannah and Marcus going to Lisbon?"
    assert check(lisbon, "19 May 2025", LISBON[1:], replaced=LISBON[:1]).text == "Cancelled"
    assert check(lisbon, "19 May 2025", LISBON).message == 2
    # A day outside what the plan spanned is a new one: moved, not called off.
    moved = msg(2, "I've had to cancel Lisbon in May, we're going on 14 June instead.", "2025-04-28T18:05:00Z",
                "Marcus")
    assert check(lisbon, "17 May 2025", [LISBON[0], moved]) is None


def test_the_reply_that_plans_the_day_is_on_the_subject_it_answers():
    lake = [msg(1, "Wollen wir im Sommer an den Gardasee? Ich hab ab Anfang August Urlaub", "2025-01-19T18:45:00Z",
                "Lena"),
            msg(2, "Ja, unbedingt! Abfahrt am 2. August, ich fahr", "2025-01-19T18:46:00Z", "Jonas"),
            msg(3, "Wegen Gardasee... ich muss leider absagen, bei Klimawerk ist im August Messe",
                "2025-07-15T22:05:00Z", "Jonas")]
    question = "Wann fahren Lena und Jonas an den Gardasee?"
    assert check(question, "2. August", lake).text == "Abgesagt"
    assert check(question, "2. August", lake[1:]) is None  # the plan alone names no lake: no plan on it


def test_english_says_it_is_off_in_more_than_one_way():
    assert lang.calls_off("Bad news. I tore something in my knee. No marathon for me this year.")
    assert lang.calls_off("No Dublin Marathon for us, sadly")
    assert not lang.calls_off("No worries, see you there") and not lang.calls_off("No rush.")
    marathon = [msg(1, "I'm training for the Dublin Marathon on 26 October.", "2025-06-14T21:05:00Z", "Sam"),
                msg(2, "Bad news. I tore something in my knee. No marathon for me this year.",
                    "2025-10-19T13:15:00Z", "Sam")]
    assert check("When is Sam running the Dublin Marathon?", "26 October 2025", marathon).text == "Cancelled"


def test_every_language_module_says_it_in_its_own_words():
    assert lang.calls_off("Wegen Gardasee... ich muss leider absagen")
    assert lang.cancelled("Wann ist die Party?") == "Abgesagt"
    assert lang.calls_off("云南这次只能取消了") and lang.cancelled("李娜哪天出发去云南？") == "取消了"
    assert lang.calls_off("今回は中止にします") and lang.cancelled("同窓会はいつですか？") == "中止"
    assert not lang.calls_off("We set off at nine, call me off-hours")
    reunion = [msg(1, "来年1月の高校の同窓会、幹事やることになったの。1月11日の土曜、場所は駅前の居酒屋",
                   "2025-10-06T20:00:00Z", "優子"),
               msg(2, "同窓会の件、ごめん！お店が改装で使えなくなって、今回は中止にします",
                   "2025-12-20T20:00:00Z", "優子")]
    assert check("高校の同窓会はいつですか？", "2026年1月11日", reunion).text == "中止"


def test_through_answer_question_the_cancellation_is_the_answer_and_can_be_turned_off():
    result = SearchResult(QUESTION, "hybrid", [Hit(1, 1, "chat 1", 1, "", messages=PARTY)], {"total": 0.0})
    answer = answer_question(QUESTION, result, lambda: OneAnswer("15 November"), prompt_style="plain")
    assert answer.answer == "Cancelled" and answer.reader_said == "15 November"
    assert [(c.how, c.external_id) for c in answer.citations] == [("stated", "m3")]
    # Without this check the stated-date check keeps the reader's date (a message states it).
    kept = answer_question(QUESTION, result, lambda: OneAnswer("15 November"), prompt_style="plain",
                           checks=("stated_dates", "later_values"))
    assert kept.answer == "15 November"
