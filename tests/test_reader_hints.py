"""A question the small reader misreads is told to it with what it asks (lang/en.py, ``reader_hints``).

"Where does Thandi work now?" asks for an employer; the bundled 0.5B reader
answered a town, "Hout Bay", from "Sandpiper Marine Rescue in Hout Bay took
me on". Only the reader's prompt says "(which employer)"; the question asked,
searched and checked is the user's. The rules here, and the bundled reader
on the third unseen English set (bench/data) at the end.
"""

from __future__ import annotations

import pytest

from rawrag_tui import lang
from rawrag_tui.answer.prompts import build_prompt
from rawrag_tui.answer.reading import answer_question
from tests.conftest import THIRD_CHATS, needs_bundled_reader
from tests.test_later_reading import Answers, msg, result

THANDI = [
    msg(1, "Big news: Sandpiper Marine Rescue in Hout Bay took me on!", "2026-02-20T09:00:00", "Thandi"),
    msg(2, "Seals all day? Dream job.", "2026-02-20T09:05:00", "Morag"),
]


@pytest.mark.parametrize(("question", "told"), [
    ("Where does Thandi work now?", "Where does Thandi work now (which employer)?"),
    ("Where did Grady work before Larchfield Games?", "Where did Grady work before Larchfield Games (which employer)?"),
    ("where is Kabir working these days", "where is Kabir working these days (which employer)"),
    ("Where does Ann work out?", "Where does Ann work out?"),            # the gym, not a job
    ("Where does Ann live now?", "Where does Ann live now?"),
    ("Which company does Priya work for?", "Which company does Priya work for?"),  # says so already
    ("Wo arbeitet Anna jetzt?", "Wo arbeitet Anna jetzt?"),              # German: no hint measured
    ("陈浩现在在哪家公司工作？", "陈浩现在在哪家公司工作？"),
])
def test_only_a_where_does_someone_work_question_gets_the_hint(question, told):
    assert lang.of(question).for_reader(question) == told


def test_the_prompt_says_the_hint_and_nothing_else_of_the_question_changes():
    prompt = build_prompt("  Where does Thandi work now?  ", "[1] Thandi: I switched jobs!", "2026-02-22")
    assert prompt.endswith("Question: Where does Thandi work now (which employer)?\nShort answer:")
    plain = build_prompt("Where does Thandi live now?", "[1] Thandi: Hout Bay", "2026-02-22")
    assert "Question: Where does Thandi live now?\n" in plain
    # Off (reader.hints; "auto" is off for a reader the user brings): the question as asked.
    off = build_prompt("  Where does Thandi work now?  ", "[1] Thandi: I switched jobs!", "2026-02-22", hints=False)
    assert off.endswith("Question: Where does Thandi work now?\nShort answer:")


def test_the_answer_path_reads_with_the_hint_only_where_it_is_on():
    told = {}
    for on in (True, False):
        reader = Answers("Sandpiper Marine Rescue")
        answer_question("Where does Thandi work now?", result(*THANDI), lambda r=reader: r, date="2026-02-22",
                        prompt_style="plain", hints=on)
        told[on] = reader.prompts[0]
    assert "Question: Where does Thandi work now (which employer)?\n" in told[True]
    assert "Question: Where does Thandi work now?\n" in told[False]


@needs_bundled_reader
def test_the_bundled_reader_names_the_employer_not_the_town(open_memory):
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0, "evidence_tokens": 1024})
    mem.import_path(THIRD_CHATS, "locomo")
    thandi = mem.ask("Where does Thandi work now?", date="2026-02-22")
    assert "Sandpiper Marine Rescue" in thandi.answer, (thandi.answer, thandi.reader_said, thandi.correction)
    assert thandi.question == "Where does Thandi work now?"
    assert any("Sandpiper Marine Rescue" in c.text for c in thandi.citations)
