"""An answer that only repeats the question's names or characters becomes
"Not in your history." (answer/checks/repeats_question.py)."""

from __future__ import annotations

import pytest

from rawrag_tui.answer.checks.repeats_question import repeats_question
from rawrag_tui.answer.prompts import NOT_IN_HISTORY
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult
from tests.test_stated_dates import OneAnswer


@pytest.mark.parametrize(("question", "said", "repeats"), [
    # The bundled reader's answers on the changed-facts sets and LoCoMo (docs/answers.md).
    ("Wie heißt Mehmets Hund?", "Mehmet", True),
    ("Wie heißt Lenas Bruder?", "Lenas Bruder", True),
    ("What is Caroline's identity?", "Caroline", True),
    ("Where did Sam work before Corrib Labs?", "Corrib Labs", True),
    ("陈浩养的狗叫什么名字？", "陈浩养的狗叫陈浩。", True),
    ("健太が飼っている猫の名前は何ですか？", "猫", True),
    ("赵敏和阿凯在一起之前，她的男朋友是谁？", "阿凯", True),
    ("翔太は仙台に引っ越す前、どこに住んでいましたか？", "仙台の住んでいました。", True),  # but for its "の"
    # Answers: a word of the question that is not a name, a new name, a value, nothing.
    ("Would Melanie be more interested in going to a national park or a theme park?", "National park", False),
    ("Where did Sam work before Corrib Labs?", "Aer Lingus", False),
    ("Which city does Ines live in now?", "Braga", False),
    ("赵敏和阿凯在一起之前，她的男朋友是谁？", "小周", False),
    ("健太のメールアドレスは何ですか？", "kenta.n@docomo.ne.jp", False),
    ("翔太は仙台に引っ越す前、どこに住んでいましたか？", "横浜に住んでいました。", False),
    ("翔太の今の彼女は誰ですか？", "ほのか", False),  # all hiragana: a name, compared as it is
    ("Is Tiago still dating Sofia?", "No, they split up.", False),
    ("How many kids does Melanie have?", "3", False),
    ("What is Caroline's identity?", "", False),
])
def test_an_answer_of_the_question_s_own_names_or_characters_repeats_it(question, said, repeats):
    assert repeats_question(question, said) is repeats


@pytest.mark.parametrize(("question", "said", "repeats"), [
    # Asked about an earlier state, any word of the question is the later state it names
    # (the bundled reader's answers on bench/data/changed-facts-fresh.json and -de.json).
    ("Which hobby did Hattie do before pottery?", "pottery", True),
    ("Wo hat Anna gearbeitet, bevor sie zur Bahn ging?", "Anna gearbeitet vor sie zur Bahn ging.", True),
    ("Which hobby did Hattie do before pottery?", "salsa", False),
    ("Wo hat Anna gearbeitet, bevor sie zur Bahn ging?", "Bei Siemens", False),
])
def test_asked_about_an_earlier_state_any_word_of_the_question_repeats_it(question, said, repeats):
    assert repeats_question(question, said, earlier=True) is repeats
    assert not repeats_question(question, said)  # not names: left alone where the question asks about now


DOG = [EvidenceMessage(1, "m1", 1, "Mehmet & Anna", 1, "2025-03-01T10:00:00", "Mehmet", "user",
                       "Ich bin jetzt in Leipzig, direkt am Kanal"),
       EvidenceMessage(2, "m2", 1, "Mehmet & Anna", 2, "2025-03-01T10:01:00", "Anna", "user",
                       "Wie schön! Schick mir Fotos von der Wohnung")]


def test_the_answer_is_not_in_your_history_with_the_readers_words_in_the_note():
    question = "Wie heißt Mehmets Hund?"
    result = SearchResult(question, "hybrid", [Hit(1, 1, "Mehmet & Anna", 1, "", messages=DOG)], {"total": 0.0})
    answer = answer_question(question, result, lambda: OneAnswer("Mehmet"), prompt_style="plain")
    assert answer.answer == NOT_IN_HISTORY and answer.reader_said == "Mehmet" and not answer.citations
    assert answer.correction == 'the reader said "Mehmet", which only repeats the question'
    off = answer_question(question, result, lambda: OneAnswer("Mehmet"), prompt_style="plain",
                          checks=("stated_dates", "later_values"))
    assert off.answer == "Mehmet" and off.correction == ""


class ByPrompt(OneAnswer):
    """Answers the later state while the prompt's evidence holds it, else the earlier one; records each prompt."""

    def __init__(self, later, earlier):
        super().__init__(later)
        self.later, self.earlier, self.prompts = later, earlier, []

    def answer(self, prompt, max_tokens=256, on_progress=None):
        self.prompts.append(prompt)
        yield self.later if self.later in prompt.split("Question:")[0] else self.earlier


AMIR = [EvidenceMessage(i, f"m{i}", 1, "Amir & Jess", i, ts, who, "user", text) for i, ts, who, text in [
    (1, "2024-02-01T10:00:00", "Amir", "I love living in Bristol, the flat has the best light"),
    (2, "2024-02-01T10:01:00", "Jess", "Stokes Croft still suits you"),
    (3, "2025-01-10T10:00:00", "Amir", "Big news: I got the job, we're moving to Glasgow in March"),
    (4, "2025-04-02T10:00:00", "Amir", "Glasgow flat is unpacked at last"),
]]


def test_the_later_state_a_question_about_an_earlier_one_names_is_not_in_your_history_read_once():
    # A second reading without the messages that say "Glasgow" was built and
    # measured (docs/answers.md): it found the earlier state in none of the
    # changed-facts sets' cases, so the reader reads once.
    question = "Where did Amir live before he moved to Glasgow?"
    result = SearchResult(question, "hybrid", [Hit(1, 1, "Amir & Jess", 1, "", messages=AMIR)], {"total": 0.0})
    reader = ByPrompt("Glasgow", "Bristol")
    answer = answer_question(question, result, lambda: reader, prompt_style="plain")
    assert answer.answer == NOT_IN_HISTORY and answer.reader_said == "Glasgow" and len(reader.prompts) == 1
    assert answer.correction == 'the reader said "Glasgow", which only repeats the question'


HATTIE = [EvidenceMessage(i, f"m{i}", 1, "Hattie & Kofi", i, ts, who, "user", text) for i, ts, who, text in [
    (1, "2025-05-11T21:15:00", "Hattie", "Also I've started salsa on Thursdays, I'm terrible and I love it."),
    (2, "2025-12-14T10:30:00", "Hattie", "I don't do salsa any more. Thursdays are pottery now."),
]]


def test_asked_about_an_earlier_state_a_lowercase_word_of_the_question_is_not_in_your_history():
    # "pottery" is no name, yet the question names it as the later state: the
    # check is told the question asks about an earlier one (answer/reading.py).
    question = "Which hobby did Hattie do before pottery?"
    result = SearchResult(question, "hybrid", [Hit(1, 1, "Hattie & Kofi", 1, "", messages=HATTIE)],
                          {"total": 0.0})
    answer = answer_question(question, result, lambda: OneAnswer("pottery"), prompt_style="plain")
    assert answer.answer == NOT_IN_HISTORY and answer.reader_said == "pottery"
    now = answer_question("Which hobby does Hattie do now, pottery or salsa?", result,
                          lambda: OneAnswer("pottery"), prompt_style="plain")
    assert now.answer == "pottery"  # about now, a word of the question may be the answer
