"""The stated-dates pass: a "when" answer no message states gives way to the
date the latest message on the subject states (answer/checks/stated_dates.py)."""

from __future__ import annotations

from rawrag_tui.answer.checks.stated_dates import asks_when, explain, is_stated, latest_stated_date
from rawrag_tui.answer.checks.stated_dates import check as second_pass
from rawrag_tui.answer.dates import dates_in, planned_dates
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult


def msg(mid, text, ts, speaker="Priya"):
    return EvidenceMessage(mid, f"m{mid}", 1, "Climbing crew", mid, ts, speaker, "user", text)


# The demo's climbing chat: planned for 12 April, moved to 3 May, reported on 4 May.
TRIP = [
    msg(1, "Proposal: bouldering trip to Fontainebleau on Saturday 12 April. Leo has the van.", "2026-02-20T12:00:00Z"),
    msg(2, "Forecast for Fontainebleau is rain all weekend. Shall we move the trip to Saturday 3 May?",
        "2026-04-08T07:30:00Z", "Sam"),
    msg(3, "3 May works, and my finger should be fine by then.", "2026-04-08T07:41:00Z"),
    msg(4, "What a trip. Finger held up fine. I finally sent the Marie-Rose!", "2026-05-04T21:10:00Z"),
]
QUESTION = "When did the Fontainebleau climbing trip happen?"


def test_dates_are_read_in_every_common_form_with_the_year_of_the_message():
    sent = "2026-04-08T07:30:00Z"
    assert dates_in("move it to Saturday 3 May?", sent) == ["3 May 2026"]
    assert dates_in("on the 3rd of May, or May 10th, 2027", sent) == ["3 May 2026", "10 May 2027"]
    assert dates_in("booked for 2026-05-03", sent) == ["3 May 2026"]
    assert dates_in("back on 5 January", "2026-12-20T10:00:00Z") == ["5 January 2027"]  # the nearer one
    assert dates_in("I went yesterday", "2023-05-08T13:56:00Z") == ["7 May 2023"]
    assert dates_in("we went camping last week", "2023-06-09T10:00:00Z") == ["the week before 9 June 2023"]
    assert dates_in("no date here, just 3 dogs", sent) == []
    # Two dates close together are both read; only an annotation's own date is taken whole.
    assert dates_in("Lisbon is booked, 17 May out, 21 May back", sent) == ["17 May 2026", "21 May 2026"]
    assert dates_in("yesterday, or 9 April", sent) == ["7 April 2026", "9 April 2026"]


def test_a_day_and_month_without_a_year_is_a_plan_unless_the_one_gone_by_is_much_nearer():
    # Written in May: this December's venue, not last December's (the nearer by five days).
    assert dates_in("We've got a venue! Trevenna Barns, 20 December.", "2025-05-25T13:30:00Z") == \
        ["20 December 2025"]
    assert dates_in("Ja, unbedingt! Abfahrt am 2. August, ich fahr", "2025-01-19T18:45:00Z") == ["2. August 2025"]
    # Just gone: a memory.
    assert dates_in("we met on 3 May", "2025-06-08T10:00:00Z") == ["3 May 2025"]
    assert dates_in("back on 5 January", "2025-12-20T10:00:00Z") == ["5 January 2026"]


def test_a_weekday_the_coming_year_agrees_with_names_that_year_in_every_language():
    sent = "2025-04-06T20:15:00Z"  # 15 November 2024 is a Friday, 15 November 2025 a Saturday
    assert dates_in("save the date: my 40th, Saturday 15 November, bowling", sent) == ["15 November 2025"]
    # Without a weekday: the coming one, where the one gone by is not less than half as far.
    assert dates_in("save the date: my 40th, 15 November, bowling", sent) == ["15 November 2025"]
    assert dates_in("Die Party ist am Samstag, den 15. November", sent) == ["15. November 2025"]
    assert dates_in("我的生日派对定在11月15日（星期六）", sent) == ["2025年11月15日"]
    assert dates_in("誕生日会は11月15日(土)です", sent) == ["2025年11月15日"]
    assert dates_in("3月21日日本に帰ります", sent) == ["2025年3月21日"]  # 日本 names no Sunday
    # A weekday only a past year agrees with is the writer's slip: the nearest date stays
    # ("Saturday 3 May", sent in April 2026, is 2026's Sunday, not 2025's Saturday).
    assert dates_in("move it to Saturday 3 May?", "2026-04-08T07:30:00Z") == ["3 May 2026"]


