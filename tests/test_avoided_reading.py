"""Reading the evidence again with the question's echo and the chat's names set
aside (answer/avoided_reading.py): an answer that only repeated the question, still
"not in your history" after the other readings. The step's rules with a scripted
reader double; the bundled reader on a real store at the end."""

from __future__ import annotations

import pytest

from rawrag_tui.answer import avoided_reading
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.prompts import NOT_IN_HISTORY
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.settings import ANSWER_CHECKS
from tests.conftest import SECOND_CHATS, THIRD_CHATS, needs_bundled_reader
from tests.test_later_reading import Answers, msg, result

QUESTION = "Who is Kabir engaged to?"
KABIR = [
    msg(1, "Are you sitting down?", "2026-03-08T09:00:00", "Kabir"),
    msg(2, "I'm at the pottery wheel. Go.", "2026-03-08T09:01:00", "Ishani"),
    msg(3, "I proposed to Farah last night on the beach at Fort Kochi. She said yes!!", "2026-03-08T09:02:00",
        "Kabir"),
    msg(4, "Tell Meera from the clinic I said hi, she sent flowers.", "2026-03-08T09:05:00", "Ishani"),
    msg(5, "Last week was mad at work.", "2026-03-08T09:06:00", "Kabir"),
    msg(6, "Banyan.", "2026-03-08T09:07:00", "Kabir"),
]


def scripted(second):
    """A reading that answers ``second`` and keeps the words it was told to avoid."""
    told: list[list[str]] = []

    def read(avoid):
        told.append(list(avoid))
        return second
    return read, told


def test_the_answer_read_without_the_echo_and_the_chats_names_stands_where_their_own_line_holds_it():
    read, told = scripted("Farah")
    found = avoided_reading.read_avoiding(QUESTION, "Kabir", KABIR, EvidenceViews(), read)
    assert found is not None and found.text == "Farah" and found.sources == [3]
    # The echo first, then each speaker once.
    assert told == [["Kabir", "Ishani"]] and found.avoided == ["Kabir", "Ishani"]
    assert avoided_reading.explain("Kabir", found) == (
        'the reader said "Kabir", which only repeats the question; read again without writing "Kabir", '
        '"Ishani", it answered from [3], a line of the person asked about')


@pytest.mark.parametrize("second", [
    NOT_IN_HISTORY,     # an abstention
    "",                 # nothing
    "Kabir",            # the question again
    "Ishani",           # only a person of the chat
    "Paris",            # no line holds it: a guess
    "Meera",            # only the other person's line holds it
    "Last week",        # a date, where the question does not ask when
    "Banyan",           # the whole line copied, not part of it
])
def test_no_other_answer_stands(second):
    read, _ = scripted(second)
    assert avoided_reading.read_avoiding(QUESTION, "Kabir", KABIR, EvidenceViews(), read) is None


def test_nothing_is_read_again_for_an_answer_that_does_not_repeat_the_question_or_no_speaker_asked_about():
    read, told = scripted("Farah")
    assert avoided_reading.read_avoiding(QUESTION, "Fort Kochi", KABIR, EvidenceViews(), read) is None
    assert avoided_reading.read_avoiding("Who is Anil engaged to?", "Anil", KABIR, EvidenceViews(), read) is None
    assert told == []


def test_chinese_is_matched_by_its_characters():
    chat = [msg(1, "小周也说想跟你们打球", "2025-05-01T10:00:00", "赵敏"),
            msg(2, "好啊", "2025-05-01T10:01:00", "王磊")]
    read, told = scripted("小周")
    found = avoided_reading.read_avoiding("赵敏和阿凯在一起之前她的男朋友是谁", "阿凯", chat, EvidenceViews(), read,
                                          earlier=True)
    assert found is not None and found.sources == [1] and told == [["阿凯", "王磊", "赵敏"]]


class Avoiding(Answers):
    """The scripted reader double, one that can be told which words to avoid."""

    can_avoid = True

    def __init__(self, *answers):
        super().__init__(*answers)
        self.avoided: list[list[str]] = []

    def answer_avoiding(self, prompt, avoid, max_tokens=256):
        self.avoided.append(list(avoid))
        return self.answer(prompt, max_tokens)


def ask(reader, checks=None, question=QUESTION, evidence=KABIR):
    return answer_question(question, result(*evidence), lambda: reader, checks=checks, prompt_style="plain")


def test_the_answer_is_the_reading_without_the_echo_and_the_first_is_in_the_note():
    reader = Avoiding("Kabir", "Farah")
    answer = ask(reader)
    assert answer.answer == "Farah" and answer.reader_said == "Kabir"
    assert reader.avoided == [["Kabir", "Ishani"]] and reader.prompts[0] == reader.prompts[1]
    assert "read again without writing" in answer.correction
    assert [c.text for c in answer.citations] == [KABIR[2].text]


def test_off_or_with_a_reader_that_cannot_avoid_words_it_is_not_in_your_history():
    without = tuple(c for c in ANSWER_CHECKS if c != avoided_reading.NAME)
    off = Avoiding("Kabir", "Farah")
    assert ask(off, without).answer == NOT_IN_HISTORY and off.avoided == []
    plain = Answers("Kabir", "Farah")  # a served reader: no answer_avoiding
    answer = ask(plain)
    assert answer.answer == NOT_IN_HISTORY and len(plain.prompts) == 1


