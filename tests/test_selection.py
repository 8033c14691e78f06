"""What the reader is given: relative dates resolved, message-level selection
within a budget, and both versions of a changed fact in time order, the latest marked.
The last test runs the real pipeline (demo history, real embedder, real store)
with a reader that records its prompt."""

from __future__ import annotations

import pytest

from rawrag_tui.answer import selection
from rawrag_tui.answer.citations import CitationFilter
from rawrag_tui.answer.dates import annotate, dates_in
from rawrag_tui.answer.evidence import EvidenceViews, MessageView
from rawrag_tui.answer.prompts import LATEST_MARK
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.answer.selection import _changes_of_named, select_evidence
from rawrag_tui.demo import demo_path
from rawrag_tui.search.types import EvidenceMessage, Hit
from tests.conftest import ENGLISH_CHATS, UNSEEN_CHATS


def words(text: str) -> int:
    return len(text.split())


def msg(mid, seq, text, ts, speaker="Maya", conv=1):
    return EvidenceMessage(mid, f"m{mid}", conv, f"chat {conv}", seq, ts, speaker, "user", text)


def hit(rank, *messages):
    return Hit(rank, messages[0].conversation_id, messages[0].conversation, rank, "", messages=list(messages))


# -- relative dates ------------------------------------------------------------------


def test_relative_times_gain_the_date_they_meant_from_the_message_date():
    assert annotate("I went to a support group yesterday.", "2023-05-08T13:56:00") == \
        "I went to a support group yesterday (7 May 2023)."
    assert annotate("Last year I painted a sunrise", "2023-05-08T13:56:00") == "Last year (2022) I painted a sunrise"
    assert annotate("ran a race last Sunday", "2023-05-25T10:00:00Z") == "ran a race last Sunday (21 May 2023)"
    assert annotate("a talk last week", "2023-06-09T10:00:00") == "a talk last week (the week before 9 June 2023)"
    assert annotate("two weeks ago and 3 days ago", "2023-06-09T10:00:00") == \
        "two weeks ago (the week of 26 May 2023) and 3 days ago (6 June 2023)"
    assert annotate("next month, see you tomorrow", "2023-12-31T10:00:00") == \
        "next month (January 2024), see you tomorrow (1 January 2024)"
    assert annotate("yesterday", None) == "yesterday"  # no date, nothing to resolve


def test_a_day_of_the_month_named_alone_is_the_next_such_day():
    sent = "2025-10-19T18:00:00Z"
    assert annotate("Wedding's in three weeks, are you still good for the 8th?", sent) == \
        "Wedding's in three weeks, are you still good for the 8th (8 November 2025)?"
    assert annotate("see you on the 19th!", sent) == "see you on the 19th (19 October 2025)!"
    assert annotate("the 30th", "2025-01-30T10:00:00Z") == "the 30th (30 January 2025)"
    assert annotate("the 31st", "2025-03-01T10:00:00Z") == "the 31st (31 March 2025)"
    # February has neither: the next such day is two months on, as likely meant as the last: left alone.
    assert annotate("the 31st", "2025-02-05T10:00:00Z") == "the 31st"
    assert annotate("the 30th", "2025-01-31T10:00:00Z") == "the 30th"  # yesterday, or 30 March
    assert annotate("see you on the 1st", "2025-01-31T10:00:00Z") == "see you on the 1st (1 February 2025)"
    # A month, a noun after it, or no such day: not a day of the coming month.
    for text in ("on the 8th of May", "the 3rd time", "the 5th floor", "I've called off the 40th."):
        assert annotate(text, sent) == text
    # The stated-date check reads it like any stated date.
    assert dates_in("Are you still good for the 8th?", sent) == ["8 November 2025"]
    # Told in the past tense, it is the last such day (the unseen set's knee operation, sent 6 July).
    assert annotate("I supervised from the sofa. The op went fine on the 19th, I'm down to one crutch.",
                    "2025-07-06T10:00:00Z") == ("I supervised from the sofa. The op went fine on the 19th "
                                                "(19 June 2025), I'm down to one crutch.")
    assert annotate("It was on the 6th", "2025-07-06T10:00:00Z") == "It was on the 6th (6 July 2025)"
    # Only the verbs of its own sentence count; a plan made in the past is still a plan. "Till the
    # 29th" sent 2 February (a dry January's end) would be 29 March: more than a month ahead, left alone.
    assert annotate("Till the 29th. Wales were playing", "2025-02-02T10:00:00Z") == \
        "Till the 29th. Wales were playing"
    assert annotate("Till the 29th. Wales were playing", "2025-03-02T10:00:00Z") == \
        "Till the 29th (29 March 2025). Wales were playing"
    assert annotate("They've moved it to the 2nd.", "2025-04-27T10:00:00Z") == \
        "They've moved it to the 2nd (2 May 2025)."
    assert annotate("It was moved to the 2nd, it went well", "2025-04-27T10:00:00Z") == \
        "It was moved to the 2nd (2 May 2025), it went well"