def test_only_when_questions_are_touched():
    assert asks_when(QUESTION) and asks_when("What date is the party?") and asks_when("On what day did it rain?")
    assert not asks_when("Where does Jordan live now?") and not asks_when("What is the dog called?")


def test_a_stated_answer_is_kept_and_an_unstated_date_gives_way_to_the_latest_statement():
    assert is_stated("3 May 2026", TRIP) and not is_stated("4 May 2026", TRIP)
    assert second_pass(QUESTION, "Saturday 3 May", TRIP) is None
    stated = second_pass(QUESTION, "4 May 2026", TRIP)
    assert stated is not None and (stated.message, stated.text) == (2, "3 May 2026")
    # The first plan alone, without the move: its date is the one stated.
    assert latest_stated_date(QUESTION, TRIP[:1]).text == "12 April 2026"
    # A message off the subject states no date for it ("3 May works" shares no subject word).
    assert latest_stated_date(QUESTION, [TRIP[2], TRIP[3]]) is None


def test_a_year_alone_gives_way_to_the_day_a_message_on_the_subject_states_in_it():
    # "Wann war Lenas Einweihungsparty?" was answered "2025", and "What date was Morag's cataract
    # operation first booked for?" "2025": the messages state the day.
    for said in ("2026", "(2026)", " 2026. "):
        fixed = second_pass(QUESTION, said, TRIP)
        assert fixed is not None and (fixed.message, fixed.text) == (2, "3 May 2026"), said
    assert explain("2026", second_pass(QUESTION, "2026", TRIP)) == (
        'the reader said "2026", a year alone; [2], the latest message on this that states a date, says 3 May 2026')
    first = second_pass("When was the Fontainebleau trip first planned?", "2026", TRIP, earlier=True)
    assert first is not None and (first.message, first.text) == (1, "12 April 2026")
    # A day of another year is another event ("2022", asked when Melanie painted a sunrise): kept.
    assert second_pass(QUESTION, "2025", TRIP) is None
    # A month, or any word beside the year, is more than a year: judged as any date.
    assert second_pass(QUESTION, "May 2026", TRIP) is None and second_pass(QUESTION, "2026年", TRIP) is None
    # Not a "when" question: a year may be the answer ("What year did she start?" is no date to find).
    assert second_pass("Which year is on the trip's poster?", "2026", TRIP) is None


def test_a_date_is_stated_by_its_day_not_by_digits_another_language_shares():
    # "6 June 2025" holds every digit of "6月3日" sent in 2025 (6, 2025); it is not that day.
    visa = [msg(1, "去了，6月3日面完了，签证也过了，不过展会轮不到我了", "2025-06-15T22:15:00Z", "陈浩")]
    assert not is_stated("6 June 2025", visa)
    assert all(is_stated(said, visa) for said in ("3 June 2025", "6月3日", "2025年6月3日", "June 3rd"))
    fixed = second_pass("陈浩的签证面试是哪天？", "6 June 2025", visa)
    assert fixed is not None and (fixed.message, fixed.text) == (1, "2025年6月3日")
    # A relative week names the day it counts from: both days are stated, a third is not.
    went = [msg(2, "I went to the support group last week", "2023-06-09T10:00:00Z")]
    assert is_stated("The week before 9 June 2023", went) and is_stated("9 June 2023", went)
    assert not is_stated("8 June 2023", went)
    # A message stating no date is judged by its digits, as before.
    assert is_stated("15 May", [msg(3, "Room 15, floor 5", "2025-05-01T10:00:00Z")])