# The other person of the chat named instead (answer/chat_partner.py): the same reading, where
# a line of the person asked about on what was asked holds the new answer.
ENGAGED = "Who is Oonagh engaged to?"
OONAGH = [
    msg(1, "There's a pastry chef with a truck next to mine. Teodor. He makes cheese doughnuts.",
        "2026-01-18T10:00:00", "Oonagh"),
    msg(2, "Oonagh!! Truck romance!", "2026-01-18T10:01:00", "Yusuf"),
    msg(3, "Teodor proposed! He folded the ring into a galette. We're engaged!!", "2026-05-10T10:00:00", "Oonagh"),
    msg(4, "WHAT! Congratulations!!", "2026-05-10T10:01:00", "Yusuf"),
]


def test_a_partners_name_read_again_stands_only_from_a_line_of_theirs_on_the_subject():
    read, told = scripted("Teodor")
    found = avoided_reading.read_avoiding(ENGAGED, "Yusuf", OONAGH, EvidenceViews(), read, partner=True)
    # Line 1 names Teodor too, but says nothing of being engaged.
    assert found is not None and found.sources == [3] and told == [["Yusuf", "Oonagh"]]
    assert avoided_reading.explain("Yusuf", found, partner="Yusuf") == (
        'the reader said "Yusuf": only the name of Yusuf, who writes in the evidence; read again without '
        'writing "Yusuf", "Oonagh", it answered from [3], a line of the person asked about')
    # Not an echo of the question: without ``partner`` nothing is read.
    read, told = scripted("Teodor")
    assert avoided_reading.read_avoiding(ENGAGED, "Yusuf", OONAGH, EvidenceViews(), read) is None and told == []


def test_a_partners_name_read_again_from_lines_off_the_subject_does_not_stand():
    off_subject = [m for m in OONAGH if m.message_id != 3]
    read, _ = scripted("Teodor")
    assert avoided_reading.read_avoiding(ENGAGED, "Yusuf", off_subject, EvidenceViews(), read, partner=True) is None


def ask_oonagh(reader, checks=None, evidence=OONAGH):
    return ask(reader, checks, ENGAGED, evidence)


def test_the_answer_after_a_partners_name_is_the_reading_without_the_chats_names():
    reader = Avoiding("Yusuf", "Teodor")
    answer = ask_oonagh(reader)
    assert answer.answer == "Teodor" and answer.reader_said == "Yusuf"
    assert reader.avoided == [["Yusuf", "Oonagh"]] and reader.prompts[0] == reader.prompts[1]
    assert "only the name of Yusuf" in answer.correction and "read again without writing" in answer.correction
    assert [c.text for c in answer.citations] == [OONAGH[2].text] and not answer.unsupported
    # Nothing on the subject in their lines: "not in your history", as before the reading.
    reader = Avoiding("Yusuf", "Teodor")
    answer = ask_oonagh(reader, evidence=[m for m in OONAGH if m.message_id != 3])
    assert answer.answer == NOT_IN_HISTORY and reader.avoided == [["Yusuf", "Oonagh"]]
    # Off, or with a reader that cannot be told: "not in your history", read once.
    without = tuple(c for c in ANSWER_CHECKS if c != avoided_reading.NAME)
    off = Avoiding("Yusuf", "Teodor")
    assert ask_oonagh(off, without).answer == NOT_IN_HISTORY and off.avoided == []
    plain = Answers("Yusuf", "Teodor")
    assert ask_oonagh(plain).answer == NOT_IN_HISTORY and len(plain.prompts) == 1


@needs_bundled_reader
@pytest.mark.parametrize(("chats", "question", "asked_on", "first", "note", "right", "writer"), [
    # The third unseen English set (bench/data): the bundled reader first answers "Kabir",
    # the question's name; with "Kabir" and "Ishani" not to be written, "Farah".
    (THIRD_CHATS, QUESTION, "2026-03-08", "Kabir", "which only repeats the question", "Farah", "Kabir"),
    # The second unseen set: first Yusuf, whom Oonagh writes to; with the chat's names
    # not to be written, "Teodor".
    (SECOND_CHATS, ENGAGED, "2026-05-10", "Yusuf", "only the name of Yusuf", "Teodor", "Oonagh"),
])
def test_the_bundled_reader_names_whom_they_are_engaged_to(open_memory, chats, question, asked_on, first, note,
                                                           right, writer):
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0, "evidence_tokens": 1024})
    mem.import_path(chats, "locomo")
    answer = mem.ask(question, date=asked_on)
    assert answer.answer == right, (answer.answer, answer.reader_said, answer.correction)
    # What the reader said before the names were hidden, as the correction quotes it: its first
    # words, or its reading again of them ("Oonagh", read again: "Oonagh engaged to Yusuf.").
    said = answer.correction.split('":', 1)[0]
    assert first in said and note in answer.correction, answer.correction
    assert "read again without writing" in answer.correction
    assert answer.citations and all(right in c.text and c.speaker == writer for c in answer.citations)