def test_the_reader_sees_the_annotation_and_the_store_keeps_the_raw_text():
    m = msg(1, 1, "I lost my job yesterday.", "2023-01-20T10:00:00")
    assert MessageView(m).body == "I lost my job yesterday (19 January 2023)."
    assert m.text == "I lost my job yesterday."


def test_a_year_in_brackets_is_not_taken_for_a_citation():
    f = CitationFilter(valid=5)
    assert f.feed("Painted in [2022], see [3] and [12].") + f.flush() == "Painted in [2022], see [3] and."
    assert f.cited == [3] and f.dropped == 1


# -- selection ---------------------------------------------------------------------------


CHAT = [
    msg(1, 1, "Maya and Tom set the wedding date: Saturday 20 September at the lake house!", "2026-01-18T17:00:00",
        "Mum"),
    msg(2, 2, "Save the date. Dress code is garden party.", "2026-01-18T17:08:00"),
    msg(3, 3, "Dinner at Da Enzo on 12 April, can you bring the cake?", "2026-03-29T11:20:00", "Dad"),
    msg(4, 4, "Lemon cake it is.", "2026-03-29T11:31:00", "Sam"),
    msg(5, 5, "Change of plans: the lake house flooded. The wedding moves to Sunday 11 October.",
        "2026-06-07T09:12:00"),
    msg(6, 6, "The mill is lovely. 11 October it is.", "2026-06-07T09:20:00", "Mum"),
    msg(7, 7, "Photos of the cake are in the album.", "2026-06-08T10:00:00", "Dad"),
]


def test_both_versions_of_a_changed_fact_are_shown_in_time_order():
    packed = select_evidence([hit(1, *CHAT[:4]), hit(2, *CHAT[4:])], "When is Maya's wedding?", 500, words)
    ids = [m.message_id for m in packed.messages]
    assert ids.index(1) < ids.index(5)  # the old date first, the change after it: nothing is dropped
    assert packed.cut_messages == len(CHAT) - len(ids) > 0  # the cake talk is not evidence
    assert 3 not in ids


def test_speaker_names_and_possessives_do_not_make_anchors():
    # "Maya" is a speaker and "'s" is no word: only "wedding" anchors
    packed = select_evidence([hit(1, *CHAT)], "When is Maya's wedding?", 500, words)
    assert {m.message_id for m in packed.messages} <= {1, 2, 4, 5, 6, 7}
    assert 3 not in {m.message_id for m in packed.messages}


@pytest.mark.parametrize("question, on_subject, only_now", [
    ("Who is Delphine's partner currently?", "Ansel is my partner now, it's official.",
     "I'm currently buried in tax forms."),
    ("李娜现在住在哪个城市？", "我搬到杭州了，这个城市真美。", "我现在在开会，晚点聊。"),
    ("美咲は今どこに住んでいますか？", "福岡に住んでいます。", "今どうしてる？"),
])
def test_a_word_asking_whether_a_state_goes_on_makes_no_anchor(question, on_subject, only_now):
    # "currently", 现在 and 今 name no subject: a line that shares only them with the question
    # is no anchor (asked where 李娜 lives now, her "现在每天早上泡一杯龙井", about her tea, came
    # with its two neighbours), and no subject of the checks either (EvidenceViews.subject).
    chat = [msg(1, 1, on_subject, "2026-01-05T10:00:00", speaker="Delphine"),
            msg(2, 1, only_now, "2026-01-06T10:00:00", speaker="Grady", conv=2)]
    views = EvidenceViews()
    subject = views.subject(question, chat)
    assert subject and not subject & views(chat[1]).stems
    assert subject & views(chat[0]).stems
    packed = select_evidence([hit(1, chat[1]), hit(2, chat[0])], question, 500, words)
    assert [m.message_id for m in packed.messages] == [1]