def test_a_date_only_an_earlier_message_on_the_subject_states_gives_way_to_the_latest():
    # The first plan's date, stated by [1], moved by [2]: the reader took the superseded plan.
    moved = second_pass(QUESTION, "Saturday 12 April", TRIP)
    assert moved is not None and (moved.message, moved.text, moved.superseded) == (2, "3 May 2026", True)
    assert "what an earlier message said; [2]" in explain("Saturday 12 April", moved)
    # The latest message's own date, and a date only a message off the subject states, are kept.
    assert second_pass(QUESTION, "3 May", TRIP) is None
    off = msg(5, "My sister's birthday is on 20 April.", "2026-04-10T10:00:00Z", "Leo")
    assert second_pass(QUESTION, "20 April", [*TRIP, off]) is None
    # A later date on the subject in another chat is another event, not a newer plan.
    other_chat = EvidenceMessage(9, "m9", 2, "Leo & Sam", 1, "2026-04-20T10:00:00Z", "Leo", "user",
                                 "Our own climbing trip to Fontainebleau is on 14 June.")
    assert second_pass(QUESTION, "Saturday 3 May", [*TRIP, other_chat]) is None
    assert second_pass(QUESTION, "Saturday 12 April", [*TRIP, other_chat]).text == "3 May 2026"
    # Without a later statement on the subject the stated date stands.
    assert second_pass(QUESTION, "Saturday 12 April", TRIP[:1]) is None
    # A question about an earlier state still wants the earliest (the rule above).
    assert second_pass("When was the Fontainebleau climbing trip first planned for?", "Saturday 12 April",
                       TRIP, earlier=True) is None


TEST = [
    msg(1, "I've finally booked my driving test! 12 May, ten in the morning.", "2025-01-19T19:40:00Z", "Tamsin"),
    msg(2, "The test centre emailed. Examiner shortage, so I've been pushed back to 30 June.",
        "2025-03-02T20:05:00Z", "Tamsin"),
    msg(3, "You will not believe this. The examiner's off sick and the centre's given me another slot: 8 August.",
        "2025-06-15T18:00:00Z", "Tamsin"),
    msg(4, "Van's booked for the 12th of July. Keziah is lending me her dad.", "2025-06-15T18:10:00Z", "Tamsin"),
]


def test_a_plan_moved_again_in_words_of_its_own_is_on_the_subject():
    # [3] names neither the test nor driving, but the examiner and the centre of [2]: the latest plan.
    moved = second_pass("When did Tamsin take her driving test?", "30 June", TEST)
    assert moved is not None and (moved.message, moved.text) == (3, "8 August 2025")
    # The van shares one word with a plan on the subject ("booked"): another event. So does a line
    # sharing "booked" and the "ve" of "I've".
    assert second_pass("When did Tamsin take her driving test?", "30 June", [*TEST[:2], TEST[3]]) is None
    van = msg(4, "I've booked the van for 12 July.", "2025-06-15T18:10:00Z", "Tamsin")
    assert second_pass("When did Tamsin take her driving test?", "30 June", [*TEST[:2], van]) is None
    # The same in Chinese: 诊所 and 周五 carry the dentist's appointment to 下周二.
    dentist = [msg(1, "牙医诊所刚打电话来，说医生出差，预约改到这周五下午了", "2025-03-17T20:30:00Z", "张伟"),
               msg(2, "周五又没看成，诊所停电了😂 重新约到了下周二", "2025-03-24T22:05:00Z", "张伟")]
    moved = second_pass("张伟的牙医预约是哪天？", "2025年3月21日", dentist)
    assert moved is not None and moved.message == 2 and "4月1日" in moved.text


