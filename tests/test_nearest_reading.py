"""Reading again from the three messages closest to the question
(answer/nearest_reading.py): an answer that only repeated a question about
now ("Utrecht", asked which neighbourhood of Utrecht) is read again over
the evidence's three messages most about it. The step's rules with a
scripted reader double; the bundled reader on a real store at the end."""

from __future__ import annotations

import numpy as np
import pytest

from rawrag_tui.answer import nearest_reading
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.prompts import NOT_IN_HISTORY
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.settings import ANSWER_CHECKS
from tests.conftest import UNSEEN_CHATS, needs_bundled_reader
from tests.test_later_reading import Answers, ListHistory, msg, read_by, result

QUESTION = "Which neighbourhood of Utrecht does Ewan live in?"
EWAN = [
    msg(1, "How's the Dutch? I want to hear you order chips like a local.", "2025-03-16T10:00:00", "Greta"),
    msg(2, "Slowly. The exam is on 22 May, flashcards on the train every morning.", "2025-03-16T10:02:00", "Ewan"),
    msg(3, "Grey and windy here, same as ever.", "2025-03-16T10:04:00", "Greta"),
    msg(4, "We moved out to Leidsche Rijn on Saturday. An actual house, with a garden!", "2025-09-14T18:00:00",
        "Ewan"),
    msg(5, "A garden!! Snowball must be thrilled", "2025-09-14T18:02:00", "Greta"),
    msg(6, "Sanne got us season tickets for FC Utrecht, red and white scarf and everything.",
        "2026-02-08T12:00:00", "Ewan"),
]
#: The home's embedder's closeness to the question, scripted: the move, the tickets, the exam closest.
SCORES = {1: 0.20, 2: 0.30, 3: 0.05, 4: 0.45, 5: 0.10, 6: 0.35}


def scripted(messages):
    return np.array([SCORES[m.message_id] for m in messages])


def ask(question, reader, embedder=None, **options):
    """``question`` answered over Ewan's chat by ``reader``, with the real embedder's history where given."""
    history = ListHistory(embedder, EWAN) if embedder is not None else None
    return answer_question(question, result(*EWAN), lambda: reader, date="2026-03-01", prompt_style="plain",
                           history=history, **options)


def test_the_three_messages_closest_to_the_question_are_read_again_in_time_order():
    assert nearest_reading.closest(EWAN, scripted) == [EWAN[1], EWAN[3], EWAN[5]]
    reader = Answers("Leidsche Rijn")
    found = nearest_reading.read_repeated(QUESTION, "Utrecht", EWAN, EvidenceViews(), read_by(reader), scripted)
    assert found is not None and found.text == "Leidsche Rijn" and found.said_by == [EWAN[3]]
    assert found.messages == [EWAN[1], EWAN[3], EWAN[5]] and found.read == 3
    prompt = reader.prompts[0]
    assert prompt.index("flashcards") < prompt.index("Leidsche Rijn") < prompt.index("season tickets")
    assert "Snowball" not in prompt and "chips" not in prompt
    assert nearest_reading.explain("Utrecht", found, [4]) == (
        'the reader said "Utrecht", which only repeats the question; read again from the 3 messages closest '
        "to it, it answered from [4]")


@pytest.mark.parametrize("second", [
    "Amsterdam",      # no message read says it: a guess
    NOT_IN_HISTORY,   # the three do not answer
    "Utrecht",        # the question's name again
    "Greta",          # only a person of the chat
    "",
])
def test_not_in_your_history_stands_unless_one_of_the_three_supports_an_answer(second):
    assert nearest_reading.read_repeated(QUESTION, "Utrecht", EWAN, EvidenceViews(), read_by(Answers(second)),
                                         scripted) is None


def test_only_an_answer_that_repeats_the_question_is_read_again():
    reader = Answers("Leidsche Rijn")
    assert nearest_reading.read_repeated(QUESTION, "Lombok", EWAN, EvidenceViews(), read_by(reader),
                                         scripted) is None
    assert reader.prompts == []


def test_the_latest_marks_are_kept_in_what_is_read_again():
    reader = Answers("Leidsche Rijn")
    nearest_reading.read_repeated(QUESTION, "Utrecht", EWAN, EvidenceViews(), read_by(reader), scripted,
                                  latest={4})
    assert "(latest) Ewan: We moved out to Leidsche Rijn" in reader.prompts[0]