def test_the_budget_keeps_the_best_ranked_anchors_and_counts_the_rest():
    other = [msg(10 + i, i, f"The wedding cake tasting number {i}.", f"2026-02-0{i}T10:00:00", conv=2)
             for i in range(1, 8)]
    hits = [hit(1, *CHAT[4:6]), hit(2, *other)]
    small = select_evidence(hits, "When is the wedding?", 40, words)
    assert 5 in {m.message_id for m in small.messages}  # the top window's anchor survives
    assert small.tokens <= 40 and small.cut_messages > 0
    assert len(select_evidence(hits, "When is the wedding?", 1000, words).messages) > len(small.messages)


def test_no_shared_word_falls_back_to_whole_windows():
    packed = select_evidence([hit(1, *CHAT[:2])], "Anything new?", 500, words)
    assert [m.message_id for m in packed.messages] == [1, 2] and not packed.latest


# -- the real pipeline ---------------------------------------------------------------------


class RecordingReader:
    name, context_tokens = "recording", 8000

    def __init__(self):
        self.prompts: list[str] = []

    def count_tokens(self, text):
        return len(text.split())

    def answer(self, prompt, max_tokens=256, on_progress=None):
        self.prompts.append(prompt)
        yield "Sunday 11 October"


def test_the_demo_wedding_question_reads_the_moved_date_marked_latest_and_not_the_old_one(open_memory):
    mem = open_memory()
    mem.import_path(demo_path(), "jsonl")
    reader = RecordingReader()
    result = mem.search("When is Maya's wedding?")
    options = mem.answer_options()
    answer = answer_question("When is Maya's wedding?", result, lambda: reader, date="2026-12-01",
                             prompt_style="plain", evidence_tokens=options["evidence_tokens"],
                             history=options["history"])
    prompt = reader.prompts[0]
    moved = next(line for line in prompt.splitlines() if "The wedding moves to Sunday 11 October" in line)
    assert LATEST_MARK in moved and "Saturday 20 September" not in prompt
    assert answer.superseded == 1 and answer.cut_messages > 0 and not answer.reader_said
    # Every version, in time order, when the superseded ones are kept.
    answer_question("When is Maya's wedding?", result, lambda: reader, date="2026-12-01", prompt_style="plain",
                    evidence_tokens=options["evidence_tokens"], history=options["history"], drop_superseded=False)
    prompt = reader.prompts[1]
    old = next(line for line in prompt.splitlines() if "Saturday 20 September at the lake house" in line)
    assert LATEST_MARK not in old and prompt.index(old) < prompt.index("The wedding moves to Sunday 11 October")
    assert prompt.index("When messages disagree, the later one is right") < prompt.index("Messages:")
    assert prompt.rstrip().endswith("Question: When is Maya's wedding?\nShort answer:")


def test_a_source_must_hold_the_numbers_the_answer_states():
    from rawrag_tui.answer.checks.support import match_sources

    trip = [msg(1, 1, "Shall we move the trip to Saturday 3 May?", "2026-04-08T07:30:00", "Sam"),
            msg(2, 2, "3 May works for me.", "2026-04-08T07:41:00", "Priya"),
            msg(3, 3, "What a trip. Finger held up fine.", "2026-05-04T21:10:00", "Priya")]
    question = "When did the climbing trip happen?"
    assert match_sources("4 May 2026", question, trip) == []  # "3 May" does not support "4 May"
    assert match_sources("Saturday 3 May", question, trip) == [1, 2]


class OneAnswerReader(RecordingReader):
    def __init__(self, text):
        super().__init__()
        self.text = text

    def answer(self, prompt, max_tokens=256, on_progress=None):
        self.prompts.append(prompt)
        yield self.text