def test_a_date_told_as_past_is_one_time_something_happened_not_a_plan_to_move():
    # LoCoMo's support group: gone to "yesterday", gone to again "last week", weeks later.
    went = [msg(1, "I went to a LGBTQ support group yesterday and it was so powerful.", "2023-05-08T13:56:00Z",
                "Caroline"),
            msg(2, "Last week I went to the support group again.", "2023-07-03T10:00:00Z", "Caroline")]
    question = "When did Caroline go to the LGBTQ support group?"
    assert second_pass(question, "7 May 2023", went) is None
    # The same words as a plan, moved later: the later date wins.
    planned = [msg(1, "The support group meets next on 12 May.", "2023-05-08T13:56:00Z", "Caroline"),
               msg(2, "The support group moved to 19 May.", "2023-05-10T10:00:00Z", "Caroline")]
    assert second_pass("When does the support group meet?", "12 May", planned).text == "19 May 2023"


def test_plans_are_the_stated_dates_after_the_day_a_message_was_sent_in_every_language():
    assert planned_dates("Provisionally 3 December.", "2025-06-14T10:00:00Z") == ["3 December 2025"]
    assert planned_dates("I went yesterday, and last year too.", "2023-05-08T10:00:00Z") == []
    assert planned_dates("See you next week, next month.", "2023-05-08T10:00:00Z") == \
        ["the week after 8 May 2023", "June 2023"]
    assert planned_dates("2月14日出発でニセコね", "2025-01-10T10:00:00Z") == ["2025年2月14日"]
    assert planned_dates("去年2月14日我们去了哈尔滨", "2025-03-10T10:00:00Z") == []
    assert planned_dates("Die Party ist am Samstag, den 15. November", "2025-04-06T10:00:00Z") == \
        ["15. November 2025"]
    assert planned_dates("booked for 2026-05-03, paid on 2026-04-01", "2026-04-08T10:00:00Z") == ["3 May 2026"]
    assert planned_dates("no date", None) == []


def test_non_when_questions_and_abstentions_keep_the_readers_words():
    assert second_pass("Where did the trip go?", "4 May 2026", TRIP) is None
    assert second_pass(QUESTION, "", TRIP) is None


class OneAnswer:
    context_tokens = 4096

    def __init__(self, text):
        self.text = text

    def count_tokens(self, text):
        return len(text.split())

    def answer(self, prompt, max_tokens=256, on_progress=None):
        yield self.text


def test_the_answer_names_the_replaced_words_and_cites_the_stating_message():
    hit = Hit(1, 1, "Climbing crew", 1, "", messages=TRIP)
    result = SearchResult(QUESTION, "hybrid", [hit], {"total": 0.0})
    answer = answer_question(QUESTION, result, lambda: OneAnswer("4 May 2026"), prompt_style="plain")
    assert answer.answer == "3 May 2026" and answer.reader_said == "4 May 2026"
    assert [(c.how, c.external_id) for c in answer.citations] == [("stated", "m2")]
    assert not answer.unsupported and answer.to_json()["reader_said"] == "4 May 2026"
    kept = answer_question(QUESTION, result, lambda: OneAnswer("3 May"), prompt_style="plain")
    assert kept.answer == "3 May" and kept.reader_said == ""


def test_a_question_naming_an_earlier_state_gets_the_earliest_stated_date():
    first = "When was the Fontainebleau climbing trip first planned for?"
    # The reader took the latest plan: the earliest statement instead, cited.
    stated = second_pass(first, "3 May 2026", TRIP, earlier=True)
    assert stated is not None and (stated.message, stated.text, stated.earlier) == (1, "12 April 2026", True)
    # An unstated date: the earliest too, not the latest.
    assert second_pass(first, "4 May 2026", TRIP, earlier=True).text == "12 April 2026"
    assert second_pass(first, "Saturday 12 April", TRIP, earlier=True) is None  # the earlier date: kept
    # The simple past alone ("When did ... happen?") is no earlier state: the latest wins as before.
    assert second_pass(QUESTION, "4 May 2026", TRIP).text == "3 May 2026"