def test_the_answer_is_the_second_reading_with_the_first_in_the_note(embedder):
    reader = Answers("Utrecht", "Leidsche Rijn")
    ans = ask(QUESTION, reader, embedder)
    assert ans.answer == "Leidsche Rijn" and ans.reader_said == "Utrecht"
    assert [(c.n, c.how) for c in ans.citations] == [(4, "matched")]
    assert ans.correction.startswith('the reader said "Utrecht", which only repeats the question; read again '
                                     "from the 3 messages closest to it, it answered from [4]")
    assert len(reader.prompts) == 2 and "reread" in ans.timings and not ans.unsupported
    # The real embedder's three closest to the question hold the move.
    assert "Leidsche Rijn" in reader.prompts[1] and reader.prompts[1].count("\n[") == 3


def test_off_or_about_the_past_the_repeated_name_is_not_in_your_history(embedder):
    without = tuple(c for c in ANSWER_CHECKS if c != nearest_reading.NAME)
    reader = Answers("Utrecht", "Leidsche Rijn")
    ans = ask(QUESTION, reader, embedder, checks=without)
    assert ans.answer == NOT_IN_HISTORY and ans.reader_said == "Utrecht" and len(reader.prompts) == 1
    # A question about the past is the earlier reading's (tests/test_earlier_reading.py), or stays unknown.
    reader = Answers("Utrecht", "Leidsche Rijn")
    ans = ask("Which neighbourhood of Utrecht did Ewan live in in 2024?", reader, embedder)
    assert ans.answer == NOT_IN_HISTORY and len(reader.prompts) == 1
    # Without the history (whole windows, no embedder) nothing is compared by meaning: not read again.
    reader = Answers("Utrecht", "Leidsche Rijn")
    ans = ask(QUESTION, reader)
    assert ans.answer == NOT_IN_HISTORY and len(reader.prompts) == 1


def test_chinese_is_read_again_by_its_characters(embedder):
    chat = [
        msg(1, "最近工作好累，天天加班。", "2025-01-12T20:00:00", "李娜"),
        msg(2, "我们搬到滨江区了，离公司很近。", "2025-06-15T21:00:00", "李娜"),
        msg(3, "那边的火锅最好吃。", "2025-06-15T21:01:00", "陈浩"),
        msg(4, "养生了养生了", "2025-06-15T21:02:00", "陈浩"),
    ]
    found = nearest_reading.read_repeated("李娜现在住在杭州的哪个区？", "杭州", chat, EvidenceViews(),
                                          read_by(Answers("滨江区")), lambda ms: np.array([0.1, 0.9, 0.5, 0.4]))
    assert found is not None and found.text == "滨江区" and found.said_by == [chat[1]]
    # The question's own characters again: not taken.
    assert nearest_reading.read_repeated("李娜现在住在杭州的哪个区？", "杭州", chat, EvidenceViews(),
                                         read_by(Answers("杭州")), lambda ms: np.array([0.1, 0.9, 0.5, 0.4])) is None


@needs_bundled_reader
def test_the_bundled_reader_read_again_from_the_closest_messages_answers(open_memory):
    # The unseen changed-facts chats (bench/data): Ewan moved within Utrecht to Leidsche Rijn
    # in September 2025; Beatriz lived in Porto before she moved to Braga.
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0, "evidence_tokens": 1024})
    mem.import_path(UNSEEN_CHATS, "locomo")
    answer = mem.ask("Which neighbourhood of Utrecht does Ewan currently live in?", date="2026-05-17")
    # Over 24 messages the reader gave the city the question names, and over the three closest the
    # answer; since the latest mark is on his move's statement, not on a short reply after it
    # (answer/timeline.py), the first reading gives it.
    assert answer.answer == "Leidsche Rijn" and not answer.reader_said, (answer.answer, answer.correction)
    # The earlier reading's last try is the same reading of the three closest messages
    # (read_nearest): the messages before Braga is first named, read together, give nothing that
    # stands; their three closest to the question do.
    answer = mem.ask("Which city did Beatriz live in before she moved to Braga?", date="2026-03-15")
    assert answer.reader_said == "Braga" and answer.answer == "Porto", (answer.answer, answer.correction)
    assert "the 3 closest to the question" in answer.correction