def test_an_answer_no_message_supports_is_flagged_not_sourced():
    from rawrag_tui.search.types import SearchResult

    result = SearchResult("q", "hybrid", [hit(1, *CHAT[4:6])], {"total": 0.0})
    guess = answer_question("How many guests are coming to the wedding?", result, lambda: OneAnswerReader("120"),
                            prompt_style="plain")
    assert guess.unsupported and guess.citations == [] and guess.to_json()["unsupported"] is True
    right = answer_question("When is the wedding?", result, lambda: OneAnswerReader("Sunday 11 October"),
                            prompt_style="plain")
    assert not right.unsupported and [c.n for c in right.citations] and not right.reader_said


def test_the_people_a_question_names_come_first_when_the_budget_is_short():
    # Hannah's chat ranks first on "live"; the question is about Amir, who writes in another chat.
    hannah = msg(1, 1, "I love living in Chorlton, the park is right there", "2025-01-01T10:00:00", "Hannah", conv=1)
    marcus = msg(2, 2, "Chorlton suits you", "2025-01-01T10:01:00", "Marcus", conv=1)
    amir = msg(3, 1, "Living in Glasgow now, the flat is unpacked", "2025-04-02T10:00:00", "Amir", conv=2)
    jess = msg(4, 2, "Glasgow! Send pictures", "2025-04-02T10:05:00", "Jess", conv=2)
    hits = [hit(1, hannah, marcus), hit(2, amir, jess)]
    budget = 24  # words: one chat's messages and header, not both
    packed = select_evidence(hits, "Where does Amir live?", budget, words)
    assert [m.message_id for m in packed.messages][:1] == [3] and 1 not in {m.message_id for m in packed.messages}
    # Nobody named: the search's order stands.
    packed = select_evidence(hits, "Who lives in a flat?", budget, words)
    assert packed.messages[0].message_id == 1


def test_a_person_talked_about_but_not_writing_keeps_the_chats_that_name_them():
    # Zoe writes nowhere; Marcus's chat names her. Priya and Daniel's chat ranks
    # first on "wedding" and is about another wedding (the bundled reader answered "2027").
    daniel = msg(1, 1, "Thinking spring next year (2027), Sofia wants a beach wedding", "2026-02-15T10:00:00",
                 "Daniel", conv=1)
    priya = msg(2, 2, "A beach wedding, obviously", "2026-02-15T10:01:00", "Priya", conv=1)
    marcus = msg(3, 1, "Zoe's wedding is on 8 November now", "2025-10-19T10:00:00", "Marcus", conv=2)
    hannah = msg(4, 2, "Yes! Dress bought for the wedding", "2025-10-19T10:05:00", "Hannah", conv=2)
    hits = [hit(1, daniel, priya), hit(2, marcus, hannah)]
    packed = select_evidence(hits, "When is Zoe's wedding?", 200, words)
    assert {m.conversation_id for m in packed.messages} == {2}
    # Typed without a capital, the name is the chats' way of writing it.
    packed = select_evidence(hits, "when is zoe's wedding?", 200, words)
    assert {m.conversation_id for m in packed.messages} == {2}
    # A capitalised word no chat says (here a month) leaves every chat in.
    packed = select_evidence(hits, "When is the wedding in June?", 200, words)
    assert {m.conversation_id for m in packed.messages} == {1, 2}


# -- the asked person's own changes -------------------------------------------------------

HATTIE = [
    msg(1, 1, "How's work? Still marking essays at the academy?", "2025-05-11T10:00:00", "Kofi"),
    msg(2, 2, "Work is exams week, forty teenagers writing about their holidays.", "2025-05-11T10:01:00", "Hattie"),
    msg(3, 3, "The lab works me hard too, I'm there till nine most nights.", "2025-05-11T10:02:00", "Kofi"),
    msg(4, 4, "Do you still work weekends?", "2025-05-11T10:03:00", "Kofi"),
    msg(5, 5, "Only when the work piles up. Which is always.", "2025-05-11T10:04:00", "Hattie"),
    msg(6, 6, "Ferrara! The train to work takes half an hour.", "2025-10-19T10:00:00", "Kofi"),
    msg(7, 7, "What about you? Still at Turia?", "2025-10-19T10:01:00", "Kofi"),
    msg(8, 8, "Nope! Left in September. I'm a background artist at Nube Animation now, I paint skies.",
        "2025-10-19T10:02:00", "Hattie"),
    msg(9, 9, "My pottery is going badly, the bowl looks like a hat.", "2026-03-01T10:00:00", "Hattie"),
    msg(10, 10, "Work people came to the launch!", "2026-03-01T10:01:00", "Kofi"),
    msg(11, 11, "I've switched to night rides, Hattie told me to.", "2026-03-01T10:02:00", "Kofi"),
]
HATTIE_Q = "Where does Hattie work now?"