def defence(mid, text, ts, speaker="Yusuf"):
    return EvidenceMessage(mid, f"d{mid}", 3, "Oonagh & Yusuf", mid, ts, speaker, "user", text)


# The second unseen set's PhD defence: set, moved, moved again.
DEFENCE = [
    defence(1, "Nearly there! The defence is set for 3 June. I'm terrified.", "2025-03-23T10:00:00Z"),
    defence(2, "Small disaster: my supervisor's having hip surgery, so the defence is postponed to 16 September.",
            "2025-05-11T10:00:00Z"),
    defence(3, "Defence news. The examiner can't do September, so the committee found a slot: 12 January.",
            "2025-08-24T10:00:00Z"),
]


def test_asked_for_the_first_date_of_all_a_middle_date_gives_way_too():
    first = "What date was Yusuf's PhD defence first set for?"
    stated = second_pass(first, "16 September", DEFENCE, earlier=True)
    assert stated is not None and (stated.message, stated.text) == (1, "3 June 2025")
    assert second_pass(first, "12 January", DEFENCE, earlier=True).text == "3 June 2025"
    assert second_pass(first, "3 June", DEFENCE, earlier=True) is None
    # "Before" it moved to 12 January: the middle date may be the answer, and stays.
    assert second_pass("What date was Yusuf's PhD defence set for before January?", "16 September", DEFENCE,
                       earlier=True) is None
    # A date no later message on the subject states may be the first plan in other words: kept.
    plan = defence(0, "Booked the viva for 9 May, wish me luck", "2025-02-01T10:00:00Z")
    assert second_pass(first, "9 May", [plan, *DEFENCE], earlier=True) is None
    # In Japanese, 最初 asks for the first too.
    japanese = [defence(1, "面接は6月4日に決まった", "2025-05-01T10:00:00Z", "山本"),
                defence(2, "面接、6月9日に変更になった", "2025-05-20T10:00:00Z", "山本"),
                defence(3, "面接また延期で6月18日だって", "2025-06-05T10:00:00Z", "山本")]
    assert second_pass("山本さんの面接は最初いつの予定でしたか？", "6月9日", japanese,
                       earlier=True).text == "2025年6月4日"


def test_the_question_s_words_decide_earlier_through_answer_question():
    first = "When was the Fontainebleau climbing trip first planned for?"
    result = SearchResult(first, "hybrid", [Hit(1, 1, "Climbing crew", 1, "", messages=TRIP)], {"total": 0.0})
    fixed = answer_question(first, result, lambda: OneAnswer("3 May 2026"), prompt_style="plain")
    assert fixed.answer == "12 April 2026" and fixed.reader_said == "3 May 2026"
    assert "the earliest, says 12 April 2026" in fixed.correction
    plain = SearchResult(QUESTION, "hybrid", result.hits, {"total": 0.0})
    kept = answer_question(QUESTION, plain, lambda: OneAnswer("3 May 2026"), prompt_style="plain")
    assert kept.answer == "3 May 2026" and kept.correction == ""


def knee(mid, text, ts, speaker="Beatriz"):
    return EvidenceMessage(mid, f"k{mid}", 2, "Beatriz & Callum", mid, ts, speaker, "user", text)


# The unseen English set's knee operation: booked, moved twice, done, and a run long after it.
KNEE = [
    knee(1, "Big news here: they've finally given me a date for the knee op. 14 March!", "2025-02-02T20:20:00Z"),
    knee(2, "How's the knee? Is it still the 2nd of May?", "2025-04-27T21:10:00Z", "Callum"),
    knee(3, "Nope. New letter from the hospital this week: 19 June, 8am, nothing to eat from midnight.",
         "2025-04-27T21:12:00Z"),
    knee(4, "Wait, you did it?! How's the knee with all the boxes?", "2025-07-06T18:28:00Z", "Callum"),
    knee(5, "My sister carried everything. The op went fine on the 19th, I'm down to one crutch.",
         "2025-07-06T18:30:00Z"),
    knee(6, "How's the knee these days?", "2026-03-15T19:38:00Z", "Callum"),
    knee(7, "Ran 5k yesterday for the first time since the op. Slowly. Very slowly.", "2026-03-15T19:40:00Z"),
]


def test_once_a_planned_day_came_a_later_date_on_the_subject_is_another_event():
    question = "When was Beatriz's knee operation?"
    came = second_pass(question, "2025", KNEE)
    # [3] plans the day, [5] says it came (the same date again), and [7]'s run is another event.
    assert came is not None and (came.message, came.text, came.happened) == (3, "19 June 2025", True)
    assert explain("2025", came) == ('the reader said "2025", a year alone; [3], the latest '
                                     "message on this that states a date, up to the one saying the day came, "
                                     "says 19 June 2025")
    # Without the message saying it went ahead, the latest date stated on the subject stands.
    latest = latest_stated_date(question, [m for m in KNEE if m.message_id != 5])
    assert latest is not None and (latest.text, latest.happened) == ("14 March 2026", False)
    # ... and a year alone, "2025", is not a day of 2026's: it stays.
    assert second_pass(question, "2025", [m for m in KNEE if m.message_id != 5]) is None


def test_a_first_plans_day_another_event_happens_on_later_is_no_answer():
    # The run was "yesterday (14 March 2026)": the day of the first plan, a year on. The reader's
    # "14 March" is the superseded plan, not the latest statement up to the day the op came.
    question = "When was Beatriz's knee operation?"
    came = second_pass(question, "14 March", KNEE)
    assert came is not None and (came.message, came.text, came.happened) == (3, "19 June 2025", True)
    assert second_pass(question, "19 June", KNEE) is None


def test_a_planned_day_asked_about_then_moved_again_did_not_come():
    # "2 June was last week, right?" states the planned day as past, but the next line plans another.
    test = [msg(1, "The DVSA cancelled my test. They've rebooked me for 2 June.", "2025-04-20T19:45:00Z"),
            msg(2, "And the test? 2 June was last week, right?", "2025-06-08T15:10:00Z", "Daniel"),
            msg(3, "Don't ask. They moved the test AGAIN, it's now 23 June.", "2025-06-08T15:12:00Z")]
    moved = second_pass("When did Priya take her driving test?", "2 June", test)
    assert moved is not None and (moved.text, moved.happened) == ("23 June 2025", False)


def test_a_chat_whose_dates_all_follow_the_line_saying_the_day_came_keeps_them():
    # Y's "it was on 19 June" restates X's date, so only the same-date reading sees it; Y's only
    # dated statement is later. Cutting Y there would give X's date, another chat's event.
    def at(mid, conversation, seq, text, ts):
        return EvidenceMessage(mid, f"e{mid}", conversation, f"chat {conversation}", seq, ts, "Ana", "user", text)

    messages = [at(1, 2, 1, "Booked it for 19 June.", "2025-04-01T10:00:00Z"),
                at(2, 1, 1, "The party is on 19 June!", "2025-04-02T10:00:00Z"),
                at(3, 2, 2, "How was the party?", "2025-06-20T10:00:00Z"),
                at(4, 2, 3, "Great, it was on 19 June and we danced.", "2025-06-20T10:05:00Z"),
                at(5, 2, 4, "Any more parties since?", "2025-08-01T09:55:00Z"),
                at(6, 2, 5, "One yesterday, even better.", "2025-08-01T10:00:00Z")]
    found = latest_stated_date("When was the party?", messages)
    assert found is not None and (found.message, found.text, found.happened) == (6, "31 July 2025", False)