def test_the_asked_persons_own_lines_saying_a_state_of_theirs_changed_are_read_about_now(embedder):
    from tests.test_later_reading import ListHistory

    history, views = ListHistory(embedder, HATTIE), EvidenceViews()
    assert [m.message_id for m in _changes_of_named(HATTIE_Q, HATTIE_Q, HATTIE, views, history)] == [8]
    # Asked of the present without "now" too ("Where does Greta work?"); not about the past,
    # not where no one is named, not without a history.
    assert [m.message_id for m in _changes_of_named("Where does Hattie work?", "", HATTIE, views, history)] == [8]
    assert _changes_of_named("Where did Hattie work before Nube Animation?", "", HATTIE, views, history) == []
    assert _changes_of_named("Where does the lab work now?", "", HATTIE, views, history) == []
    assert _changes_of_named(HATTIE_Q, HATTIE_Q, HATTIE, views, None) == []


def test_the_change_line_is_read_besides_the_anchors_within_the_budget(embedder, monkeypatch):
    # Line 8 shares no word with the question and is far from it in meaning: without the
    # budget held back for it, the "work" lines fill the evidence and it is left out.
    # Asked without "now", it takes only what the anchors leave: here nothing.
    from tests.test_later_reading import ListHistory

    history, budgets = ListHistory(embedder, HATTIE), range(40, 200, 4)

    def ids(question, budget):
        packed = select_evidence([hit(1, *HATTIE)], question, budget, words, history=history)
        assert packed.tokens <= budget, (question, budget)
        return [m.message_id for m in packed.messages]

    about_now = {b: ids(HATTIE_Q, b) for b in budgets}
    plain = {b: ids("Where does Hattie work?", b) for b in budgets}
    monkeypatch.setattr(selection, "CHANGE_LINES", 0)
    anchors_only = {b: ids("Where does Hattie work?", b) for b in budgets}
    assert plain == anchors_only
    assert any(8 in about_now[b] and 8 not in plain[b] for b in budgets)


def test_a_question_of_the_present_without_now_reads_the_change_line_where_the_anchors_leave_room(
        open_memory, monkeypatch):
    # "Where does Greta work?" shares no word with her "First week at Granite Wind done!":
    # its anchors were a few lines about the Netherlands and her commute ("out there",
    # the bundled reader's answer). The line comes in the budget they left, and they stay.
    mem = open_memory()
    mem.import_path(UNSEEN_CHATS, "locomo")
    question, history = "Where does Greta work?", mem.answer_options()["history"]

    def lines():
        packed = select_evidence(mem.search(question).hits, question, 400, words, history=history)
        assert packed.tokens <= 400
        return [line.split("] ", 1)[-1] for line in packed.text.splitlines() if line.startswith("[")]

    read = lines()
    monkeypatch.setattr(selection, "CHANGE_LINES", 0)
    alone = lines()
    assert not any("Granite Wind done" in line for line in alone)
    assert [line for line in read if "Granite Wind done" not in line] == alone
    assert any("First week at Granite Wind done" in line for line in read)


def test_a_first_week_in_a_role_somewhere_is_a_change_line(open_memory):
    # "First week as deputy head at Riverside Primary done!" shares no word with "Where does
    # Jess work?", and its anchors (Amir's Glasgow job, Jess's summer) held no workplace of
    # hers: the bundled reader said "Glasgow", which was Amir's. The English module reads a
    # first week *as someone* at a place as a new state, as it read "First week at ...".
    mem = open_memory()
    mem.import_path(ENGLISH_CHATS, "locomo")
    question = "Where does Jess work?"
    packed = select_evidence(mem.search(question).hits, question, 400, words,
                             history=mem.answer_options()["history"])
    assert any("deputy head at Riverside Primary done" in m.text for m in packed.messages)
